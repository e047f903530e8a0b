"""The guesser's belief read for the crowd (issue 34): raised to a temperature and smoothed over
the board, so that it spreads as people's picks spread; the guesser then places where the
expected R15 points against that spread are highest (R13, R15)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from huescues.agents import ModelGuesser, Readings, expected_points
from huescues.engine import Board, Cell, Rules

BOARD = Board.standard()


@pytest.fixture(scope="module")
def plain() -> ModelGuesser:
    return ModelGuesser(model="naming", temperature=1.0, smoothing=0.0, store=Readings())


def _entropy(b: np.ndarray) -> float:
    p = b.ravel()
    return float(-(p[p > 0] * np.log(p[p > 0])).sum())


def test_a_temperature_below_one_is_the_belief_raised_to_it(plain: ModelGuesser) -> None:
    raw = plain.belief(BOARD, ["lavender"])
    broad = ModelGuesser(model="naming", temperature=0.5, smoothing=0.0).belief(BOARD, ["lavender"])
    expected = raw**0.5 / (raw**0.5).sum()
    assert np.allclose(broad, expected, rtol=1e-9, atol=1e-15)
    assert math.isclose(float(broad.sum()), 1.0)
    assert _entropy(broad) > _entropy(raw) + 0.1


def test_smoothing_spreads_the_belief_to_neighbouring_squares(plain: ModelGuesser) -> None:
    raw = plain.belief(BOARD, ["teal"])
    smooth = ModelGuesser(model="naming", temperature=1.0, smoothing=1.5).belief(BOARD, ["teal"])
    assert math.isclose(float(smooth.sum()), 1.0)
    assert _entropy(smooth) > _entropy(raw)
    top = np.unravel_index(int(np.argmax(raw)), raw.shape)
    assert smooth[top] < raw[top]
    # One square's belief goes to its neighbours, as much to each side, and stays on the board.
    one = np.zeros(BOARD.size)
    one[8 * BOARD.cols + 15] = 1.0
    spread = ModelGuesser(model="naming", temperature=1.0, smoothing=1.5)._for_crowd(BOARD, one)
    spread = spread.reshape(BOARD.shape)
    assert math.isclose(spread[8, 14], spread[8, 16]) and math.isclose(spread[7, 15], spread[9, 15])
    assert spread[8, 15] > spread[8, 16] > spread[8, 17] > 0


def test_its_own_reading_is_unchanged_bit_for_bit() -> None:
    # Temperature 1 and no smoothing (every guesser without a fitted pair): the same belief.
    a = ModelGuesser(model="naming").belief(BOARD, ["sky", "light"], [Cell(3, 4)])
    b = ModelGuesser(model="naming", temperature=1.0, smoothing=0.0).belief(
        BOARD, ["sky", "light"], [Cell(3, 4)]
    )
    assert np.array_equal(a, b)


def test_a_broad_belief_moves_the_pawn_to_where_more_belief_lies_nearby() -> None:
    # Two separate peaks: a sharp lone square and a broad hill. Read as it is, the guesser takes
    # the lone square; read for a crowd, the hill (R15 pays for near misses).
    joint = np.full(BOARD.size, 1e-9)
    joint[2 * BOARD.cols + 3] = 0.3
    hill = [(r, c) for r in range(9, 14) for c in range(20, 25)]
    for r, c in hill:
        joint[r * BOARD.cols + c] = 0.7 / len(hill)
    rules = Rules.standard(4)
    plain = ModelGuesser(model="naming", temperature=1.0, smoothing=0.0)
    crowd = ModelGuesser(model="naming", temperature=0.5, smoothing=1.0)
    joint[2 * BOARD.cols + 3] = 0.9
    picks = {}
    for name, g in (("plain", plain), ("crowd", crowd)):
        b = g._for_crowd(BOARD, joint).reshape(BOARD.shape)
        picks[name] = np.unravel_index(int(np.argmax(expected_points(b, rules))), BOARD.shape)
    assert picks["plain"] == (2, 3)
    assert picks["crowd"] == (11, 22)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("temperature", 0.0),
        ("temperature", -1.0),
        ("temperature", math.nan),
        ("temperature", math.inf),
        ("temperature", True),
        ("temperature", "0.5"),
        ("smoothing", -0.5),
        ("smoothing", math.inf),
        ("smoothing", math.nan),
        ("smoothing", False),
    ],
)
def test_a_bad_crowd_reading_is_refused_naming_the_value(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field) as e:
        ModelGuesser(model="naming", **{field: value})  # type: ignore[arg-type]
    assert repr(value) in str(e.value)


def test_the_shipped_guessers_read_for_the_crowd() -> None:
    from huescues.agents import CROWD_READINGS, EmbeddingGuesser, default_agent

    guesser = default_agent().guesser
    assert isinstance(guesser, ModelGuesser)
    assert EmbeddingGuesser().crowd_reading == CROWD_READINGS[("default",)]
    assert guesser.crowd_reading == CROWD_READINGS[("default", "naming")]
    # Broader than the models' own reading; a guesser of other models reads as they do.
    assert all(t < 1.0 for t, _ in CROWD_READINGS.values())
    assert ModelGuesser(model="embedding").crowd_reading == (1.0, 0.0)
    assert ModelGuesser(model=("embedding-es",)).crowd_reading == (1.0, 0.0)
    # A model reading Spanish reads through its English model, and so is read for the crowd.
    spanish = default_agent("es").guesser
    assert isinstance(spanish, ModelGuesser)
    assert spanish.crowd_reading == CROWD_READINGS[("default", "naming")]
    # Its own pair, when given, is the one it reads with.
    assert EmbeddingGuesser(temperature=0.5).crowd_reading == (0.5, CROWD_READINGS[("default",)][1])


def test_read_for_the_crowd_people_s_picks_are_likelier() -> None:
    # The dev clues' picks under the naming model (quick to read on their board), broadened as
    # scripts/fit_crowd_reading.py would fit it (0.65): people's picks are likelier than under
    # its own reading, and than under a belief that knows nothing.
    from huescues.research import calibration, dev_picks

    responses, _ = dev_picks()
    crowd = calibration(ModelGuesser(model="naming", temperature=0.65), responses, n_boot=0)
    own = calibration(ModelGuesser(model="naming"), responses, n_boot=0)
    with_crowd, alone = crowd.raw_log_likelihood.mean, own.raw_log_likelihood.mean
    assert with_crowd is not None and alone is not None
    assert with_crowd > alone + 0.05
    assert with_crowd > crowd.uniform_log_likelihood


def test_the_spanish_player_reads_a_surely_translated_word_as_the_english_player_does() -> None:
    # Issue 34, item 5: the Spanish words people see are read as well as the English ones. The
    # table translates "cisne" to "swan" (a glossary entry), so the default players' beliefs
    # agree up to the table's confidence; read for the crowd in English only, the Spanish
    # guesser's belief differed from the English one by half its mass (L1 0.53).
    from huescues.agents import default_agent

    board = Board.retail()
    for spanish, english in (("cisne", "swan"), ("zanahoria", "carrot")):
        es = np.asarray(default_agent("es").guesser.belief(board, [spanish])).ravel()
        en = np.asarray(default_agent().guesser.belief(board, [english])).ravel()
        assert float(np.abs(es - en).sum()) < 0.1, (spanish, english)
        assert int(es.argmax()) == int(en.argmax())
