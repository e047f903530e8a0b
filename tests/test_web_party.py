"""Issue 31, the party game's server (in process, every wait bounded): the waiting room and its
invite, presence, stand-ins for people who are away and the turn timer, a seat given to a bot,
spectators, reactions, play again in place, the retail board, bots that speak the table's
language, the QR codes of the links, and a page for unknown addresses."""

from __future__ import annotations

import contextlib
import dataclasses
import faulthandler
import io
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

pytest.importorskip("websockets")
from websockets.sync.client import connect

from huescues.cli import main
from huescues.engine import RETAIL_BOARD_ID, GameRecord
from huescues.web import TableSettings, create_app, export_games
from serve_process import request
from test_web_server_hardening import _server
from test_web_tables import CELLS, CLUES, _registry

#: Tables that play at once. (A person whose socket the test does not read for a while stays
#: here: they are away only when their socket closes, or after 30 s of silence.)
#: The scripted people send as fast as the bots play (their moves and pongs in bursts): the
#: message limit is not what these tests are about (test_web_tables tests it), and on a busy
#: machine it refused a move, which a script that sends each move once waited for for ever.
PARTY = TableSettings(
    bot_delay=0, reveal_pause=0, bot_time_limit=10, message_rate=1000.0, message_burst=1000.0
)


def _app(tmp_path: Path, settings: TableSettings = PARTY, name: str = "p.sqlite") -> Any:
    return create_app(tmp_path / name, tables=settings)


class _Client:
    """A real server (uvicorn in a thread, ``huescues serve``'s configuration) and its HTTP
    requests; every WebSocket read below has a deadline."""

    def __init__(self, port: int) -> None:
        self.port = port

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        status, answer, _ = request(self.port, "POST", path, body)
        return status, answer


@contextmanager
def _client(app: Any) -> Iterator[_Client]:
    with _server(app) as port:
        yield _Client(port)


def _post(client: _Client, kinds: list[str], **extra: Any) -> dict[str, Any]:
    seats = [{"kind": k} for k in kinds]
    status, answer = client.post("/api/tables", {"seats": seats, **extra})
    assert status == 200, answer
    result: dict[str, Any] = answer
    return result


def _post_http(client: TestClient, kinds: list[str], **extra: Any) -> dict[str, Any]:
    """A table made through Starlette's test client (for the tests that open no socket)."""
    response = client.post("/api/tables", json={"seats": [{"kind": k} for k in kinds], **extra})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _next(
    ws: Any, kind: str, until: Any = None, limit: int = 100, within: float = 90.0
) -> dict[str, Any]:
    """The next message of type ``kind`` for which ``until`` holds (within 20 s a message, and
    ``within`` seconds in all: the server's pings, answered here, would otherwise keep a wait
    that never holds going for 100 pings, over a quarter of an hour)."""
    deadline = time.monotonic() + within
    for _ in range(limit):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        msg: dict[str, Any] = json.loads(ws.recv(timeout=min(20.0, left)))
        if msg["type"] == "ping":
            ws.send(json.dumps({"type": "pong"}))
            continue
        if msg["type"] == kind and (until is None or until(msg)):
            return msg
    raise AssertionError(f"no {kind!r} message among the next {limit} within {within:g} s")


def _next_state(ws: Any, log: list[dict[str, Any]], stall: float = 60.0) -> dict[str, Any]:
    """The next state, answering pings; a game that sends no state for ``stall`` seconds fails
    at once, saying what came instead and what every thread of this process (the server's
    too) was doing: a fresh clone's CI once saw such a stall, which no other run has shown."""
    other: list[dict[str, Any]] = []
    until = time.monotonic() + stall
    while time.monotonic() < until:
        try:
            msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, until - time.monotonic())))
        except TimeoutError:
            break
        if msg["type"] == "ping":
            ws.send(json.dumps({"type": "pong"}))
        elif msg["type"] == "state":
            return msg
        elif msg["type"] == "error":  # a move refused: the script sends each move once
            raise AssertionError(f"the server refused a move: {msg}; the last state: {log[-1:]}")
        else:
            other.append(msg)
    with contextlib.suppress(Exception):  # to stderr: pytest shows it with the failure
        faulthandler.dump_traceback(all_threads=True)
    last = {k: log[-1].get(k) for k in ("phase", "current", "ready", "presence")} if log else None
    raise AssertionError(f"no state for {stall:g} s; the last: {last}; meanwhile: {other[-5:]}")


