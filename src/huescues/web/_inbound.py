"""What a page may send over the tables' WebSocket, as typed messages: each text frame is parsed
once, here, into one of them or refused with a :class:`BadMessage` that says why; the server then
handles every kind in one dispatch (``_tables``). Fields a kind does not use are ignored, so an
older page's extra keys do no harm."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from huescues.engine import (
    Action,
    ChooseTarget,
    GameState,
    GiveClue,
    Pass,
    PlacePawn,
)

__all__ = [
    "Again",
    "BadMessage",
    "Check",
    "Clue",
    "GiveToBot",
    "Inbound",
    "Join",
    "Next",
    "PassClue",
    "Pawn",
    "Pong",
    "React",
    "Start",
    "Target",
    "parse_message",
    "to_action",
]

#: The longest seat token a join may carry (``secrets.token_urlsafe(18)`` is 24 characters).
MAX_TOKEN = 64


class BadMessage(ValueError):
    """A message the server cannot take: malformed, or not a kind it knows. Nothing changed;
    the page is told why, and the connection stays open."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True, slots=True)
class Join:
    """Take the seat of this link's token, watch the table (a spectator's token), or take a
    free person's seat as ``name`` (the invite's token)."""

    token: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """The clue giver picks square ``index`` (0-3) of the card (R8)."""

    index: int


@dataclass(frozen=True, slots=True)
class Clue:
    """The first clue (R9) or the second (R11)."""

    text: str


@dataclass(frozen=True, slots=True)
class PassClue:
    """No second clue (R11)."""


@dataclass(frozen=True, slots=True)
class Pawn:
    """A guess: a pawn on the square named ``cell`` (R10, R12)."""

    cell: str


@dataclass(frozen=True, slots=True)
class Check:
    """Is this clue allowed now? (the live check; changes nothing)"""

    text: str


@dataclass(frozen=True, slots=True)
class Next:
    """Dismiss the reveal."""


@dataclass(frozen=True, slots=True)
class Again:
    """Once the game is over: play again with the same seats."""


@dataclass(frozen=True, slots=True)
class Pong:
    """The page's answer to the server's ``ping``: its seat's person is here."""


@dataclass(frozen=True, slots=True)
class Start:
    """The creator starts a waiting room's game, the empty person seats given first to the bot
    ``fill`` when named."""

    fill: str | None = None


@dataclass(frozen=True, slots=True)
class GiveToBot:
    """The creator gives an away person's ``seat`` to a bot for the rest of the game."""

    seat: int


@dataclass(frozen=True, slots=True)
class React:
    """A reaction, one of the welcome's ``reactions``."""

    emoji: str


Inbound = (
    Join | Target | Clue | PassClue | Pawn | Check | Next | Again | Pong | Start | GiveToBot | React
)

_BARE: dict[str, Inbound] = {
    "pass": PassClue(),
    "next": Next(),
    "again": Again(),
    "pong": Pong(),
}


def parse_message(text: str) -> Inbound:
    """The message in a text frame, checked: a :class:`BadMessage` names what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("message refused: not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage("message refused: a JSON object with a 'type'")
    kind = data["type"]
    bare = _BARE.get(kind)
    if bare is not None:
        return bare
    if kind == "join":
        token = data.get("token")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise BadMessage("a join's 'name' is text")
        if not isinstance(token, str) or not token.isascii() or len(token) > MAX_TOKEN:
            # Answered as a wrong link: the page shows that the table is gone.
            return Join("", name)
        return Join(token, name)
    if kind == "start":
        fill = data.get("fill")
        if fill is not None and not isinstance(fill, str):
            raise BadMessage("a start's 'fill' is the kind of bot to seat, such as 'default'")
        return Start(fill)
    if kind == "bot":
        seat = data.get("seat")
        if type(seat) is not int:
            raise BadMessage("a bot message needs 'seat', the number of the seat (0, 1, ...)")
        return GiveToBot(seat)
    if kind == "react":
        emoji = data.get("emoji")
        if not isinstance(emoji, str) or len(emoji) > 16:
            raise BadMessage("a react message needs 'emoji', one of the welcome's reactions")
        return React(emoji)
    if kind == "target":
        index = data.get("index")
        if type(index) is not int:
            raise BadMessage(
                f"target {_shown(index)} refused: choose a square of the card, 0-3 (R8)"
            )
        return Target(index)
    if kind in ("clue", "check"):
        value = _text(data, kind)
        return Clue(value) if kind == "clue" else Check(value)
    if kind == "pawn":
        cell = data.get("cell")
        if not isinstance(cell, str) or len(cell) > 8:
            raise BadMessage("a pawn message needs 'cell', a square's name such as 'F12'")
        return Pawn(cell)
    raise BadMessage(f"unknown message type {kind[:30]!r}")


def _text(data: dict[str, Any], kind: str) -> str:
    value = data.get("text")
    if not isinstance(value, str):
        raise BadMessage(f"a {kind} message needs 'text', a string")
    return value


def _shown(value: object) -> str:
    return repr(value)[:30]


def to_action(message: Target | Clue | PassClue | Pawn, state: GameState) -> Action:
    """The engine's action for a move message in ``state``; a :class:`BadMessage` for a card
    index or square that the game does not have."""
    match message:
        case Target(index):
            if not 0 <= index < len(state.card):
                raise BadMessage(f"target {index!r} refused: choose a square of the card, 0-3 (R8)")
            return ChooseTarget(index)
        case Clue(text):
            return GiveClue(text)
        case PassClue():
            return Pass()
        case Pawn(cell):
            try:
                return PlacePawn(state.board.cell(cell))
            except ValueError as e:
                raise BadMessage(str(e)) from None
