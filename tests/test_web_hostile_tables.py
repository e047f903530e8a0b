"""Issue 20, the game tables tried as a hostile user would (in process, bounded in time): tables
nobody plays expire, one address cannot fill the server, a WebSocket must join in time, the
creator of a table cannot know its cards, and bad requests change nothing."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from huescues.web import TableSettings, create_app
from huescues.web._limits import client_key

#: Tables that play at once (no pauses), with limits small enough to reach in a test.
QUICK = TableSettings(bot_delay=0, reveal_pause=0, bot_time_limit=5, message_burst=1000)
SEATS = [{"kind": "person", "name": "Ann"}, {"kind": "random"}, {"kind": "random"}]
#: A raw body's header (the API takes application/json only).
JSON = {"content-type": "application/json"}


def _create(client: TestClient, body: Any = None) -> Any:
    return client.post("/api/tables", json={"seats": SEATS} if body is None else body)


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


@pytest.mark.slow
def test_abandoned_tables_expire_and_free_their_place(tmp_path: Path) -> None:
    """Defect 1: tables whose people all left count against max_tables until they expire; then
    a new person can create one, and the expired game is marked so no restart rebuilds it.
    (Tables no one ever joined make room at once: tests/test_web_server_hardening.py.)"""
    # Long enough that the three visits are over before the first table could expire.
    settings = TableSettings(bot_delay=0, reveal_pause=0, max_tables=3, idle_timeout=3.0)
    db = tmp_path / "t.sqlite"
    with TestClient(create_app(db, tables=settings)) as client:
        for _ in range(3):
            token = _create(client).json()["seats"][0]["token"]
            with client.websocket_connect("/ws") as ws:  # a person came, and left
                ws.send_text(json.dumps({"type": "join", "token": token}))
                assert json.loads(ws.receive_text())["type"] == "welcome"
        full = _create(client)
        assert full.status_code == 503 and "too many games" in full.json()["error"]
        time.sleep(3.2)
        assert _create(client).status_code == 200
    abandoned = _rows(db, "SELECT count(*) FROM games WHERE abandoned IS NOT NULL")[0][0]
    assert abandoned == 3


@pytest.mark.slow
def test_a_table_someone_is_connected_to_does_not_expire(tmp_path: Path) -> None:
    settings = TableSettings(bot_delay=0, reveal_pause=0, max_tables=1, idle_timeout=0.3)
    with TestClient(create_app(tmp_path / "t.sqlite", tables=settings)) as client:
        token = _create(client).json()["seats"][0]["token"]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "token": token}))
            assert json.loads(ws.receive_text())["type"] == "welcome"
            time.sleep(0.5)
            assert _create(client).status_code == 503  # the table in play still counts
            ws.send_text(json.dumps({"type": "check", "text": "lagoon"}))
            assert any(json.loads(ws.receive_text())["type"] == "check" for _ in range(5))


def test_one_address_cannot_hold_every_table(tmp_path: Path) -> None:
    """Defect 1: creation is limited per address as well as in total."""
    settings = TableSettings(bot_delay=0, reveal_pause=0, max_tables_per_address=2)
    app = create_app(tmp_path / "t.sqlite", tables=settings)
    with TestClient(app, client=("203.0.113.7", 4000)) as hostile:
        assert [_create(hostile).status_code for _ in range(3)] == [200, 200, 503]
        assert "this address has 2 games in play" in _create(hostile).json()["error"]
        other = TestClient(app, client=("198.51.100.1", 4000))  # the same server, running
        assert _create(other).status_code == 200


def test_an_ipv6_client_counts_by_its_64_network() -> None:
    a = client_key("2001:db8:1:2:aaaa::1")
    assert a == client_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert a != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:192.0.2.1") == "192.0.2.1" == client_key("192.0.2.1")
    assert client_key(None) == "?"


def test_a_websocket_that_never_joins_is_closed(tmp_path: Path) -> None:
    """Defect 2: a join deadline."""
    settings = TableSettings(join_timeout=0.3)
    app = create_app(tmp_path / "t.sqlite", tables=settings)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        start = time.monotonic()
        error = json.loads(ws.receive_text())
        assert error["type"] == "error" and "no seat joined within 0.3 s" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1008 and time.monotonic() - start < 3


def test_open_websockets_are_capped_per_address(tmp_path: Path) -> None:
    """Defect 2: a per-address connection cap (not only a rate), freed as connections close."""
    settings = TableSettings(max_connections_per_address=2, join_timeout=30)
    with TestClient(create_app(tmp_path / "t.sqlite", tables=settings)) as client:
        first, second = client.websocket_connect("/ws"), client.websocket_connect("/ws")
        with first, second, client.websocket_connect("/ws") as third:
            error = json.loads(third.receive_text())
            assert "too many connections from this address" in error["message"]
            with pytest.raises(WebSocketDisconnect):
                third.receive_text()
        with client.websocket_connect("/ws") as again:  # the first two closed
            again.send_text(json.dumps({"type": "join", "token": "nope"}))
            assert "first join a seat" in json.loads(again.receive_text())["message"]


def test_the_creator_cannot_choose_the_seed(tmp_path: Path) -> None:
    """Defect 3: a chosen seed tells its chooser every card and the bots' streams; the server
    draws it, and keeps it in the database, unless the operator allows chosen seeds."""
    db = tmp_path / "t.sqlite"
    with TestClient(create_app(db, tables=QUICK)) as client:
        refused = _create(client, {"seats": SEATS, "seed": 7})
        assert refused.status_code == 403 and "draws each game's seed" in refused.json()["error"]
        assert _rows(db, "SELECT count(*) FROM games")[0][0] == 0
        answer = _create(client).json()
        assert "seed" not in json.dumps(answer)
    (seed,) = _rows(db, "SELECT seed FROM games")[0]
    assert isinstance(seed, int) and seed >= 0
    allowed = TableSettings(bot_delay=0, reveal_pause=0, allow_seed=True)
    with TestClient(create_app(tmp_path / "a.sqlite", tables=allowed)) as client:
        assert _create(client, {"seats": SEATS, "seed": 7}).status_code == 200


@pytest.mark.slow
def test_no_message_before_the_end_carries_the_seed(tmp_path: Path) -> None:
    """Defect 3: the drawn seed reaches no client before the game ends; the finished record
    carries it, so the game replays."""
    from test_web_tables import _play_person

    db = tmp_path / "t.sqlite"
    with TestClient(create_app(db, tables=QUICK)) as client:
        answer = _create(client).json()
        log: list[dict[str, Any]] = []
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "token": answer["seats"][0]["token"]}))
            _play_person(ws, 0, log)
        deadline = time.monotonic() + 10
        while not _rows(db, "SELECT record FROM games")[0][0] and time.monotonic() < deadline:
            time.sleep(0.05)
    (seed, record) = _rows(db, "SELECT seed, record FROM games")[0]
    assert json.loads(record)["seed"] == seed
    assert str(seed) not in json.dumps(log)


@pytest.mark.parametrize("path", ["/api/tables"])
def test_deeply_nested_json_is_refused_in_one_line(tmp_path: Path, path: str) -> None:
    """Defect 5: 16 KB of brackets was a 500 and a RecursionError traceback."""
    db = tmp_path / "t.sqlite"
    with TestClient(create_app(db, tables=QUICK), raise_server_exceptions=False) as client:
        for body in (b"[" * 16_000, b'{"seats": ' + b"[" * 8000 + b"]" * 8000 + b"}"):
            response = client.post(path, content=body, headers=JSON)
            assert response.status_code == 400, response.text
            assert "nested too deep" in response.json()["error"]
        bad_utf8 = client.post(path, content=b'{"seats": "\xff"}', headers=JSON)
        assert bad_utf8.status_code == 400 and "UTF-8" in bad_utf8.json()["error"]
        assert client.post(path, content=b"[" * 20_000, headers=JSON).status_code == 413
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 0


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Ann\\u202egnp.exe", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("Ad\\u200bmin", "U+200B ZERO WIDTH SPACE"),
        ("Bob\\u0000", "U+0000"),
        ("\\u001b[31mred", "U+001B"),
    ],
)
def test_names_that_do_not_print_as_they_read_are_refused_before_anything_is_stored(
    tmp_path: Path, name: str, shown: str
) -> None:
    """Defects 6 and 9: the clue rules' character check (R18) applies to names."""
    db = tmp_path / "t.sqlite"
    body = '{"seats": [{"name": "NAME"}, {"kind": "random"}, {"kind": "random"}]}'
    body = body.replace("NAME", name)
    with TestClient(create_app(db, tables=QUICK), raise_server_exceptions=False) as client:
        response = client.post("/api/tables", content=body.encode(), headers=JSON)
        assert response.status_code == 400, response.text
        assert shown in response.json()["error"] and "(R18)" in response.json()["error"]
        ok = client.post("/api/tables", json={"seats": [{"name": "Zoë 🎨"}, *SEATS[1:]]})
        assert ok.status_code == 200 and ok.json()["seats"][0]["name"] == "Zoë 🎨"
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 1


