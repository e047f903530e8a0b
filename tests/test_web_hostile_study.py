"""Issue 20 (a server you can put on the internet), the study: a visitor's own clue list only
when the operator allows it, and marked in the export (defect 1); hostile requests are refused
with a one-line 4xx and leave the database as it was (defects 3 and 4, and other probes).
In-process with Starlette's TestClient; every request is small and bounded."""

from __future__ import annotations

import csv
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import huescues.web
from huescues.cli import main
from huescues.web import RESPONSE_COLUMNS, StudyConfig, create_app, export_responses

STATIC = Path(__file__).parents[1] / "src" / "huescues" / "web" / "static"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "study.sqlite"


def client_for(db: Path, **config: Any) -> TestClient:
    return TestClient(create_app(db, study=StudyConfig(**config)))


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with client_for(db, clues=("banana", "lagoon"), clues_per_person=2) as c:
        yield c


@pytest.fixture
def open_client(db: Path) -> Iterator[TestClient]:
    """A server that takes visitors' clue lists."""
    with client_for(db, allow_visitor_clues=True) as c:
        yield c


def count(db: Path, table: str) -> int:
    conn = sqlite3.connect(db)
    try:
        n: int = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        return n
    finally:
        conn.close()


def participants(db: Path) -> list[sqlite3.Row]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT * FROM participants ORDER BY created").fetchall()
    finally:
        conn.close()


