"""Study mode at /study (issue 14 item 4): consent, clues one at a time, each click a response in
the database; the export that HumanResponses reads; the giver study and its report."""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from huescues.agents import RandomAgent, play_game
from huescues.cli import main
from huescues.engine import Board, Cell, Rules, pawn_points
from huescues.export import load_rounds
from huescues.research import HumanResponses, points_by_giver
from huescues.web import (
    DEFAULT_CLUES,
    RESPONSE_COLUMNS,
    StudyConfig,
    board_json,
    create_app,
    export_games,
    export_responses,
)

STATIC = Path(__file__).parents[1] / "src" / "huescues" / "web" / "static"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "study.sqlite"


def client_for(db: Path, **config: Any) -> TestClient:
    return TestClient(create_app(db, study=StudyConfig(**config)))


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    # Most tests bring their clue list with the request, as a visitor may when allowed.
    with client_for(db, allow_visitor_clues=True) as c:
        yield c


def rows(db: Path, table: str = "responses") -> list[sqlite3.Row]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(f"SELECT * FROM {table}").fetchall()
    finally:
        conn.close()


def start(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/study/api/start", json={"consent": True, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def answer_all(client: TestClient, session: dict[str, Any], squares: Sequence[str]) -> list[str]:
    """Answer every clue of a session with ``squares`` in turn; the clues asked, in order."""
    item, asked = session["item"], []
    for square in squares:
        asked.append(item["clue"])
        r = client.post(
            "/study/api/answer",
            json={"participant": session["participant"], "item": item["index"], "square": square},
        )
        assert r.status_code == 200, r.text
        item = r.json().get("item")
    return asked


# -- the page -------------------------------------------------------------------------------
def test_the_study_page_has_the_consent_button_and_only_its_own_scripts(
    client: TestClient,
) -> None:
    r = client.get("/study")
    assert r.status_code == 200
    assert 'data-action="consent"' in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for asset in ("study.js", "board.js", "study.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    # Nothing from elsewhere, no inline script: the policy above would block it anyway.
    assert "http" not in r.text and "<script>" not in r.text


def test_clue_text_reaches_the_page_only_as_text() -> None:
    # Clues come from the URL and the researcher: the scripts never parse them as HTML.
    for script in ("study.js", "board.js"):
        source = (STATIC / script).read_text(encoding="utf-8")
        assert "innerHTML" not in source and "insertAdjacentHTML" not in source
        assert "document.write" not in source
    assert "textContent = item.clue" in (STATIC / "study.js").read_text(encoding="utf-8")


def test_info_gives_the_consent_text_and_the_optional_questions(client: TestClient) -> None:
    info = client.get("/study/api/info").json()
    assert info["consent"] and all(isinstance(p, str) for p in info["consent"])
    assert "red-green" in info["colour_blindness"] and "25-34" in info["age_range"]


def test_a_consent_file_replaces_the_built_in_text(db: Path, tmp_path: Path) -> None:
    text = tmp_path / "consent.txt"
    text.write_text("Our study.\nTwo lines.\n\nSecond paragraph.\n", encoding="utf-8")
    with client_for(db, consent=str(text)) as c:
        assert c.get("/study/api/info").json()["consent"] == [
            "Our study. Two lines.",
            "Second paragraph.",
        ]


# -- a session -------------------------------------------------------------------------------
def test_without_consent_nothing_starts(client: TestClient, db: Path) -> None:
    for body in ({}, {"consent": False}, {"consent": "yes"}):
        r = client.post("/study/api/start", json=body)
        assert r.status_code == 400 and "consent" in r.json()["error"]
    assert rows(db, "participants") == []


def test_a_session_stores_every_click_with_the_optional_answers(
    client: TestClient, db: Path
) -> None:
    session = start(
        client,
        clues="banana, lagoon",
        language="English",
        colour_blindness="red-green",
        age_range="25-34",
    )
    assert session["total"] == 2 and session["board"]["rows"] == 16
    assert [len(row) for row in session["board"]["colours"]] == [30] * 16
    r = client.post(
        "/study/api/answer",
        json={"participant": session["participant"], "item": 0, "square": "F12", "ms": 1234},
    )
    assert r.json() == {"answered": 1, "total": 2, "done": False, "item": r.json()["item"]}
    second = r.json()["item"]
    r = client.post(
        "/study/api/answer",
        json={"participant": session["participant"], "item": 1, "square": "a1"},
    )
    assert r.json() == {"answered": 2, "total": 2, "done": True}
    stored = rows(db)
    assert [(s["clue"], s["square"]) for s in stored] == [
        (session["item"]["clue"], "F12"),
        (second["clue"], "A1"),
    ]
    assert {s["clue"] for s in stored} == {"banana", "lagoon"}
    assert stored[0]["response_ms"] == 1234 and stored[1]["response_ms"] is None
    assert stored[0]["board"] == Board.standard().id and stored[0]["giver"] is None
    (person,) = rows(db, "participants")
    assert (person["language"], person["colour_blindness"], person["age_range"]) == (
        "English",
        "red-green",
        "25-34",
    )


def test_participant_ids_are_unguessable_and_orders_come_from_their_own_seed(
    client: TestClient, db: Path
) -> None:
    sessions = [start(client) for _ in range(6)]
    ids = [s["participant"] for s in sessions]
    assert len(set(ids)) == 6 and all(len(i) >= 24 for i in ids)  # 144 random bits
    for person in rows(db, "participants"):
        # The documented draw (balanced assignment, docs/study.md): the least-answered clues
        # (none is answered yet: all tie), ties broken by numpy's generator from the stored
        # seed, then put in an order of the same generator's.
        rng = np.random.default_rng(person["seed"])
        tie = rng.random(len(DEFAULT_CLUES))
        chosen = [DEFAULT_CLUES[int(i)] for i in np.argsort(tie, kind="stable")[:10]]
        order = rng.permutation(10)
        assert [c for c, _, _ in json.loads(person["plan"])] == [chosen[int(i)] for i in order]
    firsts = {s["item"]["clue"] for s in sessions}
    assert len(firsts) > 1  # 6 people do not all start with the same clue


def test_clues_per_person_bounds_the_session(db: Path) -> None:
    with client_for(db, clues=("a", "b", "c", "d", "e"), clues_per_person=3) as c:
        session = start(c)
        assert session["total"] == 3
        asked = answer_all(c, session, ["A1", "A2", "A3"])
    assert len(set(asked)) == 3 and set(asked) <= {"a", "b", "c", "d", "e"}


# -- bad requests change nothing -------------------------------------------------------------
def test_a_square_not_on_the_board_is_refused(client: TestClient, db: Path) -> None:
    session = start(client, clues="banana")
    for square in ("Q1", "A31", "Z99", "F", "", "12F", 7, None):
        r = client.post(
            "/study/api/answer",
            json={"participant": session["participant"], "item": 0, "square": square},
        )
        assert r.status_code == 400, square
        assert "square" in r.json()["error"]
    assert "R1" in r.json()["error"] or "square" in r.json()["error"]
    assert rows(db) == []


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"{not json", 400, "not JSON"),
        (b"[1, 2]", 400, "not a JSON object"),
        (b'{"participant": "x", "extra": 1}', 400, "unknown fields"),
        (b"\xff\xfe", 400, "not JSON"),
        (b'{"pad": "' + b"x" * 5000 + b'"}', 413, "larger than"),
    ],
)
def test_malformed_and_oversized_requests_are_refused(
    client: TestClient, db: Path, body: bytes, status: int, words: str
) -> None:
    for url in ("/study/api/start", "/study/api/answer", "/study/api/resume"):
        r = client.post(url, content=body, headers={"content-type": "application/json"})
        assert r.status_code == status and words in r.json()["error"]
    assert rows(db) == [] and rows(db, "participants") == []


