"""Game tables over WebSockets (issue 14): whole games, hidden information (R8, R14), bad
messages, rate limits, guarded bots and finished games kept in the database."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import numpy as np
import pytest
from starlette.testclient import TestClient

from huescues.agents import RANDOM_CLUE_WORDS, RandomAgent
from huescues.engine import MAX_PLAYERS, MIN_PLAYERS, Board, GameRecord, PlacePawn, View
from huescues.web import TableSettings, create_app
from huescues.web import _bots as web_bots  # private: bad bots are patched in
from huescues.web._inbound import Pawn

#: Tables that play at once: no pauses for people to follow the bots.
FAST = TableSettings(bot_delay=0, reveal_pause=0, bot_time_limit=5, allow_seed=True)

#: One-word clues the clue rules allow (R19, R20), one per round the person gives.
CLUES = ("lagoon", "banana", "meadow", "glacier", "velvet", "ember", *RANDOM_CLUE_WORDS)
CELLS = [str(c) for c in Board.standard().cells()]


def _app(tmp_path: Path, settings: TableSettings = FAST, name: str = "t.sqlite") -> Any:
    return create_app(tmp_path / name, tables=settings)


def _create(client: TestClient, kinds: list[str], seed: int = 3) -> dict[str, Any]:
    seats = [{"kind": k} for k in kinds]
    response = client.post("/api/tables", json={"seats": seats, "seed": seed})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _registry(app: Any) -> Any:
    """The server's tables (for tests that compare states before and after)."""
    route = next(r for r in app.routes if getattr(r, "path", "") == "/ws")
    return route.endpoint.__self__


#: A whole game sends one seat under a hundred messages (68 for the slow test's); these bound a game
#: that never ends.
MAX_MESSAGES = 2000
GAME_SECONDS = 180.0


async def _receive_within(ws: Any, seconds: float) -> Any:
    with anyio.fail_after(seconds):
        return await ws._send_rx.receive()  # private: the stream receive_text reads


def _messages(ws: Any) -> Iterator[dict[str, Any]]:
    """The connection's messages, at most ``MAX_MESSAGES`` and for at most ``GAME_SECONDS``
    in all: a table that stops answering, or never ends, fails the test, not the run."""
    deadline = time.monotonic() + GAME_SECONDS
    for count in range(MAX_MESSAGES):
        left = deadline - time.monotonic()
        try:
            # The test client's receive has no timeout: wait on its stream in its own loop.
            message = ws.portal.call(_receive_within, ws, max(left, 0.0))
        except TimeoutError:
            raise AssertionError(
                f"the game had not ended after {GAME_SECONDS:.0f} s ({count} messages)"
            ) from None
        if message["type"] == "websocket.close":
            raise AssertionError(f"the server closed the connection after {count} messages")
        yield json.loads(message["text"])
    raise AssertionError(f"the game had not ended after {MAX_MESSAGES} messages")


def _play_person(ws: Any, seat: int, log: list[dict[str, Any]]) -> dict[str, Any]:
    """Play ``seat`` to the end of the game as a simple person would: the card's first square,
    a fresh one-word clue, a pass, and the first empty square; every message goes to ``log``.
    Returns the last state."""
    clues = iter(CLUES)
    last_acted: tuple[int, str, int] | None = None
    for msg in _messages(ws):
        log.append(msg)
        if msg["type"] == "error":
            raise AssertionError(msg)
        if msg["type"] != "state":
            continue
        if msg["phase"] == "game_over":
            return msg
        if msg["current"] != seat:
            continue
        key = (msg["round"], msg["phase"], len(msg["pawns"]))
        if key == last_acted:
            continue  # already answered this moment
        last_acted = key
        phase = msg["phase"]
        if phase == "choose_target":
            ws.send_text(json.dumps({"type": "target", "index": 0}))
        elif phase == "first_clue":
            given = {c.lower() for r in msg["history"] for c in r["clues"]}  # R22
            clue = next(c for c in clues if c not in given)
            ws.send_text(json.dumps({"type": "clue", "text": clue}))
        elif phase == "second_clue":
            ws.send_text(json.dumps({"type": "pass"}))
        else:
            taken = {c for _, c in msg["pawns"]}
            cell = next(c for c in CELLS if c not in taken)
            ws.send_text(json.dumps({"type": "pawn", "cell": cell}))
    raise AssertionError("unreachable: _messages raises when it runs out")