def start(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/study/api/start", json={"consent": True, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def answer(client: TestClient, session: dict[str, Any], square: str = "F12") -> None:
    r = client.post(
        "/study/api/answer",
        json={"participant": session["participant"], "item": 0, "square": square},
    )
    assert r.status_code == 200, r.text


def one_line_refusal(r: Any, *statuses: int) -> str:
    """The response is a refusal with one of ``statuses`` and a one-line reason."""
    assert r.status_code in statuses, (r.status_code, r.text)
    message: str = r.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# -- defect 1: visitors' clue lists -----------------------------------------------------------
def test_by_default_a_visitors_clue_list_is_refused_and_nothing_is_stored(
    client: TestClient, db: Path
) -> None:
    """Defect 1: any visitor could send their own clues, mixed untold into the researcher's."""
    before = count(db, "participants")
    for clues in ("sky,grass", "=hyperlink(1)"):
        r = client.post("/study/api/start", json={"consent": True, "clues": clues})
        assert "only its own clues" in one_line_refusal(r, 403)
    assert count(db, "participants") == before
    assert client.get("/study/api/info").json()["visitor_clues"] is False
    # The researcher's clues still start, and say so.
    session = start(client)
    assert session["item"]["clue"] in ("banana", "lagoon")
    assert [p["clue_source"] for p in participants(db)] == ["researcher"]


def test_allowed_visitor_clues_are_marked_in_the_export(
    open_client: TestClient, db: Path, tmp_path: Path
) -> None:
    """Defect 1: with allow_visitor_clues the rows of a visitor's list say clue_source visitor;
    the export's older columns keep their order, the new one after them (issue 21 appends the
    participant's columns after it)."""
    assert open_client.get("/study/api/info").json()["visitor_clues"] is True
    theirs = start(open_client, clues="sky")
    answer(open_client, theirs)
    ours = start(open_client)
    answer(open_client, ours)
    assert RESPONSE_COLUMNS[:3] == ("participant", "clue", "square")
    assert RESPONSE_COLUMNS[11:13] == ("age_range", "clue_source")
    out = tmp_path / "responses.csv"
    assert export_responses(db, out) == 2
    with out.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == RESPONSE_COLUMNS
    source = {r["participant"]: (r["clue"], r["clue_source"]) for r in rows}
    assert source[theirs["participant"]] == ("sky", "visitor")
    assert source[ours["participant"]][1] == "researcher"


def test_a_database_from_before_the_column_reads_as_the_researchers(
    db: Path, tmp_path: Path
) -> None:
    """Defect 1: an older database (no clue_source column) is upgraded in place; its
    participants read as researcher, and new ones are stored with their source."""
    conn = sqlite3.connect(db)
    conn.executescript(
        """
        CREATE TABLE participants (id TEXT PRIMARY KEY, created REAL NOT NULL,
            board TEXT NOT NULL, seed INTEGER NOT NULL, plan TEXT NOT NULL, language TEXT,
            colour_blindness TEXT, age_range TEXT);
        CREATE TABLE responses (id INTEGER PRIMARY KEY AUTOINCREMENT,
            participant TEXT NOT NULL REFERENCES participants(id), item INTEGER NOT NULL,
            clue TEXT NOT NULL, square TEXT NOT NULL, board TEXT NOT NULL, time REAL NOT NULL,
            response_ms INTEGER, giver TEXT, target TEXT, UNIQUE (participant, item));
        INSERT INTO participants VALUES
            ('old-participant-0001', 1.0, 'b', 1, '[["sky", null, null]]', NULL, NULL, NULL);
        INSERT INTO responses (participant, item, clue, square, board, time)
            VALUES ('old-participant-0001', 0, 'sky', 'A1', 'b', 1.0);
        """
    )
    conn.close()
    out = tmp_path / "responses.csv"
    assert export_responses(db, out) == 1  # the export alone upgrades it
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = list(csv.DictReader(f))
    assert row["clue_source"] == "researcher"
    with client_for(db, allow_visitor_clues=True) as c:
        start(c, clues="grass")
    assert [p["clue_source"] for p in participants(db)] == ["researcher", "visitor"]


def test_serve_takes_allow_visitor_clues(monkeypatch: pytest.MonkeyPatch, db: Path) -> None:
    """Defect 1: huescues serve --allow-visitor-clues; without it, StudyConfig's default (off)."""
    seen: list[StudyConfig] = []

    def fake_serve(host: str, port: int, path: str, *, study: StudyConfig, **kw: object) -> None:
        seen.append(study)

    monkeypatch.setattr(huescues.web, "serve", fake_serve)
    assert main(["serve", "--db", str(db)]) == 0
    assert main(["serve", "--db", str(db), "--allow-visitor-clues"]) == 0
    assert [s.allow_visitor_clues for s in seen] == [False, True]


def test_serve_takes_allow_seed_and_idle_timeout(monkeypatch: pytest.MonkeyPatch, db: Path) -> None:
    """Issue 20, defect 3: a chosen seed only where the operator allows it (--allow-seed);
    defect 1: the idle time after which a table expires (--idle-timeout)."""
    seen: list[Any] = []

    def fake_serve(host: str, port: int, path: str, *, tables: Any, **kw: object) -> None:
        seen.append(tables)

    monkeypatch.setattr(huescues.web, "serve", fake_serve)
    assert main(["serve", "--db", str(db)]) == 0
    assert main(["serve", "--db", str(db), "--allow-seed", "--idle-timeout", "60"]) == 0
    assert [(t.allow_seed, t.idle_timeout) for t in seen] == [(False, 1800.0), (True, 60.0)]
    # Issue 21 item 1: how long a reveal waits for the people at a table, the server's default.
    assert main(["serve", "--db", str(db), "--reveal-pause", "15"]) == 0
    assert [t.reveal_pause for t in seen] == [60.0, 60.0, 15.0]


def test_the_page_sends_the_addresss_clues_only_to_a_server_that_takes_them() -> None:
    """Defect 1: study.js reads info.visitor_clues and sends ?clues= only when it is true."""
    js = (STATIC / "study.js").read_text(encoding="utf-8")
    assert "state.visitorClues = info.visitor_clues === true" in js
    assert "if (clues && state.visitorClues) body.clues = clues;" in js


# -- defects 3 and 4, and other hostile requests ---------------------------------------------
ENDPOINTS = (
    "/study/api/start",
    "/study/api/answer",
    "/study/api/resume",
    "/study/api/give",
    "/study/api/check",
)


@pytest.fixture
def hostile(db: Path) -> Iterator[TestClient]:
    """A server that takes visitors' clues, with room for many requests from one address; a
    server error is answered as a 500, not raised, as a real server would."""
    config = StudyConfig(allow_visitor_clues=True, rate=1000.0, burst=1000)
    with TestClient(create_app(db, study=config), raise_server_exceptions=False) as c:
        yield c


def send(client: TestClient, url: str, body: bytes) -> Any:
    return client.post(url, content=body, headers={"content-type": "application/json"})


@pytest.mark.parametrize("url", ENDPOINTS)
def test_deeply_nested_json_is_refused_not_a_server_error(
    hostile: TestClient, db: Path, url: str
) -> None:
    """Defect 3: 4 KB of "[" was a RecursionError and a 500."""
    for body in (b"[" * 4000, b"[" * 2000 + b"]" * 2000, b'{"participant":' + b"[" * 4000):
        assert len(body) <= 4096
        assert "nested too deeply" in one_line_refusal(send(hostile, url, body), 400)
    assert count(db, "participants") == 0


@pytest.mark.parametrize(
    "body",
    [
        # The JSON text holds the escape: backslash, u, d, 8, 0, 0.
        b'{"consent": true, "clues": "\\ud800"}',
        b'{"consent": true, "clues": "sky,\\udfff grass"}',
        b'{"consent": true, "language": "\\ud800"}',
        b'{"consent": true, "colour_blindness": "\\ud800"}',
        b'{"consent": true, "age_range": "\\udc00"}',
        b'{"consent": true, "\\ud800": 1}',
    ],
)
def test_a_lone_surrogate_is_refused_before_anything_is_stored(
    hostile: TestClient, db: Path, body: bytes
) -> None:
    """Defect 4: a lone surrogate in a clue list was stored, then the answer failed to encode:
    a 500 and an orphan participant."""
    assert b"\\ud" in body  # the escape itself, not an encoded character
    assert "lone surrogate" in one_line_refusal(send(hostile, "/study/api/start", body), 400)
    assert count(db, "participants") == 0


def test_a_lone_surrogate_in_an_answer_or_a_resume_is_refused(
    hostile: TestClient, db: Path
) -> None:
    """Defect 4: every text field of every study request is checked."""
    session = start(hostile)
    p = session["participant"].encode()
    for url, body in [
        ("/study/api/answer", b'{"participant": "%s", "item": 0, "square": "\\ud800"}' % p),
        ("/study/api/answer", b'{"participant": "\\ud800", "item": 0, "square": "A1"}'),
        ("/study/api/resume", b'{"participant": "\\udbff"}'),
    ]:
        one_line_refusal(send(hostile, url, body), 400)
    assert count(db, "responses") == 0 and count(db, "participants") == 1


@pytest.mark.slow
@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize(
    "body",
    [b"\xff\xfe{}", b'{"consent": true, "clues": "\xff"}', b'{"participant": "\xc3("}', b"\x80"],
)
def test_a_body_that_is_not_utf8_is_refused(
    hostile: TestClient, db: Path, url: str, body: bytes
) -> None:
    """Defect 4: a body of invalid UTF-8 is a 400, and stores nothing."""
    assert "not JSON in UTF-8" in one_line_refusal(send(hostile, url, body), 400)
    assert count(db, "participants") == 0


def test_control_characters_in_a_visitors_clues_are_refused(hostile: TestClient, db: Path) -> None:
    """A NUL or an escape sequence is no clue; it would be shown, stored and exported."""
    for clues in ("a\x00b", "\x1b[31mred", "sky,\x7f"):
        r = hostile.post("/study/api/start", json={"consent": True, "clues": clues})
        assert "control character" in one_line_refusal(r, 400)
    assert count(db, "participants") == 0
    with pytest.raises(ValueError, match="control character"):
        StudyConfig(clues=("sky", "\udcff"))  # a command line of bad UTF-8


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fields", "status"),
    [
        (b'"item": 1e400, "square": "A1"', 400),  # infinity
        (b'"item": NaN, "square": "A1"', 400),
        (b'"item": -1, "square": "A1"', 400),
        (b'"item": 0.0, "square": "A1"', 400),
        (b'"item": true, "square": "A1"', 400),
        (b'"item": 99999999999999999999999, "square": "A1"', 409),  # past SQLite's INTEGER
        (b'"item": -99999999999999999999999, "square": "A1"', 400),
        (b'"item": 0, "square": "A1", "ms": 99999999999999999999999', 400),
        (b'"item": 0, "square": "A1", "ms": 1e400', 400),
        (b'"item": 0, "square": "A1", "ms": -1', 400),
        (b'"item": 0, "square": ["A1"]', 400),
        (b'"item": 0, "square": "A99999999999999999999"', 400),
        (b'"item": 0, "square": "Z1"', 400),
        (b'"item": 0, "square": "' + b"A1" * 1000 + b'"', 400),
    ],
)
def test_hostile_numbers_and_squares_in_an_answer_are_refused(
    hostile: TestClient, db: Path, fields: bytes, status: int
) -> None:
    """Numbers past any integer column and squares off the board never reach the database."""
    session = start(hostile)
    body = b'{"participant": "%s", %s}' % (session["participant"].encode(), fields)
    one_line_refusal(send(hostile, "/study/api/answer", body), status)
    assert count(db, "responses") == 0
    answer(hostile, session)  # the session is unharmed
    assert count(db, "responses") == 1


