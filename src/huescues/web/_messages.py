"""The game tables' protocol: what a page sends and is sent, over HTTP and the WebSocket.

Game tables: 3-10 seats, each a person or a bot, played over WebSockets.

The engine is the only judge: every action a page sends is applied with
``GameState.apply(action, seat=seat)`` and every page is sent ``state.view(seat)`` of its own
seat, so the card and the target reach the clue giver's connections only, until the reveal (R8,
R14). Nothing of the rules runs in the browser.

HTTP
----
- ``GET /``: the page that creates a table. ``GET /play#t=TOKEN[,TOKEN...]``: the game page for
  one seat, or for several seats on one device (pass-and-play). Tokens travel in the fragment, so
  they never reach the server's logs.
- ``POST /api/tables`` with JSON ``{"seats": [{"kind": "person"|"default"|"naming"|"random"|...,
  "name": "Ann"}, ...]}`` (``name`` optional; 3-10 seats, at least one person; a bot's kind is
  one of ``GET /api/setup``'s; a ``"seed"`` only where :attr:`TableSettings.allow_seed`, else
  403: the server draws the seed and tells no client before the end) answers ``{"table": ID,
  "seats": [{"seat": 0, "name", "kind", "token", "link"}, ...]}``; a person's seat has its
  token (``secrets.token_urlsafe``) and its link, BASE + ``/play#t=`` + token (BASE is ``huescues
  serve --public-url``, else the request's scheme and host, or this machine's LAN address where
  the request came to the loopback of a server bound to more: :class:`~huescues.web._links.Links`);
  a bot's has ``null`` for both. The token is the seat: whoever holds it plays that seat, and
  nobody else can.
- ``GET /api/tables/ID``: ``{"table", "seats": [{"seat","name","kind"}], "finished": bool}``
  (no tokens).
- ``GET /api/setup``: what a new table may hold, for the page that creates one: ``{"bots":
  [{"kind", "description", "languages": ["en", ...]}, ...], "languages": ["en", "es"],
  "language": "en", "min_players", "max_players"}`` (the bots are the catalogue's fair players,
  :data:`huescues.agents.CATALOGUE`, each with the table languages whose clues it reads and
  gives; ``language`` is the server's default, ``huescues serve --language``; the bounds are
  R2's).

WebSocket ``/ws`` (JSON text messages, at most 4096 bytes each)
---------------------------------------------------------------
A message of 4,097 bytes to 64 KiB is answered with an ``error`` (the connection stays open); a
frame over 64 KiB is closed with 1009 before it is read; nothing is compressed. Every message
is parsed once into a typed message (:mod:`huescues.web._inbound`); one that cannot be taken
(malformed, an unknown type, a field of the wrong type) is answered with an ``error`` and the
connection stays open.

The page sends first ``{"type": "join", "token": TOKEN}``; one connection holds one seat (a page
for several seats opens one connection per seat). Then:

- ``{"type": "target", "index": 0-3}``: the clue giver picks a square of the card (R8);
- ``{"type": "clue", "text": "lagoon"}``: the first clue (R9) or the second (R11);
- ``{"type": "pass"}``: no second clue (R11);
- ``{"type": "pawn", "cell": "F12"}``: a guess (R10, R12);
- ``{"type": "check", "text": "..."}``: is this clue allowed now? (the live check; changes
  nothing);
- ``{"type": "next"}``: dismiss the reveal; the next round starts once every connected person
  has, or after the table's ``reveal_seconds`` (nobody acts meanwhile);
- ``{"type": "again"}``: once the game is over, a new table with the same seats and house rules;
- ``{"type": "pong"}``: the answer to the server's ``{"type": "ping"}``, sent to every joined
  connection every third of :data:`~huescues.web._table.AWAY_SECONDS` (30 s). A seat whose
  connections send nothing, not even a pong, for 30 s is *away*: the reveal does not wait for
  it, and a table whose people are all away expires after the idle timeout.

``POST /api/tables`` also takes ``"language": "en" | "es"`` (the game's language,
``Rules.language``: the clue rules R19-R21 in its words, the live check too; default the
server's; another is a 400 naming it; kept with the house rules, so a restart rebuilds the game
in it; the ``welcome`` says it, ``language``, and in ``house_rules``) and ``"house_rules":
{"refuse_named_colours": bool, "rounds_per_giver": 1-3, "reveal_seconds": 0-600}``
(:class:`HouseRules`); the ``welcome`` says them (``house_rules``), the ``state`` says
``reveal``: null, or ``{"round", "waiting_for": [seat, ...], "seconds_left"}``. The server also
sends ``{"type": "again", "table", "token", "by"}`` (each seat its own new token) and, to a
join whose table is gone, an ``error`` with ``"code": "gone"`` before closing
with :data:`GONE_CLOSE_CODE`.

The server sends:

- ``{"type": "welcome", "table", "seat", "seats": [{"seat","name","kind","colour"}],
  "board": {"id", "rows", "cols", "row_letters": [...], "colours": [[hex, ...], ...]},
  "ping_seconds"}`` once, after the join (the board as the study sends it too:
  :func:`board_json`; ``ping_seconds``: how often the server pings, so that a page notices a
  connection that went silent without closing);
- ``{"type": "state", "seat", "phase", "current", "giver", "guessers", "round",
  "regular_rounds", "tiebreak", "scores", "clues", "pawns": [[seat, "F12"], ...], "history":
  [round, ...], "card": ["F12", ...] | null, "target": "F12" | null, "result": {"winners",
  "scores", "shared", "tiebreak_rounds"} | null, "ready": bool, "clue_words": n, "may_pass":
  bool, "faults": [text, ...], "storage": "ok" | "retrying"}`` after the join and after every
  change (``storage`` is ``retrying`` while a move cannot be stored and is tried again):
  ``card`` and ``target`` are set for the clue giver only (and ``null`` once the game is
  over); a round of ``history`` is ``RoundResult.to_dict()``: its target, clues, pawns and
  points, after the reveal; the party game's ``presence`` (each seat ``here``, ``away`` or
  ``bot``), ``started``, ``seats``, ``timer`` (null, or ``{"seat", "seconds_left", "why"}``:
  when a stand-in makes the pending move), ``series`` and ``stand_ins`` (the moves stand-ins
  made, each ``{"round", "seat", "action", "value"}``: a clue's text, a pawn's square, never a
  target's);
- ``{"type": "check", "text", "ok": bool, "rule": "R19" | null, "message"}`` answering a check;
- ``{"type": "error", "message", "rule": "R13" | null}`` when a message is refused (malformed,
  too big, too many, not your turn, against a rule): nothing changed.

Connections and messages are rate-limited per client address and per connection (token
buckets); open connections and tables in play are capped per address, a connection must join a
seat within :attr:`TableSettings.join_timeout`, a table whose people are all away expires after
:attr:`TableSettings.idle_timeout`, and one no person ever joined after
:attr:`TableSettings.unjoined_timeout` (at the cap on tables in play, the oldest of these make
room for a new one). Every action is stored as it is played (``_store``), so a
restart rebuilds the games in play; a finished game is stored as its
:class:`~huescues.GameRecord` JSON in the ``games`` table and replays with ``huescues replay DB
--game ID``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from huescues.agents import cut_message
from huescues.engine import (
    GameState,
    IllegalAction,
    Phase,
    View,
    hidden_character,
    validate_clue,
)

from ._board import board_json
from ._bots import BOT_KINDS
from ._table import MAX_NAME, Seat, WebTable

__all__ = [
    "PING",
    "REACTIONS",
    "again_message",
    "check_clue",
    "check_name",
    "error",
    "seat_request",
    "seats_json",
    "send",
    "store_failure",
    "view_message",
    "welcome",
]

#: The reactions a seat or a spectator may send: a small fixed set, no free text (nothing to
#: moderate).
REACTIONS: tuple[str, ...] = ("👏", "😂", "😮", "🤔", "🔥", "🎉", "😬", "❤️")


def view_message(table: WebTable, view: View, *, spectator: bool = False) -> dict[str, Any]:
    """The ``state`` message for one seat: its view and nothing more (R8); for a spectator a
    guesser's view (no card, no target), of no seat."""
    state = table.state
    rules = view.rules
    second = view.phase is Phase.SECOND_CLUE
    result = state.result
    now = time.monotonic()
    pending = state.current_player
    timer = None
    if table.started and pending is not None and table.seats[pending].kind == "person":
        due = table.stand_in_at(pending, now)
        if due is not None:
            timer = {"seat": pending, "seconds_left": max(0.0, round(due[0] - now, 1)),
                     "why": due[1]}  # fmt: skip
    return {
        "type": "state",
        "seat": None if spectator else view.seat,
        "phase": view.phase.value,
        "current": view.current_player,
        "giver": view.giver,
        "guessers": list(view.guessers),
        "round": view.round,
        "regular_rounds": rules.regular_rounds,
        "tiebreak": view.tiebreak,
        "scores": list(view.scores),
        "clues": list(view.clues),
        "pawns": [[s, str(c)] for s, c in view.pawns],
        "history": [r.to_dict() for r in view.history],
        "card": None if view.card is None else [str(c) for c in view.card],
        "target": None if view.target is None else str(view.target),
        "result": None
        if result is None
        else {
            "winners": list(result.winners),
            "scores": list(result.scores),
            "shared": result.shared,
            "tiebreak_rounds": result.tiebreak_rounds,
        },
        "ready": table.ready,
        "clue_words": rules.second_clue_words if second else rules.first_clue_words,
        "may_pass": rules.second_clue_may_pass,
        "faults": table.faults[-5:],
        "storage": table.storage,
        "presence": table.presence(now),
        "seats": table.public_seats(),
        "started": table.started,
        "timer": timer,
        "series": table.series,
        "stand_ins": table.stand_in_moves,
        "reveal": None
        if table.reveal is None
        else {
            "round": table.reveal.round,
            "waiting_for": table.waiting_for(),
            "seconds_left": max(
                0.0, round(table.reveal.since + table.reveal_seconds - time.monotonic(), 1)
            ),
        },
    }


