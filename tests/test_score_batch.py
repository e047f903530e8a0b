"""The models' batched readings (score_batch): the same numbers as score but for the last bits,
and the exact readings left as they were."""

from __future__ import annotations

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
from huescues.language._wordpiece import normalise_text

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
