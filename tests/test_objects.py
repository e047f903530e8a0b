"""The object-colour model: what things look like, read at the colours people picture."""

from __future__ import annotations

import io
import json
import math
import time
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.engine import Board
from huescues.language import (
    BASIC_TERMS,
    BlendedModel,
    ColourTermModel,
    ObjectColourModel,
    default_model,
)


@pytest.fixture(scope="module")
def model() -> ObjectColourModel:
    return ObjectColourModel.default()


@pytest.fixture(scope="module")
def board_lab() -> np.ndarray:
    return np.asarray(Board.standard().lab, dtype=np.float64)


def _hue_at_peak(m: ColourTermModel, text: str, lab: np.ndarray) -> tuple[float, float]:
    s = m.score(text, lab)
    best = lab.reshape(-1, 3)[int(np.argmax(s))]
    chroma = math.hypot(best[1], best[2])
    hue = math.degrees(math.atan2(best[2], best[1])) % 360.0
    return chroma, hue


def test_is_a_colour_term_model(model: ObjectColourModel) -> None:
    assert isinstance(model, ColourTermModel)
    assert isinstance(BlendedModel(default_model(), model, 1.0), ColourTermModel)


def test_scores_have_the_colours_shape_and_are_finite(
    model: ObjectColourModel, board_lab: np.ndarray
) -> None:
    for text in ("banana", "smurf", "cookie monster", "xqzzv", "?!"):
        s = model.score(text, board_lab)
        assert s.shape == board_lab.shape[:-1]
        assert np.all(np.isfinite(s))
    assert model.score("banana", [50.0, 0.0, 0.0]).shape == ()


@pytest.mark.parametrize(
    ("word", "hue_low", "hue_high"),
    [
        ("banana", 70.0, 110.0),  # yellow
        ("tomato", 0.0, 50.0),  # red
        ("grass", 110.0, 170.0),  # green
        ("carrot", 40.0, 75.0),  # orange
    ],
)
def test_known_words_peak_in_their_hue(
    model: ObjectColourModel, board_lab: np.ndarray, word: str, hue_low: float, hue_high: float
) -> None:
    assert model.knows(word)
    chroma, hue = _hue_at_peak(model, word, board_lab)
    assert chroma > 30.0
    assert hue_low <= hue <= hue_high


def test_unseen_words_are_carried_by_their_vectors(model: ObjectColourModel) -> None:
    assert not model.knows("quantumly")
    q = model.distribution("quantumly")
    assert q.shape == (len(BASIC_TERMS),)
    assert math.isclose(float(q.sum()), 1.0, rel_tol=1e-9)
    assert model.predict("quantumly").known
    assert model.sources("quantumly") == ()


def test_an_american_spelling_reads_as_the_british_one_the_data_know(
    model: ObjectColourModel, board_lab: np.ndarray
) -> None:
    # "grayish" is no word of the data: it read as a pink (carried by its vector) before it was
    # read as "greyish". A name the data know only in its American spelling is kept.
    assert not model.knows("grayish") and model.knows("greyish")
    assert np.array_equal(model.score("grayish", board_lab), model.score("greyish", board_lab))
    assert np.array_equal(model.score("gray blue", board_lab), model.score("grey blue", board_lab))
    assert model.knows("the color purple") and not model.knows("the colour purple")
    assert model.predict("the color purple").lab[0] < 60


def test_words_that_say_nothing_of_a_colour_are_left_out(
    model: ObjectColourModel, board_lab: np.ndarray
) -> None:
    # A chat's "the ... one", "i think", "lol": read as words, they were carried by the text's
    # vector, far from the colour named.
    for text in ("the blue one", "i think its blue lol", "sorry blue"):
        assert np.array_equal(model.score(text, board_lab), model.score("blue", board_lab)), text
    # a name the knowledge knows whole, or as another form, keeps its words
    assert model.knows("the color purple")
    assert not np.array_equal(
        model.score("the color purple", board_lab), model.score("purple", board_lab)
    )


def test_distributions_of_known_words(model: ObjectColourModel) -> None:
    assert BASIC_TERMS[int(np.argmax(model.distribution("banana")))] == "yellow"
    assert BASIC_TERMS[int(np.argmax(model.distribution("red")))] == "red"


