"""Issue 20: games survive a restart. Every action is stored as it is played; a server killed
mid-game (SIGKILL, no goodbye) and started again rebuilds the game from its actions, the seat's
link still works, and the game ends as it would have without the kill (R27: the bots' decisions
draw from generators of the seed and the decision's place, so they come back where they were).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.agents import RandomAgent, Table, naming_agent
from huescues.engine import Board, GameRecord

pytest.importorskip("websockets")
from websockets.sync.client import connect

CELLS = [str(c) for c in Board.standard().cells()]
CLUES = ("lagoon", "banana", "meadow", "glacier", "velvet", "ember", "cocoa", "harbor", "frost")

#: A real server process, in its own interpreter: what `kill -9` ends.
SERVER = """
import sys, uvicorn
from huescues.web import TableSettings, create_app
settings = TableSettings(
    bot_delay=0, reveal_pause=0, bot_time_limit=20, allow_seed=True, message_burst=1000
)
uvicorn.run(create_app(sys.argv[1], tables=settings), host="127.0.0.1", port=int(sys.argv[2]),
            log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def _server(db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port)], env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("the server did not start") from None
                time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def _create(port: int, seed: int) -> str:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "naming"}, {"kind": "random"}]
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps({"seats": seats, "seed": seed}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        token: str = json.loads(response.read())["seats"][0]["token"]
        return token


def _play(port: int, token: str, stop_after: int | None = None) -> int:
    """Play seat 0 as a simple person (the view decides every move), until the game is over or
    ``stop_after`` actions of this person were acknowledged; returns how many were."""
    acted = 0
    done: set[tuple[int, str, int]] = set()
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            assert msg["type"] != "error", msg
            if msg["type"] != "state" or not msg["ready"]:
                continue
            if msg["phase"] == "game_over":
                return acted
            key = (msg["round"], msg["phase"], len(msg["pawns"]))
            if msg["current"] != 0 or key in done:
                continue
            if stop_after is not None and acted == stop_after:
                return acted  # this move is acknowledged: the server has stored it
            done.add(key)
            acted += 1
            phase = msg["phase"]
            if phase == "choose_target":
                ws.send(json.dumps({"type": "target", "index": msg["round"] % 4}))
            elif phase == "first_clue":
                given = {c.lower() for r in msg["history"] for c in r["clues"]}
                ws.send(
                    json.dumps({"type": "clue", "text": next(c for c in CLUES if c not in given)})
                )
            elif phase == "second_clue":
                ws.send(json.dumps({"type": "pass"}))
            else:
                taken = {c for _, c in msg["pawns"]}
                free = [c for c in CELLS if c not in taken]
                pick = np.random.default_rng([msg["round"], len(msg["pawns"])]).integers(len(free))
                ws.send(json.dumps({"type": "pawn", "cell": free[int(pick)]}))


def _record(db: Path) -> GameRecord:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with sqlite3.connect(db) as conn:
            row = conn.execute("SELECT record FROM games").fetchone()
        if row and row[0]:
            return GameRecord.from_json(row[0])
        time.sleep(0.1)
    raise AssertionError("no finished game in the database")


@pytest.mark.slow
def test_a_game_killed_mid_play_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    seed = 20_261_201
    port = _free_port()
    with _server(tmp_path / "whole.sqlite", port):
        _play(port, _create(port, seed))
    whole = _record(tmp_path / "whole.sqlite")

    db = tmp_path / "killed.sqlite"
    with _server(db, port) as proc:
        token = _create(port, seed)
        assert _play(port, token, stop_after=7) == 7
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
        assert conn.execute("SELECT record FROM games").fetchone()[0] is None
    assert 7 < stored < len(whole.actions)  # killed mid-game, the person's moves all kept
    with _server(db, port):
        _play(port, token)  # the same link, after the restart
    again = _record(db)
    assert again.actions == whole.actions
    assert again.replay().result == whole.replay().result


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 60), players=st.integers(3, 6))
def test_a_table_rebuilt_from_its_actions_plays_on_as_before(
    seed: int, cut: int, players: int
) -> None:
    """R27 with decision streams: a table rebuilt from any prefix of a game's actions, with
    fresh bots, ends the game exactly as the table that was never stopped."""

    def bots() -> list[Any]:
        return [naming_agent() if i == 1 else RandomAgent() for i in range(players)]

    whole = Table(bots(), seed=seed, decision_streams=True)
    end = whole.run(whole.start())
    prefix = end.actions[: min(cut, len(end.actions))]
    rebuilt = Table(bots(), seed=seed, decision_streams=True)
    state = rebuilt.start()
    for action in prefix:
        state = state.apply(action)
    assert rebuilt.run(state).actions == end.actions


def test_decision_streams_are_not_the_seat_streams() -> None:
    """Tournaments keep the seat's one stream (their golden files); decision streams are an
    option of the table, for a game that must come back after a restart."""
    a = Table([RandomAgent() for _ in range(4)], seed=5)
    b = Table([RandomAgent() for _ in range(4)], seed=5, decision_streams=True)
    assert a.run(a.start()).actions != b.run(b.start()).actions


def test_a_rebuilt_table_keeps_its_bots_faults_and_retires_a_stalled_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Faults are stored with the actions: after a restart the table still lists them, and a
    bot that stalled (its thread may have run on) is still not asked."""
    from starlette.testclient import TestClient

    from huescues.web import TableSettings, create_app
    from huescues.web import _bots as web_bots
    from test_web_tables import _Raises, _registry, _Stalls

    monkeypatch.setitem(web_bots.BOT_KINDS, "raises", _Raises)
    monkeypatch.setitem(web_bots.BOT_KINDS, "stalls", _Stalls)
    settings = TableSettings(bot_delay=0, reveal_pause=0, bot_time_limit=0.1, allow_seed=True)
    db = tmp_path / "f.sqlite"
    seats = [{"kind": "person"}, {"kind": "raises"}, {"kind": "stalls"}]
    first = create_app(db, tables=settings)
    with TestClient(first) as client:
        answer = client.post("/api/tables", json={"seats": seats, "seed": 4}).json()
        table = _registry(first).tables[answer["table"]]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "token": answer["seats"][0]["token"]}))
            for _ in range(500):
                msg = json.loads(ws.receive_text())
                if 2 in table.game.retired and msg["type"] == "state" and msg["current"] == 0:
                    break
                if msg["type"] == "state" and msg["current"] == 0:
                    ws.send_text(json.dumps(_person_move(msg)))
        faults = list(table.game.faults)
        assert {f.seat for f in faults} == {1, 2}
    second = create_app(db, tables=settings)
    with TestClient(second) as client:
        rebuilt = _registry(second).tables[answer["table"]]
        assert rebuilt.game.faults == faults
        assert rebuilt.game.retired[2][0] == "timeout"
        assert rebuilt.state.actions == table.state.actions


def _person_move(msg: dict[str, Any]) -> dict[str, Any]:
    """A simple person's move for the state message ``msg`` of their turn."""
    phase = msg["phase"]
    if phase == "choose_target":
        return {"type": "target", "index": 0}
    if phase == "first_clue":
        given = {c.lower() for r in msg["history"] for c in r["clues"]}
        return {"type": "clue", "text": next(c for c in CLUES if c not in given)}
    if phase == "second_clue":
        return {"type": "pass"}
    taken = {c for _, c in msg["pawns"]}
    return {"type": "pawn", "cell": next(c for c in CELLS if c not in taken)}
