"""Scoring (R4, R5, R14-R17): the pure functions and their vectorised twin."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from huescues import Cell, Rules, points_map
from huescues.engine import giver_points, pawn_points, points_array, round_points

RULES = Rules.standard(4)


@pytest.mark.parametrize(
    ("pawn", "points"),
    [
        ("F12", 3),
        ("E11", 2),
        ("G13", 2),
        ("F13", 2),
        ("D10", 1),
        ("H14", 1),
        ("F14", 1),
        ("C12", 0),
        ("F15", 0),
        ("A1", 0),
    ],
)
def test_r15_guesser_points_by_distance(pawn: str, points: int) -> None:
    assert pawn_points(RULES, Cell.parse("F12"), Cell.parse(pawn)) == points


def test_r15_each_pawn_scores_on_its_own() -> None:
    target = Cell.parse("F12")
    pawns = [(1, Cell.parse("F12")), (1, Cell.parse("F13")), (2, Cell.parse("A1"))]
    assert round_points(RULES, 0, target, pawns) == (2, 5, 0, 0)


def test_r16_giver_scores_per_pawn_inside_the_frame() -> None:
    target = Cell.parse("F12")
    inside = [Cell.parse("F12"), Cell.parse("E11"), Cell.parse("G13")]
    ring = [Cell.parse("D10")]
    assert giver_points(RULES, target, inside + ring) == 3
    assert giver_points(Rules.standard(3), target, inside + ring) == 6


def test_r5_frame_clipped_at_the_corner() -> None:
    grid = points_map(RULES, (16, 30), Cell.parse("A1"))
    assert grid[0, 0] == 3
    assert (grid == 2).sum() == 3  # only 3 of the frame's 8 squares exist at a corner
    assert (grid == 1).sum() == 5  # and 5 of the ring's 16
    edge = points_map(RULES, (16, 30), Cell.parse("H30"))
    assert (edge == 2).sum() == 5 and (edge == 1).sum() == 9


def test_r15_variant_points() -> None:
    rules = Rules.standard(4, points_by_distance=(5, 3, 2, 1))
    assert pawn_points(rules, Cell(0, 0), Cell(3, 3)) == 1
    assert pawn_points(rules, Cell(0, 0), Cell(4, 0)) == 0


def test_r25_giver_scores_nothing_in_a_tiebreaker() -> None:
    target = Cell.parse("F12")
    assert round_points(RULES, 0, target, [(1, target)], tiebreak=True) == (0, 3, 0, 0)


cells = st.builds(Cell, st.integers(0, 15), st.integers(0, 29))


@given(cells, st.lists(cells, min_size=1, max_size=18))
def test_vectorised_scoring_matches_the_scalar_one(target: Cell, pawns: list[Cell]) -> None:
    arr = points_array(RULES, (target.row, target.col), [(p.row, p.col) for p in pawns])
    assert arr.tolist() == [pawn_points(RULES, target, p) for p in pawns]
    grid = points_map(RULES, (16, 30), target)
    assert [int(grid[p.row, p.col]) for p in pawns] == [
        pawn_points(RULES, target, p) for p in pawns
    ]


@given(cells)
def test_r15_points_map_totals(target: Cell) -> None:
    grid = points_map(RULES, (16, 30), target)
    assert grid.dtype == np.int64
    assert grid.max() == 3 and (grid == 3).sum() == 1
    assert grid.min() == 0