def test_bad_fields_are_refused_and_write_nothing(client: TestClient, db: Path) -> None:
    bad_starts: list[dict[str, Any]] = [
        {"colour_blindness": "purple"},
        {"age_range": "12"},
        {"language": "<script>alert(1)</script>"},
        {"language": "x" * 41},
        {"clues": ["banana"]},
        {"clues": ",".join(["w"] * 51)},
        {"clues": "x" * 61},
    ]
    for extra in bad_starts:
        r = client.post("/study/api/start", json={"consent": True, **extra})
        assert r.status_code == 400, extra
    assert rows(db, "participants") == []
    session = start(client, clues="banana,lagoon")
    p = session["participant"]
    bad_answers: list[tuple[dict[str, Any], int]] = [
        ({"participant": "short", "item": 0, "square": "A1"}, 400),
        ({"participant": "A" * 24, "item": 0, "square": "A1"}, 404),
        ({"participant": p, "item": -1, "square": "A1"}, 400),
        ({"participant": p, "item": "0", "square": "A1"}, 400),
        ({"participant": p, "item": 1, "square": "A1"}, 409),  # not the clue asked now
        ({"participant": p, "item": 0, "square": "A1", "ms": -5}, 400),
        ({"participant": p, "item": 0, "square": "A1", "ms": 1.5}, 400),
    ]
    for body, status in bad_answers:
        r = client.post("/study/api/answer", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]
    assert rows(db) == []
    answer_all(client, session, ["A1", "A2"])
    # A clue answered twice (a double click) and answers after the last are refused.
    for index in (0, 1, 2):
        r = client.post("/study/api/answer", json={"participant": p, "item": index, "square": "B1"})
        assert r.status_code == 409
    assert len(rows(db)) == 2


