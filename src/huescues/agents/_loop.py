"""Playing whole games: :func:`play_game` drives a :class:`~huescues.agents.Table` of bots from
a seed (R27), each seeing only its seat's view (R8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from huescues.engine import Board, GameRecord, GameState, Rules

from ._protocol import Agent
from ._table import Table, decide, prepare, sees_target

__all__ = ["GameLoop", "PlayedGame", "decide", "play_game", "prepare", "sees_target"]


class PlayedGame(NamedTuple):
    """A finished game: its record (to replay it) and its final state."""

    record: GameRecord
    state: GameState


class GameLoop(Table):
    """A :class:`~huescues.agents.Table` by the name runners knew it by before the table took
    over the game loop: steps games between ``agents``, one per seat, each with its own
    generator from ``seed``, through the hooks :meth:`view`, :meth:`decide` and :meth:`turn`."""


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

    ``rules`` are the game's (default: ``Rules.standard(len(agents))``) and ``board`` its board
    (default: :meth:`Board.standard`); the deck is the board's (:meth:`Deck.for_board`).
    """
    table = Table(agents, seed=seed)
    state = table.run(table.start(rules=rules, board=board))
    return PlayedGame(GameRecord.of(state), state)
