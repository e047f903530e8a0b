"""A small, bounded version of benchmarks/bench_web_abuse.py, against a real server on loopback
(uvicorn in a thread): tables created from many addresses and never joined all expire (the
database marks them abandoned, the server forgets them, and keeps nothing of them alive), idle
WebSockets are closed by the server at the join deadline, and a new person still plays a whole
game afterwards."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("websockets")
import uvicorn

from huescues.web import TableSettings, create_app
from huescues.web._table import WebTable as _Table

#: Many connections from many loopback addresses, and expiry waits: the slow tier.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127/8 is loopback on Linux"),
]

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_web_abuse.py"
SETTINGS = TableSettings(
    bot_delay=0,
    reveal_pause=0,
    message_burst=1000,
    message_rate=1000,
    idle_timeout=1.0,
    join_timeout=1.0,
)


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_web_abuse", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_web_abuse", bench)  # dataclasses look their module up
    spec.loader.exec_module(bench)
    return bench


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """A real server on a free loopback port, in a thread; its database is tmp_path's."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(tmp_path / "abuse.sqlite", tables=SETTINGS))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield sock.getsockname()[1]
    server.should_exit = True
    thread.join(30)


def test_abandoned_tables_and_idle_connections_leave_nothing(port: int, tmp_path: Path) -> None:
    bench = _bench()
    seats = [{"kind": "person"}, {"kind": "random"}, {"kind": "naming"}]
    ids = []
    for i in range(100):  # 10 addresses, 10 tables each (the cap is 20)
        status, body = bench.create(port, seats, f"127.0.4.{1 + i // 10}")
        assert status == 200, body
        ids.append(body["table"])

    idle = asyncio.run(bench.idle_connections(port, 100, 10, SETTINGS.join_timeout + 4))
    assert idle.failed == [] and idle.opened == 100
    assert idle.not_closed == 0 and idle.codes == {1008: 100}  # closed by the server
    assert min(idle.closed_after) >= SETTINGS.join_timeout  # not before the deadline

    deadline = time.monotonic() + 10
    while any(bench.request(port, "GET", f"/api/tables/{t}")[0] != 404 for t in ids):
        assert time.monotonic() < deadline, "abandoned tables did not expire"
        time.sleep(0.2)
    with sqlite3.connect(tmp_path / "abuse.sqlite") as db:
        marked = db.execute("SELECT id FROM games WHERE abandoned IS NOT NULL").fetchall()
    assert sorted(t for (t,) in marked) == sorted(ids)
    # Forgotten, and held by nothing (the seat index kept every expired table alive once).
    gc.collect()
    assert [o for o in gc.get_objects() if isinstance(o, _Table) and o.id in ids] == []

    status, body = bench.create(port, seats, "127.0.5.1")
    assert status == 200, body
    last = bench.play(port, body["seats"][0]["token"], "127.0.5.1", 60)
    assert last["phase"] == "game_over" and last["result"] is not None
