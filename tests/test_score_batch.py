"""The models' batched readings (score_batch): the same numbers as score but for the last bits,
and the exact readings left as they were."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from huescues import new_game
from huescues.language import (
    ColourTermModel,
    EmbeddingModel,
    NamingModel,
    ObjectColourModel,
    combined_model,
    default_model,
)

# the tokenizer's steps are private: tested here against the batched readings
from huescues.language._wordpiece import _split_added, basic_tokenize, normalise_text

TEXTS = [
    "lagoon moss",  # two plain words
    "eggplant magenta",
    "sky blue",  # a name
    "pale sky",  # a modifier first
    "light blue",
    "teal",  # one word
    "not sky",
    "zzqx vvk",  # unknown words
    "???",  # no letters
    "banana banana",
    "lagoon moss",  # repeated
    "Sea Foam",
]


@pytest.mark.parametrize(
    "model",
    [
        NamingModel.default(),
        EmbeddingModel.default(),
        ObjectColourModel.default(),
        combined_model(),
        default_model(),
    ],
    ids=["naming", "embedding", "objects", "combined", "default"],
)
def test_score_batch_is_score_but_for_the_last_bits(model: ColourTermModel) -> None:
    lab = new_game(4, seed=1).board.lab
    batch = model.score_batch(TEXTS, lab)  # type: ignore[attr-defined]
    assert batch.shape == (len(TEXTS), *lab.shape[:-1])
    one = np.stack([model.score(t, lab) for t in TEXTS])
    np.testing.assert_allclose(batch, one, rtol=1e-11, atol=1e-9)


def test_score_batch_leaves_the_exact_readings_unchanged() -> None:
    model = EmbeddingModel.default()
    lab = new_game(4, seed=2).board.lab
    text = "quartz marmalade"
    model.score_batch([text], lab)
    assert text not in model._cache  # the exact path computes its own reading
    exact = model._compute([text])[0][0]
    assert np.array_equal(model.predict(text).lab, exact.lab)


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40))
def test_ascii_text_is_normalised_as_the_full_path_does(text: str) -> None:
    # A NUL is dropped by the full path (clean_text) and sends the text down it.
    for lowercase in (True, False):
        assert normalise_text(text, lowercase=lowercase) == normalise_text(
            text + "\x00", lowercase=lowercase
        )


@given(st.text(alphabet="abcxyz019 ", max_size=30))
def test_plain_text_is_split_as_the_full_path_does(text: str) -> None:
    # A non-ASCII word sends the text down the character-by-character path.
    assert basic_tokenize(text) == basic_tokenize(text + " é")[:-1]


def test_added_tokens_are_cut_out_and_an_empty_text_has_no_segments() -> None:
    added = ("[PAD]", "[UNK]")
    assert _split_added("", added) == []
    assert _split_added("sky blue", added) == [("sky blue", False)]
    assert _split_added("sky[UNK]blue", added) == [("sky", False), ("[UNK]", True), ("blue", False)]


def test_the_batched_regression_reads_a_factor_that_is_not_triangular() -> None:
    # The banded product skips the zeros above the diagonal of a fit's factor; a model built
    # from other arrays must still be read with all of them.
    shipped = EmbeddingModel.default()
    fitted = shipped._fitted
    full = fitted.l_inv + np.triu(fitted.l_inv.T, 1) * 1e-3
    model = EmbeddingModel(dataclasses.replace(fitted, l_inv=full), shipped.encoder)
    lab = new_game(4, seed=3).board.lab
    texts = ["lagoon moss", "quartz marmalade", "pale sky"]
    batch = model.score_batch(texts, lab)
    one = np.stack([model.score(t, lab) for t in texts])
    np.testing.assert_allclose(batch, one, rtol=1e-11, atol=1e-9)
