"""An agent's optional abilities, declared in one place and read through one function
(:func:`abilities`), as :func:`~huescues.language.with_capabilities` does for models: what a
runner asks of an agent besides the Agent protocol's four decisions.

- ``prepare(board, rules)``: its one-time work for a game, before its first decision;
- ``sees_target``: an oracle, shown the target (an upper bound, never a fair player);
- ``place_pawns(views, rngs)`` and ``give_second_clues(views, rngs)``: many games' decisions
  at once, returned as actions (one per view, each as its game's decision with its generator
  would be), which a runner playing games together applies through each game's guard.

Agents written for the batch hooks before (``prepare_pawns(views)``,
``prepare_second_clues(views)``: work for many games, then the decisions one by one) keep
working: the hook is called, then each game's decision is asked, as one batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

import numpy as np

from huescues.engine import Action, Board, Phase, Rules, View

__all__ = ["DECISIONS", "Abilities", "BatchDecision", "abilities", "missing_decisions"]

#: An agent's decisions (the Agent protocol), by name.
DECISIONS = ("choose_target", "give_clue", "give_second_clue", "place_pawn")

#: Many games' decisions at once: one action per view, each view with its game's generator.
BatchDecision = Callable[[Sequence[View], Sequence[np.random.Generator]], list[Action]]


class Abilities(NamedTuple):
    """What an agent can do besides its four decisions (each ``None`` when it cannot):
    ``prepare`` for a game on a board under rules, ``sees_target`` (an oracle),
    ``place_pawns`` and ``give_second_clues`` for many games at once. (A named tuple: every
    table reads its agents' once, and a tournament's tables are many.)"""

    prepare: Callable[[Board, Rules], None] | None = None
    sees_target: bool = False
    place_pawns: BatchDecision | None = None
    give_second_clues: BatchDecision | None = None

    def batch(self, phase: Phase) -> BatchDecision | None:
        """The batch decision for games waiting in ``phase``, if the agent has one: pawns
        (R10, R12) or second clues (R11)."""
        if phase is Phase.FIRST_GUESS or phase is Phase.SECOND_GUESS:
            return self.place_pawns
        if phase is Phase.SECOND_CLUE:
            return self.give_second_clues
        return None

    @property
    def batches(self) -> bool:
        """Whether the agent decides anything for many games at once."""
        return self.place_pawns is not None or self.give_second_clues is not None


#: A person's seat, or an agent with none of the abilities.
NONE = Abilities()


def abilities(agent: object) -> Abilities:
    """What ``agent`` can do besides its decisions: the one place that asks an agent whether it
    has an optional member. An agent made of others (:class:`~huescues.agents.Player`) answers
    for its parts through the same members (a batch decision that is ``None`` where its part
    has none)."""
    if agent is None:
        return NONE
    # (Read for every seat of every table: a tournament makes a table a game.)
    prepare = getattr(agent, "prepare", None)
    sees = getattr(agent, "sees_target", False)
    pawns = getattr(agent, "place_pawns", None)
    clues = getattr(agent, "give_second_clues", None)
    if not callable(pawns):
        pawns = _adapted(agent, "prepare_pawns", "place_pawn")
    if not callable(clues):
        clues = _adapted(agent, "prepare_second_clues", "give_second_clue")
    if not callable(prepare):
        prepare = None
    if prepare is None and not sees and pawns is None and clues is None:
        return NONE
    return Abilities(
        cast("Callable[[Board, Rules], None] | None", prepare),
        bool(sees),
        cast("BatchDecision | None", pawns),
        cast("BatchDecision | None", clues),
    )


def missing_decisions(agent: object) -> list[str]:
    """The decisions of the Agent protocol that ``agent`` lacks (none for an agent)."""
    return [m for m in DECISIONS if not callable(getattr(agent, m, None))]


def _member(agent: object, name: str) -> Callable[..., Any] | None:
    found = getattr(agent, name, None)
    return found if callable(found) else None


def _adapted(agent: object, hook: str, decision: str) -> BatchDecision | None:
    """A batch decision from an agent written for the old batch hooks: its ``hook(views)``,
    then each game's ``decision(view, rng)``."""
    prepare = _member(agent, hook)
    if prepare is None:
        return None
    decide = _member(agent, decision)
    if decide is None:
        return None

    def batch(views: Sequence[View], rngs: Sequence[np.random.Generator]) -> list[Action]:
        prepare(views)
        return [decide(v, r) for v, r in zip(views, rngs, strict=True)]

    return batch
