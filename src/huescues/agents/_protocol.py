"""The Agent protocol: one method per decision, each given only the seat's view and a generator."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from huescues.engine import ChooseTarget, GiveClue, Pass, PlacePawn, View

__all__ = ["Agent", "ClueGiver", "Guesser"]


@runtime_checkable
class Agent(Protocol):
    """A player. Each method gets the seat's :class:`~huescues.View` (never the full state) and
    a ``numpy.random.Generator`` from the game's seed (R27), and returns the action to take.

    Two optional members, read by every runner (:class:`~huescues.agents.Table`):

    - ``prepare(board, rules) -> None``: called once before the agent's first decision in a
      game, outside any decision time limit: the place to load models and read a vocabulary on
      the board, so that decisions are quick. It must not change what the agent decides.
    - ``sees_target: bool``: an agent that declares it true is shown the target in every view
      (an oracle: an upper bound for calibration, never a fair player).
    """

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """As clue giver, pick one of the four squares of ``view.card`` (R8)."""
        ...

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """As clue giver, give the first clue (R9)."""
        ...

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """As clue giver, give the second clue or pass (R11)."""
        ...

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """As guesser, place a pawn on an empty square (R10, R12, R13)."""
        ...


@runtime_checkable
class ClueGiver(Protocol):
    """The clue giver's half of an :class:`Agent` (R8, R9, R11)."""

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """Pick one of the four squares of ``view.card`` (R8)."""
        ...

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """Give the first clue (R9)."""
        ...

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """Give the second clue or pass (R11)."""
        ...


@runtime_checkable
class Guesser(Protocol):
    """The guesser's half of an :class:`Agent` (R10, R12, R13)."""

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """Place a pawn on an empty square."""
        ...