def welcome(table: WebTable, seat: int | None, token: str | None = None) -> dict[str, Any]:
    """The first message to a joined connection: the table, its seat (``None`` for a
    spectator), and for a seat taken through the invite, that seat's own ``token``."""
    out = {
        "type": "welcome",
        "table": table.id,
        "seat": seat,
        "spectator": seat is None,
        "seats": table.public_seats(),
        "board": board_json(table.state.board),
        "house_rules": table.house_rules(),
        "language": table.state.rules.language,
        "options": table.options.to_dict(),
        "reactions": list(REACTIONS),
        # How often the server pings a joined socket (a third of away_after): a page that hears
        # nothing for a few of these has lost its connection, though no close event came.
        "ping_seconds": round(table.settings.away_after / 3, 3),
    }
    if token is not None:
        out["token"] = token
    return out


def again_message(table: WebTable, token: str | None, by: int | None) -> dict[str, Any]:
    """Tells a connection of the table "play again" made: the new game's id and the
    connection's own token, which the new game answers to (the same link opens it), and who
    asked (null when it was made before this connection joined)."""
    assert table.again is not None
    return {"type": "again", "table": table.again[0], "token": token, "by": by}


#: The server's ping to every joined socket (every third of :attr:`TableSettings.away_after`);
#: a page answers ``{"type": "pong"}``, which keeps its seat's person here.
PING = '{"type": "ping"}'


