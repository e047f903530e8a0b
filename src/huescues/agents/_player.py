"""A seat's player made of a clue giver and a guesser, and the oracle guesser (an upper bound)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from huescues.engine import Board, ChooseTarget, GiveClue, Pass, PlacePawn, Rules, View

from ._abilities import BatchDecision, abilities
from ._giver import ModelClueGiver
from ._guesser import ModelGuesser
from ._protocol import ClueGiver, Guesser
from ._screening import target_of

__all__ = ["OracleGuesser", "Player"]


@dataclass(frozen=True, slots=True)
class OracleGuesser:
    """An upper bound, not a fair entrant: it is shown the target (``sees_target``) and places
    its pawn on it, or on the best empty square next to it (R15). The game loop gives the
    target only to agents that declare ``sees_target``."""

    sees_target: bool = field(default=True, init=False)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """The target, or the empty square with the most points against it."""
        target = target_of(view)
        rows, cols = np.indices(view.board.shape)
        d = np.maximum(np.abs(rows - target.row), np.abs(cols - target.col))
        cells = view.board.cells()
        order = np.argsort(d, axis=None, kind="stable")
        for i in order:
            cell = cells[int(i)]
            if cell not in view.occupied:
                return PlacePawn(cell)
        raise RuntimeError("no empty square is left (R13)")


@dataclass(frozen=True, slots=True)
class Player:
    """One seat playing both roles: ``giver`` gives the clues, ``guesser`` places the pawns.
    Its optional abilities are its halves' (:func:`~huescues.agents.abilities`): it prepares
    both, sees the target when its guesser does, and decides for many games at once where a
    half does (:attr:`place_pawns`, :attr:`give_second_clues`)."""

    giver: ClueGiver = field(default_factory=ModelClueGiver)
    guesser: Guesser = field(default_factory=ModelGuesser)

    @property
    def sees_target(self) -> bool:
        """Whether the guesser is an oracle that is shown the target (never a fair entrant)."""
        return abilities(self.guesser).sees_target

    def prepare(self, board: Board, rules: Rules) -> None:
        """Prepare both halves for a game on ``board`` (those that have a ``prepare``)."""
        halves: list[object] = [self.giver, self.guesser]
        for half in halves[: 1 if halves[1] is halves[0] else 2]:
            prepare = abilities(half).prepare
            if prepare is not None:
                prepare(board, rules)

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """The giver's choice (R8)."""
        return self.giver.choose_target(view, rng)

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """The giver's first clue (R9)."""
        return self.giver.give_clue(view, rng)

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """The giver's second clue or pass (R11)."""
        return self.giver.give_second_clue(view, rng)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """The guesser's pawn (R10, R12)."""
        return self.guesser.place_pawn(view, rng)

    @property
    def give_second_clues(self) -> BatchDecision | None:
        """The giver's second clues for many games at once (``give_second_clues(views, rngs)
        -> list[Action]``, as :meth:`ModelClueGiver.give_second_clues`), or ``None`` when the
        giver gives them one by one only."""
        return abilities(self.giver).give_second_clues

    @property
    def place_pawns(self) -> BatchDecision | None:
        """The guesser's pawns for many games at once (``place_pawns(views, rngs) ->
        list[Action]``, as :meth:`ModelGuesser.place_pawns`), or ``None`` when the guesser
        places them one by one only."""
        return abilities(self.guesser).place_pawns
