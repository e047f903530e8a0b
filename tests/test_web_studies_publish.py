"""Issue 32, studies a researcher can publish from (in process, bounded): the consent text says
what is stored, each participant's status in every export with the exclusion rule applied by
huescues.research, practice from its own list, the researcher's targets, balanced assignment,
plates that screen for the colour-vision deficiencies, exports a data archive takes, the study
report, the game study, people and bots reading each other in play, and ratings."""

from __future__ import annotations

import csv
import dataclasses
import json
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from huescues.cli import main
from huescues.colour import delta_e_2000, srgb_to_lab
from huescues.engine import Board, Cell
from huescues.research import GameActions, GivenClues, HumanResponses, reading_in_play
from huescues.web import (
    ACTION_COLUMNS,
    GIVEN_CLUE_COLUMNS,
    PARTICIPANT_TABLE_COLUMNS,
    RESPONSE_COLUMNS,
    StudyConfig,
    TableSettings,
    create_app,
    export_actions,
    export_given_clues,
    export_participants,
    export_responses,
)
from huescues.web._consent import consent_text
from huescues.web._plates import DEFICIENCIES, plate_validation, simulate
from huescues.web._study_items import ATTENTION_RADIUS

BOARD = Board.standard()
# No pauses, and no message limit: the scripted people answer faster than people can.
QUICK = TableSettings(bot_delay=0, reveal_pause=0, message_rate=1000.0, message_burst=1000.0)


@contextmanager
def _study(db: Path, **settings: Any) -> Iterator[TestClient]:
    # Many simulated participants from one address: the per-address limits raised.
    limits = {"rate": 1000.0, "burst": 1000, "starts_per_minute": 1000}
    app = create_app(db, study=StudyConfig(**(limits | settings)), tables=QUICK)
    with TestClient(app) as client:
        yield client


def _post(client: TestClient, path: str, **body: Any) -> Any:
    response = client.post(path, json=body)
    assert response.status_code in (200, 201), response.text
    return response.json()


def _start(client: TestClient, kind: str = "guess", **extra: Any) -> Any:
    return _post(client, "/study/api/start", consent=True, kind=kind, **extra)


def _answer(
    client: TestClient, session: Any, squares: Iterator[str], stop_after: int | None = None
) -> Any:
    """Answer a participant's items (a plate: its first swatch; an attention check: the square
    shown), at most ``stop_after`` of them."""
    p, body = session["participant"], {"item": session["item"], "done": False}
    n = 0
    while not body["done"] and (stop_after is None or n < stop_after):
        item = body["item"]
        if item["kind"] == "colour":
            body = _post(client, "/study/api/answer", participant=p, item=item["index"], choice=0)
        elif item["kind"] in ("give", "give-practice"):
            body = _post(client, "/study/api/give", participant=p, item=item["index"],
                         clue="moss", ms=1500)  # fmt: skip
        elif item["kind"] == "game":
            return body
        else:
            square = item["square"] if item["kind"] == "attention" else next(squares)
            body = _post(client, "/study/api/answer", participant=p, item=item["index"],
                         square=square, ms=1000 + 10 * n)  # fmt: skip
        n += 1
    return body


def _far_from(shown: str) -> str:
    """A square that misses an attention check showing ``shown``: a corner outside its frame
    (R5). The shown square is random, so a fixed A1 counted as seen when it was A1, A2, B1 or
    B2 (4 checks in 480)."""
    corner = Cell.parse("A1")
    return "P30" if Cell.parse(shown).distance(corner) <= ATTENTION_RADIUS else "A1"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# -- 1. consent ---------------------------------------------------------------------------------
def test_the_built_in_consent_says_what_is_stored_and_promises_nothing_it_breaks(
    tmp_path: Path,
) -> None:
    with _study(tmp_path / "c.sqlite", attention_checks=1) as client:
        for kind in ("guess", "give", "game"):
            info = client.get(f"/study/api/info?kind={kind}").json()
            text = " ".join(info["consent"])
            assert "not linked to your name, address or device" not in text
            assert "panel" in text and "screen" in text and "how long" in text
            assert "attention" in text  # a study with checks says so
            assert info["consent_keys"][0] == [f"consent.intro.{kind}"]
        give = " ".join(client.get("/study/api/info?kind=give").json()["consent"])
        assert "clues you type" in give


