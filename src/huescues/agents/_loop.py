"""The game loop: agents play one game from a seed (R27), seeing only their views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from huescues.engine import (
    Action,
    Board,
    GameRecord,
    GameState,
    IllegalAction,
    Phase,
    Rules,
    new_game,
)
from huescues.engine._random import seat_generators

from ._protocol import Agent

__all__ = ["PlayedGame", "play_game"]


class PlayedGame(NamedTuple):
    """A finished game: its record (to replay it) and its final state."""

    record: GameRecord
    state: GameState


def play_game(
    agents: Sequence[Agent],
    *,
    seed: int,
    rules: Rules | None = None,
    board: Board | None = None,
) -> PlayedGame:
    """Play a whole game, one agent per seat, and return its record and final state.

    Every agent gets its own generator from ``seed`` and only its seat's view (R8, R27), so
    the same agents and seed give the same game. An agent's illegal action raises the
    engine's :class:`~huescues.IllegalAction`, with the seat and agent named.
    """
    n = len(agents)
    state = new_game(n, seed=seed, rules=rules, board=board)
    rngs = seat_generators(seed, n)
    while True:
        seat = state.current_player
        if seat is None:
            return PlayedGame(GameRecord.of(state), state)
        agent = agents[seat]
        view = state.view(seat)
        phase = state.phase
        action: Action
        if phase is Phase.FIRST_GUESS or phase is Phase.SECOND_GUESS:
            action = agent.place_pawn(view, rngs[seat])
        elif phase is Phase.FIRST_CLUE:
            action = agent.give_clue(view, rngs[seat])
        elif phase is Phase.SECOND_CLUE:
            action = agent.give_second_clue(view, rngs[seat])
        else:
            action = agent.choose_target(view, rngs[seat])
        try:
            state = state.apply(action, seat=seat)
        except IllegalAction as e:
            e.add_note(f"played by seat {seat} ({type(agent).__name__}) in phase {phase.value}")
            raise
