"""Many games played together (run_together) and the giver's batched screening: the same
games, clues and faults as game by game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from huescues import GameRecord, GameState, Phase, View
from huescues.agents import (
    EmbeddingClueGiver,
    Player,
    RandomAgent,
    SignalTimer,
    Table,
    _players,
    default_agent,
    joins_batches,
    naming_agent,
    run_together,
)

SEEDS = range(40, 46)


def _lineup(seed: int) -> list[Player]:
    return [default_agent() if (seed + s) % 2 else naming_agent() for s in range(4)]


def _records(states: Sequence[GameState | None]) -> list[str]:
    return [GameRecord.of(s).to_json() for s in states if s is not None]


def _alone(seeds: range, guard: bool = False) -> list[str]:
    states = []
    for seed in seeds:
        with SignalTimer(10.0) as timer:
            table = Table(_lineup(seed), seed=seed, guard=timer if guard else None)
            states.append(table.run(table.start()))
    return _records(states)


@pytest.mark.slow
def test_games_played_together_are_the_games_played_one_by_one() -> None:
    _players.SCREEN_TOTALS.clear()
    _players.PAWNS.clear()
    _players._LATEST_PAWNS.clear()
    alone = _alone(SEEDS, guard=True)
    assert len(_players.PAWNS) == 0
    with SignalTimer(10.0) as timer:
        tables = [Table(_lineup(seed), seed=seed, guard=timer) for seed in SEEDS]
        for t in tables:
            t.start()
        ended = [i for i, error in run_together(tables) if error is None]
    assert sorted(ended) == list(range(len(tables)))
    assert all(not t.faults for t in tables)
    assert _records([t.state for t in tables]) == alone
    # The batch's totals and pawns were there to be used.
    assert len(_players.SCREEN_TOTALS) > 0
    assert len(_players.PAWNS) > 0


ASKED: list[int] = []
PAWNS_ASKED: list[int] = []


@dataclass(frozen=True, slots=True)
class _Failing(Player):
    """A default player whose batch hooks raise: ignored, the games are the same."""

    def prepare_second_clues(self, views: Sequence[View]) -> None:
        ASKED.append(len(views))
        raise RuntimeError("no batch today")

    def prepare_pawns(self, views: Sequence[View]) -> None:
        PAWNS_ASKED.append(len(views))
        raise RuntimeError("no batch today")


def test_a_failing_batch_hook_changes_nothing() -> None:
    seeds = range(40, 44, 2)  # the same seats for the default players
    alone = _alone(seeds)
    lineups = [
        [_Failing(a.giver, a.guesser) if a == default_agent() else a for a in _lineup(s)]
        for s in seeds
    ]
    tables = [Table(agents, seed=s) for agents, s in zip(lineups, seeds, strict=True)]
    for t in tables:
        t.start()
    ASKED.clear()
    PAWNS_ASKED.clear()
    _players.PAWNS.clear()
    _players._LATEST_PAWNS.clear()
    assert [e for _, e in run_together(tables)] == [None, None]
    assert _records([t.state for t in tables]) == alone
    assert ASKED and max(ASKED) >= 2
    assert PAWNS_ASKED and max(PAWNS_ASKED) >= 2


def _second_clue_views(n: int) -> list[View]:
    """Views of the default giver at second clues, from games of default players."""
    views: list[View] = []
    seed = 0
    while len(views) < n:
        table = Table([default_agent() for _ in range(4)], seed=seed)
        state = table.start()
        while state.current_player is not None and len(views) < n:
            if state.phase is Phase.SECOND_CLUE:
                views.append(state.view(state.current_player))
            table.step()
            state = table.state
            assert state is not None
        seed += 1
    return views


def test_the_totals_a_batch_keeps_are_the_bits_a_game_makes_alone() -> None:
    # prepare_second_clues makes each game's screening totals ahead (no guard checks them):
    # they must be the very bits of the product the game makes alone.
    giver = default_agent().giver
    assert isinstance(giver, EmbeddingClueGiver)
    views = _second_clue_views(8)
    assert len({v.board.id for v in views}) < len(views)  # games share a board: a batch
    _players.SCREEN_TOTALS.clear()
    giver.prepare_second_clues(views)
    checked = 0
    for view in views:
        board = view.board
        empty = np.ones(board.size, dtype=bool)
        for c in view.occupied:
            empty[c.row * board.cols + c.col] = False
        for m in _players._models(giver.model):
            reading = _players.board_reading(m, board, giver.words)
            first = _players._log_l0(m, board, view.clues[0]).ravel()
            w = (np.exp(first - first.max()) * empty).astype(np.float32)
            kept = _players._kept_totals(m, board, reading, w)
            assert kept is not None
            alone = (w @ _players._belief32(m, board, reading)).astype(np.float64)
            assert kept.tobytes() == alone.tobytes()
            checked += 1
    assert checked == 3 * len(views)


def test_only_tables_with_a_batching_bot_join_batches() -> None:
    assert not joins_batches(Table([RandomAgent() for _ in range(3)], seed=1))
    assert joins_batches(Table([RandomAgent(), naming_agent(), RandomAgent()], seed=1))
