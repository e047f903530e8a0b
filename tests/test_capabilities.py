"""A colour-term model's optional methods (score_many, score_batch, cache_key): the shipped
models have them from ColourTermModelBase, any other model gets them from with_capabilities,
and the shipped models name their own scores."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from numpy.typing import ArrayLike

from huescues.agents import EmbeddingClueGiver, EmbeddingGuesser, Player, play_game
from huescues.language import (
    BlendedModel,
    ColourTermModel,
    ColourTermModelBase,
    CombinedModel,
    EmbeddingModel,
    MeanColourModel,
    NamingModel,
    ObjectColourModel,
    Prediction,
    as_lab,
    combined_model,
    default_model,
    model_cache_key,
    with_capabilities,
)
from huescues.language._identity import shipped_fingerprint

FloatArray = np.ndarray


def _centre(text: str) -> FloatArray:
    """A colour for any text, from a hash of it (a model that reads nothing, but differs)."""
    h = zlib.crc32(text.encode())
    return np.array([30.0 + h % 50, (h >> 8) % 100 - 50.0, (h >> 16) % 100 - 50.0])


class ScoreOnly:
    """A user's model with only the two required methods."""

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        d = as_lab(lab) - _centre(text)
        out: FloatArray = -0.5 * (d**2).sum(axis=-1) / 400.0
        return out

    def predict(self, text: str) -> Prediction:
        return Prediction(_centre(text), 400.0 * np.eye(3))


class Inheriting(ColourTermModelBase):
    """The same model, inheriting the optional methods' defaults."""

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        return ScoreOnly().score(text, lab)

    def predict(self, text: str) -> Prediction:
        return ScoreOnly().predict(text)


class OwnMethods(ScoreOnly):
    """A user's model with its own optional methods, not inheriting the base class."""

    cache_key = "own-v1"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def score_many(self, texts: list[str], lab: ArrayLike) -> FloatArray:
        self.calls.append("many")
        return np.stack([self.score(t, lab) for t in texts])

    def score_batch(self, texts: list[str], lab: ArrayLike) -> FloatArray:
        self.calls.append("batch")
        return self.score_many(texts, lab)


LAB = np.array([[50.0, 0.0, 0.0], [60.0, 20.0, -10.0], [30.0, -40.0, 30.0]])


def test_the_shipped_models_have_every_optional_method_of_their_own() -> None:
    shipped = [
        default_model(),
        combined_model(),
        NamingModel.default(),
        EmbeddingModel.default(),
        ObjectColourModel.default(),
        MeanColourModel(LAB),
    ]
    for model in shipped:
        assert isinstance(model, ColourTermModelBase)
        assert isinstance(model, ColourTermModel)
        assert with_capabilities(model) is model


def test_a_model_with_only_score_and_predict_gets_the_defaults() -> None:
    model = ScoreOnly()
    full = with_capabilities(model)
    texts = ["red", "sky blue", "banana"]
    rows = np.stack([model.score(t, LAB) for t in texts])
    assert np.array_equal(full.score_many(texts, LAB), rows)
    assert np.array_equal(full.score_batch(texts, LAB), rows)
    assert full.score_many([], LAB.reshape(1, 3, 3)).shape == (0, 1, 3)
    assert np.array_equal(full.score("red", LAB), model.score("red", LAB))
    assert full.predict("red").known
    assert full.cache_key is None and model_cache_key(model) is None
    # A subclass of the base class gets the same defaults.
    assert np.array_equal(Inheriting().score_batch(texts, LAB), rows)
    assert model_cache_key(Inheriting()) is None


def test_a_model_s_own_optional_methods_are_used() -> None:
    model = OwnMethods()
    full = with_capabilities(model)
    full.score_many(["red"], LAB)
    full.score_batch(["red"], LAB)
    assert model.calls == ["many", "batch", "many"]
    assert model_cache_key(model) == "own-v1"
    # Only a non-empty string names the scores.
    model.cache_key = ""
    assert model_cache_key(model) is None


def test_a_blend_of_a_user_model_scores_many_texts_as_one_by_one() -> None:
    blend = BlendedModel(ScoreOnly(), NamingModel.default(), 0.5, scale=0.7)
    texts = ["red", "pale green"]
    rows = np.stack([blend.score(t, LAB) for t in texts])
    assert np.array_equal(blend.score_many(texts, LAB), rows)
    assert np.allclose(blend.score_batch(texts, LAB), rows, rtol=0, atol=1e-9)
    assert blend.cache_key is None  # one part has no key


def test_the_shipped_models_name_their_own_scores_as_before() -> None:
    """The keys' strings are those the shipped readings files are keyed by."""
    fp = shipped_fingerprint()
    naming, vectors, objects = (f"{n}@{fp}" for n in ("naming", "embedding", "objects"))
    assert NamingModel.default().cache_key == naming
    assert EmbeddingModel.default().cache_key == vectors
    assert ObjectColourModel.default().cache_key == objects
    combined = f"combined({naming},{vectors})"
    assert combined_model().cache_key == combined
    assert CombinedModel(NamingModel.default(), EmbeddingModel.default()).cache_key == combined
    # "spelled": a misspelt word is read as the word meant (readings kept before are stale).
    assert default_model().cache_key == f"blend({combined},{objects},4.0,spelled)"
    broad = BlendedModel(combined_model(), ObjectColourModel.default(), 2.0, scale=0.5)
    assert broad.cache_key == f"blend({combined},{objects},2.0,scale=0.5,spelled)"
    for model in (default_model(), combined_model(), NamingModel.default(), broad):
        assert model_cache_key(model) == model.cache_key


def test_subclasses_of_the_combinations_name_no_scores_unless_they_say() -> None:
    class Louder(BlendedModel):
        def score(self, text: str, lab: ArrayLike) -> FloatArray:
            out: FloatArray = 2.0 * super().score(text, lab)
            return out

    class Named(CombinedModel):
        @property
        def cache_key(self) -> str | None:
            return "named-v1"

    louder = Louder(combined_model(), ObjectColourModel.default(), 4.0)
    assert model_cache_key(louder) is None
    assert model_cache_key(Named(NamingModel.default(), EmbeddingModel.default())) == "named-v1"
    # Anything else has no name: not a model, or not weakly referable.
    assert model_cache_key(object()) is None and model_cache_key(3) is None


@pytest.mark.slow
def test_players_decide_alike_on_a_model_with_or_without_the_base_class() -> None:
    """A user's model works everywhere players use one (vocabulary readings, batched two-word
    second clues), with the same decisions as the same model inheriting the defaults."""

    def players(model: ColourTermModel) -> Player:
        return Player(EmbeddingClueGiver(model=model, pair_from=4), EmbeddingGuesser(model=model))

    plain, inheriting = ScoreOnly(), Inheriting()
    a, _ = play_game([players(plain)] * 3, seed=3)
    b, _ = play_game([players(inheriting)] * 3, seed=3)
    assert a.actions == b.actions
