"""The library's default colour-term model: the direct reading of a text (naming data and word
vectors) blended with what things look like (the object colours, read at typical colours)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from ._capabilities import ColourTermModelBase, in_view, model_cache_key, with_capabilities
from ._combined import combined_model
from ._objects import ObjectColourModel
from ._protocol import ColourTermModel, FloatArray, Prediction, as_lab
from ._translate import TranslatedModel, check_language, spanish_knowledge, spanish_table

__all__ = ["OBJECT_BLEND_WEIGHT", "BlendedModel", "default_model", "english_model"]

#: Weight of the knowledge (object-colour) reading in :func:`default_model`, chosen by
#: leave-one-clue-out cross-validation on people's Hues and Cues picks
#: (``scripts/evaluate_object_colours.py``, docs/knowledge.md).
OBJECT_BLEND_WEIGHT = 4.0


class BlendedModel(ColourTermModelBase):
    """Two colour-term models read together: ``scale * (base.score + weight * other.score)``,
    a product of experts (log-likelihoods up to a constant). Where ``base`` knows nothing (a
    flat reading) the other decides; where both know the text, the surer and the weightier
    count more. ``scale`` below 1 broadens the whole reading (a temperature): the product of
    two sure experts is surer than people are, and a belief calibrated to people's picks
    gives the right weight to a clue that only might be read as meant."""

    def __init__(
        self, base: ColourTermModel, other: ColourTermModel, weight: float, *, scale: float = 1.0
    ) -> None:
        if not (math.isfinite(weight) and weight >= 0):
            raise ValueError(f"weight must be a non-negative number, not {weight}")
        if not (math.isfinite(scale) and scale > 0):
            raise ValueError(f"scale must be a positive number, not {scale}")
        self.base = base
        self.other = other
        self.weight = float(weight)
        self.scale = float(scale)

    def __reduce__(self) -> tuple[Any, ...]:
        if self is english_model():
            return (english_model, ())
        return (_blend, (self.base, self.other, self.weight, self.scale))

    @property
    def cache_key(self) -> str | None:
        """``blend(base key,other key,weight,spelled)`` (and ``,scale=...`` when the scale is
        not 1) when both models have a key, else ``None``: ``spelled`` since a misspelt word
        came to be read as the word meant (:meth:`spelled`), so that no reading kept before is
        taken for this model's. A subclass may score otherwise, so it has none unless it names
        its own."""
        if type(self) is not BlendedModel:
            return None
        base, other = model_cache_key(self.base), model_cache_key(self.other)
        if base is None or other is None:
            return None
        scale = "" if self.scale == 1.0 else f",scale={self.scale!r}"
        return f"blend({base},{other},{self.weight!r}{scale},spelled)"

    def in_view(self, lab: ArrayLike) -> BlendedModel:
        """The blend of its two models each read against the colours in view (:func:`in_view`);
        this blend itself when neither reads them otherwise, or for a subclass (which may score
        otherwise)."""
        if type(self) is not BlendedModel:
            return self
        base, other = in_view(self.base, lab), in_view(self.other, lab)
        if base is self.base and other is self.other:
            return self
        return BlendedModel(base, other, self.weight, scale=self.scale)

    def spelled(self, text: str) -> str:
        """The text both models read: with a misspelt word put right where the knowledge puts
        it right (:meth:`ObjectColourModel.spelled`: ``emrald`` is ``emerald`` for both), else
        the text itself."""
        if isinstance(self.other, ObjectColourModel):
            return self.other.spelled(text)
        return text

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """``scale * (base.score + weight * other.score)``, shape ``lab.shape[:-1]``, of the
        text as :meth:`spelled` puts it."""
        colours = as_lab(lab)
        text = self.spelled(text)
        out: FloatArray = self.base.score(text, colours) + self.weight * self.other.score(
            text, colours
        )
        return out if self.scale == 1.0 else self.scale * out

    def score_many(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts at once, shape ``(len(texts), *lab.shape[:-1])``."""
        colours = as_lab(lab)
        texts = [self.spelled(t) for t in texts]
        out: FloatArray = _many(self.base, texts, colours) + self.weight * _many(
            self.other, texts, colours
        )
        return out if self.scale == 1.0 else self.scale * out

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score_many` by each model's ``score_batch`` where it has one (faster for many
        new texts; the numbers may differ from :meth:`score`'s in the last bits)."""
        colours = as_lab(lab)
        texts = [self.spelled(t) for t in texts]
        out: FloatArray = _batch(self.base, texts, colours) + self.weight * _batch(
            self.other, texts, colours
        )
        return out if self.scale == 1.0 else self.scale * out

    def evidence(self, text: str) -> float:
        """How much is known of the text's colour (0 to 1): the graded evidence of whichever
        model grades it (the knowledge model's, :meth:`ObjectColourModel.evidence`, in
        :func:`default_model`), else the base model's."""
        text = self.spelled(text)
        for model in (self.other, self.base):
            graded = getattr(model, "evidence", None)
            if callable(graded):
                return float(graded(text))
        return float(self.base.predict(text).evidence or 0.0)

    def predict(self, text: str) -> Prediction:
        """The base model's reading when the other has no weight, else the peak of the blend
        over the colours people named, with the reading's spread and :meth:`evidence`."""
        if self.weight == 0.0:
            return self.base.predict(text)
        lab = _named_colours()
        s = self.score(text, lab)
        w = np.exp(s - s.max())
        w /= w.sum()
        mode = lab[int(np.argmax(s))]
        diff = lab - mode
        cov = (w[:, None] * diff).T @ diff + np.eye(3)
        return Prediction(mode.copy(), cov, True, "blend", self.evidence(text))


@overload
def default_model() -> BlendedModel: ...
@overload
def default_model(language: Literal["en"]) -> BlendedModel: ...
@overload
def default_model(language: str) -> ColourTermModelBase: ...
def default_model(language: str = "en") -> ColourTermModelBase:
    """The library's default colour-term model for clues in ``language`` (``"en"``, the
    default, or ``"es"``; anything else is a ValueError), loaded once.

    English: :func:`english_model`. Spanish: a :class:`TranslatedModel` that carries each
    Spanish word to its English counterpart by the shipped table (``docs/languages.md``) and
    reads that with the English model."""
    if check_language(language) == "es":
        return _spanish_model()
    return english_model()


@functools.cache
def _spanish_model() -> TranslatedModel:
    return TranslatedModel(
        english_model(),
        spanish_table(),
        "es",
        knowledge=spanish_knowledge(),
        names=ObjectColourModel.default(),
    )


def in_english(text: str, language: str) -> str:
    """The English text ``language``'s table carries ``text`` to, as its default model reads it
    (``in_english("cielo nocturno", "es")`` is ``"night sky"``), but for every word, those its own
    knowledge reads too (``tinta`` is ``"ink"``); English text as it is."""
    if check_language(language) == "en":
        return text
    return _table_only(language).translate(text).text


@functools.cache
def _table_only(language: str) -> TranslatedModel:
    """``default_model(language)`` without its own knowledge: every word translated."""
    model = default_model(language)
    assert isinstance(model, TranslatedModel)
    return TranslatedModel(model.base, model.table, language, names=model.names)


@functools.cache
def english_model() -> BlendedModel:
    """The default colour-term model for English clues (loaded once): the direct reading of
    :func:`~huescues.language.combined_model` (naming data and word vectors) blended with the
    shipped :class:`ObjectColourModel` (what things look like, read at typical colours),
    weighted by :data:`OBJECT_BLEND_WEIGHT`. On people's picks for 39 Hues and Cues clues, held
    out by clue and read against the board (:func:`in_view`), the blend scores 0.676 points a
    pick (0.563 with the authors' ratings of those 39 words left out), the combined model alone
    0.459 (``docs/knowledge.md``)."""
    return BlendedModel(combined_model(), ObjectColourModel.default(), OBJECT_BLEND_WEIGHT)


def _blend(
    base: ColourTermModel, other: ColourTermModel, weight: float, scale: float
) -> BlendedModel:
    return BlendedModel(base, other, weight, scale=scale)


@functools.cache
def _named_colours() -> FloatArray:
    out: FloatArray = ObjectColourModel.default().named_colours
    return out


def _many(model: ColourTermModel, texts: Sequence[str], lab: FloatArray) -> FloatArray:
    return np.asarray(with_capabilities(model).score_many(texts, lab), dtype=np.float64)


def _batch(model: ColourTermModel, texts: Sequence[str], lab: FloatArray) -> FloatArray:
    return np.asarray(with_capabilities(model).score_batch(texts, lab), dtype=np.float64)