# -- a reload resumes -------------------------------------------------------------------------
def resume(client: TestClient, participant: str) -> dict[str, Any]:
    r = client.post("/study/api/resume", json={"participant": participant})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def answer(client: TestClient, participant: str, index: int, square: str) -> int:
    body = {"participant": participant, "item": index, "square": square}
    return client.post("/study/api/answer", json=body).status_code


def test_a_reload_resumes_the_same_participant_at_the_next_clue(
    client: TestClient, db: Path, tmp_path: Path
) -> None:
    session = start(client, clues="banana,lagoon,rust,mint")
    p = session["participant"]
    asked = answer_all(client, session, ["A1", "B2"])
    again = resume(client, p)  # the page reloaded: it asks where it left off
    assert again["participant"] == p and not again["done"]
    assert (again["answered"], again["total"]) == (2, 4)
    assert again["board"] == session["board"]
    assert again["item"]["index"] == 2
    # The same plan goes on: clues 3 and 4 are the two not yet asked, each asked once.
    plan = json.loads(rows(db, "participants")[0]["plan"])
    assert again["item"]["clue"] == plan[2][0] and again["item"]["clue"] not in asked
    # Resuming writes nothing, and an answer to an earlier clue is still refused.
    assert len(rows(db)) == 2 and len(rows(db, "participants")) == 1
    assert answer(client, p, 1, "C3") == 409
    asked += answer_all(client, {"participant": p, "item": again["item"]}, ["C3", "D4"])
    assert sorted(asked) == sorted(["banana", "lagoon", "rust", "mint"])
    assert answer(client, p, 3, "E5") == 409  # a double click after the resume
    done = resume(client, p)
    assert done == {"answered": 4, "total": 4, "done": True}
    out = tmp_path / "r.csv"
    assert export_responses(db, out) == 4
    with out.open(newline="", encoding="utf-8") as f:
        exported = list(csv.DictReader(f))
    assert {r["participant"] for r in exported} == {p}
    assert [r["clue"] for r in exported] == asked
    assert [r["square"] for r in exported] == ["A1", "B2", "C3", "D4"]


def test_a_resume_after_a_server_restart_reads_the_database(db: Path) -> None:
    with client_for(db, clues=("banana", "lagoon", "rust"), clues_per_person=3) as c:
        session = start(c)
        answer_all(c, session, ["A1"])
    # A new server on the same file: nothing of the old one is left but the database.
    with client_for(db, clues=("banana", "lagoon", "rust"), clues_per_person=3) as c:
        again = resume(c, session["participant"])
        assert again["item"]["index"] == 1
        assert answer(c, session["participant"], 1, "B2") == 200
        assert answer(c, session["participant"], 1, "B2") == 409
    assert [r["item"] for r in rows(db)] == [0, 1]


def test_an_unknown_or_malformed_participant_is_refused_and_nothing_is_written(
    client: TestClient, db: Path
) -> None:
    bad: list[tuple[Any, int]] = [
        ("A" * 24, 404),  # well formed, but nobody's
        ("short", 400),
        (12345678901234567890, 400),
        (None, 400),
        ("A" * 65, 400),
    ]
    for participant, status in bad:
        r = client.post("/study/api/resume", json={"participant": participant})
        assert r.status_code == status, (participant, r.text)
        assert r.json()["error"]
    r = client.post("/study/api/resume", json={"participant": "A" * 24, "item": 0})
    assert r.status_code == 400 and "unknown fields" in r.json()["error"]
    assert rows(db) == [] and rows(db, "participants") == []


