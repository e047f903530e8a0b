"""Hostile probes of ``huescues serve`` as put on the internet (issue 20): bad database files,
a database that cannot be written, security headers, slow request heads, connection floods and
a busy port. Everything stays on loopback and every probe is bounded in time."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import huescues
from huescues.cli import main
from huescues.web import (
    Database,
    _db,  # private: a read-only connection is opened for one test
    create_app,
    serve,
)

SEATS = {"seats": [{"kind": "person", "name": "Ann"}, {"kind": "random"}, {"kind": "random"}]}


def _sqlite_file(path: Path) -> bytes:
    """A real SQLite file of about a megabyte, returned as bytes."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 2000)
    conn.commit()
    conn.close()
    return path.read_bytes()


def _directory(p: Path) -> None:
    p.mkdir()


def _text(p: Path) -> None:
    p.write_text("name,score\nAnn,3\n")


def _random_bytes(p: Path) -> None:
    p.write_bytes(os.urandom(8192))


def _truncated(p: Path) -> None:
    data = _sqlite_file(p.with_suffix(".whole"))
    p.write_bytes(data[: len(data) // 2])


def _damaged(p: Path) -> None:
    data = bytearray(_sqlite_file(p.with_suffix(".whole")))
    data[8192 : 8192 + 4096] = os.urandom(4096)  # a page in the middle; the header is sound
    p.write_bytes(bytes(data))


BAD_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "directory": (_directory, "is a directory"),
    "text": (_text, "not a SQLite database"),
    "random bytes": (_random_bytes, "not a SQLite database"),
    "truncated": (_truncated, "the database is damaged"),
    "damaged page": (_damaged, "the database is damaged"),
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_serve_refuses_a_db_that_is_not_a_database_in_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, words = BAD_FILES[kind]
    path = tmp_path / "bad.sqlite"
    make(path)
    # The app first: on a file it does not refuse, main would go on to serve for ever.
    with pytest.raises(ValueError, match=words):
        create_app(path)
    assert main(["serve", "--port", "0", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"huescues serve: error: {path}"), err
    assert words in err


@pytest.mark.parametrize("kind", ["text", "truncated"])
def test_responses_export_refuses_a_bad_db_in_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, words = BAD_FILES[kind]
    path = tmp_path / "bad.sqlite"
    make(path)
    assert main(["responses", "export", "--db", str(path), "--out", str(tmp_path / "o.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"huescues responses: error: {path}"), err
    assert words in err


def test_a_db_that_cannot_be_written_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ro.sqlite"
    create_app(path).state.db.close()
    # As root a chmod changes nothing, so the connection is opened read-only, as SQLite opens
    # a file it may not write.
    connect = sqlite3.connect

    def read_only(name: str, **kwargs: Any) -> sqlite3.Connection:
        return connect(f"file:{name}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(_db.sqlite3, "connect", read_only)
    with pytest.raises(ValueError, match=r"ro\.sqlite: cannot write the database \(.*readonly"):
        create_app(path)


@pytest.mark.parametrize(
    ("pragma", "reason"),
    [("query_only = 1", "readonly"), ("max_page_count = {pages}", "full")],
    ids=["read-only", "full"],
)
def test_a_db_that_stops_taking_writes_turns_healthz_and_writes_into_503(
    pragma: str, reason: str, tmp_path: Path
) -> None:
    app = create_app(tmp_path / "h.sqlite")
    with TestClient(app) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        db: Database = app.state.db
        pages = db.query("PRAGMA page_count")[0][0]
        # What a read-only remount or a full disk does to the open connection (private).
        db._conn.execute(f"PRAGMA {pragma.format(pages=pages)}")
        health = client.get("/healthz")
        assert health.status_code == 503
        assert health.json()["status"] == "error" and reason in health.json()["database"]
        assert str(tmp_path) not in health.text  # the file's place stays private
        for _ in range(40):  # until a write needs a page the database cannot have
            created = client.post("/api/tables", json=SEATS)
            if created.status_code != 200:
                break
        assert created.status_code == 503
        assert created.headers["content-type"] == "application/json"
        message = created.json()["error"]
        assert "cannot be written" in message and reason in message and "\n" not in message


ROUTES = [
    ("GET", "/"),
    ("GET", "/play"),
    ("GET", "/study"),
    ("GET", "/static/play.js"),
    ("GET", "/static/game.css"),
    ("GET", "/api/setup"),
    ("GET", "/study/api/info"),
    ("POST", "/api/tables"),
    ("GET", "/healthz"),
    ("GET", "/no/such/page"),
    ("GET", "/static/no-such-file.js"),
    ("DELETE", "/api/setup"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_every_response_carries_the_security_headers(method: str, path: str, db: Path) -> None:
    with TestClient(create_app(db)) as client:
        response = client.request(method, path, json=SEATS if method == "POST" else None)
    headers = response.headers
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp
    assert "unsafe" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert len(headers.get_list("content-security-policy")) == 1  # one policy, not two


def test_the_pages_need_nothing_the_policy_refuses() -> None:
    """No inline script or style and no ``style=`` attribute: the policy allows none."""
    import re
    from importlib import resources

    static = resources.files("huescues.web") / "static"
    for page in ("index.html", "play.html", "study.html"):
        html = (static / page).read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), page
        assert "<style" not in html and " style=" not in html, page
        assert not re.search(r"\son[a-z]+=", html), page  # no inline event handlers


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "h.sqlite"


# -- the real server: slow heads and connection floods ------------------------------------------

HEADER_TIMEOUT = 1.0
PER_ADDRESS = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve_command(port: int, db: Path, *options: str) -> tuple[list[str], dict[str, str]]:
    # The checkout under test, not whatever huescues the interpreter would find.
    src = str(Path(huescues.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src}
    command = [sys.executable, "-m", "huescues", "serve", "--port", str(port), "--db", str(db)]
    return [*command, *options], env


@contextmanager
def _server(db: Path, *options: str) -> Iterator[int]:
    """``huescues serve`` in a subprocess on a free loopback port; yields the port."""
    port = _free_port()
    command, env = _serve_command(port, db, *options)
    proc = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: {proc.communicate()}") from None
                time.sleep(0.05)
        time.sleep(0.2)  # the probe's connection is counted until the server sees it close
        yield port
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    db = tmp_path_factory.mktemp("hostile") / "s.sqlite"
    options = ("--header-timeout", str(HEADER_TIMEOUT))
    with _server(db, *options, "--connections-per-address", str(PER_ADDRESS)) as port:
        yield port


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.settimeout(5)
    return sock


def _closed_after(sock: socket.socket) -> float:
    """Seconds until the server closes ``sock`` (reading and dropping what it sends)."""
    start = time.monotonic()
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def _get(sock: socket.socket, path: str = "/healthz") -> bytes:
    """One keep-alive request on ``sock``; the response's head and body."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(4096)
    return head + b"\r\n\r\n" + body


def _settle() -> None:
    time.sleep(0.3)  # the server hears of a closed connection on its next loop turn


@pytest.mark.slow
def test_a_request_head_that_never_ends_is_cut_off(server: int) -> None:
    with _connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        assert _closed_after(sock) < HEADER_TIMEOUT + 2
    _settle()


@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_cut_off(server: int) -> None:
    with _connect(server) as sock:
        assert _closed_after(sock) < HEADER_TIMEOUT + 2
    _settle()


@pytest.mark.slow
def test_a_slow_head_after_a_kept_alive_request_is_cut_off(server: int) -> None:
    with _connect(server) as sock:
        assert b" 200 " in _get(sock)
        # uvicorn stops its keep-alive timer at the first byte of the next request.
        sock.sendall(b"GET / HTTP/1.1\r\n")
        assert _closed_after(sock) < HEADER_TIMEOUT + 2
    _settle()


@pytest.mark.slow
def test_a_head_sent_in_time_is_served(server: int) -> None:
    with _connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        time.sleep(HEADER_TIMEOUT / 3)
        sock.sendall(b"Host: 127.0.0.1\r\n\r\n")
        assert b" 200 " in sock.recv(4096)
    _settle()


@pytest.mark.slow
def test_connections_past_the_cap_for_one_address_are_refused(server: int) -> None:
    with ExitStack() as stack:
        held = [stack.enter_context(_connect(server)) for _ in range(PER_ADDRESS)]
        with _connect(server) as extra:
            refused = extra.recv(4096)
            assert refused.startswith(b"HTTP/1.1 503 "), refused
            # The transport's refusal carries the app's security headers too (issue 20 item 9).
            head = refused.split(b"\r\n\r\n")[0].decode().lower()
            assert "content-security-policy: default-src 'self'" in head
            assert "x-content-type-options: nosniff" in head and "x-frame-options: deny" in head
            assert refused.endswith(b"\r\n\r\ntoo many connections from your address\n")
            assert _closed_after(extra) < 1
        assert b" 200 " in _get(held[0])  # the held ones still work
        held[1].close()
        _settle()
        with _connect(server) as again:  # a closed connection frees its place
            assert b" 200 " in _get(again)
    _settle()


@pytest.mark.slow
def test_websockets_count_while_open_and_free_their_place_when_closed(server: int) -> None:
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{server}/ws"
    for _ in range(PER_ADDRESS + 2):  # more than the cap, one after another
        with connect(url, open_timeout=5, close_timeout=5) as ws:
            ws.send('{"type": "join", "token": "nobody"}')
            assert "error" in str(ws.recv(timeout=5))
        _settle()
    with ExitStack() as stack:
        for _ in range(PER_ADDRESS - 1):
            stack.enter_context(connect(url, open_timeout=5, close_timeout=5))
        with _connect(server) as last:  # the cap's last place
            assert b" 200 " in _get(last)
            with _connect(server) as extra:
                assert extra.recv(4096).startswith(b"HTTP/1.1 503 ")
    _settle()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--header-timeout", "0"),
        ("--connections-per-address", "0"),
        ("--idle-timeout", "0"),
        ("--reveal-pause", "-1"),
        ("--reveal-pause", "601"),
        ("--port", "99999"),  # not wrapped round to port 34463
        ("--port", "-1"),
    ],
)
def test_guard_settings_that_would_refuse_everyone_are_refused(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path / "s.sqlite"), option, value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{option} {value}: " in err, err
    assert not (tmp_path / "s.sqlite").exists()  # refused before anything is made


@pytest.mark.parametrize("port", [65536, 99999, -1, 8000.0, True])
def test_serve_refuses_a_port_that_is_not_one(port: object, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"0 to 65535"):
        serve(port=port, db=tmp_path / "s.sqlite")  # type: ignore[arg-type]
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.slow
def test_a_busy_port_is_one_line_and_status_2_before_any_serving_line(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        command, env = _serve_command(port, tmp_path / "s.sqlite")
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert done.stdout == ""  # no "serving at" line for a port it does not hold
    assert done.stderr == (
        f"huescues serve: error: port {port} on 127.0.0.1 is in use (another server?): "
        "stop it or give --port\n"
    )


@pytest.mark.slow
def test_the_serving_line_names_the_port_it_holds(tmp_path: Path) -> None:
    command, env = _serve_command(0, tmp_path / "s.sqlite")
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed only once the port is bound
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        assert port > 0
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    finally:
        proc.terminate()
        proc.communicate(timeout=10)
