"""The one game loop: agents play from a seed (R27), each seeing only its seat's view (R8).

:func:`decide` asks an agent for the decision its view calls for; :class:`GameLoop` steps a game
with it. Everything that plays games (``play_game``, the tournament, the checker, the terminal
game, the RL environment) is a :class:`GameLoop`, changing one hook for what it does differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

import numpy as np

from huescues.engine import (
    Action,
    Board,
    GameRecord,
    GameState,
    IllegalAction,
    Phase,
    Rules,
    View,
    new_game,
    seat_generators,
)

from ._protocol import Agent

__all__ = ["GameLoop", "PlayedGame", "decide", "play_game", "prepare", "sees_target"]

#: An agent's decisions (the Agent protocol).
_DECISIONS = ("choose_target", "give_clue", "give_second_clue", "place_pawn")

# Enum members are slow to look up on Python 3.11: fetch them once.
_CHOOSE_TARGET, _FIRST_CLUE, _SECOND_CLUE = Phase.CHOOSE_TARGET, Phase.FIRST_CLUE, Phase.SECOND_CLUE
_FIRST_GUESS, _SECOND_GUESS = Phase.FIRST_GUESS, Phase.SECOND_GUESS


def decide(agent: Agent, view: View, rng: np.random.Generator) -> Action:
    """Ask ``agent`` for the decision ``view.phase`` calls for: the target (R8), the first clue
    (R9), the second clue or a pass (R11), or a pawn (R10, R12)."""
    phase = view.phase
    if phase is _CHOOSE_TARGET:
        return agent.choose_target(view, rng)
    if phase is _FIRST_CLUE:
        return agent.give_clue(view, rng)
    if phase is _SECOND_CLUE:
        return agent.give_second_clue(view, rng)
    return agent.place_pawn(view, rng)


def prepare(agent: object, board: Board, rules: Rules) -> None:
    """Let ``agent`` do its one-time work for a game on ``board`` under ``rules`` (load models,
    read its vocabulary on the board) before its first decision, if it has a ``prepare``
    method. Runners call it outside any decision time limit."""
    method = getattr(agent, "prepare", None)
    if method is not None:
        method(board, rules)


def sees_target(agent: object) -> bool:
    """Whether ``agent`` declares ``sees_target``: it is then shown the target in every view, as
    an oracle (an upper bound, never a fair player)."""
    return bool(getattr(agent, "sees_target", False))


class PlayedGame(NamedTuple):
    """A finished game: its record (to replay it) and its final state."""

    record: GameRecord
    state: GameState


class GameLoop:
    """Steps games between ``agents``, one per seat, each with its own generator from ``seed``.

    :meth:`turn` plays one decision: :meth:`decide` asks the seat's agent with its
    :meth:`view`, and the engine applies the answer. A runner that needs more (time limits,
    checks, a person at a seat, announcements) overrides one of these three; :meth:`run` stays
    the same. An agent may be ``None`` for a runner that decides that seat itself.
    """

    def __init__(self, agents: Sequence[Agent | None], *, seed: int) -> None:
        if isinstance(agents, str | bytes) or not isinstance(agents, Iterable):
            raise TypeError(f"agents are a list with one agent per seat, not {agents!r:.60}")
        self.agents: list[Agent | None] = list(agents)
        for seat, agent in enumerate(self.agents):
            # Checked once here, so that a wrong object is named now, not deep in a game.
            missing = [m for m in _DECISIONS if not callable(getattr(agent, m, None))]
            if agent is not None and missing:
                raise TypeError(
                    f"seat {seat} has no agent: {agent!r:.60} lacks {', '.join(missing)} "
                    "(see huescues.agents.Agent)"
                )
        self.seed = seed
        self.rngs = seat_generators(seed, len(self.agents))
        self._sees_target = [sees_target(a) for a in self.agents]
        # Most games show every agent its own view as it is: then decide() skips the view hook.
        self._plain_views = not any(self._sees_target) and type(self).view is GameLoop.view

    def start(self, *, rules: Rules | None = None, board: Board | None = None) -> GameState:
        """The game of ``seed`` (R27) with every agent prepared for it (:func:`prepare`)."""
        state = new_game(len(self.agents), seed=self.seed, rules=rules, board=board)
        self.prepare(state)
        return state

    def prepare(self, state: GameState) -> None:
        """Prepare every agent for the game of ``state`` (before any decision)."""
        board, rules = state.board, state.rules
        for agent in self.agents:
            if agent is not None:
                prepare(agent, board, rules)

    def view(self, state: GameState, seat: int) -> View:
        """What ``seat``'s agent is shown: its view (R8), with the target for an agent that
        declares ``sees_target``."""
        view = state.view(seat)
        if self._sees_target[seat] and state.target is not None:
            view = view._replace(target=state.target)
        return view

    def decide(self, state: GameState, seat: int) -> Action:
        """The action ``seat``'s agent chooses (:func:`decide`)."""
        agent = self.agents[seat]
        if agent is None:
            raise ValueError(f"seat {seat} has no agent to ask")
        view = state.view(seat) if self._plain_views else self.view(state, seat)
        return decide(agent, view, self.rngs[seat])

    def turn(self, state: GameState, seat: int) -> GameState:
        """One decision of ``seat``, applied. An illegal action raises the engine's
        :class:`~huescues.IllegalAction`, with the seat and agent named."""
        action = self.decide(state, seat)
        try:
            return state.apply(action, seat=seat)
        except IllegalAction as e:
            agent = type(self.agents[seat]).__name__
            e.add_note(f"played by seat {seat} ({agent}) in phase {state.phase.value}")
            raise

    def run(
        self, state: GameState, *, until: Callable[[GameState], bool] | None = None
    ) -> GameState:
        """Play from ``state`` to the end of the game, or to the first state where ``until``
        holds, and return that state."""
        cls = type(self)
        if cls.turn is GameLoop.turn and cls.decide is GameLoop.decide and self._plain_views:
            return self._run_plain(state, until)
        turn = self.turn
        while True:
            seat = state.current_player
            if seat is None or (until is not None and until(state)):
                return state
            state = turn(state, seat)

    def _run_plain(self, state: GameState, until: Callable[[GameState], bool] | None) -> GameState:
        """:meth:`run` when no hook is overridden: :meth:`turn`, :meth:`decide` and
        :func:`decide` inlined, as they cost a third of a random game's time."""
        agents, rngs = self.agents, self.rngs
        while True:
            seat = state.current_player
            if seat is None or (until is not None and until(state)):
                return state
            agent = agents[seat]
            if agent is None:
                raise ValueError(f"seat {seat} has no agent to ask")
            view = state.view(seat)
            phase = view.phase
            if phase is _FIRST_GUESS or phase is _SECOND_GUESS:
                action: Action = agent.place_pawn(view, rngs[seat])
            elif phase is _CHOOSE_TARGET:
                action = agent.choose_target(view, rngs[seat])
            elif phase is _FIRST_CLUE:
                action = agent.give_clue(view, rngs[seat])
            else:
                action = agent.give_second_clue(view, rngs[seat])
            try:
                # The seat is the current player's: apply's turn check would always pass.
                state = state.apply(action)
            except IllegalAction as e:
                e.add_note(f"played by seat {seat} ({type(agent).__name__}) in phase {phase.value}")
                raise


def play_game(
    agents: Sequence[Agent],
    *,
    seed: int,
    rules: Rules | None = None,
    board: Board | None = None,
) -> PlayedGame:
    """Play a whole game, one agent per seat, and return its record and final state.

    Every agent is prepared for the game, then gets its own generator from ``seed`` and only its
    seat's view (R8, R27), so the same agents and seed give the same game. An agent's illegal
    action raises the engine's :class:`~huescues.IllegalAction`, with the seat and agent named.
    """
    loop = GameLoop(agents, seed=seed)
    state = loop.run(loop.start(rules=rules, board=board))
    return PlayedGame(GameRecord.of(state), state)