def test_a_session_on_another_board_starts_over(db: Path, tmp_path: Path) -> None:
    with client_for(db, clues=("banana", "lagoon")) as c:
        session = start(c)
    # The server restarts with another board: the old session's squares mean nothing on it.
    Board.from_rgb(np.arange(4 * 5 * 3).reshape(4, 5, 3) * 4, id="tiny").to_csv(
        tmp_path / "tiny.csv"
    )
    with client_for(db, clues=("banana", "lagoon"), board=str(tmp_path / "tiny.csv")) as c:
        r = c.post("/study/api/resume", json={"participant": session["participant"]})
        assert r.status_code == 404 and "another board" in r.json()["error"]
    assert rows(db) == []


def test_resume_never_reveals_a_giver_studys_target(db: Path) -> None:
    with client_for(db, giver="random", clues_per_person=3) as c:
        session = start(c)
        answer_all(c, session, ["A1"])
        again = resume(c, session["participant"])
    assert again["item"]["index"] == 1
    targets = [t for _, _, t in json.loads(rows(db, "participants")[0]["plan"])]
    assert "target" not in json.dumps(again)
    assert not any(str(t) in json.dumps(again["item"]) for t in targets)


def test_resume_keeps_the_rate_limit(db: Path) -> None:
    with client_for(db, rate=0.01, burst=3) as c:
        session = start(c)
        codes = [
            c.post("/study/api/resume", json={"participant": session["participant"]}).status_code
            for _ in range(4)
        ]
    assert codes == [200, 200, 429, 429]


def test_clue_text_is_stored_as_given_not_as_markup(client: TestClient, db: Path) -> None:
    session = start(client, clues="<b>bold</b>")
    assert session["item"]["clue"] == "<b>bold</b>"  # JSON text; the page sets textContent
    answer_all(client, session, ["C3"])
    assert rows(db)[0]["clue"] == "<b>bold</b>"


def test_requests_are_rate_limited_per_address(db: Path) -> None:
    with client_for(db, rate=0.01, burst=5, starts_per_minute=2) as c:
        codes = [c.get("/study/api/info").status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}
    with client_for(db, starts_per_minute=2) as c:
        codes = [c.post("/study/api/start", json={"consent": True}).status_code for _ in range(4)]
    assert codes == [201, 201, 429, 429]
    assert len(rows(db, "participants")) == 2


def test_bad_study_settings_are_refused_at_once() -> None:
    with pytest.raises(ValueError, match="clues per person"):
        StudyConfig(clues_per_person=0)
    with pytest.raises(ValueError, match="unknown clue giver 'nobody'"):
        StudyConfig(giver="nobody")
    with pytest.raises(ValueError, match="empty"):
        StudyConfig(clues=("banana", " "))


def test_any_board_csv_is_the_study_board(db: Path, tmp_path: Path) -> None:
    rgb = np.arange(4 * 5 * 3).reshape(4, 5, 3) * 4
    board = Board.from_rgb(rgb, id="tiny")
    board.to_csv(tmp_path / "tiny.csv")
    with client_for(db, board=str(tmp_path / "tiny.csv"), clues=("sky",)) as c:
        session = start(c)
        assert session["board"] == board_json(Board.from_csv(tmp_path / "tiny.csv"))
        assert session["board"]["rows"] == 4 and session["board"]["row_letters"] == list("ABCD")
        assert session["board"]["colours"][0][1] == board.hex(Cell(0, 1))
        assert session["board"]["colours"][3][4] == board.hex(Cell(3, 4))
        r = c.post(
            "/study/api/answer",
            json={"participant": session["participant"], "item": 0, "square": "E1"},
        )
        assert r.status_code == 400 and "4 x 5" in r.json()["error"]
        answer_all(c, session, ["D5"])
    assert rows(db)[0]["board"] == Board.from_csv(tmp_path / "tiny.csv").id  # by its colours