def _next(ws: Any, kind: str, *, until: Any = None) -> dict[str, Any]:
    """The next message of type ``kind`` (and for which ``until`` holds, when given): a state
    broadcast may come between an action and its answer (another seat's connection or a bot
    moved), so the messages of other types before it are passed over; at most 20."""
    for _ in range(20):
        msg: dict[str, Any] = json.loads(ws.receive_text())
        if msg.get("type") == kind and (until is None or until(msg)):
            return msg
    raise AssertionError(f"no {kind!r} message among the next 20")


@contextmanager
def _join(client: TestClient, token: str) -> Iterator[Any]:
    """A connection that joined the seat of ``token`` (closed at the end, even on failure)."""
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "token": token}))
        yield ws


def test_a_table_needs_3_to_10_seats_and_a_person(tmp_path: Path) -> None:
    bounds = f"{MIN_PLAYERS} to {MAX_PLAYERS} seats (R2)"
    with TestClient(_app(tmp_path)) as client:
        for body, words in [
            ({"seats": [{"kind": "person"}] * (MIN_PLAYERS - 1)}, bounds),
            ({"seats": [{"kind": "person"}] * (MAX_PLAYERS + 1)}, bounds),
            ({"seats": [{"kind": "random"}] * 3}, "at least one person"),
            ({"seats": [{"kind": "person"}, {"kind": "wizard"}, {"kind": "random"}]}, "wizard"),
            ({"seats": [{"kind": "person"}] * 3, "seed": "x"}, "'seed'"),
            ({"seats": [{"kind": "person", "name": "n" * 30}] * 3}, "at most 24"),
        ]:
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400 and words in response.json()["error"]
        nope = client.post(
            "/api/tables", content=b"{nope", headers={"content-type": "application/json"}
        )
        assert nope.status_code == 400
        answer = _create(client, ["person", "random", "naming"])
    tokens = [s["token"] for s in answer["seats"]]
    assert tokens[1] is None and tokens[2] is None
    assert isinstance(tokens[0], str) and len(tokens[0]) >= 24  # unguessable


@pytest.mark.slow
def test_guesser_connection_never_receives_the_card_or_target_before_the_reveal(
    tmp_path: Path,
) -> None:
    """R8, R14: every message a guesser's connection receives during a whole game."""
    app = _app(tmp_path)
    with TestClient(app) as client:
        answer = _create(client, ["random", "person", "random", "random"], seed=11)
        with _join(client, answer["seats"][1]["token"]) as ws:
            log: list[dict[str, Any]] = []
            final = _play_person(ws, 1, log)
    history = final["history"]
    assert final["result"] is not None and len(history) >= 8  # 4 players x 2 rounds (R7)
    states = [m for m in log if m["type"] == "state"]
    assert {m["type"] for m in log} == {"welcome", "state"}
    for msg in states:
        if msg["giver"] != 1 or msg["phase"] == "game_over":
            assert msg["card"] is None and msg["target"] is None
    checked = 0
    for r, rnd in enumerate(history):
        if rnd["giver"] == 1:
            continue
        target = rnd["target"]
        for msg in log:
            if msg["type"] == "state" and len(msg["history"]) > r:
                break  # the reveal of round r (R14): from here on the target is public
            # Pawns may stand on the target; everything else must not name it.
            cleaned = dict(
                msg, pawns=[], history=[dict(h, pawns=[]) for h in msg.get("history", [])]
            )
            assert target not in json.dumps(cleaned), (r, target, msg)
            checked += 1
    assert checked > 100
    # The person's own rounds did show the card and target, to the giver only.
    assert any(m["card"] and m["giver"] == 1 for m in states)


def test_no_page_or_action_sees_a_bots_decision_before_it_is_stored(tmp_path: Path) -> None:
    """A bot's decision is made in a thread, which keeps it as the game's state at once: a
    page told of the table then (another's move, a presence change) saw it before it was
    stored, and its person's pawn for the new turn was refused (most likely what a fresh
    clone's CI saw once: "pawn on A1 by seat 1 refused: it is seat 0's turn to play
    GiveClue"), or played on a state the table then set back. While a decision is made,
    the table shows and judges the state before it: the person's pawn for the turn the
    decision leads to is refused, as it is not yet their turn (R10), not played."""
    app = _app(tmp_path)
    seen: list[tuple[int, int]] = []
    early: list[Any] = []
    with TestClient(app) as client:
        answer = _create(client, ["random", "person", "random", "random"], seed=11)
        registry = _registry(app)
        table = registry.tables[answer["table"]]
        step = table.game.step

        def slow_hand_back() -> Any:
            after = step()
            # What the event loop's readers see while the thread has yet to hand it back.
            seen.append((len(table.state.actions), len(after.actions)))
            if not early and after.current_player == 1 and after.phase.value == "first_guess":
                pawn = Pawn(next(c for c in CELLS if c not in {str(p) for _, p in after.pawns}))
                early.append(client.portal.call(registry.act, table, 1, pawn))
            time.sleep(0.02)
            return after

        table.game.step = slow_hand_back
        with _join(client, answer["seats"][1]["token"]) as ws:
            final = _play_person(ws, 1, [])
    assert final["result"] is not None
    assert len(seen) > 20
    assert all(shown == made - 1 for shown, made in seen)  # the state before the decision
    assert early and early[0]["type"] == "error" and "refused" in early[0]["message"]