def test_bad_input_gets_a_clear_error(model: ObjectColourModel) -> None:
    with pytest.raises(ValueError, match="empty"):
        model.score("  ", [50.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="text"):
        model.score(3, [50.0, 0.0, 0.0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="last axis of 3"):
        model.score("banana", [50.0, 0.0])
    with pytest.raises(ValueError, match="finite"):
        model.score("banana", [math.nan, 0.0, 0.0])
    with pytest.raises(ValueError, match="focus"):
        model.with_focus(0.0)
    with pytest.raises(ValueError, match="weight"):
        BlendedModel(default_model(), model, -1.0)


def test_predict_peaks_where_the_score_does(model: ObjectColourModel) -> None:
    p = model.predict("banana")
    assert p.lab.shape == (3,) and p.cov.shape == (3, 3)
    assert np.all(np.linalg.eigvalsh(p.cov) > 0)
    assert float(model.score("banana", p.lab)) >= float(model.score("banana", [30.0, 0.0, -40.0]))


def test_focus_sharpens_the_reading(model: ObjectColourModel, board_lab: np.ndarray) -> None:
    def spread(m: ObjectColourModel) -> float:
        s = m.score("banana", board_lab).reshape(-1)
        p = np.exp(s - s.max())
        p /= p.sum()
        return float(-(p * np.log(p)).sum())

    assert spread(model.with_focus(3.0)) < spread(model)


def test_blend_adds_the_weighted_readings(model: ObjectColourModel, board_lab: np.ndarray) -> None:
    base = default_model()
    blend = BlendedModel(base, model, 0.5)
    want = base.score("smurf", board_lab) + 0.5 * model.score("smurf", board_lab)
    np.testing.assert_allclose(blend.score("smurf", board_lab), want)
    assert blend.predict("banana").lab.shape == (3,)


def test_shipped_data_load_and_read_fast(board_lab: np.ndarray) -> None:
    raw = resources.files("huescues.data").joinpath("objects/object_colours.npz").read_bytes()
    t = time.perf_counter()
    m = ObjectColourModel.load(io.BytesIO(raw))
    assert time.perf_counter() - t < 1.0
    assert len(m.words) > 1000
    m.score("banana", board_lab)
    t = time.perf_counter()
    for _ in range(100):
        m.score("banana", board_lab)
    assert (time.perf_counter() - t) / 100 < 1e-3
    meta = json.loads(resources.files("huescues.data").joinpath("objects/objects.json").read_text())
    assert meta["terms"] == list(BASIC_TERMS)


@settings(max_examples=40, deadline=None)
@given(
    st.text(min_size=1, max_size=30).filter(lambda t: t.strip()),
    st.lists(
        st.tuples(st.floats(-20, 120), st.floats(-150, 150), st.floats(-150, 150)),
        min_size=1,
        max_size=20,
    ),
)
def test_any_text_on_any_colours_is_finite(
    text: str, colours: list[tuple[float, float, float]]
) -> None:
    m = ObjectColourModel.default()
    s = m.score(text, colours)
    assert s.shape == (len(colours),)
    assert np.all(np.isfinite(s))
    q = m.distribution(text)
    assert np.all(q >= 0)


def test_models_pickle(model: ObjectColourModel, board_lab: np.ndarray) -> None:
    import pickle

    from huescues.language import OBJECT_BLEND_WEIGHT, default_model

    assert pickle.loads(pickle.dumps(model)) is model
    sharp = model.with_focus(2.0)
    copy = pickle.loads(pickle.dumps(sharp))
    np.testing.assert_allclose(copy.score("fox", board_lab), sharp.score("fox", board_lab))
    blend = default_model()
    assert blend.weight == OBJECT_BLEND_WEIGHT
    assert pickle.loads(pickle.dumps(blend)) is blend


def test_autumn_keeps_a_clear_mode(model: ObjectColourModel, board_lab: np.ndarray) -> None:
    # The naming data average "autumn" to a greyish tan; people picture orange-brown.
    chroma, hue = _hue_at_peak(model, "autumn", board_lab)
    assert chroma > 30.0 and 20.0 <= hue <= 80.0
