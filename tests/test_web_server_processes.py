"""Issue 30, the server as an attacker with a script finds it, each against a real ``huescues
serve`` process on loopback (every loop bounded in count and time): compressed and oversized
frames, two servers on one database, many idle connections under a low open-file limit, and
databases that are not the server's."""

from __future__ import annotations

import json
import os
import resource
import socket
import sqlite3
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

pytest.importorskip("websockets")
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from huescues.web import TableSettings, create_app
from serve_process import command, environment, request, serve_process
from test_web_abuse import _bench
from test_web_tables import _join, _play_person
from web_server import until

#: benchmarks/bench_web_abuse.py: its hand-made WebSocket frames.
BENCH = _bench()

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127/8 and /proc: Linux"),
]

SEATS = [{"kind": "person", "name": "Ann"}, {"kind": "random"}, {"kind": "random"}]
SECURITY = ("content-security-policy", "x-content-type-options", "x-frame-options")


def _table(port: int) -> str:
    status, body, _ = request(port, "POST", "/api/tables", {"seats": SEATS})
    assert status == 200, body
    token: str = body["seats"][0]["token"]
    return token


@contextmanager
def _joined(port: int, token: str, **options: Any) -> Iterator[Any]:
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, **options) as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        until(ws, "welcome")
        yield ws


# -- 1. frames ------------------------------------------------------------------------------------
def test_a_frame_over_64_kib_is_closed_with_1009_and_a_smaller_big_message_is_refused(
    tmp_path: Path,
) -> None:
    with serve_process(tmp_path / "f.sqlite") as server:
        token = _table(server.port)
        with _joined(server.port, token, compression=None, max_size=None) as ws:
            # 4,097 B to 64 KiB: an error, and the socket stays open.
            big = json.dumps({"type": "check", "text": "x" * 10_000})
            ws.send(big)
            refused = until(ws, "error")["message"]
            assert f"message refused: {len(big)} bytes" in refused and "4096" in refused
            ws.send(json.dumps({"type": "check", "text": "lagoon"}))
            assert until(ws, "check")["text"] == "lagoon"
            # Over 64 KiB: closed with 1009 (message too big) before its payload is read.
            ws.send("x" * (64 * 1024 + 1))
            with pytest.raises(ConnectionClosed) as closed:
                until(ws, "never")
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_no_compression_is_negotiated_and_a_compressed_frame_is_refused_unread(
    tmp_path: Path,
) -> None:
    """The attack that took the server from 53 to 990 MiB: frames of a few KiB that inflate to
    megabytes. Compression is not offered back, and a frame sent compressed anyway is a protocol
    error: the connection is closed, nothing inflated."""
    with serve_process(tmp_path / "c.sqlite") as server:
        token = _table(server.port)
        with _joined(server.port, token) as ws:  # the client offers permessage-deflate
            assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
        before = server.rss_kib()["VmRSS"]
        bomb = zlib.compressobj(wbits=-15)
        payload = bomb.compress(b" " * (8 << 20)) + bomb.flush(zlib.Z_SYNC_FLUSH)
        payload = payload[:-4]  # permessage-deflate drops the sync flush's tail
        codes = []
        for i in range(60):  # 60 sockets from 2 addresses, two frames each
            codes.append(BENCH.send_frames(server.port, f"127.0.0.{2 + i % 2}", payload, rsv1=True))
        assert set(codes) == {1002}, codes  # a protocol error, unread
        grown = server.rss_kib()["VmHWM"] - before
        assert grown < 20 * 1024, f"the server grew by {grown} KiB"
        assert request(server.port, "GET", "/healthz")[0] == 200


def test_big_frames_from_many_sockets_leave_the_memory_bounded(tmp_path: Path) -> None:
    with serve_process(tmp_path / "m.sqlite") as server:
        token = _table(server.port)
        with _joined(server.port, token):
            pass
        before = server.rss_kib()["VmRSS"]
        payload = os.urandom(1 << 20)
        for i in range(30):
            assert (
                BENCH.send_frames(server.port, f"127.0.1.{1 + i % 3}", payload, rsv1=False) == 1009
            )
        grown = server.rss_kib()["VmHWM"] - before
        assert grown < 20 * 1024, f"30 frames of 1 MiB grew the server by {grown} KiB"


# -- 2. one server per database --------------------------------------------------------------------
def _finished_game(db: Path) -> None:
    """A database holding one finished game, played by a scripted person in process."""
    # (No message limit: the scripted person answers as fast as the bots play; on a busy machine
    # its moves and pongs came in a burst the limit refused.)
    settings = TableSettings(
        bot_delay=0, reveal_pause=0, bot_time_limit=5, message_rate=1000.0, message_burst=1000.0
    )
    app = create_app(db, tables=settings)
    with TestClient(app) as client:
        body = {"seats": SEATS, "house_rules": {"rounds_per_giver": 1}}
        token = client.post("/api/tables", json=body).json()["seats"][0]["token"]
        with _join(client, token) as ws:
            assert _play_person(ws, 0, [])["phase"] == "game_over"