def test_a_person_back_while_their_stand_in_decides_is_told_so_and_the_stand_in_moves(
    tmp_path: Path,
) -> None:
    """Ivy never opens her link, so a stand-in plays her turns; her pawn sent while it decides
    her first guess (R10) is not played over it: she is told the stand-in is moving."""
    app = _app(tmp_path, dataclasses.replace(FAST, away_again=0.05))
    told: list[dict[str, Any]] = []
    with TestClient(app) as client:
        seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "random"}]
        body = {"seats": seats, "seed": 4, "away_seconds": 1}
        answer = client.post("/api/tables", json=body).json()
        registry = _registry(app)
        table = registry.tables[answer["table"]]
        play_for = table.game.play_for

        def back_meanwhile(seat: int, agent: Any) -> Any:
            after = play_for(seat, agent)
            if not told:
                taken = {str(c) for _, c in table.state.pawns}
                pawn = Pawn(next(c for c in CELLS if c not in taken))
                told.append(client.portal.call(registry.act, table, seat, pawn))
            return after

        table.game.play_for = back_meanwhile
        with _join(client, answer["seats"][0]["token"]) as ws:
            final = _play_person(ws, 0, [])
    assert final["result"] is not None
    assert told and told[0]["type"] == "error"
    assert told[0]["message"].startswith("a stand-in is making this move for you")
    with sqlite3.connect(tmp_path / "t.sqlite") as conn:
        rows = conn.execute("SELECT by FROM actions WHERE seat = 1").fetchall()
    assert rows and all(by == "stand-in:default" for (by,) in rows)


