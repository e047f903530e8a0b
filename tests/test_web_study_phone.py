"""The study's server for a participant on a phone (issue: a participant on a slow phone): a clue
refused when it is given names its rule, so that the page says the refusal in the reader's
language (as the live check's does); an answer sent again after its reply was lost is refused as
not the item asked now and changes nothing, and a resume then tells the page where to go on."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from huescues.web import StudyConfig, create_app


def _start(client: TestClient, kind: str) -> dict[str, Any]:
    r = client.post("/study/api/start", json={"consent": True, "kind": kind})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_clue_refused_when_given_names_its_rule(tmp_path: Path) -> None:
    db = tmp_path / "give.sqlite"
    app = create_app(db, study=StudyConfig(language="es", targets_per_person=1))
    with TestClient(app) as client:
        session = _start(client, "give")
        body = {"participant": session["participant"], "item": session["item"]["index"]}
        r = client.post("/study/api/give", json={**body, "clue": "rojo"})
        assert r.status_code == 400
        assert r.json()["rule"] == "R19"
        assert "rojo" in r.json()["error"]
        # A refusal of no rule (an empty clue) has none.
        r = client.post("/study/api/give", json={**body, "clue": "  "})
        assert r.status_code == 400 and "rule" not in r.json()
        # The live check and the submit agree.
        check = client.post("/study/api/check", json={"text": "rojo"}).json()
        assert check["rule"] == "R19"


def test_an_answer_sent_again_after_a_lost_reply_is_stored_once(tmp_path: Path) -> None:
    db = tmp_path / "again.sqlite"
    app = create_app(db, study=StudyConfig(clues=("sky", "moss"), clues_per_person=2))
    with TestClient(app) as client:
        session = _start(client, "guess")
        answer = {"participant": session["participant"], "item": 0, "square": "F12", "ms": 900}
        assert client.post("/study/api/answer", json=answer).status_code == 200
        # The reply was lost: the page sends the same answer again.
        again = client.post("/study/api/answer", json=answer)
        assert again.status_code == 409
        resumed = client.post("/study/api/resume", json={"participant": session["participant"]})
        assert resumed.json()["item"]["index"] == 1
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT item, square FROM responses").fetchall() == [(0, "F12")]