@pytest.mark.parametrize("url", ["/study/api/answer", "/study/api/resume"])
def test_a_participant_of_the_right_shape_that_does_not_exist_is_not_found(
    hostile: TestClient, db: Path, url: str
) -> None:
    body = {"participant": "A" * 24, "item": 0, "square": "A1"}
    if url.endswith("resume"):
        del body["item"], body["square"]
    assert "no such participant" in one_line_refusal(hostile.post(url, json=body), 404)
    assert count(db, "responses") == 0 and count(db, "participants") == 0


@pytest.mark.slow
@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize(
    "body",
    [b"", b"null", b"[]", b'"text"', b"1" * 4000, b"{" * 4000, b'{"consent": true,}', b"NaN"],
)
def test_json_that_is_not_an_object_is_refused(
    hostile: TestClient, db: Path, url: str, body: bytes
) -> None:
    one_line_refusal(send(hostile, url, body), 400)
    assert count(db, "participants") == 0


@pytest.mark.parametrize("length", [b"-1", b" 5", b"\xb2", b"5e3", b"0x10"])
def test_a_content_length_that_is_not_a_number_is_refused(
    hostile: TestClient, length: bytes
) -> None:
    r = hostile.post(
        "/study/api/resume",
        content=b"{}",
        headers={"content-type": "application/json", "content-length": length},
    )
    one_line_refusal(r, 400, 413)


