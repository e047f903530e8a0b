"""What online studies expect (issue 21, items 6-7) at the server: the clue-giving study at
/study/give (the game's first-clue rules, R9 and R18-R20), the panel's ids, practice items,
attention checks and their rule, colour-vision plates, the screen, the completion and
screen-out redirects, the exports and the upgrade of an older database."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient

from huescues.engine import Board, Cell
from huescues.research import GivenClues, HumanResponses
from huescues.web import (
    GIVEN_CLUE_COLUMNS,
    RESPONSE_COLUMNS,
    StudyConfig,
    create_app,
    export_given_clues,
    export_participants,
    export_responses,
)
from huescues.web._study_items import interleave, redirect_to
from old_databases import old_study_database

BOARD = Board.standard()
PROLIFIC = {"PROLIFIC_PID": "5f0c" * 6, "STUDY_ID": "study-1", "SESSION_ID": "s-9"}
SCREEN = {"width": 390, "height": 844, "pixel_ratio": 3, "colour_depth": 24}


def client_for(db: Path, **config: Any) -> TestClient:
    return TestClient(create_app(db, study=StudyConfig(**config)))


def start(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/study/api/start", json={"consent": True, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def post(client: TestClient, url: str, **body: Any) -> dict[str, Any]:
    r = client.post(url, json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def near(square: str) -> str:
    """A square next to ``square`` (inside its frame, R5)."""
    c = BOARD.cell(square)
    return str(Cell(c.row, c.col + 1 if c.col + 1 < BOARD.cols else c.col - 1))


def far(square: str) -> str:
    """A square at least 5 squares from ``square``."""
    c = BOARD.cell(square)
    return str(Cell((c.row + 8) % BOARD.rows, (c.col + 15) % BOARD.cols))


def run(client: TestClient, session: dict[str, Any], *, miss: bool = False) -> dict[str, Any]:
    """Answer every item of a session: guesses on A1, plates right, attention checks hit (or
    missed with ``miss``), clues "banana"; the last answer."""
    p, item = session["participant"], session["item"]
    while True:
        kind = item["kind"]
        if kind == "colour":
            odd = next(i for i, s in enumerate(item["swatches"]) if item["swatches"].count(s) == 1)
            body = post(client, "/study/api/answer", participant=p, item=item["index"], choice=odd)
        elif kind == "attention":
            square = far(item["square"]) if miss else near(item["square"])
            body = post(
                client, "/study/api/answer", participant=p, item=item["index"], square=square
            )
        elif kind in ("give", "give-practice"):
            body = post(client, "/study/api/give", participant=p, item=item["index"], clue="banana")
        else:
            body = post(client, "/study/api/answer", participant=p, item=item["index"], square="A1")
        if body["done"]:
            return body
        item = body["item"]


def test_a_guessing_study_stores_the_panel_and_ends_at_the_completion_url(tmp_path: Path) -> None:
    """R15 is not at stake here: the panel's ids, the screen, the practice (not exported), the
    attention checks (passed within one square, R5's frame) and the plates are kept per
    participant and exported as its columns; the end sends the participant to the completion
    URL with ?cc=CODE."""
    db = tmp_path / "s.sqlite"
    with client_for(
        db,
        clues=("banana", "lagoon", "tomato"),
        clues_per_person=3,
        practice=1,
        attention_checks=2,
        colour_plates=2,
        completion_url="https://app.prolific.com/submissions/complete?x=1",
        completion_code="C0DE42",
    ) as client:
        session = start(client, ids=PROLIFIC, screen=SCREEN)
        assert session["item"]["kind"] == "colour"
        end = run(client, session)
        plan = sqlite3.connect(db).execute("SELECT plan FROM participants").fetchone()[0]
        kinds = [e[3] if len(e) > 3 else "clue" for e in json.loads(plan)]
    # Plates, then the practice, then the clues with the checks spread among them, never first.
    assert kinds == [
        "colour",
        "colour",
        "practice",
        "clue",
        "attention",
        "clue",
        "attention",
        "clue",
    ]
    assert end["done"] is True and end["completion_code"] == "C0DE42"
    query = parse_qs(urlsplit(end["redirect"]).query)
    assert query == {"x": ["1"], "cc": ["C0DE42"]}
    out = tmp_path / "r.csv"
    assert export_responses(db, out) == 3  # the practice and the checks are no responses
    with out.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == RESPONSE_COLUMNS
    row = rows[0]
    assert (row["prolific_pid"], row["study_id"], row["session_id"]) == (
        "5f0c" * 6,
        "study-1",
        "s-9",
    )
    assert row["participant_id"] == ""
    assert (row["screen_width"], row["pixel_ratio"], row["colour_depth"]) == ("390", "3.0", "24")
    assert (row["attention_checks"], row["attention_missed"], row["attention_passed"]) == (
        "2",
        "0",
        "yes",
    )
    assert (row["colour_plates"], row["colour_correct"]) == ("2", "2")
    loaded = HumanResponses.from_csv(out, BOARD, strict=True)
    assert sorted(r.clue for r in loaded.rows) == ["banana", "lagoon", "tomato"]


def test_each_participant_is_judged_by_the_attention_rule_they_took_part_under(
    tmp_path: Path,
) -> None:
    """The server restarted with a stricter rule: Ann, who missed her one check when one miss
    was allowed, stays completed and passed in the exports; Bob, who started under the old rule
    and answers after the restart, goes on under it; Cy, who starts after it, is screened out
    for the same one miss."""
    db = tmp_path / "s.sqlite"
    common: dict[str, Any] = {"clues": ("banana", "lagoon"), "clues_per_person": 2,
                              "attention_checks": 1}  # fmt: skip
    with client_for(db, attention_misses_allowed=1, **common) as client:
        ann = start(client)
        assert "screened_out" not in run(client, ann, miss=True)
        bob = start(client)
    with client_for(db, attention_misses_allowed=0, **common) as client:
        assert "screened_out" not in run(client, bob, miss=True)
        cy = start(client)
        assert run(client, cy, miss=True).get("screened_out") is True
    out = tmp_path / "p.csv"
    export_participants(db, out)
    with out.open(newline="", encoding="utf-8") as f:
        rows = {r["participant"]: r for r in csv.DictReader(f)}
    got = {
        name: (rows[s["participant"]]["status"], rows[s["participant"]]["attention_passed"])
        for name, s in (("ann", ann), ("bob", bob), ("cy", cy))
    }
    assert got == {
        "ann": ("completed", "yes"),
        "bob": ("completed", "yes"),
        "cy": ("screened_out", "no"),
    }


def test_missing_more_attention_checks_than_allowed_screens_out(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    with client_for(
        db,
        clues=("banana", "lagoon"),
        clues_per_person=2,
        attention_checks=2,
        attention_misses_allowed=1,
        screen_out_url="https://example.org/out",
        completion_url="https://example.org/done",
    ) as client:
        session = start(client)
        end = run(client, session, miss=True)
        assert end == {
            "answered": 3,
            "total": 4,
            "done": True,
            "screened_out": True,
            "redirect": "https://example.org/out",
        }
        # The session is over: no more answers, and a reload says so.
        r = client.post(
            "/study/api/answer",
            json={"participant": session["participant"], "item": 3, "square": "A1"},
        )
        assert r.status_code == 409
        again = post(client, "/study/api/resume", participant=session["participant"])
        assert again["screened_out"] is True and "completion_code" not in again
    out = tmp_path / "r.csv"
    export_responses(db, out)
    with out.open(newline="", encoding="utf-8") as f:
        assert {r["attention_passed"] for r in csv.DictReader(f)} == {"no"}


def test_the_completion_code_is_drawn_once_per_study_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    codes = []
    for _ in range(2):
        with client_for(
            db, clues=("sky",), clues_per_person=1, completion_url="http://127.0.0.1/x"
        ) as client:
            codes.append(run(client, start(client))["completion_code"])
    assert codes[0] == codes[1] and len(codes[0]) == 8


@pytest.mark.parametrize(
    "ids",
    [
        {"PROLIFIC_PID": ""},
        {"PROLIFIC_PID": "a b"},
        {"PROLIFIC_PID": "x" * 65},
        {"PROLIFIC_PID": "\u00e9t\u00e9"},
        {"PROLIFIC_PID": 5},
        {"WORKER_ID": "abc"},
        ["abc"],
    ],
)
def test_bad_panel_ids_are_refused_and_nothing_is_stored(tmp_path: Path, ids: object) -> None:
    db = tmp_path / "s.sqlite"
    with client_for(db) as client:
        r = client.post("/study/api/start", json={"consent": True, "ids": ids})
        assert r.status_code == 400, r.text
    assert sqlite3.connect(db).execute("SELECT count(*) FROM participants").fetchone()[0] == 0


@pytest.mark.parametrize(
    "screen",
    [
        {"width": 390},
        {**SCREEN, "width": -1},
        {**SCREEN, "pixel_ratio": "2"},
        {**SCREEN, "colour_depth": 1e9},
        {**SCREEN, "width": True},
    ],
)
def test_a_bad_screen_report_is_refused(tmp_path: Path, screen: object) -> None:
    with client_for(tmp_path / "s.sqlite") as client:
        r = client.post("/study/api/start", json={"consent": True, "screen": screen})
        assert r.status_code == 400, r.text


def test_the_giving_study_checks_clues_by_the_games_first_clue_rules(tmp_path: Path) -> None:
    """R9: one word; R18-R20 as the game checks them; a refused clue stores nothing."""
    db = tmp_path / "s.sqlite"
    with client_for(db, targets_per_person=3, practice=1) as client:
        assert post(client, "/study/api/check", text="banana")["ok"] is True
        two = post(client, "/study/api/check", text="ripe banana")
        assert two["ok"] is False and two["rule"] == "R18" and "(R18, R9)" in two["message"]
        red = post(client, "/study/api/check", text="red")
        assert red["rule"] == "R19" and not red["ok"]
        session = start(client, kind="give")
        item = session["item"]
        assert item["kind"] == "give-practice" and item["colour"].startswith("#")
        p = session["participant"]
        r = client.post(
            "/study/api/give", json={"participant": p, "item": 0, "clue": "ripe banana"}
        )
        assert r.status_code == 400 and "R9" in r.json()["error"]
        # A click is not a clue.
        r = client.post("/study/api/answer", json={"participant": p, "item": 0, "square": "A1"})
        assert r.status_code == 409
        assert sqlite3.connect(db).execute("SELECT count(*) FROM given_clues").fetchone()[0] == 0
        targets = []
        body = post(client, "/study/api/give", participant=p, item=0, clue="practice")
        while not body["done"]:
            item = body["item"]
            targets.append(item["square"])
            assert (item["number"], item["of"]) == (len(targets), 3)
            body = post(
                client, "/study/api/give", participant=p, item=item["index"], clue=" Lagoon ", ms=5
            )
    assert len(set(targets)) == 3
    out = tmp_path / "g.csv"
    assert export_given_clues(db, out) == 3  # the practice clue is left out
    with out.open(newline="", encoding="utf-8") as f:
        assert tuple(next(csv.reader(f))) == GIVEN_CLUE_COLUMNS
    given = GivenClues.from_csv(out, BOARD, strict=True)
    assert [str(g.target) for g in given.rows] == targets
    assert {g.clue for g in given.rows} == {"Lagoon"}  # as typed, spaces collapsed


def test_giving_targets_are_reproducible_from_the_participant_and_the_study_secret(
    tmp_path: Path,
) -> None:
    from huescues.web._db import Database
    from huescues.web._study_plan import Study as _Study
    from huescues.web._study_plan import seed_of as _seed_of
    from huescues.web._study_schema import STUDY_SCHEMA

    database = Database(tmp_path / "s.sqlite", schema=STUDY_SCHEMA)
    study = _Study(database, StudyConfig(targets_per_person=5))
    seed = _seed_of(study.secret, "some-participant-id-0123")
    first = study.plan(seed, None, "give")
    assert first == study.plan(seed, None, "give")
    assert len({i.target for i in first}) == 5
    # The secret is kept: a restart of the study on the same database draws the same plan.
    assert _Study(database, StudyConfig(targets_per_person=5)).secret == study.secret
    database.close()


def test_checks_are_spread_among_the_items_never_first() -> None:
    from huescues.web._study_items import Item

    main = [Item(str(i)) for i in range(10)]
    checks = [Item(None, None, "A1", "attention") for _ in range(2)]
    out = interleave(main, checks)
    assert [i for i, x in enumerate(out) if x.kind == "attention"] == [3, 8]
    assert interleave([Item("a")], checks)[0].kind == "clue"


def test_redirects_add_the_code_as_cc_and_bad_addresses_are_refused() -> None:
    assert redirect_to("https://a.org/c?cc=old&y=2", "K1") == "https://a.org/c?y=2&cc=K1"
    for bad in ("javascript:alert(1)", "/relative", "https://a.org/ x"):
        with pytest.raises(ValueError, match="http"):
            StudyConfig(completion_url=bad)
    with pytest.raises(ValueError, match="completion code"):
        StudyConfig(completion_code="a b")


def test_an_older_database_is_upgraded(tmp_path: Path) -> None:
    db = old_study_database(tmp_path / "old.sqlite")
    out = tmp_path / "r.csv"
    assert export_responses(db, out) == 1
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = csv.DictReader(f)
    assert row["clue_source"] == "researcher" and row["prolific_pid"] == ""
    assert row["attention_checks"] == ""


def test_the_command_exports_the_given_clues_and_the_report_covers_a_giving_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 9: `huescues responses export --kind given-clues` writes one row per clue people
    gave (participant, target, clue), loadable in one call; `responses report` on a study
    without --giver says what it needs, not a temporary file's name."""
    from huescues.cli import main

    db = tmp_path / "s.sqlite"
    with client_for(db, targets_per_person=2) as client:
        session = start(client, kind="give")
        p, body = session["participant"], {"item": session["item"], "done": False}
        while not body["done"]:
            body = post(
                client, "/study/api/give", participant=p, item=body["item"]["index"], clue="moss"
            )
    out = tmp_path / "given.csv"
    args = ["responses", "export", "--db", str(db), "--out", str(out), "--kind", "given-clues"]
    assert main(args) == 0
    given = GivenClues.from_csv(out, BOARD, strict=True)
    assert [(g.participant, g.clue) for g in given.rows] == [(p, "moss"), (p, "moss")]
    capsys.readouterr()
    # The report (issue 32) covers every study: here its participants and the clues given,
    # and no giver section (no giver's clues were shown).
    assert main(["responses", "report", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "| give | 1 | 0 | 0 | 1 |" in out and "2 clues given for 2 targets" in out
    assert "The clue givers" not in out
