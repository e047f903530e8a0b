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
    seat_generators,
)

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
    # Each seat's decision methods, looked up once per game.
    targets = [a.choose_target for a in agents]
    first_clues = [a.give_clue for a in agents]
    second_clues = [a.give_second_clue for a in agents]
    pawns = [a.place_pawn for a in agents]
    seers = [bool(getattr(a, "sees_target", False)) for a in agents]
    # Enum members are slow to look up on Python 3.11: fetch them once.
    first_guess, second_guess = Phase.FIRST_GUESS, Phase.SECOND_GUESS
    first_clue, second_clue = Phase.FIRST_CLUE, Phase.SECOND_CLUE
    while True:
        seat = state.current_player
        if seat is None:
            return PlayedGame(GameRecord.of(state), state)
        phase = state.phase
        # The seat is the engine's own, so the view needs no check.
        view, rng = state._view(seat), rngs[seat]
        if seers[seat] and state.target is not None:
            # An oracle (an upper bound, never a fair entrant) is shown the target.
            view = view._replace(target=state.target)
        action: Action
        if phase is first_guess or phase is second_guess:
            action = pawns[seat](view, rng)
        elif phase is first_clue:
            action = first_clues[seat](view, rng)
        elif phase is second_clue:
            action = second_clues[seat](view, rng)
        else:
            action = targets[seat](view, rng)
        try:
            state = state.apply(action, seat=seat)
        except IllegalAction as e:
            agent = type(agents[seat]).__name__
            e.add_note(f"played by seat {seat} ({agent}) in phase {phase.value}")
            raise
