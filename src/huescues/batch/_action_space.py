"""The batch's actions as whole numbers: one code per action :meth:`GameState.apply` takes
(a target, a pass, a pawn, a clue), so that a batch of decisions is one int array."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field

from huescues.engine import Action, Board, ChooseTarget, GiveClue, Pass, PlacePawn

from ._vocabulary import ClueVocabulary

__all__ = ["PASS", "TARGETS", "ActionSpace", "whole"]

#: Codes 0-3 choose square 0-3 of the card as the target (R8).
TARGETS = 4
#: The code of a pass instead of the second clue (R11).
PASS = TARGETS


def whole(value: object, name: str) -> int:
    """``value`` as an int (numpy integers too), or a TypeError naming it."""
    if type(value) is int:
        return value
    try:
        if isinstance(value, bool):
            raise TypeError
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} is a whole number, not {value!r}") from None


@dataclass(frozen=True, slots=True)
class ActionSpace:
    """Codes ``0-3`` choose a target (R8), ``4`` passes (R11), ``first_pawn + square`` places a
    pawn on square ``row * cols + col`` (R10, R12) and ``first_clue + id`` gives the clue of
    that id in the vocabulary (R9, R11)."""

    board: Board
    vocabulary: ClueVocabulary
    #: The code of a pawn on square 0 (``A1``).
    first_pawn: int = field(init=False)
    #: The code of clue id 0.
    first_clue: int = field(init=False)
    #: How many codes there are.
    size: int = field(init=False)
    _actions: tuple[Action, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        first_pawn = PASS + 1
        first_clue = first_pawn + self.board.size
        actions: list[Action] = [ChooseTarget(i) for i in range(TARGETS)]
        actions.append(Pass())
        actions.extend(PlacePawn(cell) for cell in self.board.cells())
        actions.extend(GiveClue(text) for text in self.vocabulary.texts)
        object.__setattr__(self, "first_pawn", first_pawn)
        object.__setattr__(self, "first_clue", first_clue)
        object.__setattr__(self, "size", len(actions))
        object.__setattr__(self, "_actions", tuple(actions))

    def action(self, code: int) -> Action:
        """The engine's action for ``code`` (the same object every time)."""
        if type(code) is not int:  # a numpy integer is one; a float or text is not
            code = whole(code, "an action code")
        if not 0 <= code < self.size:
            raise ValueError(f"no action has code {code}: codes are 0-{self.size - 1}")
        return self._actions[code]

    def actions(self, codes: Iterable[int]) -> tuple[Action, ...]:
        """The engine's actions for a sequence of codes, in order."""
        table = self._actions
        if type(codes) is not tuple:
            codes = tuple(codes)
        try:
            found = tuple(table[c] for c in codes)
            if not codes or min(codes) >= 0:  # a negative code would be read from the end
                return found
        except (IndexError, TypeError):
            pass
        return tuple(map(self.action, codes))  # refuses the first code outside the space

    def code(self, action: Action) -> int:
        """The code of an engine action; a clue must be one of the vocabulary's texts."""
        if isinstance(action, ChooseTarget):
            if not 0 <= action.index < TARGETS:
                raise ValueError(f"{action}: a card has squares 0-3 (R8)")
            return action.index
        if isinstance(action, Pass):
            return PASS
        if isinstance(action, PlacePawn):
            cell = action.cell
            if cell not in self.board:
                raise ValueError(f"{action}: off the board (R1)")
            return self.first_pawn + cell.row * self.board.cols + cell.col
        if not isinstance(action, GiveClue):
            raise TypeError(f"not an action: {action!r}")
        try:
            return self.first_clue + self.vocabulary.texts.index(action.text)
        except ValueError:
            raise ValueError(f"{action}: not a clue of the batch's vocabulary") from None
