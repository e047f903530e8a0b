"""Whether a model's picks can be told apart from people's: Hotelling's T² by hand, the
divergences by hand, and the test's rejection rate when the model's belief is people's
histogram (the simulation the docs quote)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from huescues import Board, Cell
from huescues.language import FlatModel
from huescues.research import (
    HistogramGuesser,
    HumanResponses,
    dev_picks,
    indistinguishable,
    null_rejection_rate,
)
from huescues.research._hotelling import hotelling

BOARD = Board.standard()


def test_hotelling_in_one_dimension_is_the_squared_t_test() -> None:
    # x = 1, 2, 3 and y = 4, 5, 6: means 2 and 5, pooled variance 1, so
    # t = -3 / sqrt(1/3 + 1/3) and T² = t² = 13.5; F on (1, 4) degrees of freedom is T² itself.
    test = hotelling(np.array([[1.0], [2.0], [3.0]]), np.array([[4.0], [5.0], [6.0]]))
    assert test.t2 == pytest.approx(13.5, rel=1e-5)  # the ridge moves it by a millionth
    assert test.f == pytest.approx(13.5, rel=1e-5)
    # The two-sided t-test's p-value with 4 degrees of freedom (scipy's t, not its F).
    from scipy import stats

    assert test.p_value == pytest.approx(2 * stats.t.sf(math.sqrt(13.5), 4), rel=1e-4)


def test_a_singular_covariance_is_inverted_with_a_small_ridge() -> None:
    same = np.zeros((5, 3))
    assert hotelling(same, same).p_value == pytest.approx(1.0)
    assert hotelling(same, same + np.array([1.0, 0.0, 0.0])).p_value < 1e-9
    with pytest.raises(ValueError, match="needs more than 4 points in all"):
        hotelling(np.zeros((2, 3)), np.zeros((2, 3)))


def responses_of(text: str, tmp_path: Path) -> HumanResponses:
    path = tmp_path / "picks.csv"
    path.write_text("clue,square\n" + text, encoding="utf-8")
    return HumanResponses.from_csv(path, BOARD)


def test_the_divergences_by_hand(tmp_path: Path) -> None:
    # Five picks on five squares: people's histogram is 1/5 on each.
    picks = responses_of(
        "".join(f"sky,H{c}\n" for c in range(10, 15)) + "lone,A1\nlone,A2\n", tmp_path
    )
    same = indistinguishable(HistogramGuesser(picks), picks, calibrated=False, n_boot=0)
    assert [t.js_divergence for t in same.per_clue] == pytest.approx([0.0, 0.0], abs=1e-12)
    assert [t.kl_divergence for t in same.per_clue] == pytest.approx([0.0, 0.0], abs=1e-12)
    flat = indistinguishable(FlatModel(), picks, calibrated=False, n_boot=0)
    sky = flat.per_clue[0]
    # KL(histogram || uniform) = log 480 - log 5.
    assert sky.kl_divergence == pytest.approx(math.log(480) - math.log(5))
    # JS: the midpoint is (1/5 + 1/480) / 2 on the five squares, 1/960 elsewhere.
    mid = (1 / 5 + 1 / 480) / 2
    js = 0.5 * math.log2((1 / 5) / mid) + 0.5 * (
        5 / 480 * math.log2((1 / 480) / mid) + 475 / 480 * math.log2(2)
    )
    assert sky.js_divergence == pytest.approx(js)
    # The lone clue has two picks: too few to test, and not counted in the share.
    lone = flat.per_clue[1]
    assert lone.p_value is None and lone.passed is None and flat.tested == 1


def test_the_share_and_the_per_clue_table(tmp_path: Path) -> None:
    # 40 picks a clue in two tight clusters near the board's edges.
    text = "".join(f"sky,B{c}\nsky,C{c}\n" for c in range(3, 8)) * 4
    text += "".join(f"grass,N{c}\ngrass,O{c}\n" for c in range(20, 25)) * 4
    picks = responses_of(text, tmp_path)
    people = indistinguishable(HistogramGuesser(picks), picks, calibrated=False, n_boot=50)
    nowhere = indistinguishable(FlatModel(), picks, n_boot=50)
    assert people.tested == nowhere.tested == 2
    assert people.share == 1.0 and people.passed == 2  # the histogram is where people pick
    assert nowhere.share == 0.0  # uniform draws centre on the board's middle, far from both
    assert nowhere.share_at(1e-12) <= 1.0
    assert all(t.p_value is not None and t.p_value < 0.05 for t in nowhere.per_clue)
    table = people.table()
    assert "2 of 2 clues pass at alpha 0.05" in table and "| sky | 40 |" in table
    # Each clue's draws come from the seed and its text: alone, a clue tests the same.
    alone = indistinguishable(
        HistogramGuesser(picks), picks.where(lambda r: r.clue == "grass"), calibrated=False
    )
    assert alone.per_clue[0] == people.per_clue[1]
    other = indistinguishable(HistogramGuesser(picks), picks, calibrated=False, seed=1)
    assert other.per_clue[0].t2 != people.per_clue[0].t2


def test_bad_input_is_refused_with_the_bad_value_named(tmp_path: Path) -> None:
    picks = responses_of("sky,H10\nsky,H11\nsky,H12\n", tmp_path)
    for alpha in (0, 1.5, True):
        with pytest.raises(ValueError, match="alpha must lie strictly between 0 and 1"):
            indistinguishable(FlatModel(), picks, alpha=alpha)

    class Ranking:
        def rank(self, board: Board, clues: list[str]) -> list[Cell]:
            return list(board.cells())

    with pytest.raises(TypeError, match="Ranking only ranks squares"):
        indistinguishable(Ranking(), picks)


@pytest.mark.slow  # 780 tests at two alphas: about a second
def test_the_histogram_passes_at_the_stated_rate_on_simulated_picks() -> None:
    # People's picks simulated from their own histogram (the 39 dev clues, 20 times: 780
    # tests), the model's belief the histogram: the test rejects at alpha, within the central
    # 99% binomial interval of 780 tests at that rate.
    responses, _ = dev_picks()
    for alpha in (0.05, 0.003):
        found = null_rejection_rate(responses, alpha=alpha, repeats=20, seed=0)
        assert found.tests == 780
        assert found.within, found
    # And it has power: a belief one square off people's histogram is told apart far more.
    hist = HistogramGuesser(responses)
    shifted = HistogramGuesser(responses)
    shifted.histograms = {c: np.roll(h, 3, axis=1) for c, h in hist.histograms.items()}
    off = indistinguishable(shifted, responses, calibrated=False, n_boot=0)
    assert off.share < 0.5