def test_oversized_and_odd_fields_at_the_start_are_refused(hostile: TestClient, db: Path) -> None:
    for body in [
        {"consent": "true"},
        {"consent": 1},
        {"consent": True, "clues": ",".join(["x"] * 51)},
        {"consent": True, "clues": "x" * 61},
        {"consent": True, "clues": ["sky"]},
        {"consent": True, "clues": {"sky": 1}},
        {"consent": True, "language": "x" * 41},
        {"consent": True, "language": ["English"]},
        {"consent": True, "language": "=cmd|' /C calc'!A0"},
        {"consent": True, "colour_blindness": ["no"]},
        {"consent": True, "age_range": 30},
        {"consent": True, "participant": "A" * 24},
    ]:
        one_line_refusal(hostile.post("/study/api/start", json=body), 400)
    assert count(db, "participants") == 0


def test_participant_ids_never_start_with_a_dash(
    hostile: TestClient, db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20, defect 2: the export quotes a cell starting with "-"; an id (1 in 64 of
    token_urlsafe's) would read back quoted by any tool but huescues'. Such a draw is redrawn."""
    draws = iter(["-" + "a" * 23, "b" * 24])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(draws))
    session = start(hostile)
    assert session["participant"] == "b" * 24
    answer(hostile, session)
    out = tmp_path / "responses.csv"
    export_responses(db, out)
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = list(csv.DictReader(f))
    assert row["participant"] == "b" * 24


def test_an_ipv6_visitor_cannot_pass_for_many_by_changing_address(tmp_path: Path) -> None:
    """The study's start limit counts an IPv6 client by its /64 network, as a home or phone
    holds a whole /64 and could start sessions from a new address each time."""
    app = create_app(tmp_path / "s.sqlite", study=StudyConfig(starts_per_minute=2))
    started = []
    for i in range(3):
        client = TestClient(app, client=(f"2001:db8:5:6::{i + 1:x}", 5000))
        started.append(client.post("/study/api/start", json={"consent": True}).status_code)
    assert started == [201, 201, 429]
