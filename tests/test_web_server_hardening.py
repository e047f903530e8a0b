"""Issue 30, the server tried as an attacker would, in the server's own process (a real uvicorn
on loopback in a thread, or Starlette's test client; every loop bounded in count and time): a
write the database cannot take, another process holding the write lock, tables made to jam the
cap, bad input, the giving study's secret order, and the seat links."""

from __future__ import annotations

import hashlib
import json
import logging
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

pytest.importorskip("websockets")
import uvicorn
from websockets.sync.client import connect

from huescues.web import Database, StudyConfig, TableSettings, create_app, server_config
from serve_process import environment, request
from test_web_abuse import _bench
from test_web_tables import _join, _next, _registry
from web_server import until

#: benchmarks/bench_web_abuse.py: another process holding the write lock.
BENCH = _bench()

SEATS = [{"kind": "person", "name": "Ann"}, {"kind": "random"}, {"kind": "random"}]
SECURITY = ("content-security-policy", "x-content-type-options", "x-frame-options")


@contextmanager
def _server(app: Any) -> Iterator[int]:
    """``app`` served by uvicorn with ``huescues serve``'s configuration on a free loopback port,
    in a thread; its port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(server_config(app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@contextmanager
def _joined(port: int, token: str) -> Iterator[Any]:
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        until(ws, "welcome")
        yield ws


# -- 3. a bot's move that cannot be stored -------------------------------------------------------
def _fill(db: Database) -> None:
    """Fill the database to its page limit (``PRAGMA max_page_count``, as a full disk does), so
    that the next row added to ``actions`` needs a page it cannot have."""
    with db._lock:  # private: the server's own connection, as a full disk would meet it
        conn = db._conn
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 4}")
        n = 10**6
        for size in (2000, 500, 100, 20, 1):
            while _added(conn, n, "x" * size):
                n += 1


def _added(conn: sqlite3.Connection, n: int, filler: str) -> bool:
    try:
        conn.execute(
            "INSERT INTO actions (game, n, seat, action) VALUES ('~filler', ?, 0, ?)", (n, filler)
        )
    except sqlite3.OperationalError as e:
        if "full" not in str(e):
            raise
        return False
    return True


def _unfill(db: Database) -> None:
    with db._lock:
        db._conn.execute("PRAGMA max_page_count = 1073741823")
        db._conn.execute("DELETE FROM actions WHERE game = '~filler'")


def test_a_bots_move_that_cannot_be_stored_is_retried_until_the_disk_has_room(
    tmp_path: Path,
) -> None:
    """The table plays on once storage works again, and its people see that the server is
    retrying meanwhile; the move is kept once (the game replays)."""
    settings = TableSettings(bot_delay=0.3, reveal_pause=0, allow_seed=True)
    app = create_app(tmp_path / "full.sqlite", tables=settings)
    db: Database = app.state.db
    with TestClient(app) as client:
        body = {"seats": [{"kind": "random"}, {"kind": "person"}, {"kind": "random"}], "seed": 5}
        answer = client.post("/api/tables", json=body).json()
        table = _registry(app).tables[answer["table"]]
        with _join(client, answer["seats"][1]["token"]) as ws:
            _next(ws, "state", until=lambda m: m["ready"])
            _fill(db)  # before the first bot's move (0.3 s after the start)
            retrying = _next(ws, "state", until=lambda m: m["storage"] == "retrying")
            assert retrying["phase"] == "choose_target"  # nothing was played
            time.sleep(1.0)
            assert table.state.phase.value == "choose_target" and not table.errors
            _unfill(db)
            moved = _next(ws, "state", until=lambda m: m["phase"] == "first_clue")
            assert moved["storage"] == "ok"
        stored = db.query("SELECT n FROM actions WHERE game = ? ORDER BY n", (answer["table"],))
    numbers = [r["n"] for r in stored]
    assert numbers and numbers == list(range(len(numbers)))  # each move kept once, in order


def test_a_bots_move_waits_out_another_process_holding_the_lock(tmp_path: Path) -> None:
    """The database locked by another process for longer than a write waits (1 s): the move is
    tried again, and kept once the lock is gone."""
    db_path = tmp_path / "locked.sqlite"
    settings = TableSettings(bot_delay=0.3, reveal_pause=0, allow_seed=True)
    app = create_app(db_path, tables=settings)
    with TestClient(app) as client:
        body = {"seats": [{"kind": "random"}, {"kind": "person"}, {"kind": "random"}], "seed": 5}
        answer = client.post("/api/tables", json=body).json()
        with _join(client, answer["seats"][1]["token"]) as ws:
            _next(ws, "state", until=lambda m: m["ready"])
            with BENCH.lock_held(db_path, 3.0):
                retrying = _next(ws, "state", until=lambda m: m["storage"] == "retrying")
                assert retrying["phase"] == "choose_target"
            moved = _next(ws, "state", until=lambda m: m["phase"] == "first_clue")
            assert moved["storage"] == "ok"


# -- 4. the event loop while another process holds the lock -------------------------------------
@pytest.mark.slow
def test_another_process_holding_the_lock_slows_nothing_that_needs_no_write(
    tmp_path: Path,
) -> None:
    """A study answer waited on the event loop for the lock (5 s), freezing every socket. Now:
    the answer is a 503 with Retry-After after about a second, /healthz answers within 2 s, and
    live checks and joins at a table answer as fast as before."""
    db_path = tmp_path / "busy.sqlite"
    app = create_app(db_path, tables=TableSettings(bot_delay=0, reveal_pause=0))
    with _server(app) as port:
        _, start, _ = request(port, "POST", "/study/api/start", {"consent": True})
        status, body, _ = request(port, "POST", "/api/tables", {"seats": SEATS})
        token = body["seats"][0]["token"]
        with _joined(port, token) as ws:
            with BENCH.lock_held(db_path, 6.0):
                results: dict[str, Any] = {}

                def answer() -> None:
                    began = time.monotonic()
                    body = {"participant": start["participant"], "item": 0, "square": "F12"}
                    results["answer"] = (*request(port, "POST", "/study/api/answer", body),
                                         time.monotonic() - began)  # fmt: skip

                worker = threading.Thread(target=answer)
                worker.start()
                took = []
                for i in range(20):
                    began = time.monotonic()
                    ws.send(json.dumps({"type": "check", "text": f"lagoon{i}"}))
                    until(ws, "check")
                    took.append(time.monotonic() - began)
                    time.sleep(0.05)
                began = time.monotonic()
                health = request(port, "GET", "/healthz", timeout=5)
                health_took = time.monotonic() - began
                join_began = time.monotonic()
                with _joined(port, token):
                    join_took = time.monotonic() - join_began
                worker.join(10)
            status, reply, headers, answer_took = results["answer"]
    assert status == 503 and headers.get("retry-after") == "2", reply
    assert "locked" in reply["error"] and 0.8 < answer_took < 2.5
    assert health_took < 2.0 and health[0] == 503 and "lock" in health[1]["database"]
    assert sorted(took)[18] < 0.5, took  # p95 of the checks while the lock is held
    assert join_took < 1.0


def test_a_database_call_on_the_event_loop_is_refused() -> None:
    import asyncio

    db = Database(":memory:", schema=["CREATE TABLE t (x INTEGER)"])

    async def on_the_loop() -> None:
        db.query("SELECT 1")

    with pytest.raises(RuntimeError, match="a database call on the event loop"):
        asyncio.run(on_the_loop())

    async def off_the_loop() -> list[Any]:
        return await db.read(db.query, "SELECT 1 AS one")

    assert asyncio.run(off_the_loop())[0]["one"] == 1
    db.close()


# -- 5. table creation cannot be jammed ----------------------------------------------------------
def test_at_the_cap_tables_no_one_joined_make_room_for_a_new_one(tmp_path: Path) -> None:
    settings = TableSettings(bot_delay=0, reveal_pause=0, max_tables=6, max_tables_per_address=2)
    app = create_app(tmp_path / "cap.sqlite", tables=settings)
    with TestClient(app, client=("198.51.100.9", 1)) as person:
        answer = person.post("/api/tables", json={"seats": SEATS}).json()
        with _join(person, answer["seats"][0]["token"]):
            pass  # a person came: this table is kept
        made = []
        for address in ("203.0.113.1", "203.0.113.2", "203.0.113.3"):
            jammer = TestClient(app, client=(address, 1))
            for _ in range(2):
                response = jammer.post("/api/tables", json={"seats": SEATS})
                if response.status_code == 200:
                    made.append(response.json()["table"])
        # Every one was made: at the cap (6 in play), the oldest table no one joined made room.
        assert len(made) == 6
        fresh = TestClient(app, client=("192.0.2.50", 1)).post("/api/tables", json={"seats": SEATS})
        assert fresh.status_code == 200, fresh.text
        tables = _registry(app).tables
        assert answer["table"] in tables  # the table a person joined stays
        assert made[0] not in tables and made[1] not in tables and made[2] in tables
        assert len([t for t in tables.values() if not t.state.is_terminal]) == 6


def test_a_table_no_one_joined_expires_within_its_timeout(tmp_path: Path) -> None:
    settings = TableSettings(bot_delay=0, reveal_pause=0, idle_timeout=1800, unjoined_timeout=0.4)
    app = create_app(tmp_path / "u.sqlite", tables=settings)
    with TestClient(app) as client:
        lonely = client.post("/api/tables", json={"seats": SEATS}).json()
        visited = client.post("/api/tables", json={"seats": SEATS}).json()
        with _join(client, visited["seats"][0]["token"]):
            pass
        deadline = time.monotonic() + 5
        while client.get(f"/api/tables/{lonely['table']}").status_code != 404:
            assert time.monotonic() < deadline, "the unjoined table did not expire"
            time.sleep(0.1)
        assert client.get(f"/api/tables/{visited['table']}").status_code == 200


def test_a_silent_joined_socket_does_not_keep_a_table_for_ever(tmp_path: Path) -> None:
    """One joined socket that never speaks nor answers the server's pings: its person is away
    after ``away_after``, and the table is swept by the idle timeout; a socket that answers the
    pings keeps its table."""
    settings = TableSettings(bot_delay=0, reveal_pause=0, idle_timeout=1.0, away_after=0.9)
    app = create_app(tmp_path / "s.sqlite", tables=settings)
    with _server(app) as port:
        silent = request(port, "POST", "/api/tables", {"seats": SEATS})[1]
        alive = request(port, "POST", "/api/tables", {"seats": SEATS})[1]
        with (
            _joined(port, silent["seats"][0]["token"]) as quiet,
            _joined(port, alive["seats"][0]["token"]) as answering,
        ):
            deadline = time.monotonic() + 10
            while request(port, "GET", f"/api/tables/{silent['table']}")[0] != 404:
                assert time.monotonic() < deadline, "the silent socket kept its table"
                if _pong_if_pinged(answering):
                    continue
                time.sleep(0.05)
            for _ in range(20):  # 2 s more of the answering one
                _pong_if_pinged(answering)
                time.sleep(0.1)
            assert request(port, "GET", f"/api/tables/{alive['table']}")[0] == 200
            assert quiet is not None


def _pong_if_pinged(ws: Any) -> bool:
    try:
        msg = json.loads(ws.recv(timeout=0.05))
    except TimeoutError:
        return False
    if msg["type"] == "ping":
        ws.send(json.dumps({"type": "pong"}))
    return True


# -- 7. bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [["person"], {"a": 1}, 7, None])
def test_a_seat_kind_that_is_no_text_is_a_400_with_the_security_headers(
    kind: Any, tmp_path: Path
) -> None:
    with TestClient(create_app(tmp_path / "k.sqlite")) as client:
        body = {"seats": [{"kind": "person"}, {"kind": kind}, {"kind": "random"}]}
        response = client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    assert "seat 1: kind" in response.json()["error"]
    assert all(h in response.headers for h in SECURITY)


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "check"}, "a check message needs 'text', a string"),
        ({"type": "check", "text": ["lagoon"]}, "a check message needs 'text', a string"),
        ({"type": "clue", "text": 5}, "a clue message needs 'text', a string"),
        ({"type": "target", "index": "1"}, "choose a square of the card"),
        ({"type": "target", "index": True}, "choose a square of the card"),
        ({"type": "pawn", "cell": {"row": 1}}, "a square's name"),
        ({"type": "pawn"}, "a square's name"),
        ({"type": "wave"}, "unknown message type 'wave'"),
        ({"type": 7}, "a JSON object with a 'type'"),
        (["check"], "a JSON object with a 'type'"),
    ],
)
def test_a_bad_message_on_a_joined_socket_is_an_error_and_the_socket_stays_open(
    message: Any, words: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = TableSettings(bot_delay=0, reveal_pause=0)
    with TestClient(create_app(tmp_path / "m.sqlite", tables=settings)) as client:
        answer = client.post("/api/tables", json={"seats": SEATS}).json()
        with _join(client, answer["seats"][0]["token"]) as ws:
            _next(ws, "state")
            ws.send_text(json.dumps(message))
            refused = _next(ws, "error")
            assert words in refused["message"], refused
            ws.send_text(json.dumps({"type": "check", "text": "lagoon"}))
            assert _next(ws, "check")["ok"] in (True, False)  # still open, still answered
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_failure_is_a_500_with_the_headers_and_an_id_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(tmp_path / "bug.sqlite")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the server")

    monkeypatch.setattr(_registry(app), "create", broken)
    with _server(app) as port, caplog.at_level(logging.INFO):
        status, body, headers = request(port, "POST", "/api/tables", {"seats": SEATS})
    assert status == 500 and all(h in headers for h in SECURITY)
    ident = body["error"].split("failure ")[1].split(")")[0]
    logged = [r for r in caplog.records if ident in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None
    assert not [r for r in caplog.records if "Exception in ASGI application" in r.getMessage()]


def test_uvicorns_own_answers_carry_the_security_headers(tmp_path: Path) -> None:
    with _server(create_app(tmp_path / "h.sqlite")) as port:
        for raw in (
            b"THIS IS NOT HTTP\r\n\r\n",  # uvicorn's 400
            # A WebSocket handshake without its key: the WebSocket protocol's 400.
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n",
        ):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(raw)
                answer = b""
                while b"\r\n\r\n" not in answer:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
            head = answer.split(b"\r\n\r\n")[0].decode().lower()
            assert head.startswith("http/1.1 400"), head
            assert all(h in head for h in SECURITY), head


# -- 9. the giving study's targets --------------------------------------------------------------
def test_the_giving_studys_targets_cannot_be_worked_out_from_the_participants_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two studies given the same participant code draw different targets (each from its own
    secret), and neither matches what the code alone gave (sha256 of it, the old seed)."""
    from huescues.web import _study  # private: the participant's code is fixed for the test

    code = "a-fixed-participant-code-01"
    monkeypatch.setattr(_study.secrets, "token_urlsafe", lambda n: code)
    plans = []
    for name in ("one", "two"):
        app = create_app(tmp_path / f"{name}.sqlite", study=StudyConfig(targets_per_person=5))
        with TestClient(app) as client:
            start = client.post("/study/api/start", json={"consent": True, "kind": "give"})
            assert start.json()["participant"] == code
            assert "secret" not in start.text
            stored = app.state.db.query("SELECT plan FROM participants")[0]["plan"]
            # A stored item: [clue, giver, target, kind, swatches].
            plans.append([i[2] for i in json.loads(stored) if i[3] == "give"])
    assert plans[0] != plans[1]
    old = int.from_bytes(hashlib.sha256(code.encode()).digest()[:8], "big") >> 1
    board_cells = 16 * 30
    worked_out = np.random.default_rng(old).permutation(board_cells)[:5].tolist()
    from huescues.engine import Board

    cells = [str(c) for c in Board.standard().cells()]
    assert [cells[i] for i in worked_out] not in plans