def test_a_second_server_on_a_database_in_use_refuses_and_a_killed_one_does_not_hold_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "same.sqlite"
    _finished_game(db)
    with serve_process(db) as first:
        began = time.monotonic()
        second = subprocess.run(command(db), capture_output=True, env=environment(), timeout=20)
        assert time.monotonic() - began < 20
        err = second.stderr.decode()
        assert second.returncode == 2, err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert str(db) in err and "another huescues serve holds it" in err
        assert b"huescues serve: http" not in second.stdout  # it never said it was serving
        assert request(first.port, "GET", "/healthz")[0] == 200
        # The commands that only read read a held database freely.
        out = tmp_path / "rounds.csv"
        export = subprocess.run(
            [sys.executable, "-m", "huescues", "responses", "export", "--db", str(db),
             "--out", str(out), "--kind", "games"],
            capture_output=True, env=environment(), timeout=60,
        )  # fmt: skip
        assert export.returncode == 0, export.stderr
        assert len(out.read_text().splitlines()) > 1
        replay = subprocess.run(
            [sys.executable, "-m", "huescues", "replay", str(db)],
            capture_output=True, env=environment(), timeout=60,
        )  # fmt: skip
        assert replay.returncode == 0 and b"Ann" in replay.stdout, replay.stderr
        first.proc.kill()  # kill -9: the system lets its lock go
        first.proc.wait(10)
    with serve_process(db) as again:
        assert request(again.port, "GET", "/healthz")[0] == 200


# -- 6. the connection cap ----------------------------------------------------------------------
def _file_limit(n: int) -> Any:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))

    return apply


def test_many_idle_connections_under_a_low_file_limit_are_refused_with_503(
    tmp_path: Path,
) -> None:
    """1,116 idle connections under ulimit -n 1024 made /healthz time out and wrote 48,000
    tracebacks. Under a limit of 256 the default cap is 192: more are refused at once with a 503
    carrying the security headers, the log stays small, and once they go the server answers."""
    with serve_process(tmp_path / "n.sqlite", preexec=_file_limit(256)) as server:
        held: list[socket.socket] = []
        try:
            for i in range(190):  # 5 addresses, under the 64 each an address may hold
                held.append(
                    socket.create_connection(
                        ("127.0.0.1", server.port), timeout=5,
                        source_address=(f"127.0.2.{1 + i % 5}", 0),
                    )
                )  # fmt: skip
            refused = 0
            for i in range(60):
                conn = socket.create_connection(
                    ("127.0.0.1", server.port), timeout=5, source_address=(f"127.0.3.{1 + i}", 0)
                )
                held.append(conn)
                answer = _read_all(conn)
                if answer.startswith(b"HTTP/1.1 503"):
                    refused += 1
                    head = answer.split(b"\r\n\r\n")[0].decode().lower()
                    assert all(h in head for h in SECURITY), head
                    assert b"as many connections as it can hold" in answer
            assert refused >= 55  # (a few may be counted before the first are)
            status, _, headers = request(server.port, "GET", "/healthz", timeout=5)
            assert status == 503 and all(h in headers for h in SECURITY)
        finally:
            for conn in held:
                conn.close()
        deadline = time.monotonic() + 15
        while request(server.port, "GET", "/healthz", timeout=5)[0] != 200:
            assert time.monotonic() < deadline, "the server did not answer again"
            time.sleep(0.2)
        err = server.err()
        assert "Too many open files" not in err and len(err) < 20_000, err[-2000:]


def _read_all(conn: socket.socket) -> bytes:
    data = b""
    conn.settimeout(0.5)
    try:
        while chunk := conn.recv(4096):
            data += chunk
    except TimeoutError:
        pass
    return data


def test_max_connections_at_the_file_limit_is_refused_at_start(tmp_path: Path) -> None:
    run = subprocess.run(
        command(tmp_path / "x.sqlite", "--max-connections", "256"),
        capture_output=True, env=environment(), timeout=30, preexec_fn=_file_limit(256),
    )  # fmt: skip
    err = run.stderr.decode()
    assert run.returncode == 2 and err.count("\n") == 1, err
    assert "--max-connections 256" in err and "open-file limit (256)" in err


def test_max_connections_caps_http_and_websocket_connections_together(tmp_path: Path) -> None:
    with serve_process(tmp_path / "c.sqlite", "--max-connections", "12") as server:
        token = _table(server.port)
        with ExitStack() as stack:
            for _ in range(6):
                stack.enter_context(_joined(server.port, token))
            for _ in range(6):
                stack.enter_context(socket.create_connection(("127.0.0.1", server.port), 5))
            status, _, headers = request(server.port, "GET", "/healthz", timeout=5)
            assert status == 503 and headers.get("retry-after") == "10"
        deadline = time.monotonic() + 10
        while request(server.port, "GET", "/healthz", timeout=5)[0] != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)


