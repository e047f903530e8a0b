"""The actions a player can take (R8-R12): small frozen values that compare by value."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ._cell import Cell, all_cells
from ._errors import InvalidTarget
from ._ints import as_int

__all__ = [
    "Action",
    "ChooseTarget",
    "GiveClue",
    "Pass",
    "PlacePawn",
    "action_from_dict",
    "action_to_dict",
]

# Generous bounds for a square read from a record: the board checks the real size (R1).
_MAX_ROWS, _MAX_COLS = 26, 999


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    """The clue giver picks square ``index`` (0-3) of the card as the target (R8)."""

    index: int

    def __post_init__(self) -> None:
        index = self.index
        if type(index) is not int:
            # Any integer type (numpy's too) is kept as an int; anything else is no square.
            try:
                object.__setattr__(self, "index", as_int(index, "ChooseTarget's index"))
            except TypeError:
                raise InvalidTarget(
                    f"target {index!r} refused: choose one of the card's squares by its "
                    "number, 0-3 (R8)"
                ) from None

    def __str__(self) -> str:
        return f"choose target {self.index}"


@dataclass(frozen=True, slots=True)
class GiveClue:
    """The clue giver says ``text`` (R9, R11), checked by the clue rules (R18-R22)."""

    text: str

    def __str__(self) -> str:
        return f"clue {self.text!r}"


@dataclass(frozen=True, slots=True)
class Pass:
    """The clue giver passes instead of giving the second clue (R11)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PlacePawn:
    """A guesser places a pawn on ``cell`` (R10, R12): ``PlacePawn(Cell.parse("F12"))``."""

    cell: Cell

    def __str__(self) -> str:
        return f"pawn on {self.cell}"


Action = ChooseTarget | GiveClue | Pass | PlacePawn


def action_to_dict(action: Action) -> dict[str, Any]:
    """Plain JSON-ready data for an action."""
    if isinstance(action, PlacePawn):
        return {"pawn": str(action.cell)}
    if isinstance(action, GiveClue):
        return {"clue": action.text}
    if isinstance(action, ChooseTarget):
        return {"target": action.index}
    return {"pass": True}


@functools.lru_cache(maxsize=4096)
def _pawn(text: str) -> PlacePawn:
    """The pawn action of a square's name, made once per name (a record of a game names a
    hundred squares, a results file the same few hundred over and over); actions are frozen,
    so one may be shared. A name that is not a square raises each time (errors are not kept)."""
    return PlacePawn(Cell.parse(text, rows=_MAX_ROWS, cols=_MAX_COLS))


@functools.cache
def pawn_moves(rows: int, cols: int) -> tuple[PlacePawn, ...]:
    """A pawn on every square of a ``rows`` x ``cols`` board, row by row (made once per size:
    building a frozen action costs about as much as the random agent's choosing it)."""
    return tuple(PlacePawn(cell) for cell in all_cells(rows, cols))


# Records read from a results file repeat the same few targets and the vocabulary's clues:
# actions are frozen, so one object may stand for each.
_clue = functools.lru_cache(maxsize=4096)(GiveClue)
_target = functools.lru_cache(maxsize=64)(ChooseTarget)
_PASS = Pass()


def action_from_dict(data: dict[str, Any]) -> Action:
    """The inverse of :func:`action_to_dict`."""
    if type(data) is dict and len(data) == 1:  # a pawn first: most of a record's actions
        square = data.get("pawn")
        if type(square) is str:
            return _pawn(square)
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError(f"not an action: {data!r}")
    ((kind, value),) = data.items()
    if kind == "pawn" and isinstance(value, str):
        return _pawn(value)
    if kind == "clue" and type(value) is str:
        return _clue(value)
    if kind == "clue" and isinstance(value, str):
        return GiveClue(value)
    if kind == "target" and type(value) is int:
        return _target(value)
    if kind == "pass" and value is True:
        return _PASS
    raise ValueError(f"not an action: {data!r}")