# -- links --------------------------------------------------------------------------------------
def test_seat_links_start_with_the_public_url(tmp_path: Path) -> None:
    app = create_app(tmp_path / "l.sqlite", public_url="https://games.example.org")
    with TestClient(app) as client:
        seats = client.post("/api/tables", json={"seats": SEATS}).json()["seats"]
    assert seats[0]["link"] == f"https://games.example.org/play#t={seats[0]['token']}"
    assert [s["link"] for s in seats[1:]] == [None, None]


def test_seat_links_follow_the_request_and_leave_the_loopback_on_a_server_for_the_lan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from huescues.web import _links  # private: the machine's LAN address is fixed for the test

    monkeypatch.setattr(_links, "lan_addresses", lambda: ["192.168.1.23"])
    lan = create_app(tmp_path / "lan.sqlite", host="0.0.0.0")
    with TestClient(lan, base_url="http://127.0.0.1:8000") as client:
        seat = client.post("/api/tables", json={"seats": SEATS}).json()["seats"][0]
        named = client.post(
            "/api/tables", json={"seats": SEATS}, headers={"Host": "friends.example:8000"}
        ).json()["seats"][0]
    assert seat["link"] == f"http://192.168.1.23:8000/play#t={seat['token']}"
    assert named["link"] == f"http://friends.example:8000/play#t={named['token']}"
    local = create_app(tmp_path / "local.sqlite")
    with TestClient(local, base_url="http://127.0.0.1:8000") as client:
        seat = client.post("/api/tables", json={"seats": SEATS}).json()["seats"][0]
    assert seat["link"] == f"http://127.0.0.1:8000/play#t={seat['token']}"