# -- 8. databases that are not the server's -----------------------------------------------------
@pytest.mark.parametrize(
    ("table", "sql"),
    [
        ("games", "CREATE TABLE games (id TEXT, name TEXT, score INTEGER)"),
        ("participants", "CREATE TABLE participants (id TEXT, email TEXT)"),
        ("actions", "CREATE TABLE actions (game TEXT, what TEXT)"),
    ],
)
def test_a_database_with_someone_elses_table_is_refused_in_one_line(
    table: str, sql: str, tmp_path: Path
) -> None:
    db = tmp_path / "theirs.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute(sql)
    run = subprocess.run(command(db), capture_output=True, env=environment(), timeout=30)
    err = run.stderr.decode()
    assert run.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert f"table '{table}' is not huescues serve's" in err and str(db) in err
    assert b"huescues serve: http" not in run.stdout
    with sqlite3.connect(db) as conn:  # and nothing of theirs was changed
        columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
    assert len(columns) in (2, 3)


def test_a_stored_game_that_cannot_be_read_is_set_aside_and_the_rest_play_on(
    tmp_path: Path,
) -> None:
    db = tmp_path / "mixed.sqlite"
    settings = TableSettings(bot_delay=0, reveal_pause=0)
    tokens = []
    with TestClient(create_app(db, tables=settings)) as client:
        for _ in range(2):
            answer = client.post("/api/tables", json={"seats": SEATS}).json()
            tokens.append((answer["table"], answer["seats"][0]["token"]))
            with _join(client, answer["seats"][0]["token"]) as ws:
                ws.send_text(json.dumps({"type": "target", "index": 1}))
                for _ in range(5):
                    if json.loads(ws.receive_text()).get("phase") == "first_clue":
                        break
    (bad, _), (_, good_token) = tokens
    with sqlite3.connect(db) as conn:
        conn.execute('UPDATE actions SET action = \'{"type": "jump"}\' WHERE game = ?', (bad,))
    with serve_process(db) as server:
        err = server.err()
        assert f"game {bad} set aside" in err and "its action 0 cannot be read" in err, err
        with _joined(server.port, good_token) as ws:  # the other game was rebuilt
            assert until(ws, "state")["phase"] == "first_clue"
    with sqlite3.connect(db) as conn:
        aside = conn.execute("SELECT id, set_aside FROM games WHERE set_aside IS NOT NULL")
        rows = aside.fetchall()
        kept = conn.execute("SELECT count(*) FROM actions WHERE game = ?", (bad,)).fetchone()
    assert [r[0] for r in rows] == [bad] and kept[0] == 1  # kept, not deleted
    with serve_process(db) as again:  # and not reported again
        assert "set aside" not in again.err()


def test_responses_export_reads_a_database_on_a_read_only_file_system(tmp_path: Path) -> None:
    """The database's folder mounted read-only (as root, in a mount namespace of its own; as
    another user, a folder it may not write, which SQLite meets the same way)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "study.sqlite"
    with TestClient(create_app(db)) as client:
        start = client.post("/study/api/start", json={"consent": True}).json()
        answered = client.post(
            "/study/api/answer",
            json={"participant": start["participant"], "item": 0, "square": "F12"},
        )
        assert answered.status_code == 200, answered.text
    out = tmp_path / "clicks.csv"
    export = [sys.executable, "-m", "huescues", "responses", "export", "--db", str(db),
              "--out", str(out)]  # fmt: skip
    if os.geteuid() == 0:
        script = (
            f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} && "
            f"! touch {folder}/probe 2>/dev/null && exec " + " ".join(export)
        )
        run = subprocess.run(
            ["unshare", "-m", "sh", "-c", script],
            capture_output=True, env=environment(), timeout=60,
        )  # fmt: skip
    else:
        folder.chmod(0o555)
        db.chmod(0o444)
        try:
            run = subprocess.run(export, capture_output=True, env=environment(), timeout=60)
        finally:
            folder.chmod(0o755)
    assert run.returncode == 0, run.stderr
    assert b"1 responses written" in run.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["study.sqlite"]  # nothing beside it


def test_a_served_database_has_its_lock_file_and_a_second_server_names_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "held.sqlite"
    with serve_process(db) as server:
        assert (tmp_path / "held.sqlite.lock").read_text().strip() == str(server.proc.pid)
        _assert_second_refused(db)


def _assert_second_refused(db: Path) -> None:
    from huescues.web import serve

    with pytest.raises(OSError, match="another huescues serve holds it"):
        serve(port=0, db=db)