def test_a_lone_surrogate_in_a_name_is_refused_before_anything_is_stored(tmp_path: Path) -> None:
    """Defect 6: "\\ud800" is valid JSON but no text: it was a 500 once the table was stored."""
    db = tmp_path / "t.sqlite"
    body = b'{"seats": [{"name": "\\ud800"}, {"kind": "random"}, {"kind": "random"}]}'
    with TestClient(create_app(db, tables=QUICK), raise_server_exceptions=False) as client:
        response = client.post("/api/tables", content=body, headers=JSON)
        assert response.status_code == 400 and "lone surrogate" in response.json()["error"]
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 0


def test_unknown_fields_are_named(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.sqlite", tables=QUICK)) as client:
        response = _create(client, {"seats": SEATS, "sneaky": 1})
        assert response.status_code == 400 and "'sneaky'" in response.json()["error"]


def test_a_move_that_cannot_be_stored_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A move is played once stored (a restart must find it): a failed write (a full disk, a
    database gone read-only) is answered with an error, and the game is as before."""
    from test_web_tables import _registry

    app = create_app(tmp_path / "t.sqlite", tables=QUICK)
    with TestClient(app) as client:
        answer = _create(
            client, {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}
        ).json()
        tables = _registry(app)
        table = tables.tables[answer["table"]]
        giver = table.state.current_player
        before = table.state

        def full_disk(*args: object) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        tables.store.action = full_disk
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "token": answer["seats"][giver]["token"]}))
            ws.send_text(json.dumps({"type": "target", "index": 0}))
            # The welcome, the state, the state saying storage is retrying, the refusal.
            replies = [json.loads(ws.receive_text()) for _ in range(4)]
        error = next(m for m in replies if m["type"] == "error")
        assert "could not store the move (database or disk is full)" in error["message"]
        assert [m["storage"] for m in replies if m["type"] == "state"] == ["ok", "retrying"]
        assert table.state is before
