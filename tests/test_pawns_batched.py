"""Pawns placed for many games at once (EmbeddingGuesser.prepare_pawns, kept in PAWNS): each is
the pawn place_pawn places alone, whatever the batch, the order and what the memo held before."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues import Cell, PlacePawn, View
from huescues.agents import EmbeddingGuesser, _players, default_agent, naming_agent
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
        EmbeddingGuesser(use_pawns=False),
        EmbeddingGuesser(model="naming", pawn_spread=1.5, pawn_floor=0.2),
    ]
    for guesser in guessers:
        assert isinstance(guesser, EmbeddingGuesser)
        _players.PAWNS.clear()
        _players._LATEST_PAWNS.clear()
        alone = [guesser.place_pawn(v, RNG) for v in views]
        assert len(_players.PAWNS) == 0  # place_pawn alone keeps no pawn
        order = [int(i) for i in RNG.permutation(len(views))]
        for size in (2, 9, 64):
            _players.PAWNS.clear()
            _players._LATEST_PAWNS.clear()
            for start in range(0, len(order), size):
                part = order[start : start + size]
                guesser.prepare_pawns([views[i] for i in part])
                for i in part:
                    assert guesser.place_pawn(views[i], RNG) == alone[i]
            assert len(_players.PAWNS) > 0


def test_a_kept_pawn_is_only_the_pawn_of_the_guesser_and_view_it_was_placed_for() -> None:
    views = [v for v in _views() if len(v.pawns) >= 2]
    reads_pawns = EmbeddingGuesser()
    ignores_pawns = EmbeddingGuesser(use_pawns=False)
    _players.PAWNS.clear()
    _players._LATEST_PAWNS.clear()
    want = [ignores_pawns.place_pawn(v, RNG) for v in views]
    reads_pawns.prepare_pawns(views)
    assert [ignores_pawns.place_pawn(v, RNG) for v in views] == want
    # Another seat's view of the same round: its own pawns are not the others'.
    moved = [v._replace(seat=(v.seat + 1) % 4) for v in views]
    _players.PAWNS.clear()
    _players._LATEST_PAWNS.clear()
    want = [reads_pawns.place_pawn(v, RNG) for v in moved]
    reads_pawns.prepare_pawns(views)
    assert [reads_pawns.place_pawn(v, RNG) for v in moved] == want


def test_a_pawn_placed_just_now_is_taken_only_by_its_guesser_or_an_equal_one() -> None:
    views = [v for v in _views() if v.clues][::4]
    placer, twin = default_agent().guesser, default_agent().guesser
    assert isinstance(placer, EmbeddingGuesser) and isinstance(twin, EmbeddingGuesser)
    other = dataclasses.replace(placer, pawn_spread=1.5)
    model = _players.resolve_model("naming")
    by_object, its_equal = EmbeddingGuesser(model=model), EmbeddingGuesser(model=model)
    for guesser, takers, not_takers in [
        (placer, [placer, twin], [other]),
        (by_object, [by_object], [its_equal]),  # a model not named: only the guesser itself
    ]:
        _players.PAWNS.clear()
        _players._LATEST_PAWNS.clear()
        want = {id(g): [g.place_pawn(v, RNG) for v in views] for g in [*takers, *not_takers]}
        guesser.prepare_pawns(views)
        assert len(_players._LATEST_PAWNS) == len(views)
        for g in [*takers, *not_takers]:
            assert [g.place_pawn(v, RNG) for v in views] == want[id(g)]
        # A wrong pawn in its place shows who takes it.
        wrong = PlacePawn(Cell(0, 0))
        for ids, (g, named, view, _) in list(_players._LATEST_PAWNS.items()):
            _players._LATEST_PAWNS[ids] = (g, named, view, wrong)
        for g in takers:
            assert {g.place_pawn(v, RNG) for v in views} == {wrong}
        for g in not_takers:
            assert [g.place_pawn(v, RNG) for v in views] == want[id(g)]
    _players._LATEST_PAWNS.clear()
