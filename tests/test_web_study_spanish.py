"""Issue 22 item 4: a study in Spanish. Its built-in clue list is Spanish (the English list's
translations, in the same order), a given clue is checked by the Spanish rules (R19), and the
exports carry each clue's language in ``clue_language`` (an older database reads ``en``), so
that huescues.research compares readings of the same clue in two languages."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from huescues.cli import main
from huescues.engine import BASIC_COLOUR_TERMS, Board, IllegalClue, language_pack, validate_clue
from huescues.research import GivenClues, HumanResponses
from huescues.web import (
    DEFAULT_CLUES,
    GIVEN_CLUE_COLUMNS,
    RESPONSE_COLUMNS,
    SPANISH_CLUES,
    StudyConfig,
    create_app,
    export_given_clues,
)
from old_databases import old_study_database


def _post(client: TestClient, path: str, **body: Any) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code in (200, 201), r.text
    data: dict[str, Any] = r.json()
    return data


def _answer_all(client: TestClient, session: dict[str, Any], square: str = "F12") -> list[str]:
    item, p, asked = session["item"], session["participant"], []
    while item is not None:
        asked.append(item["clue"])
        item = _post(client, "/study/api/answer", participant=p, item=item["index"],
                     square=square).get("item")  # fmt: skip
    return asked


def test_the_spanish_clue_list_translates_the_english_one_and_passes_spanish_r19() -> None:
    assert len(SPANISH_CLUES) == len(DEFAULT_CLUES) == len(set(SPANISH_CLUES))
    basic = set(language_pack("es").basic_colour_terms)
    english_basic = set(BASIC_COLOUR_TERMS)
    for en, es in zip(DEFAULT_CLUES, SPANISH_CLUES, strict=True):
        # A colour term stands for a colour term, and a thing for a thing.
        assert (en in english_basic) == (es in basic), (en, es)
        if es not in basic:
            validate_clue(es, language="es")


def test_a_spanish_study_asks_spanish_clues_and_exports_clue_language_es(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.sqlite"
    with TestClient(create_app(db, study=StudyConfig(language="es", clues_per_person=3))) as c:
        assert c.get("/study/api/info").json()["language"] == "es"
        session = _post(c, "/study/api/start", consent=True, language="español")
        asked = _answer_all(c, session)
    assert len(asked) == 3 and set(asked) <= set(SPANISH_CLUES)
    out = tmp_path / "r.csv"
    assert main(["responses", "export", "--db", str(db), "--out", str(out)]) == 0
    with out.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert tuple(reader.fieldnames or ()) == RESPONSE_COLUMNS
        assert RESPONSE_COLUMNS[-2:] == ("clue_language", "status")  # status last (issue 32)
        assert {(r["clue_language"], r["language"]) for r in reader} == {("es", "español")}
    loaded = HumanResponses.from_csv(out, Board.standard(), strict=True)
    spanish = [r for r in loaded.rows if r.extra["clue_language"] == "es"]
    assert [r.clue for r in spanish] == asked


def test_a_spanish_giving_study_refuses_rojizo_with_r19_and_exports_es(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    study = StudyConfig(language="es", targets_per_person=1)
    with TestClient(create_app(db, study=study)) as c:
        check = _post(c, "/study/api/check", text="rojizo")
        assert not check["ok"] and check["rule"] == "R19"
        assert _post(c, "/study/api/check", text="reddish")["ok"]
        session = _post(c, "/study/api/start", consent=True, kind="give")
        p, item = session["participant"], session["item"]
        r = c.post("/study/api/give", json={"participant": p, "item": item["index"],
                                            "clue": "rojizo"})  # fmt: skip
        assert r.status_code == 400 and "R19" in r.json()["error"]
        _post(c, "/study/api/give", participant=p, item=item["index"], clue="tomate")
    out = tmp_path / "g.csv"
    assert export_given_clues(db, out) == 1
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = csv.DictReader(f)
    assert GIVEN_CLUE_COLUMNS[-2:] == ("clue_language", "status")  # status last (issue 32)
    assert row["clue"] == "tomate" and row["clue_language"] == "es"
    (given,) = GivenClues.from_csv(out, Board.standard(), strict=True).rows
    assert given.clue == "tomate"


def test_an_english_study_still_refuses_reddish_and_exports_en(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite"
    with TestClient(create_app(db, study=StudyConfig(clues_per_person=1))) as c:
        assert _post(c, "/study/api/check", text="reddish")["rule"] == "R19"
        _answer_all(c, _post(c, "/study/api/start", consent=True))
    out = tmp_path / "e.csv"
    main(["responses", "export", "--db", str(db), "--out", str(out)])
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = csv.DictReader(f)
    assert row["clue"] in DEFAULT_CLUES and row["clue_language"] == "en"


def test_an_older_database_reads_clue_language_en(tmp_path: Path) -> None:
    db = old_study_database(tmp_path / "old.sqlite", language="Dutch")
    out = tmp_path / "r.csv"
    assert main(["responses", "export", "--db", str(db), "--out", str(out)]) == 0
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = csv.DictReader(f)
    assert row["clue_language"] == "en" and row["language"] == "Dutch"


def test_bad_study_languages_are_refused_and_serve_passes_the_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match="'fr'"):
        StudyConfig(language="fr")
    with pytest.raises(ValueError, match="English clues"):
        StudyConfig(language="es", giver="default")
    import huescues.web

    seen: dict[str, Any] = {}
    monkeypatch.setattr(huescues.web, "serve", lambda *a, **k: seen.update(k))
    assert main(["serve", "--language", "es"]) == 0
    assert seen["study"].language == "es"
    assert main(["serve", "--study-language", "es"]) == 0
    assert seen["study"].language == "es" and seen["tables"].language == "en"
    assert main(["serve", "--language", "es", "--study-language", "en"]) == 0
    assert seen["study"].language == "en"


def test_validate_clue_refuses_rojizo_in_spanish() -> None:
    with pytest.raises(IllegalClue):
        validate_clue("rojizo", language="es")