def check_clue(text: str, state: GameState, seat: int) -> dict[str, Any]:
    """The live clue check: what the engine's clue rules say of ``text`` now (R18-R22)."""
    answer: dict[str, Any] = {"type": "check", "text": text, "ok": True, "rule": None}
    if state.phase not in (Phase.FIRST_CLUE, Phase.SECOND_CLUE) or seat != state.giver:
        answer.update(ok=False, message="it is not your turn to give a clue")
        return answer
    try:
        validate_clue(
            text,
            second=state.phase is Phase.SECOND_CLUE,
            rules=state.rules,
            previous=state.clues_given,
        )
    except IllegalAction as e:
        answer.update(ok=False, rule=getattr(e, "rule", None), message=str(e))
    else:
        answer["message"] = "allowed"
    return answer


def seat_request(i: int, seat: object) -> tuple[str, str | None]:
    """A requested seat's kind and name (None: none given), checked: the name prints as it reads
    (the clue rules' character check, R18: no controls, bidirectional overrides or zero-width
    characters, so no name passes for another), and fits."""
    if not isinstance(seat, dict):
        raise ValueError(f"seat {i} is an object with a 'kind' and a 'name'")
    unknown = sorted(str(k)[:20] for k in set(seat) - {"kind", "name"})
    if unknown:
        raise ValueError(f"seat {i}: unknown fields {unknown}; a seat has 'kind' and 'name'")
    kind = seat.get("kind", "person")
    if not isinstance(kind, str) or (kind != "person" and kind not in BOT_KINDS):
        kinds = ", ".join(("person", *BOT_KINDS))
        raise ValueError(f"seat {i}: kind {str(kind)[:20]!r} is not one of {kinds}")
    return kind, check_name(seat.get("name"), f"seat {i}")


def check_name(name: object, where: str) -> str | None:
    """A person's or seat's name, checked (None when none, or only spaces, is given): text of
    at most :data:`MAX_NAME` characters, each printing as it reads (R18)."""
    if name is None or (isinstance(name, str) and not name.strip()):
        return None
    if not isinstance(name, str) or len(name) > MAX_NAME:
        raise ValueError(f"{where}: a name is text of at most {MAX_NAME} characters")
    hidden = hidden_character(name)
    if hidden is not None:
        raise ValueError(f"{where}: a name shows only characters that print, not {hidden} (R18)")
    return " ".join(name.split())


def store_failure(e: Exception) -> str:
    return cut_message(f"the server could not store the move ({e}); nothing changed")


def seats_json(seats: list[Seat]) -> list[dict[str, Any]]:
    return [s.to_json() for s in seats]


def error(message: str, rule: str | None = None) -> dict[str, Any]:
    return {"type": "error", "message": message, "rule": rule}


#: Seconds a message may take to leave: a connection that reads nothing for longer (its buffers
#: full) is closed, so that one stalled phone does not hold up its table's every broadcast.
SEND_SECONDS = 10.0


async def send(ws: WebSocket, text: str) -> None:
    if ws.client_state is not WebSocketState.CONNECTED:
        return
    try:
        await asyncio.wait_for(ws.send_text(text), SEND_SECONDS)
    except TimeoutError:
        with contextlib.suppress(Exception):
            await ws.close(code=1013)  # the page reconnects, and is sent the state anew
    except Exception:
        pass