def test_a_consent_file_that_never_mentions_panel_ids_warns_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    own = tmp_path / "consent.txt"
    own.write_text("A study of colours. We record your clicks and how long you take.\n")
    create_app(tmp_path / "w.sqlite", study=StudyConfig(consent=str(own))).state.db.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("huescues serve: warning: ")
    assert "panel's ids" in err and "screen" in err and "how long" not in err
    said = tmp_path / "said.txt"
    said.write_text("We record your clicks, how long you take, your screen and any Prolific id.\n")
    create_app(tmp_path / "s.sqlite", study=StudyConfig(consent=str(said))).state.db.close()
    assert capsys.readouterr().err == ""


# -- 2, 6. status, the exclusion rule, the archive's description ---------------------------------
def test_every_export_ends_with_status_and_research_keeps_the_completed(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    squares = iter(["F12", "G13", "H14", "I15", "J16", "K17", "L18", "M19", "N20", "O21"] * 5)
    with _study(db, clues_per_person=3, attention_checks=1, attention_misses_allowed=0) as c:
        done = _answer(c, _start(c), squares)
        assert done["done"] and not done.get("screened_out")
        half = _start(c)
        _answer(c, half, squares, stop_after=1)  # stops before the end
        out = _start(c)
        p, body = out["participant"], {"item": out["item"], "done": False}
        while not body["done"]:  # misses the attention check
            item = body["item"]
            square = _far_from(item["square"]) if item["kind"] == "attention" else next(squares)
            body = _post(c, "/study/api/answer", participant=p, item=item["index"], square=square)
        assert body["screened_out"]
    clicks = tmp_path / "clicks.csv"
    export_responses(db, clicks)
    rows = _rows(clicks)
    assert tuple(rows[0]) == RESPONSE_COLUMNS and RESPONSE_COLUMNS[-1] == "status"
    by_status = Counter(r["status"] for r in rows)
    assert set(by_status) == {"completed", "incomplete", "screened_out"}
    # item: the trial's place among the participant's real trials, from 1.
    mine = [int(r["item"]) for r in rows if r["participant"] == done_participant(rows)]
    assert mine == [1, 2, 3]
    kept = HumanResponses.from_csv(clicks, BOARD)
    assert {r.extra["status"] for r in kept.rows} == {"completed"}
    assert len(kept.skipped) == by_status["incomplete"] + by_status["screened_out"]
    assert all("exclusion rule" in why for _, why in kept.skipped)
    everyone = HumanResponses.from_csv(clicks, BOARD, keep="all")
    assert len(everyone) == len(rows)
    assert isinstance(kept.rows[0].extra["response_ms"], int)  # numbers stay numbers
    with pytest.raises(ValueError, match="keep='some'"):
        HumanResponses.from_csv(clicks, BOARD, keep="some")
    people = tmp_path / "people.csv"
    export_participants(db, people)
    table = _rows(people)
    assert tuple(table[0]) == PARTICIPANT_TABLE_COLUMNS and len(table) == 3
    assert sorted(r["status"] for r in table) == ["completed", "incomplete", "screened_out"]
    assert all(r["started"] and r["device"] == "" for r in table)
    description = json.loads((tmp_path / "dataset_description.json").read_text())
    assert description["@context"] == "https://schema.org/"
    assert description["@type"] == "Dataset" and "huescues" in description["softwareRequirements"]
    names = [v["name"] for v in description["variableMeasured"]]
    assert set(RESPONSE_COLUMNS) | set(PARTICIPANT_TABLE_COLUMNS) == set(names)  # the union
    assert len(names) == len(set(names))
    ms = next(v for v in description["variableMeasured"] if v["name"] == "response_ms")
    assert ms["unitText"] == "milliseconds" and ms["valueType"] == "integer"
    assert {f["name"] for f in description["distribution"]} == {"clicks.csv", "people.csv"}
    assert description["studySettings"]["clues_per_person"] == 3


def done_participant(rows: list[dict[str, str]]) -> str:
    return next(r["participant"] for r in rows if r["status"] == "completed")


# -- 3, 4. practice, targets ----------------------------------------------------------------------
def test_practice_comes_from_its_own_list_never_the_studys(tmp_path: Path) -> None:
    clues = ("banana", "lagoon", "sunflower", "moss")
    with _study(tmp_path / "p.sqlite", clues=clues, clues_per_person=4, practice=2,
                practice_clues=("sunflower", "coal", "ember")) as c:  # fmt: skip
        plan = _plan(c, _start(c))
    practice = [p[0] for p in plan if len(p) > 3 and p[3] == "practice"]
    real = [p[0] for p in plan if len(p) == 3]
    assert len(practice) == 2 and set(practice) <= {"coal", "ember"}
    assert sorted(real) == sorted(clues) and not set(practice) & set(real)


def _plan(client: TestClient, session: Any) -> list[Any]:
    db = client.app.state.db  # type: ignore[attr-defined]
    row = db.query("SELECT plan FROM participants WHERE id = ?", (session["participant"],))
    plan: list[Any] = json.loads(row[0]["plan"])
    return plan


def test_the_giving_studys_targets_are_the_researchers(tmp_path: Path) -> None:
    with _study(tmp_path / "t.sqlite", targets=("A3", "F12", "p30"), targets_per_person=2) as c:
        plan = _plan(c, _start(c, kind="give"))
    targets = [p[2] for p in plan if len(p) > 3 and p[3] == "give"]
    assert len(targets) == 2 and set(targets) <= {"A3", "F12", "P30"}
    with pytest.raises(ValueError, match="target 'Z99' is not a square"):
        create_app(tmp_path / "z.sqlite", study=StudyConfig(targets=("A3", "Z99")))
    with _study(tmp_path / "few.sqlite", targets=("A3", "F12")) as c:  # 10 a person, at most 2
        assert len([p for p in _plan(c, _start(c, kind="give")) if p[3] == "give"]) == 2


def test_serve_targets_5_is_refused_naming_a_square(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "x.sqlite"), "--targets", "5"]) == 2
    err = capsys.readouterr().err
    assert "target '5' is not a square" in err and err.count("\n") == 1
    listed = tmp_path / "targets.txt"
    listed.write_text("# my targets\nA3\n\nF12\n")
    from huescues.cli import _listed

    assert _listed(f"@{listed}", "--targets") == ("A3", "F12")


