"""Pawns placed for many games at once (ModelGuesser.place_pawns): each is the pawn place_pawn
places alone, whatever the batch, the order and what the readings held before."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues import View
from huescues.agents import ModelGuesser, Readings, default_agent, naming_agent
from huescues.agents._points import expected_points, expected_points_many
from huescues.engine import Rules
from recorded_views import guesser_views

RNG = np.random.default_rng(0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 6),
    st.sampled_from([(3, 2, 1), (1, 1), (4, 1, 0), (5, 3, 3, 1), (0,), (2,)]),
    st.sampled_from([(16, 30), (1, 1), (2, 7), (5, 3)]),
)
def test_r15_points_of_many_boards_are_each_board_s(
    seed: int, n: int, points: tuple[int, ...], shape: tuple[int, int]
) -> None:
    rng = np.random.default_rng(seed)
    beliefs = rng.random((n, *shape)) ** 6
    beliefs[0, :, :4] = 0.0  # exact zeros, and (below) equal values
    beliefs[-1] = 1.0
    beliefs[0, 0, 0] = 1.0  # never all zeros
    beliefs /= beliefs.sum(axis=(1, 2), keepdims=True)
    rules = Rules.standard(4)
    rules = dataclasses.replace(rules, points_by_distance=points)
    many = expected_points_many(beliefs, rules)
    for b, got in zip(beliefs, many, strict=True):
        assert np.array_equal(got, expected_points(b, rules))


def _views() -> list[View]:
    return guesser_views((3, 4, 5))


@pytest.mark.slow
def test_pawns_placed_together_are_the_pawns_placed_one_by_one() -> None:
    played = _views()
    assert {len(v.clues) for v in played} == {1, 2}
    assert {len(v.pawns) for v in played} >= {0, 1, 2, 3, 4, 5}
    # Other rules' points, and other earlier rounds (other weights for the pragmatic guesser).
    other_points = dataclasses.replace(played[0].rules, points_by_distance=(4, 1, 1, 0))
    views = [
        *played,
        *(v._replace(rules=other_points) for v in played[::3]),
        *(v._replace(history=v.history[1::2]) for v in played if v.history),
    ]
    guessers = [
        default_agent().guesser,
        naming_agent().guesser,
        ModelGuesser(use_pawns=False),
        ModelGuesser(model="naming", pawn_spread=1.5, pawn_floor=0.2),
        # A belief read for the crowd (issue 34) is read so row by row.
        ModelGuesser(model="naming", temperature=0.5, smoothing=1.0),
    ]
    rngs = [np.random.default_rng(i) for i in range(len(views))]
    for guesser in guessers:
        assert isinstance(guesser, ModelGuesser)
        alone = [guesser.place_pawn(v, RNG) for v in views]
        order = [int(i) for i in RNG.permutation(len(views))]
        for size in (2, 9, 64):
            # What the readings held before changes no pawn: a fresh store, or the shared one.
            fresh = dataclasses.replace(guesser, store=Readings())
            for placer in (fresh, guesser):
                for start in range(0, len(order), size):
                    part = order[start : start + size]
                    placed = placer.place_pawns([views[i] for i in part], [rngs[i] for i in part])
                    assert placed == [alone[i] for i in part]


def test_a_batch_of_one_guesser_places_only_its_own_pawns() -> None:
    views = [v for v in _views() if len(v.pawns) >= 2]
    rngs = [np.random.default_rng(0)] * len(views)
    reads_pawns = ModelGuesser()
    ignores_pawns = ModelGuesser(use_pawns=False)
    want = [ignores_pawns.place_pawn(v, RNG) for v in views]
    reads = reads_pawns.place_pawns(views, rngs)
    assert reads != want  # the pawns change its pawns
    assert ignores_pawns.place_pawns(views, rngs) == want
    # Another seat's view of the same round: its own pawns are not the others'.
    moved = [v._replace(seat=(v.seat + 1) % 4) for v in views]
    assert reads_pawns.place_pawns(moved, rngs) == [reads_pawns.place_pawn(v, RNG) for v in moved]