@contextmanager
def _join(client: _Client, token: str, name: str | None = None) -> Iterator[Any]:
    with connect(f"ws://127.0.0.1:{client.port}/ws", open_timeout=10) as ws:
        message: dict[str, Any] = {"type": "join", "token": token}
        if name is not None:
            message["name"] = name
        ws.send(json.dumps(message))
        yield ws


def _token(link: str) -> str:
    return link.split("#", 1)[1].split("=", 1)[1]


# -- the request --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"away_seconds": -1}, "'away_seconds'"),
        ({"away_seconds": 601}, "'away_seconds'"),
        ({"away_seconds": 1.5}, "'away_seconds'"),
        ({"turn_seconds": "10"}, "'turn_seconds'"),
        ({"turn_seconds": True}, "'turn_seconds'"),
        ({"board": "wcs"}, "'board'"),
        ({"waiting_room": "yes"}, "'waiting_room'"),
        ({"lobby": True}, "lobby"),
    ],
)
def test_the_tables_options_are_checked_and_named(
    extra: dict[str, Any], words: str, tmp_path: Path
) -> None:
    with TestClient(_app(tmp_path)) as client:
        body = {"seats": [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}], **extra}
        response = client.post("/api/tables", json=body)
    assert response.status_code == 400 and words in response.json()["error"], response.text


