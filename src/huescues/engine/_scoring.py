"""Scoring (R14-R17): pure functions of the rules, the target and the pawns, with a vectorised
twin over arrays for batch work."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._cell import Cell
from ._rules import Rules

__all__ = ["giver_points", "pawn_points", "points_array", "points_map", "round_points"]


def pawn_points(rules: Rules, target: Cell, pawn: Cell) -> int:
    """A guesser's points for one pawn (R15): by its Chebyshev distance from the target (R5)."""
    d = max(abs(target.row - pawn.row), abs(target.col - pawn.col))
    pts = rules.points_by_distance
    return pts[d] if d < len(pts) else 0


def giver_points(rules: Rules, target: Cell, pawns: Sequence[Cell]) -> int:
    """The clue giver's points (R16): for each pawn inside the frame, the target included."""
    inside = sum(1 for p in pawns if max(abs(target.row - p.row), abs(target.col - p.col)) <= 1)
    return inside * rules.giver_points_per_pawn


def round_points(
    rules: Rules,
    giver: int,
    target: Cell,
    pawns: Sequence[tuple[int, Cell]],
    *,
    tiebreak: bool = False,
) -> tuple[int, ...]:
    """Each seat's points for a round (R15, R16; nothing for the giver in a tie-breaker, R25).

    ``pawns`` are ``(seat, square)`` pairs; each pawn scores on its own (R15).
    """
    points = [0] * rules.n_players
    table = rules.points_by_distance
    reach = len(table)
    inside = 0
    row, col = target.row, target.col
    for seat, cell in pawns:
        # The Chebyshev distance (R5) without builtin calls: every round of every replay.
        dr = row - cell.row
        if dr < 0:
            dr = -dr
        dc = col - cell.col
        if dc < 0:
            dc = -dc
        d = dr if dr > dc else dc
        if d < reach:
            points[seat] += table[d]
        if d <= 1:
            inside += 1
    if not tiebreak:
        points[giver] += inside * rules.giver_points_per_pawn
    return tuple(points)


def points_array(rules: Rules, targets: ArrayLike, pawns: ArrayLike) -> NDArray[np.int64]:
    """Vectorised R15: guesser points for arrays of ``(row, col)`` targets and pawns.

    ``targets`` and ``pawns`` have last axis 2 and broadcast against each other.
    """
    t = np.asarray(targets, dtype=np.int64)
    p = np.asarray(pawns, dtype=np.int64)
    d = np.abs(t - p).max(axis=-1)
    table = np.asarray(rules.points_by_distance, dtype=np.int64)
    return np.where(d < len(table), table[np.minimum(d, len(table) - 1)], 0)


def points_map(rules: Rules, shape: tuple[int, int], target: Cell) -> NDArray[np.int64]:
    """R15 for every square of a board of ``shape``: what a pawn there would score.

    The frame and its ring are clipped at the board's edge (R5) simply because squares off the
    board do not exist.
    """
    rows, cols = np.indices(shape)
    grid = np.stack([rows, cols], axis=-1)
    return points_array(rules, (target.row, target.col), grid)
