"""Naming systems (Zaslavsky et al. 2018): the information-bottleneck measures of a two-term toy
system against numbers worked by hand, the meanings' Gaussians, and naming distributions from
models and from counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import ArrayLike, NDArray

from huescues import Board
from huescues.language import NamingModel, Prediction, as_lab
from huescues.research import MEANING_VARIANCE, NamingSystem, naming_measures, wcs_chips
from huescues.research._naming_system import meanings

# Two chips on the L* axis 16.77 apart: exp(-d^2 / (2 * 64)) = 1/9, so each chip's meaning is
# 0.9 on itself and 0.1 on the other.
D = math.sqrt(2 * MEANING_VARIANCE * math.log(9))
LAB = np.array([[50.0, 0.0, 0.0], [50.0 + D, 0.0, 0.0]])


def h(p: float) -> float:
    """The binary entropy, in bits."""
    return -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def system(naming: list[list[float]]) -> NamingSystem:
    return NamingSystem.from_counts(np.array(naming), ("w1", "w2"), LAB)


def test_the_meanings_are_the_papers_gaussians() -> None:
    assert meanings(LAB) == pytest.approx(np.array([[0.9, 0.1], [0.1, 0.9]]))


def test_a_term_per_chip_by_hand() -> None:
    # Each chip its own term: the names tell which chip, I(M; W) = H(W) = 1 bit, and the
    # listener's reconstruction is the speaker's meaning: accuracy = I(M; U) = 1 - H(0.9)
    # (p(u) is uniform; KL(m_c || p_u) = 1 - H(0.9) for either chip), no cost.
    found = naming_measures(system([[1, 0], [0, 1]]))
    assert found.complexity == pytest.approx(1.0)
    assert found.accuracy == pytest.approx(1 - h(0.9))  # 0.531 bits
    assert found.max_accuracy == pytest.approx(1 - h(0.9))
    assert found.cost == pytest.approx(0.0, abs=1e-12)
    assert found.terms_used == 2


def test_one_term_for_both_by_hand() -> None:
    # One name for everything: no complexity, no accuracy; the cost is all of I(M; U).
    found = naming_measures(system([[1, 0], [1, 0]]))
    assert found.complexity == pytest.approx(0.0, abs=1e-12)
    assert found.accuracy == pytest.approx(0.0, abs=1e-12)
    assert found.cost == pytest.approx(1 - h(0.9))
    assert found.terms_used == 1


def test_a_soft_system_by_hand() -> None:
    # q(w1 | c1) = q(w2 | c2) = 3/4: I(M; W) = 1 - H(3/4) = 0.189 bits. Hearing w1, the
    # listener believes c1 with 3/4, so m_w1(u1) = 3/4 * 0.9 + 1/4 * 0.1 = 0.7: accuracy is
    # 1 - H(0.7) = 0.119 bits and the cost H(0.7) - H(0.9) = 0.412 bits.
    found = naming_measures(system([[3, 1], [1, 3]]))
    assert found.complexity == pytest.approx(1 - h(0.75))
    assert found.accuracy == pytest.approx(1 - h(0.7))
    assert found.cost == pytest.approx(h(0.7) - h(0.9))
    # Meanings given outright: sharp meanings make accuracy the complexity.
    sharp = naming_measures(system([[3, 1], [1, 3]]), meaning=np.eye(2))
    assert sharp.accuracy == pytest.approx(1 - h(0.75)) and sharp.max_accuracy == 1.0


class TwoTerms:
    """A colour-term model knowing two terms: 'dark' near L* 20, 'light' near L* 80."""

    def predict(self, text: str) -> Prediction:
        return Prediction(np.array([20.0 if text == "dark" else 80.0, 0, 0]), 100 * np.eye(3))

    def score(self, text: str, lab: ArrayLike) -> NDArray[np.float64]:
        centre = 20.0 if text == "dark" else 80.0
        out: NDArray[np.float64] = -((as_lab(lab)[..., 0] - centre) ** 2) / 200.0
        return out


def grey_board() -> Board:
    # Two rows of greys, dark to light: 2 x 4 squares.
    levels = np.array([[10, 60, 140, 200], [60, 140, 200, 250]], dtype=np.uint8)
    return Board.from_rgb(np.repeat(levels[:, :, None], 3, axis=2), id="greys")


def test_a_models_naming_distribution_over_a_chart_and_its_term_map() -> None:
    found = NamingSystem.from_model(TwoTerms(), board=grey_board(), terms=("dark", "light"))
    assert found.naming.shape == (8, 2)
    assert found.naming.sum(axis=1) == pytest.approx(np.ones(8))
    # Bayes with the terms equally likely: q(dark | chip) = 1 / (1 + exp(s_light - s_dark)).
    s = TwoTerms()
    lab = found.lab
    expected = 1 / (1 + np.exp(s.score("light", lab) - s.score("dark", lab)))
    assert found.naming[:, 0] == pytest.approx(expected)
    assert found.modal_terms()[:4] == ("dark", "dark", "light", "light")
    assert found.term_map() == "  1234\nA aabb\nB abbb\n\na dark, b light"
    measures = naming_measures(found)
    assert 0 < measures.accuracy < measures.complexity <= 1.0
    assert measures.cost == pytest.approx(measures.max_accuracy - measures.accuracy)
    assert not found.naming.flags.writeable


def test_bad_systems_are_refused_with_the_bad_value_named() -> None:
    with pytest.raises(ValueError, match="chip 1 has no name counted"):
        NamingSystem.from_counts(np.array([[1, 0], [0, 0]]), ("a", "b"), LAB)
    with pytest.raises(ValueError, match="a row per chip \\(2\\) and a column per term \\(3\\)"):
        NamingSystem.from_counts(np.ones((2, 2)), ("a", "b", "c"), LAB)
    with pytest.raises(ValueError, match="variance must be a positive number"):
        naming_measures(system([[1, 0], [0, 1]]), variance=0)
    with pytest.raises(ValueError, match="a term map needs the chips' places"):
        system([[1, 0], [0, 1]]).term_map()
    with pytest.raises(ValueError, match="the WCS chips are on the 10 x 41 chart"):
        wcs_chips(grey_board())


def test_the_wcs_chips_are_the_surveys_330() -> None:
    chart = Board.from_rgb(np.zeros((10, 41, 3), dtype=np.uint8), id="wcs-shape")
    chips = wcs_chips(chart)
    assert len(chips) == 330
    assert sum(c.col == 0 for c in chips) == 10  # the neutral column, A to J
    assert {c.row for c in chips if c.col > 0} == set(range(1, 9))  # hues in rows B to I


@pytest.mark.slow  # builds the WCS chart (several seconds) and reads 11 terms on it
def test_the_naming_model_on_the_wcs_chart() -> None:
    found = NamingSystem.from_model(NamingModel.default())
    assert len(found.lab) == 330 and found.terms[0] == "black"
    measures = naming_measures(found)
    # Eleven basic terms name the chart: each is some chip's likeliest, and the system keeps
    # between 1 and log2(11) bits of the meaning.
    assert measures.terms_used == 11
    assert 1.0 < measures.complexity < math.log2(11)
    assert 0 < measures.accuracy < measures.max_accuracy
    assert "i red" in found.term_map() and "b blue" in found.term_map()