def test_a_waiting_room_is_the_creators_and_its_links_are_given(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        bot_first = client.post(
            "/api/tables",
            json={"seats": [{"kind": "random"}, {"kind": "person"}, {"kind": "person"}],
                  "waiting_room": True},
        )  # fmt: skip
        assert bot_first.status_code == 400 and "seat 0" in bot_first.json()["error"]
        answer = _post_http(client, ["person", "person", "random"], waiting_room=True)
        plain = _post_http(client, ["person", "random", "random"])
    assert answer["invite"].startswith("http://testserver/join#i=")
    assert answer["spectate"].startswith("http://testserver/play#t=")
    assert plain["invite"] is None and plain["spectate"].startswith("http://testserver/play#t=")


# -- the waiting room ---------------------------------------------------------------------------
def test_the_waiting_room_the_invite_and_the_start(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with _client(app) as client, ExitStack() as stack:
        answer = _post(client, ["person", "person", "person", "random"], waiting_room=True)
        table = _registry(app).tables[answer["table"]]
        host = stack.enter_context(_join(client, answer["seats"][0]["token"]))
        assert _next(host, "welcome")["seat"] == 0
        first = _next(host, "state")
        assert first["started"] is False and first["presence"] == ["here", "away", "away", "bot"]
        time.sleep(0.3)
        assert table.state.actions == ()  # no bot moves before the start
        # A friend takes a free seat through the invite, with her name.
        ivy = stack.enter_context(_join(client, _token(answer["invite"]), "Ivy"))
        welcome = _next(ivy, "welcome")
        assert welcome["seat"] == 1 and welcome["token"] and welcome["spectator"] is False
        assert welcome["reactions"] and "👏" in welcome["reactions"]
        seen = _next(host, "state", until=lambda m: m["presence"][1] == "here")
        assert seen["seats"][1]["name"] == "Ivy"
        # Her token is her seat's from now on (the seat's old link was never opened).
        with _join(client, welcome["token"]) as again:
            assert _next(again, "welcome")["seat"] == 1
        ivy.send(json.dumps({"type": "start"}))
        assert "only the table's creator" in _next(ivy, "error")["message"]
        host.send(json.dumps({"type": "start", "fill": "wizard"}))
        assert "a bot of this table's language" in _next(host, "error")["message"]
        host.send(json.dumps({"type": "start", "fill": "random"}))
        started = _next(host, "state", until=lambda m: m["started"])
        assert started["presence"] == ["here", "here", "bot", "bot"]
        assert started["seats"][2]["kind"] == "random"
        host.send(json.dumps({"type": "start"}))
        assert "started already" in _next(host, "error")["message"]
        # The game goes on: the host gives the first clue (seat 0, R6).
        host.send(json.dumps({"type": "target", "index": 0}))
        _next(host, "state", until=lambda m: m["phase"] == "first_clue")
    stored = sqlite3.connect(tmp_path / "p.sqlite").execute("SELECT seats, started FROM games")
    seats, when = stored.fetchone()
    assert json.loads(seats)[1]["name"] == "Ivy" and when is not None


def test_a_full_table_refuses_the_invite(tmp_path: Path) -> None:
    with _client(_app(tmp_path)) as client:
        answer = _post(client, ["person", "person", "random"], waiting_room=True)
        with _join(client, _token(answer["invite"]), "Ivy") as ivy:
            _next(ivy, "welcome")
            with _join(client, _token(answer["invite"]), "Jo") as late:
                assert "every person's seat" in _next(late, "error")["message"]
        other = _post(client, ["person", "person", "random"], waiting_room=True)
        with _join(client, _token(other["invite"]), "a\u202eb") as bad:
            refused = _next(bad, "error")
            assert "characters that print" in refused["message"] and refused["rule"] == "R18"


# -- stand-ins ----------------------------------------------------------------------------------
def _until_phase(ws: Any, phase: str) -> dict[str, Any]:
    return _next(ws, "state", until=lambda m: m["phase"] == phase and m["current"] is not None)


def test_an_away_persons_turn_is_played_by_a_stand_in_and_they_take_it_back(
    tmp_path: Path,
) -> None:
    """Hal and Ivy; Ivy never opens her link: after away_seconds a stand-in plays her turns (the
    actions table says so), and when she comes, she plays her own."""
    app = _app(tmp_path)
    with _client(app) as client:
        answer = _post(client, ["person", "person", "random"], away_seconds=1)
        hal_token, ivy_token = (s["token"] for s in answer["seats"][:2])
        with _join(client, hal_token) as hal:
            _next(hal, "welcome")
            state = _next(hal, "state", until=lambda m: m["ready"])
            assert state["presence"] == ["here", "away", "bot"]
            hal.send(json.dumps({"type": "target", "index": 0}))
            _next(hal, "state", until=lambda m: m["phase"] == "first_clue")
            hal.send(json.dumps({"type": "clue", "text": "lagoon"}))
            # Ivy guesses first (R10: the giver's left): away, so the stand-in places her pawn.
            began = time.monotonic()
            timed = _next(hal, "state", until=lambda m: m["current"] == 1)
            assert timed["timer"]["seat"] == 1 and timed["timer"]["why"] == "away"
            moved = _next(hal, "state", until=lambda m: any(s == 1 for s, _ in m["pawns"]))
            # Not before away_seconds; the bound above it is loose, as a cold process loads the
            # default bot's models for the first stand-in (a real table warms it during the wait).
            assert 0.8 < time.monotonic() - began < 60
            assert moved["presence"][1] == "away"
            # The pages mark the stand-in's move: its round, seat and square.
            (pawn,) = (c for s, c in moved["pawns"] if s == 1)
            assert moved["stand_ins"] == [{"round": 0, "seat": 1, "action": "pawn", "value": pawn}]
            with _join(client, ivy_token) as ivy:
                _next(ivy, "welcome")
                # One wait for both: the state that shows her here may already be the second
                # clue's, and a second wait would then sit until her silent socket timed out.
                _next(
                    hal,
                    "state",
                    until=lambda m: m["presence"][1] == "here" and m["phase"] == "second_clue",
                )
                hal.send(json.dumps({"type": "clue", "text": "calm water"}))
                # Her second pawn (R12: the guessers in reverse): she is here, and plays it.
                mine = _next(ivy, "state", until=lambda m: m["current"] == 1)
                assert mine["presence"][1] == "here" and mine["phase"] == "second_guess"
                taken = {c for _, c in mine["pawns"]}
                cell = next(c for c in CELLS if c not in taken)
                ivy.send(json.dumps({"type": "pawn", "cell": cell}))
                ended = _next(ivy, "state", until=lambda m: len(m["history"]) == 1)
                assert [1, cell] in ended["history"][0]["pawns"]
    rows = (
        sqlite3.connect(tmp_path / "p.sqlite")
        .execute("SELECT seat, by, response_ms FROM actions ORDER BY n")
        .fetchall()
    )
    stand_in = [r for r in rows if r[1] is not None]
    assert stand_in and all(r == (1, "stand-in:default", r[2]) for r in stand_in)
    assert all(r[2] is not None and r[2] >= 1000 for r in stand_in)  # after away_seconds
    assert [r for r in rows if r[0] == 1 and r[1] is None]  # and one of her own
    record_rows = [r for r in rows if r[0] == 0]
    assert record_rows and all(r[1] is None for r in record_rows)


def test_a_person_still_away_once_a_stand_in_moved_for_them_holds_later_turns_up_briefly(
    tmp_path: Path,
) -> None:
    """Ivy never opens her link. Her first turn waits away_seconds for her; once a stand-in has
    moved for her and she is still away, her later turns wait only away_again: four friends
    whose fourth phone died are held up once, not on each of its turns."""
    app = _app(tmp_path, dataclasses.replace(PARTY, away_again=0.3))
    with _client(app) as client:
        answer = _post(client, ["person", "person", "random"], away_seconds=3)
        with _join(client, answer["seats"][0]["token"]) as hal:
            _next(hal, "welcome")
            _next(hal, "state", until=lambda m: m["ready"])
            hal.send(json.dumps({"type": "target", "index": 0}))
            _next(hal, "state", until=lambda m: m["phase"] == "first_clue")
            hal.send(json.dumps({"type": "clue", "text": "lagoon"}))
            _next(hal, "state", until=lambda m: m["phase"] == "second_clue")
            hal.send(json.dumps({"type": "clue", "text": "calm water"}))
            # Her second pawn (R12: the guessers in reverse) is the round's last move.
            _next(hal, "state", until=lambda m: len(m["history"]) == 1)
    rows = (
        sqlite3.connect(tmp_path / "p.sqlite")
        .execute("SELECT by, response_ms FROM actions WHERE seat = 1 ORDER BY n")
        .fetchall()
    )
    (first_by, first_ms), (second_by, second_ms) = rows[:2]
    assert first_by == second_by == "stand-in:default"
    assert first_ms >= 3000  # the table waited away_seconds once
    assert 300 <= second_ms < 3000  # then away_again: not away_seconds again


def test_no_stand_in_plays_while_no_person_is_here(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with _client(app) as client:
        answer = _post(client, ["person", "person", "random"], away_seconds=1)
        table = _registry(app).tables[answer["table"]]
        time.sleep(2.5)  # Hal's turn (seat 0 gives first), nobody here
        assert table.state.actions == ()


def test_the_turn_timer_ends_a_turn_of_a_person_who_is_here(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with _client(app) as client:
        answer = _post(client, ["person", "random", "random"], turn_seconds=1, away_seconds=0)
        with _join(client, answer["seats"][0]["token"]) as hal:
            _next(hal, "welcome")
            first = _next(hal, "state", until=lambda m: m["ready"] and m["timer"] is not None)
            assert first["timer"]["why"] == "turn" and 0 < first["timer"]["seconds_left"] <= 1
            # Hal, here, does nothing: the stand-in picks the target, then gives the clue.
            _next(hal, "state", until=lambda m: m["phase"] == "first_clue")
            clued = _next(hal, "state", until=lambda m: m["clues"])
            assert clued["presence"][0] == "here"
            # Marked for the pages: the clue with its text, the target without its square (R8:
            # the giver's alone until the reveal, and these marks go to every page).
            assert clued["stand_ins"] == [
                {"round": 0, "seat": 0, "action": "target", "value": None},
                {"round": 0, "seat": 0, "action": "clue", "value": clued["clues"][0]},
            ]
    rows = sqlite3.connect(tmp_path / "p.sqlite").execute(
        "SELECT by FROM actions WHERE seat = 0 ORDER BY n"
    )
    assert [r[0] for r in rows][:2] == ["stand-in:default", "stand-in:default"]


def test_the_creator_gives_an_away_seat_to_a_bot(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with _client(app) as client:
        answer = _post(client, ["person", "person", "random"], away_seconds=0)
        hal_token, ivy_token = (s["token"] for s in answer["seats"][:2])
        with _join(client, hal_token) as hal, _join(client, ivy_token) as ivy:
            _next(hal, "welcome")
            _next(ivy, "welcome")
            ivy.send(json.dumps({"type": "bot", "seat": 0}))
            assert "only the table's creator" in _next(ivy, "error")["message"]
            hal.send(json.dumps({"type": "bot", "seat": 1}))
            assert "is here" in _next(hal, "error")["message"]
        with _join(client, hal_token) as hal:
            _next(hal, "welcome")
            _next(hal, "state", until=lambda m: m["presence"][1] == "away")
            hal.send(json.dumps({"type": "bot", "seat": 1}))
            given = _next(hal, "state", until=lambda m: m["presence"][1] == "bot")
            assert given["seats"][1]["kind"] == "default"
            hal.send(json.dumps({"type": "target", "index": 0}))
            _next(hal, "state", until=lambda m: m["phase"] == "first_clue")
            hal.send(json.dumps({"type": "clue", "text": "lagoon"}))
            # The bot places seat 1's pawn with no wait.
            _next(hal, "state", until=lambda m: any(s == 1 for s, _ in m["pawns"]))
    stored = sqlite3.connect(tmp_path / "p.sqlite").execute("SELECT seats FROM games")
    assert json.loads(stored.fetchone()[0])[1]["kind"] == "default"


# -- spectators, reactions ----------------------------------------------------------------------
def _drain(ws: Any) -> None:
    """Read what a socket was sent (a page reads every message), answering pings."""
    while True:
        try:
            msg = json.loads(ws.recv(timeout=0))
        except TimeoutError:
            return
        if msg["type"] == "ping":
            ws.send(json.dumps({"type": "pong"}))


def _play_all(
    sockets: dict[int, Any],
    watcher: Any,
    log: list[dict[str, Any]],
    first: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play every person's seat of ``sockets`` to the end, following the states ``watcher`` is
    sent (``first``, when its latest state was read already), each of which goes to ``log``.
    The last state."""
    clues = iter(CLUES)
    done: set[tuple[int, str, int]] = set()
    # Bounded: a game that stalls while states keep coming fails here instead of hanging CI.
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, f"the game did not end in 300 s; last: {log[-1:]}"
        msg, first = (first, None) if first is not None else (_next_state(watcher, log), None)
        log.append(msg)
        for ws in sockets.values():
            if ws is not watcher:
                _drain(ws)
        if msg["phase"] == "game_over":
            return msg
        seat = msg["current"]
        key = (msg["round"], msg["phase"], len(msg["pawns"]))
        if key in done or seat not in sockets or not msg["ready"]:
            continue
        done.add(key)
        ws = sockets[seat]
        phase = msg["phase"]
        if phase == "choose_target":
            move: dict[str, Any] = {"type": "target", "index": 1}
        elif phase == "first_clue":
            given = {c.lower() for r in msg["history"] for c in r["clues"]}
            move = {"type": "clue", "text": next(c for c in clues if c not in given)}
        elif phase == "second_clue":
            move = {"type": "pass"}
        else:
            taken = {c for _, c in msg["pawns"]}
            move = {"type": "pawn", "cell": next(c for c in CELLS if c not in taken)}
        ws.send(json.dumps(move))


def test_a_spectator_follows_a_game_and_its_play_again_and_never_sees_a_target_early(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    with _client(app) as client, ExitStack() as stack:
        answer = _post(client, ["person", "person", "person"], house_rules={"rounds_per_giver": 1})
        sockets = {}
        for seat in range(3):
            ws = stack.enter_context(_join(client, answer["seats"][seat]["token"]))
            _next(ws, "welcome")
            sockets[seat] = ws
        watcher = stack.enter_context(_join(client, _token(answer["spectate"])))
        welcome = _next(watcher, "welcome")
        assert welcome["seat"] is None and welcome["spectator"] is True
        first = _next(watcher, "state")
        watcher.send(json.dumps({"type": "target", "index": 0}))
        assert "may only react" in _next(watcher, "error")["message"]
        log: list[dict[str, Any]] = []
        final = _play_all(sockets, watcher, log, first)
        for msg in log:
            assert msg["card"] is None and msg["target"] is None and msg["seat"] is None
        assert len(final["history"]) == 3
        sockets[0].send(json.dumps({"type": "again"}))
        moved = _next(watcher, "again")
        assert moved["table"] != answer["table"] and moved["token"] == _token(answer["spectate"])
        assert _next(watcher, "welcome")["table"] == moved["table"]
        after = _next(watcher, "state")
        assert after["series"] == [final["result"]["scores"]] and after["history"] == []


def test_a_reaction_reaches_everyone_the_sender_too_at_most_one_per_two_seconds(
    tmp_path: Path,
) -> None:
    with _client(_app(tmp_path)) as client:
        answer = _post(client, ["person", "person", "random"])
        with (
            _join(client, answer["seats"][0]["token"]) as hal,
            _join(client, answer["seats"][1]["token"]) as ivy,
            _join(client, _token(answer["spectate"])) as watcher,
        ):
            for ws in (hal, ivy, watcher):
                _next(ws, "welcome")
            ivy.send(json.dumps({"type": "react", "emoji": "🎉"}))
            for ws in (hal, ivy, watcher):
                assert _next(ws, "reaction") == {"type": "reaction", "seat": 1, "emoji": "🎉"}
            ivy.send(json.dumps({"type": "react", "emoji": "😂"}))
            assert "one reaction every 2 s" in _next(ivy, "error")["message"]
            ivy.send(json.dumps({"type": "react", "emoji": "💩"}))
            assert "is not one of" in _next(ivy, "error")["message"]
            watcher.send(json.dumps({"type": "react", "emoji": "👏"}))
            assert _next(hal, "reaction") == {"type": "reaction", "seat": None, "emoji": "👏"}


# -- play again, the board, languages -----------------------------------------------------------
def test_play_again_keeps_every_link_and_the_series(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with _client(app) as client, ExitStack() as stack:
        answer = _post(client, ["person", "person", "person"], house_rules={"rounds_per_giver": 1},
                       waiting_room=True)  # fmt: skip
        tokens = [s["token"] for s in answer["seats"]]
        sockets = {}
        for seat in range(3):
            ws = stack.enter_context(_join(client, tokens[seat]))
            _next(ws, "welcome")
            sockets[seat] = ws
        sockets[0].send(json.dumps({"type": "start"}))
        watcher = stack.enter_context(_join(client, _token(answer["spectate"])))
        _next(watcher, "welcome")
        final = _play_all(sockets, watcher, [])
        sockets[2].send(json.dumps({"type": "again"}))
        told = {seat: _next(ws, "again") for seat, ws in sockets.items()}
        assert {m["table"] for m in told.values()} != {answer["table"]}
        assert [told[s]["token"] for s in range(3)] == tokens and told[0]["by"] == 2
        new = told[0]["table"]
    with _client(_app(tmp_path)) as client:
        for seat in range(3):  # the same links open the new game, after a restart too
            with _join(client, tokens[seat]) as ws:
                welcome = _next(ws, "welcome")
                assert welcome["table"] == new and welcome["seat"] == seat
                state = _next(ws, "state")
                assert state["series"] == [final["result"]["scores"]] and state["started"]
        with _join(client, _token(answer["invite"]), "Late") as late:
            assert "every person's seat" in _next(late, "error")["message"]


def test_a_table_on_the_retail_board_replays_and_exports_by_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = _app(tmp_path)
    with _client(app) as client:
        answer = _post(client, ["person", "random", "random"], board="retail",
                       house_rules={"rounds_per_giver": 1})  # fmt: skip
        with _join(client, answer["seats"][0]["token"]) as ws:
            assert _next(ws, "welcome")["board"]["id"] == RETAIL_BOARD_ID
            assert _play_all({0: ws}, ws, [])["phase"] == "game_over"
    db = tmp_path / "p.sqlite"
    record = GameRecord.from_json(
        sqlite3.connect(db).execute("SELECT record FROM games").fetchone()[0]
    )
    assert record.board_id == RETAIL_BOARD_ID and record.replay().is_terminal
    assert main(["replay", str(db)]) == 0
    assert "board retail" in capsys.readouterr().out
    assert export_games(db, tmp_path / "rounds.csv") == 1


def test_a_spanish_table_seats_only_bots_that_speak_spanish_named_in_spanish(
    tmp_path: Path,
) -> None:
    with TestClient(_app(tmp_path)) as client:
        refused = client.post(
            "/api/tables",
            json={"seats": [{"kind": "person"}, {"kind": "naming"}, {"kind": "random"}],
                  "language": "es"},
        )  # fmt: skip
        assert refused.status_code == 400 and "does not speak es" in refused.json()["error"]
        answer = _post_http(client, ["person", "default", "random"], language="es")
    assert [s["name"] for s in answer["seats"]] == [
        "Jugador 1",
        "Bot predeterminado 2",
        "Bot aleatorio 3",
    ]


# -- links, pages -------------------------------------------------------------------------------
def test_the_waiting_rooms_qr_codes_read_back_to_their_links(tmp_path: Path) -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    from huescues.web._qr import qr_code  # private: the code's matrix, read back

    with TestClient(_app(tmp_path)) as client:
        answer = _post_http(client, ["person", "person", "random"], waiting_room=True)
        for link in (answer["invite"], answer["spectate"], answer["seats"][1]["link"]):
            svg = client.post("/api/qr", json={"text": link})
            assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
            assert svg.text.startswith("<svg")
            matrix = np.array(
                [[0 if dark else 255 for dark in row] for row in qr_code(link).matrix_iter(
                    scale=4, border=4)], dtype=np.uint8,
            )  # fmt: skip
            assert zxingcpp.read_barcode(matrix).text == link
        for text in ("https://elsewhere.example/x", 5, "http://testserver/" + "x" * 400):
            refused = client.post("/api/qr", json={"text": text})
            assert refused.status_code == 400 and "link of this server's" in refused.text


def test_an_unknown_address_is_a_page_with_a_way_back(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        page = client.get("/no/such/page")
        api = client.get("/api/nothing")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert 'href="/"' in page.text and 'data-screen="not-found"' in page.text
    assert "content-security-policy" in page.headers
    assert api.status_code == 404 and api.json() == {"error": "no such page"}


def test_the_terminal_numbers_the_card_1_to_4() -> None:
    from huescues.terminal import GameAbandoned, play_in_terminal

    answers = iter(["0", "1"])
    output = io.StringIO()
    prompts: list[str] = []

    def person(prompt: str) -> str:
        prompts.append(prompt)
        if "target" in prompt:
            return next(answers, "1")
        raise EOFError

    with pytest.raises(GameAbandoned):
        play_in_terminal(players=3, seat=0, seed=1, opponents="random", input_fn=person,
                         output=output, colour=False)  # fmt: skip
    text = output.getvalue()
    assert "  1: " in text and "  4: " in text and "  0: " not in text
    assert prompts[0] == "Your target, 1-4: " and "1-4, or its name (R8)" in text