@pytest.mark.parametrize(
    "url", ["ftp://example.org", "https://example.org/games", "example.org", "https://x.org?a=1"]
)
def test_a_public_url_with_a_path_or_without_http_is_refused_at_start(
    url: str, tmp_path: Path
) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "huescues", "serve", "--port", "0", "--db",
         str(tmp_path / "p.sqlite"), "--public-url", url],
        capture_output=True, env=environment(), timeout=30,
    )  # fmt: skip
    err = run.stderr.decode()
    assert run.returncode == 2 and err.count("\n") == 1 and "--public-url" in err, err
    assert not (tmp_path / "p.sqlite").exists()  # refused before anything was made


def test_serve_says_its_first_line_as_before_then_the_other_addresses(tmp_path: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "huescues", "serve", "--port", "0", "--db",
         str(tmp_path / "a.sqlite"), "--public-url", "https://games.example.org/"],
        stdout=subprocess.PIPE, env=environment(),
    ) as proc:  # fmt: skip
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline().decode()
            second = proc.stdout.readline().decode()
        finally:
            proc.kill()
    assert first.startswith("huescues serve: http://127.0.0.1:") and "(study: " in first
    assert second == "huescues serve: also at https://games.example.org/\n"


def test_a_log_message_repeated_in_a_flood_is_let_through_five_times_then_counted() -> None:
    from huescues.web._logs import RepeatFilter  # private: its window is shortened

    quiet = RepeatFilter(burst=5, window=0.2)

    def record(text: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, text, None, None)

    floods = [record("socket.accept() out of system resource") for _ in range(100)]
    assert sum(quiet.filter(r) for r in floods) == 5
    assert quiet.filter(record("another message"))  # each kind has its own count
    time.sleep(0.25)
    after = record("socket.accept() out of system resource")
    assert quiet.filter(after) and "95 more like this were not logged" in after.getMessage()