# -- the export -------------------------------------------------------------------------------
def test_the_export_loads_with_human_responses(
    client: TestClient, db: Path, tmp_path: Path
) -> None:
    first = start(client, clues="banana,lagoon", language="Dutch", age_range="65+")
    answer_all(client, first, ["F12", "B20"])
    second = start(client, clues="banana,lagoon")
    answer_all(client, second, ["F13", "B21"])
    out = tmp_path / "responses.csv"
    assert export_responses(db, out) == 4
    with open(out, newline="", encoding="utf-8") as f:
        assert tuple(next(csv.reader(f))) == RESPONSE_COLUMNS
    loaded = HumanResponses.from_csv(
        out, Board.standard(), clue_column="clue", square_column="square", strict=True
    )
    assert len(loaded) == 4 and set(loaded.clues()) == {"banana", "lagoon"}
    assert loaded.participants() == (first["participant"], second["participant"])
    mine = [r for r in loaded.rows if r.participant == first["participant"]]
    assert {str(r.square) for r in mine} == {"F12", "B20"}
    assert all(r.extra["language"] == "Dutch" and r.extra["age_range"] == "65+" for r in mine)
    theirs = [r for r in loaded.rows if r.participant == second["participant"]]
    assert all(r.extra["language"] == "" and r.extra["colour_blindness"] == "" for r in theirs)
    assert all(r.extra["time"].endswith("+00:00") for r in loaded.rows)


def test_the_export_command(client: TestClient, db: Path, tmp_path: Path) -> None:
    answer_all(client, start(client, clues="banana"), ["G7"])
    out = tmp_path / "r.csv"
    assert main(["responses", "export", "--db", str(db), "--out", str(out)]) == 0
    assert [str(r.square) for r in HumanResponses.from_csv(out, Board.standard()).rows] == ["G7"]
    assert main(["responses", "export", "--db", str(tmp_path / "none.db"), "--out", "x"]) == 2


def test_stored_games_export_as_the_tidy_round_table(db: Path, tmp_path: Path) -> None:
    with client_for(db):
        pass  # the server made the database
    record, state = play_game([RandomAgent() for _ in range(3)], seed=4)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "INSERT INTO games (id, created, finished, players, seats, record) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                "g1",
                1.0,
                2.0,
                3,
                json.dumps(
                    [{"name": n, "kind": k} for n, k in [("Ann", "person"), ("B", "random")]]
                    + [{"name": "C", "kind": "default"}]
                ),
                record.to_json(),
            ),
        )
        conn.execute(  # unfinished
            "INSERT INTO games (id, created, finished, players, seats, record) "
            "VALUES ('g2', 3.0, NULL, 4, '[]', NULL)"
        )
    conn.close()
    out = tmp_path / "rounds.csv"
    assert main(["responses", "export", "--db", str(db), "--games", "--out", str(out)]) == 0
    table = load_rounds(out)
    assert len(table) == sum(len(r.pawns) for r in state.history)
    assert {row["seed"] for row in table} == {4}
    # Who sat where, so that people's rounds can be told from the bots'.
    by_seat = {row["pawn_seat"]: row["pawn_agent"] for row in table}
    assert by_seat == {0: "person: Ann", 1: "random", 2: "default"}
    rules = state.rules
    for row in table:  # the engine's scoring (R15)
        assert row["points"] == pawn_points(
            rules, Cell.parse(row["target"]), Cell.parse(row["pawn"])
        )
    assert export_games(db, tmp_path / "again.csv") == 1


# -- the giver study --------------------------------------------------------------------------
def test_a_giver_study_stores_the_giver_and_the_hidden_target(db: Path, tmp_path: Path) -> None:
    with client_for(db, giver="random", clues_per_person=3) as c:
        assert c.get("/study/api/info").json()["giver"] is True
        session = start(c)
        assert "target" not in json.dumps(session)  # the page never learns the target
        assert c.post("/study/api/start", json={"consent": True, "clues": "x"}).status_code == 400
        asked = answer_all(c, session, ["A1", "B2", "C3"])
    stored = rows(db)
    assert [s["clue"] for s in stored] == asked
    assert {s["giver"] for s in stored} == {"random"}
    board = Board.standard()
    for s in stored:
        board.cell(s["target"])  # a square of the board
    out = tmp_path / "r.csv"
    export_responses(db, out)
    loaded = HumanResponses.from_csv(out, board)
    assert [r.extra["target"] for r in loaded.rows] == [s["target"] for s in stored]