# -- 5. balanced assignment -----------------------------------------------------------------------
def test_balanced_assignment_over_eight_participants(tmp_path: Path) -> None:
    clues = ("banana", "lagoon", "moss", "ember", "denim", "mustard")
    squares = iter(["F12", "G13", "H14"] * 40)
    db = tmp_path / "b.sqlite"
    with _study(db, clues=clues, clues_per_person=3) as c:
        for _ in range(8):
            assert _answer(c, _start(c), squares)["done"]
        abandoned = _start(c)  # started, never answered: counts for nothing
        assert abandoned["item"]
    rows = _rows(_export(db, tmp_path))
    counts = Counter(r["clue"] for r in rows)
    assert set(counts) == set(clues) and sum(counts.values()) == 24
    assert max(counts.values()) - min(counts.values()) <= 1


def _export(db: Path, folder: Path) -> Path:
    out = folder / "r.csv"
    export_responses(db, out)
    return out


# -- 8. plates -----------------------------------------------------------------------------------
def test_each_plate_screens_for_one_deficiency_by_simulation() -> None:
    """Each deficiency's simulated view makes its plates' two colours nearly equal; normal
    vision tells them apart; the other deficiencies see them apart too."""
    for check in plate_validation(BOARD):
        assert check.pairs >= 20, check
        assert check.normal[1] >= 15.0  # every pair at least 15 CIEDE2000 apart for normal vision
        assert check.simulated[check.deficiency][2] <= 3.0  # at most 3 apart as simulated
        for other in DEFICIENCIES:
            if other != check.deficiency:
                assert check.simulated[other][1] > 3.0
    # The simulation itself: a pure red and a pure green look alike to a protanope only.
    red_green = np.array([[0.8, 0.2, 0.0], [0.55, 0.45, 0.0]])
    normal = srgb_to_lab(red_green)
    seen = srgb_to_lab(simulate(red_green, "protan"))
    assert float(delta_e_2000(seen[0], seen[1])) < float(delta_e_2000(normal[0], normal[1]))


def test_the_plates_cycle_through_the_deficiencies_and_each_result_is_reported(
    tmp_path: Path,
) -> None:
    db = tmp_path / "pl.sqlite"
    with _study(db, colour_plates=3, clues_per_person=1) as c:
        session = _start(c)
        plan = _plan(c, session)
        assert [p[0] for p in plan if len(p) > 3 and p[3] == "colour"] == list(DEFICIENCIES)
        _answer(c, session, iter(["F12"]))
    people = tmp_path / "people.csv"
    export_participants(db, people)
    (row,) = _rows(people)
    assert row["colour_plates"] == "3" and row["plate_result"].count(":") == 3
    assert row["plate_result"].startswith("protan: ")


