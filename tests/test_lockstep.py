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
from huescues.agents._legal_words import legal_mask

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


def test_a_screening_from_totals_off_by_their_rounding_keeps_the_same_words() -> None:
    # Totals moved by up to the most two float32 sums of 480 non-negative products can differ
    # (2 * 480 * 2**-24 of the sum): the shortlist is the exact one, or refused (None).
    giver = default_agent().giver
    assert isinstance(giver, EmbeddingClueGiver)
    rng = np.random.default_rng(5)
    used = 0
    for view in _second_clue_views(6):
        board = view.board
        models = _players._models(giver.model)
        readings = [_players.board_reading(m, board, giver.words) for m in models]
        target = view.target
        assert target is not None
        empty = np.ones(board.size, dtype=bool)
        for c in view.occupied:
            empty[c.row * board.cols + c.col] = False
        _, ring_pts = _players._near(target, board, view.rules.points_by_distance)
        firsts = [_players._log_l0(m, board, view.clues[0]).ravel() for m in models]
        weights = [np.exp(f - f.max()) * empty for f in firsts]
        exact = [
            (w.astype(np.float32) @ _players._belief32(m, board, r)).astype(np.float64)
            for m, r, w in zip(models, readings, weights, strict=True)
        ]

        legal = legal_mask(readings[0].words, view, second=True)
        args = (view, readings, weights)
        # Every word, or (as the default giver screens) the words true of the target.
        for allowed in (None, giver._true_of(board, target)):
            rest = (ring_pts, legal, allowed)
            want = giver._shortlist(*args, exact, *rest, False)
            assert want is not None
            for _ in range(5):
                moved = [z * (1 + rng.uniform(-5.7e-5, 5.7e-5, z.shape)) for z in exact]
                got = giver._shortlist(*args, moved, *rest, True)
                if got is not None:
                    used += 1
                    assert np.array_equal(got, want)
    assert used > 0


def test_only_tables_with_a_batching_bot_join_batches() -> None:
    assert not joins_batches(Table([RandomAgent() for _ in range(3)], seed=1))
    assert joins_batches(Table([RandomAgent(), naming_agent(), RandomAgent()], seed=1))