def test_a_finished_game_is_stored_and_survives_a_restart(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with TestClient(app) as client:
        answer = _create(client, ["person", "random", "random"], seed=5)
        with _join(client, answer["seats"][0]["token"]) as ws:
            final = _play_person(ws, 0, [])
        deadline = time.monotonic() + 5
        while not _registry(app).tables[answer["table"]].stored and time.monotonic() < deadline:
            time.sleep(0.01)
    # A new server on the same file: the record is there and replays to the same end.
    again = _app(tmp_path)
    with TestClient(again):
        rows = again.state.db.query(
            "SELECT record, players, seats FROM games WHERE id = ?", (answer["table"],)
        )
    record = GameRecord.from_json(rows[0]["record"])
    state = record.replay()
    assert state.is_terminal and list(state.scores) == final["result"]["scores"]
    assert rows[0]["players"] == 3 and json.loads(rows[0]["seats"])[1]["kind"] == "random"


def test_replay_reads_a_game_from_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from huescues.cli import main

    app = _app(tmp_path)
    with TestClient(app) as client:
        answer = _create(client, ["person", "random", "random"], seed=2)
        with _join(client, answer["seats"][0]["token"]) as ws:
            _play_person(ws, 0, [])
        deadline = time.monotonic() + 5
        while not _registry(app).tables[answer["table"]].stored and time.monotonic() < deadline:
            time.sleep(0.01)
    db = str(tmp_path / "t.sqlite")
    # "--game=ID": a table id may start with "-" (token_urlsafe), which argparse would
    # otherwise read as an option.
    assert main(["replay", db, f"--game={answer['table']}"]) == 0
    out = capsys.readouterr().out
    assert "Replay of" in out and "=== game over ===" in out
    assert main(["replay", db]) == 0  # the latest finished game
    assert main(["replay", db, "--game", "nope"]) == 2
    assert "no finished game 'nope'" in capsys.readouterr().err


def _state_of(app: Any, table: str) -> Any:
    return _registry(app).tables[table].state


def test_bad_messages_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    app = _app(
        tmp_path, TableSettings(bot_delay=0, reveal_pause=0, message_burst=100, allow_seed=True)
    )
    with TestClient(app) as client, ExitStack() as stack:
        answer = _create(client, ["person", "person", "person"])
        giver = stack.enter_context(_join(client, answer["seats"][0]["token"]))
        other = stack.enter_context(_join(client, answer["seats"][1]["token"]))
        for ws in (giver, other):
            assert json.loads(ws.receive_text())["type"] == "welcome"
            assert json.loads(ws.receive_text())["type"] == "state"
        before = _state_of(app, answer["table"])
        bad: list[tuple[Any, str | bytes, str]] = [
            (giver, "x" * 5000, "at most 4096"),
            (giver, "{not json", "not JSON"),
            (giver, "[1, 2]", "a JSON object"),
            (giver, json.dumps({"type": "dance"}), "unknown message type"),
            (giver, json.dumps({"type": "target", "index": 7}), "0-3 (R8)"),
            (giver, json.dumps({"type": "target", "index": "0"}), "0-3 (R8)"),
            (giver, json.dumps({"type": "pawn", "cell": "F12"}), "R8"),  # wrong phase
            (giver, json.dumps({"type": "clue", "text": "lagoon"}), "R8"),  # no target yet
            (giver, json.dumps({"type": "join", "token": "x"}), "holds a seat"),
            (other, json.dumps({"type": "target", "index": 0}), "seat 0's turn"),
            (giver, b"\x00\x01", "not binary"),
        ]
        for ws, text, words in bad:
            if isinstance(text, bytes):
                ws.send_bytes(text)
            else:
                ws.send_text(text)
            # (A state may come first: the other seat's arrival, told to everyone.)
            reply = _next(ws, "error")
            assert words in reply["message"], (text, reply)
        assert _state_of(app, answer["table"]) == before
        # A refused clue names its rule and changes nothing (R19).
        giver.send_text(json.dumps({"type": "target", "index": 2}))
        assert json.loads(giver.receive_text())["target"] is not None
        assert json.loads(other.receive_text())["target"] is None
        chosen = _state_of(app, answer["table"])
        giver.send_text(json.dumps({"type": "clue", "text": "reddish"}))
        reply = json.loads(giver.receive_text())
        assert reply == {"type": "error", "message": reply["message"], "rule": "R19"}
        assert _state_of(app, answer["table"]) == chosen
        # Nobody can act for another seat, even knowing the table.
        other.send_text(json.dumps({"type": "clue", "text": "lagoon"}))
        assert "seat 0's turn" in json.loads(other.receive_text())["message"]
        assert _state_of(app, answer["table"]) == chosen
        # An unknown token joins nothing.
        stranger = stack.enter_context(_join(client, "not-a-token"))
        assert "join a seat" in json.loads(stranger.receive_text())["message"]


def test_the_live_check_answers_with_the_rule(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with TestClient(app) as client:
        answer = _create(client, ["person", "random", "random"])
        with _join(client, answer["seats"][0]["token"]) as ws:
            ws.receive_text(), ws.receive_text()
            ws.send_text(json.dumps({"type": "check", "text": "lagoon"}))
            assert _next(ws, "check")["message"] == "it is not your turn to give a clue"
            ws.send_text(json.dumps({"type": "target", "index": 0}))
            _next(ws, "state", until=lambda m: m["target"] is not None)
            for text, ok, rule in [("lagoon", True, None), ("bluish", False, "R19"),
                                   ("F12", False, "R20"), ("two words", False, "R18")]:  # fmt: skip
                ws.send_text(json.dumps({"type": "check", "text": text}))
                reply = _next(ws, "check")
                assert (reply["ok"], reply["rule"], reply["text"]) == (ok, rule, text)
            before = _state_of(app, answer["table"])
            assert before.clues == ()


def test_a_reload_rejoins_the_seat(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with TestClient(app) as client:
        answer = _create(client, ["person", "random", "random"])
        token = answer["seats"][0]["token"]
        with _join(client, token) as first:
            first.receive_text(), first.receive_text()
            first.send_text(json.dumps({"type": "target", "index": 1}))
            target = _next(first, "state", until=lambda m: m["target"] is not None)["target"]
        with _join(client, token) as again:
            welcome, state = json.loads(again.receive_text()), json.loads(again.receive_text())
        assert welcome["seat"] == 0 and state["target"] == target
        assert state["phase"] == "first_clue"


def test_messages_and_connections_are_rate_limited(tmp_path: Path) -> None:
    settings = TableSettings(
        message_burst=3, message_rate=0.01, connect_burst=3, connect_rate=0.01, allow_seed=True
    )
    app = _app(tmp_path, settings)
    with TestClient(app) as client, ExitStack() as stack:
        answer = _create(client, ["person", "random", "random"])  # one take of the bucket
        ws = stack.enter_context(_join(client, answer["seats"][0]["token"]))  # two
        ws.receive_text(), ws.receive_text()
        replies = []
        for _ in range(4):
            ws.send_text(json.dumps({"type": "check", "text": "lagoon"}))
            replies.append(json.loads(ws.receive_text()))
        assert [r["type"] for r in replies[:2]] == ["check", "check"]
        assert replies[-1] == {
            "type": "error",
            "message": "too many messages; slow down",
            "rule": None,
        }
        third = stack.enter_context(_join(client, answer["seats"][0]["token"]))  # three
        assert json.loads(third.receive_text())["type"] == "welcome"
        with client.websocket_connect("/ws") as fourth:
            assert "too many connections" in json.loads(fourth.receive_text())["message"]
        assert client.post("/api/tables", json={"seats": []}).status_code == 429


class _Raises(RandomAgent):
    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        raise RuntimeError("boom")


class _Stalls(RandomAgent):
    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        time.sleep(0.5)
        return super().place_pawn(view, rng)


class _Illegal(RandomAgent):
    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        return (
            PlacePawn(next(iter(view.occupied))) if view.occupied else super().place_pawn(view, rng)
        )


def test_bots_that_raise_stall_or_cheat_are_replaced_by_the_random_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, factory in [("raises", _Raises), ("stalls", _Stalls), ("illegal", _Illegal)]:
        monkeypatch.setitem(web_bots.BOT_KINDS, name, factory)
    settings = TableSettings(bot_delay=0, reveal_pause=0, bot_time_limit=0.1, allow_seed=True)
    app = _app(tmp_path, settings)
    with TestClient(app) as client:
        answer = _create(client, ["person", "raises", "stalls", "illegal"], seed=4)
        with _join(client, answer["seats"][0]["token"]) as ws:
            final = _play_person(ws, 0, [])
        table = _registry(app).tables[answer["table"]]
    assert final["result"] is not None
    faults = "\n".join(table.faults)
    assert "RuntimeError: boom" in faults
    assert "no decision within 0.1 s" in faults
    assert "illegal decision" in faults and "R13" in faults
    # A stalled bot is asked no more: its seat plays the random agent from then on.
    assert table.game.retired[2][0] == "timeout"


class _FailsToPrepare(RandomAgent):
    def prepare(self, board: object, rules: object) -> None:
        raise OSError("model file missing")


def test_a_bot_that_cannot_be_prepared_plays_random_moves_as_in_tournaments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(web_bots.BOT_KINDS, "broken", _FailsToPrepare)
    settings = TableSettings(
        bot_delay=0, reveal_pause=0, bot_time_limit=5, message_burst=1e4, allow_seed=True
    )
    app = _app(tmp_path, settings)
    with TestClient(app) as client:
        answer = _create(client, ["person", "broken", "random", "random"], seed=4)
        with _join(client, answer["seats"][0]["token"]) as ws:
            final = _play_person(ws, 0, [])
        table = _registry(app).tables[answer["table"]]
    assert final["result"] is not None
    # The same guard as a tournament's: every decision of the seat is a fault of one record.
    assert table.game.faults and {(f.seat, f.kind) for f in table.game.faults} == {(1, "exception")}
    assert "could not be prepared: OSError: model file missing" in table.faults[0]


def test_every_table_gets_bots_of_its_own(tmp_path: Path) -> None:
    """No two seats or tables share a player object (what the bots read from the models is
    shared through the memos); the same kind of bot plays the same way."""
    app = _app(tmp_path)
    with TestClient(app) as client:
        one = _create(client, ["person", "default", "default", "naming"], seed=5)
        two = _create(client, ["person", "default", "default", "naming"], seed=5)
        tables = _registry(app).tables
        bots = [s.agent for t in (one, two) for s in tables[t["table"]].seats[1:]]
    assert len({id(b) for b in bots}) == len(bots)
    assert len({id(b.giver) for b in bots}) == len(bots)
    assert bots[0] == bots[1] == bots[3] == bots[4] and bots[2] == bots[5]