# -- 7. the report --------------------------------------------------------------------------------
def test_the_report_of_a_study_of_twenty_participants(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite"
    rng = np.random.default_rng(7)
    cells = [str(c) for c in BOARD.cells()]
    with _study(db, clues=("banana", "lagoon", "moss"), clues_per_person=3,
                attention_checks=1, attention_misses_allowed=0) as c:  # fmt: skip
        for i in range(20):
            session = _start(c)
            squares = iter([cells[int(j)] for j in rng.integers(0, 60, 10)])
            if i % 7 == 6:
                _answer(c, session, squares, stop_after=2)  # two stop early
            else:
                _answer(c, session, squares)
    out = tmp_path / "report.md"
    assert main(["responses", "report", "--db", str(db), "--boot", "200", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert text == out.read_text() + f"report: {out}\n"
    assert "| guess | 18 | 0 | 2 | 20 |" in text
    assert "## Time an item took" in text and "| guess | 54 | 1.0 s |" in text
    for clue in ("banana", "lagoon", "moss"):
        assert f"| {clue} | 18 |" in text
    assert "[" in text.split("| banana | 18 |")[1].splitlines()[0]  # an interval


# -- 9, 10. the game study and its actions ---------------------------------------------------------
def test_the_game_study_a_drop_out_finishes_by_stand_in_and_its_actions_export(
    tmp_path: Path,
) -> None:
    from websockets.sync.client import connect

    from test_web_server_hardening import _server

    db = tmp_path / "g.sqlite"
    app = create_app(db, study=StudyConfig(game_bots=("random", "random"), game_away_seconds=1,
                                          practice=1), tables=QUICK)  # fmt: skip
    with _server(app) as port:
        from serve_process import request

        status, session, _ = request(port, "POST", "/study/api/start",
                                     {"consent": True, "kind": "game"})  # fmt: skip
        assert status == 201 and session["item"]["kind"] == "practice"
        p = session["participant"]
        too_soon = request(port, "POST", "/study/api/game", {"participant": p})
        assert too_soon[0] == 409 and "comes after" in too_soon[1]["error"]
        _, nxt, _ = request(port, "POST", "/study/api/answer",
                            {"participant": p, "item": 0, "square": "F12"})  # fmt: skip
        assert nxt["item"]["kind"] == "game"
        _, game, _ = request(port, "POST", "/study/api/game", {"participant": p})
        assert request(port, "POST", "/study/api/game", {"participant": p})[1] == game
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "token": game["token"]}))
            welcome = json.loads(ws.recv(timeout=10))
            assert welcome["type"] == "welcome" and welcome["seat"] == game["seat"]
            ws.send(json.dumps({"type": "react", "emoji": "🎉"}))
            ws.send(json.dumps({"type": "again"}))
            errors = []
            while len(errors) < 2:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] == "error":
                    errors.append(msg["message"])
            assert all("played once, without reactions" in e for e in errors)
        # The participant left (closed the page): stand-ins finish the game for them.
        deadline = time.monotonic() + 120
        while True:
            _, resumed, _ = request(port, "POST", "/study/api/resume", {"participant": p})
            if resumed["done"]:
                break
            assert time.monotonic() < deadline, "the game did not finish"
            time.sleep(0.5)
        assert resumed["done"] and not resumed.get("screened_out")
    actions = tmp_path / "actions.csv"
    n = export_actions(db, actions)
    rows = _rows(actions)
    assert n == len(rows) > 10 and tuple(rows[0]) == ACTION_COLUMNS
    assert {r["game"] for r in rows} == {game["table"]}
    assert {r["participant"] for r in rows if r["seat"] == str(game["seat"])} == {p}
    players = {r["player"] for r in rows}
    assert "stand-in:default" in players and "random" in players
    # The game ended, by stand-in: the participant, gone before its end, is incomplete.
    assert {r["status"] for r in rows} == {"incomplete"}
    assert all(r["response_ms"].isdigit() for r in rows)
    assert {r["action"] for r in rows} >= {"target", "clue", "pawn"}
    loaded = GameActions.from_csv(actions, keep="all")
    assert len(loaded) == n and loaded.pawns() and all(a.points is not None for a in loaded.pawns())
    play = reading_in_play(loaded, n_boot=50)
    assert play.games == 1 and play.stand_in_pawns > 0
    assert play.bots_on_bots.has_data
    with sqlite3.connect(db) as conn:
        by = {r[0] for r in conn.execute("SELECT by FROM actions")}
    assert "stand-in:default" in by