class FixedGuesser:
    """A guesser that always answers one square (a ranking player, for quick tests)."""

    def __init__(self, square: str) -> None:
        self.square = square

    def rank(self, board: Board, clues: Sequence[str]) -> list[Cell]:
        return [board.cell(self.square)]


def synthetic_giver_study() -> HumanResponses:
    """People understand giver "clear" exactly (clicks on the target) and giver "vague" not
    at all (clicks three or more squares away); synthetic, for the measures' tests."""
    records = []
    targets = ["C5", "H12", "L20", "E28", "N3"]
    for p in range(4):
        for i, t in enumerate(targets):
            records.append(
                {
                    "participant": f"p{p}",
                    "clue": f"clear{i}",
                    "square": t,
                    "giver": "clear",
                    "target": t,
                }
            )
            far = Cell.parse(t)
            far = Cell((far.row + 8) % 16, far.col)
            records.append(
                {
                    "participant": f"p{p}",
                    "clue": f"vague{i}",
                    "square": str(far),
                    "giver": "vague",
                    "target": t,
                }
            )
    records.append({"participant": "x", "clue": "free", "square": "A1", "giver": "", "target": ""})
    return HumanResponses.from_records(records, Board.standard(), strict=True)


def test_points_by_giver_puts_people_next_to_the_guessers() -> None:
    responses = synthetic_giver_study()
    report = points_by_giver(
        responses, {"on C5": FixedGuesser("C5"), "corner": FixedGuesser("A1")}, n_boot=200
    )
    assert [r.giver for r in report.rows] == ["clear", "vague"]
    clear, vague = report.row("clear"), report.row("vague")
    top = Rules.standard(4).points_by_distance[0]
    assert (clear.clues, clear.picks) == (5, 20)
    assert clear.people.mean == top and clear.people.low == clear.people.high == top  # R15
    assert vague.people.mean == 0.0
    # The guesser on C5 earns full points on the one clue whose target is C5: 1 of 5 clues.
    assert clear.guesser("on C5").mean == pytest.approx(top / 5)
    assert clear.guesser("corner").mean == pytest.approx(
        sum(
            pawn_points(Rules.standard(4), Cell.parse(t), Cell(0, 0))
            for t in ["C5", "H12", "L20", "E28", "N3"]
        )
        / 5
    )
    e = clear.guesser("on C5")
    assert e.low is not None and e.high is not None and e.low <= e.mean <= e.high
    assert 0.0 < clear.random.mean < 1.0  # type: ignore[operator]
    table = report.table()
    assert "| clear | 5 | 20 |" in table and "on C5" in table
    with pytest.raises(KeyError, match="no guesser named 'x'"):
        clear.guesser("x")


def test_points_by_giver_writes_csv_and_refuses_responses_without_givers(tmp_path: Path) -> None:
    report = points_by_giver(synthetic_giver_study(), {"g": FixedGuesser("A1")}, n_boot=50)
    report.to_csv(tmp_path / "g.csv")
    with open(tmp_path / "g.csv", newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert {(r["giver"], r["measure"]) for r in table} >= {("clear", "people"), ("vague", "g")}
    plain = HumanResponses.from_records([{"clue": "sky", "square": "A1"}], Board.standard())
    with pytest.raises(ValueError, match="no response names a clue giver"):
        points_by_giver(plain, {"g": FixedGuesser("A1")})
    bad = HumanResponses.from_records(
        [{"clue": "sky", "square": "A1", "giver": "g", "target": "Z40"}], Board.standard()
    )
    with pytest.raises(ValueError, match="target 'Z40'"):
        points_by_giver(bad, {"g": FixedGuesser("A1")})


def test_the_report_command_reads_a_giver_study(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client_for(db, giver="random", clues_per_person=4) as c:
        for _ in range(2):
            answer_all(c, start(c), ["D4", "E5", "F6", "G7"])
    assert main(["responses", "report", "--db", str(db), "--boot", "100"]) == 0
    out = capsys.readouterr().out
    assert "| random | 8 | 8 |" in out and "| default | naming |" in out.replace(" people |", "")
