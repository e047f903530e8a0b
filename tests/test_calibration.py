"""Calibration of a belief against people's picks: a temperature held out by clue, and the
reliability table, worked by hand on tiny beliefs, then on the measures."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import ArrayLike, NDArray

from huescues import Board
from huescues.language import Prediction, as_lab
from huescues.research import HumanResponses, calibration, human_agreement
from huescues.research._calibration import TEMPERATURES, reliability, temper

BOARD = Board.standard()
LOG_BELIEF = np.log(np.array([0.8, 0.2]))  # two squares: 0.8 and 0.2


def ll(tau: float, picks: list[int]) -> float:
    """The picks' log-likelihood under the belief at temperature tau, by hand."""
    z = 0.8**tau + 0.2**tau
    return sum(tau * math.log((0.8, 0.2)[s]) - math.log(z) for s in picks)


def test_each_clues_temperature_is_fitted_on_the_other_clues() -> None:
    a, b = [0, 1], [0, 0, 0, 1]
    fit = temper([LOG_BELIEF, LOG_BELIEF], [np.array(a), np.array(b)])
    # Clue b's picks fit on clue a's alone: half and half, a flat belief, the lowest temperature.
    assert fit.temperatures[1] == TEMPERATURES[0]
    # Clue a's on b's: 3 of 4 on the first square, 0.8^t / (0.8^t + 0.2^t) = 3/4 at t = log 3 /
    # log 4 (0.79), between two temperatures of the grid: the one of them b's picks like more.
    best = max((2 ** (-3 / 8), 2 ** (-2 / 8)), key=lambda t: ll(t, b))
    assert fit.temperatures[0] == pytest.approx(best)
    # On both: 4 picks of 6 on the first square: 4^t = 2, t = 1/2 exactly.
    assert fit.temperature == 0.5
    # Each clue's belief is the one at its held-out temperature, normalised.
    p = np.exp(fit.log_beliefs[0])
    assert p.sum() == pytest.approx(1.0)
    assert p[0] / p[1] == pytest.approx(4**best)


def test_one_clue_has_nothing_to_fit_on_and_a_flat_belief_stays_at_one() -> None:
    single = temper([LOG_BELIEF], [np.array([0, 1])])
    assert single.temperatures == (1.0,) and np.allclose(single.log_beliefs[0], LOG_BELIEF)
    flat = np.log(np.full(4, 0.25))
    both = temper([flat, flat], [np.array([0]), np.array([3])])
    assert both.temperatures == (1.0, 1.0) and both.temperature == 1.0


def test_the_reliability_table_by_hand() -> None:
    # 0.8 is 1.6 times a uniform belief's 0.5 (bin 1-4), 0.2 is 0.4 times (bin 0.25-1).
    bins = reliability([LOG_BELIEF], [np.array([0, 0, 0, 1])])
    by_band = {(b.low, b.high): b for b in bins}
    high, low = by_band[(1.0, 4.0)], by_band[(0.25, 1.0)]
    assert (high.squares, high.belief, high.picks) == (1, pytest.approx(0.8), 0.75)
    assert (low.squares, low.belief, low.picks) == (1, pytest.approx(0.2), 0.25)
    assert sum(b.squares for b in bins) == 2
    assert sum(b.belief for b in bins) == pytest.approx(1.0)
    assert sum(b.picks for b in bins) == pytest.approx(1.0)


class Sharp:
    """A colour-term model around H10 whose log-density is ``power`` times the truth's (4:
    four times surer than it should be)."""

    def __init__(self, power: float) -> None:
        self.power = power
        cell = BOARD.cell("H10")
        self.centre = BOARD.lab[cell.row, cell.col]

    def predict(self, text: str) -> Prediction:
        return Prediction(self.centre.copy(), 100.0 * np.eye(3))

    def score(self, text: str, lab: ArrayLike) -> NDArray[np.float64]:
        d2 = ((as_lab(lab) - self.centre) ** 2).sum(axis=-1)
        out: NDArray[np.float64] = -self.power * d2 / (2 * 100.0)
        return out


def picks_from(belief: NDArray[np.float64], n: int, rng: np.random.Generator) -> list[str]:
    cells = BOARD.cells()
    return [str(cells[int(i)]) for i in rng.choice(BOARD.size, size=n, p=belief.ravel())]


def test_an_overconfident_model_is_calibrated_back_and_the_measures_report_both(
    tmp_path: Path,
) -> None:
    truth = Sharp(1.0).score("x", BOARD.lab)
    belief = np.exp(truth - truth.max())
    belief /= belief.sum()
    rng = np.random.default_rng(1)
    rows = [f"c{c},{s}" for c in range(12) for s in picks_from(belief, 40, rng)]
    path = tmp_path / "picks.csv"
    path.write_text("clue,square\n" + "\n".join(rows) + "\n", encoding="utf-8")
    responses = HumanResponses.from_csv(path, BOARD)
    sure = human_agreement(Sharp(4.0), responses, n_boot=50)
    assert sure.calibration is not None and sure.calibrated
    # Fitted back to about a quarter (the picks are drawn from the belief at 1/4).
    assert 0.18 < sure.calibration.temperature < 0.35
    raw, cal = sure.calibration.raw_log_likelihood.mean, sure.calibration.log_likelihood.mean
    assert raw is not None and cal is not None and cal > raw
    assert sure.log_likelihood is not None and sure.log_likelihood.mean == cal
    assert all(c.temperature is not None for c in sure.per_clue)
    as_is = human_agreement(Sharp(4.0), responses, n_boot=50, calibrated=False)
    assert as_is.log_likelihood is not None and as_is.log_likelihood.mean == raw
    # The moves are the player's own: the points and hits do not move with the calibration.
    assert as_is.model_points == sure.model_points and as_is.top_k == sure.top_k
    # The overconfident belief puts more on its surest squares than people's picks do.
    top = [b for b in sure.calibration.raw_reliability if b.squares][-1]
    assert top.belief > top.picks
    table = sure.calibration.table()
    assert "calibrated" in table and "| probability (x uniform) |" in table


def test_calibration_on_its_own_is_the_measures_and_a_ranking_has_none(tmp_path: Path) -> None:
    path = tmp_path / "picks.csv"
    path.write_text("clue,square\na,H10\na,H11\nb,H9\nb,G10\n", encoding="utf-8")
    responses = HumanResponses.from_csv(path, BOARD)
    alone = calibration(Sharp(4.0), responses, n_boot=20)
    assert alone == human_agreement(Sharp(4.0), responses, n_boot=20).calibration

    class Ranking:
        def rank(self, board: Board, clues: list[str]) -> list[object]:
            return list(board.cells())

    with pytest.raises(TypeError, match="Ranking only ranks squares"):
        calibration(Ranking(), responses)
    assert human_agreement(Ranking(), responses, n_boot=0).calibration is None