def test_people_and_bots_reading_each_other_measured_by_hand() -> None:
    def pawn(game: str, player: str, giver: str, points: int) -> dict[str, str]:
        return {"game": game, "seat": "1", "player": player, "round": "0", "action": "pawn",
                "value": "A1", "points": str(points), "giver_player": giver}  # fmt: skip

    rows = [
        pawn("g1", "person", "person", 3),
        pawn("g1", "default", "person", 1),
        pawn("g1", "person", "default", 2),
        pawn("g2", "person", "person", 1),
        pawn("g2", "default", "person", 3),
        pawn("g2", "stand-in:default", "person", 3),
    ]
    play = reading_in_play(GameActions.from_records(rows), n_boot=0)
    assert play.people_on_people.mean == pytest.approx(2.0)
    assert play.bots_on_people.mean == pytest.approx(2.0)
    assert play.people_on_bots.mean == pytest.approx(2.0)
    assert play.bots_reading_people.mean == pytest.approx(0.0)
    assert not play.bots_on_bots.has_data and play.stand_in_pawns == 1


# -- 11. ratings ----------------------------------------------------------------------------------
def test_people_and_bots_rated_on_one_scale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_web_tables import _join, _play_person

    db = tmp_path / "rate.sqlite"
    app = create_app(db, tables=QUICK)
    with TestClient(app) as client:
        for name in ("Ann", None, "Ann"):
            seats = [{"kind": "person", **({"name": name} if name else {})}, {"kind": "random"},
                     {"kind": "naming"}]  # fmt: skip
            body = {"seats": seats, "house_rules": {"rounds_per_giver": 1}}
            token = client.post("/api/tables", json=body).json()["seats"][0]["token"]
            with _join(client, token) as ws:
                assert _play_person(ws, 0, [])["phase"] == "game_over"
    out = tmp_path / "ratings.csv"
    assert main(["ratings", "--db", str(db), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    rows = _rows(out)
    assert list(rows[0]) == ["entrant", "kind", "games", "mu", "sigma", "ordinal"]
    entrants = {r["entrant"]: r for r in rows}
    assert set(entrants) == {"Ann", "random", "naming"}  # "Player 1" is left out
    assert entrants["Ann"]["games"] == "2" and entrants["random"]["games"] == "3"
    assert entrants["Ann"]["kind"] == "person" and entrants["naming"]["kind"] == "bot"
    assert "Ann" in printed and "[" in printed and "Player 1" not in printed


def test_the_leaderboard_is_shown_only_where_the_operator_says(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "a.sqlite")) as client:
        assert client.get("/api/leaderboard").status_code == 404
    shown = dataclasses.replace(QUICK, leaderboard=True)
    with TestClient(create_app(tmp_path / "b.sqlite", tables=shown)) as client:
        assert client.get("/api/leaderboard").json() == {"leaders": []}


def test_a_given_clues_export_keeps_the_completed_too(tmp_path: Path) -> None:
    db = tmp_path / "gv.sqlite"
    with _study(db, targets_per_person=2) as c:
        _answer(c, _start(c, kind="give"), iter([]))
        _answer(c, _start(c, kind="give"), iter([]), stop_after=1)
    out = tmp_path / "given.csv"
    export_given_clues(db, out)
    rows = _rows(out)
    assert tuple(rows[0]) == GIVEN_CLUE_COLUMNS
    assert Counter(r["status"] for r in rows) == {"completed": 2, "incomplete": 1}
    assert len(GivenClues.from_csv(out, BOARD)) == 2


@pytest.mark.parametrize(
    ("checks", "allowed", "plates", "ends"),
    [(1, 1, 0, False), (0, 0, 2, False), (2, 1, 0, True), (1, 0, 1, True)],
)
def test_the_consent_says_the_checks_may_end_the_study_only_when_they_can(
    checks: int, allowed: int, plates: int, ends: bool
) -> None:
    """A study whose attention checks cannot all be missed past its rule (1 check, 1 miss
    allowed), or that has only colour plates (which end nothing), promised that the checks "may
    end the study early": it says only that their answers are recorded."""
    config = StudyConfig(
        attention_checks=checks, attention_misses_allowed=allowed, colour_plates=plates
    )
    for language, early in (("en", "end the study early"), ("es", "terminar el estudio")):
        text = " ".join(consent_text(config, "guess", language))
        assert ("attention" if language == "en" else "atención") in text
        assert (early in text) is ends, (language, text)
