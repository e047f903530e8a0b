"""What a QA pass of the party game on phones found, at the server (a real server on loopback,
every wait bounded): the stand-in's countdown a page is told starts with the turn it is told of,
not with the turn before; the lobby learns from ``/api/setup`` whether there is a leaderboard
to ask for; the welcome says how often the server pings (the page's watchdog)."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from huescues.web import TableSettings
from test_web_party import CELLS, PARTY, _app, _client, _join, _next, _post

#: The turn timer of these tables, and how far under it a new turn's countdown may start (the
#: time a state takes to reach the test on a busy machine).
TURN = 30
SLACK = 1.0
#: How long each person waits before their move: the turn before it was this old when the old
#: countdown was told, long enough to tell the two apart.
THINK = 2.5


def _timer(state: dict[str, Any]) -> dict[str, Any]:
    timer = state["timer"]
    assert timer is not None, f"no countdown in {state['phase']}, seat {state['current']}"
    return dict(timer)


def test_a_new_turns_countdown_starts_full_after_a_persons_move_and_after_a_reveal(
    tmp_path: Path,
) -> None:
    """Hal gives, Ivy guesses, a bot guesses; a turn timer of 30 s. Each person thinks 2.5 s
    before their move: the state that tells of the next pending turn counts its 30 s from that
    turn's start (not 27.5 s, from the start of the turn just played), and so does the state
    after a reveal (the next round's first turn)."""
    app = _app(tmp_path)
    with _client(app) as client:
        answer = _post(
            client,
            ["person", "person", "random"],
            turn_seconds=TURN,
            away_seconds=0,
            house_rules={"reveal_seconds": 15},
        )
        hal_token, ivy_token = (s["token"] for s in answer["seats"][:2])
        with _join(client, hal_token) as hal, _join(client, ivy_token) as ivy:
            _next(hal, "welcome")
            _next(ivy, "welcome")
            _next(hal, "state", until=lambda m: m["ready"] and m["phase"] == "choose_target")
            time.sleep(THINK)
            hal.send(json.dumps({"type": "target", "index": 0}))
            clue = _next(hal, "state", until=lambda m: m["phase"] == "first_clue")
            # Hal's next decision (his clue) is a new turn, just begun.
            assert _timer(clue)["seat"] == 0 and _timer(clue)["why"] == "turn"
            assert _timer(clue)["seconds_left"] >= TURN - SLACK, _timer(clue)
            time.sleep(THINK)
            hal.send(json.dumps({"type": "clue", "text": "lagoon"}))
            # Ivy guesses first (R10: the giver's left).
            mine = _next(ivy, "state", until=lambda m: m["current"] == 1)
            assert _timer(mine)["seconds_left"] >= TURN - SLACK, _timer(mine)
            time.sleep(THINK)
            taken = {c for _, c in mine["pawns"]}
            ivy.send(json.dumps({"type": "pawn", "cell": next(c for c in CELLS if c not in taken)}))
            second = _next(hal, "state", until=lambda m: m["phase"] == "second_clue")
            hal.send(json.dumps({"type": "clue", "text": "calm water"}))
            # Her second pawn (R12: the guessers in reverse) ends the round.
            last = _next(
                ivy, "state", until=lambda m: m["current"] == 1 and m["phase"] == "second_guess"
            )
            assert second["clues"] == ["lagoon"] and last["clues"] == ["lagoon", "calm water"]
            time.sleep(THINK)
            taken = {c for _, c in last["pawns"]}
            ivy.send(json.dumps({"type": "pawn", "cell": next(c for c in CELLS if c not in taken)}))
            _next(hal, "state", until=lambda m: m["reveal"] is not None)
            hal.send(json.dumps({"type": "next"}))
            ivy.send(json.dumps({"type": "next"}))
            # The next round: Ivy gives (R7), her target first.
            after = _next(hal, "state", until=lambda m: m["reveal"] is None and m["history"])
            assert after["current"] == 1 and after["phase"] == "choose_target"
            assert _timer(after)["seconds_left"] >= TURN - SLACK, _timer(after)


def test_the_setup_says_whether_the_server_shows_a_leaderboard(tmp_path: Path) -> None:
    """The lobby asks for the leaderboard only where there is one: elsewhere its 404 was a
    console error on every load."""
    from starlette.testclient import TestClient

    for shown in (False, True):
        settings = dataclasses.replace(PARTY, leaderboard=shown)
        with TestClient(_app(tmp_path, settings, f"l{shown}.sqlite")) as client:
            assert client.get("/api/setup").json()["leaderboard"] is shown
            status = client.get("/api/leaderboard").status_code
            assert status == (200 if shown else 404)


def test_the_welcome_says_how_often_the_server_pings(tmp_path: Path) -> None:
    """The page's watchdog counts silence in pings: a third of ``away_after``."""
    app = _app(tmp_path, dataclasses.replace(PARTY, away_after=6.0))
    with _client(app) as client:
        answer = _post(client, ["person", "random", "random"])
        with _join(client, answer["seats"][0]["token"]) as hal:
            assert _next(hal, "welcome")["ping_seconds"] == 2.0
    assert TableSettings().away_after / 3 == 10.0
