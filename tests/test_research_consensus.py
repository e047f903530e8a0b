"""People's agreement on a clue (:func:`huescues.research.people_agreement`): the mean R15 points
of a pick against each other pick, and an interval that accounts for every pick being both a
guess and, for the others, a target."""

from __future__ import annotations

import numpy as np
import pytest

from huescues import Board
from huescues.engine import Rules
from huescues.research import HumanResponses, people_agreement


def _picks(n: int, seed: int) -> HumanResponses:
    """``n`` picks of one clue spread around F12 (a few squares each way)."""
    board = Board.standard()
    rng = np.random.default_rng(seed)
    rows = np.clip(5 + np.rint(rng.normal(0, 1.5, n)), 0, board.rows - 1).astype(int)
    cols = np.clip(11 + np.rint(rng.normal(0, 1.5, n)), 0, board.cols - 1).astype(int)
    squares = [str(board.cells()[r * board.cols + c]) for r, c in zip(rows, cols, strict=True)]
    return HumanResponses.from_records([{"clue": "sky", "square": s} for s in squares], board)


def _points(responses: HumanResponses) -> np.ndarray:
    r15 = Rules.standard(4)
    cells = [r.square for r in responses.rows]
    out = np.array([[float(r15.points_at(a.distance(b))) for b in cells] for a in cells])
    np.fill_diagonal(out, 0.0)
    return out


def test_the_mean_is_the_leave_one_out_mean_over_ordered_pairs() -> None:
    responses = _picks(20, seed=1)
    points = _points(responses)
    (found,) = people_agreement(responses, n_boot=0)
    assert found.n == 20
    assert found.points.mean == pytest.approx(points.sum() / (20 * 19), rel=1e-12)
    assert found.points.low is None


def test_the_interval_is_as_wide_as_the_pairs_make_it() -> None:
    # Each pick's leave-one-out mean uses every other pick, so the picks' means are not
    # independent: resampling them as if they were gives an interval about half as wide as
    # the statistic's spread. The jackknife of the statistic over ordered pairs is the yardstick.
    for seed in range(3):
        responses = _picks(40, seed)
        points = _points(responses)
        m = len(points)
        total = points.sum()
        jack = np.array(
            [(total - points[i].sum() - points[:, i].sum()) / ((m - 1) * (m - 2)) for i in range(m)]
        )
        se = float(np.sqrt((m - 1) / m * ((jack - jack.mean()) ** 2).sum()))
        (found,) = people_agreement(responses, n_boot=2000, seed=0)
        assert found.points.low is not None and found.points.high is not None
        half = (found.points.high - found.points.low) / (2 * 1.96)
        assert 0.75 * se < half < 1.3 * se, (seed, half, se)
