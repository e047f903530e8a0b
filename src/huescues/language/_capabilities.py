"""A colour-term model's optional methods, declared in one place: scoring many texts at once
(``score_many``, ``score_batch``), a stable name for its scores (``cache_key``) and its reading
against the colours in view (``in_view``). The shipped
models inherit :class:`ColourTermModelBase`; any other model is given the same methods by
:func:`with_capabilities`, so that no caller asks whether a model has them."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from ._identity import shipped_key
from ._protocol import ColourTermModel, FloatArray, Prediction, as_lab

__all__ = ["ColourTermModelBase", "in_view", "model_cache_key", "with_capabilities"]


class ColourTermModelBase(abc.ABC):
    """A :class:`ColourTermModel` with every optional method: a subclass writes ``score`` and
    ``predict`` and may write faster ``score_many`` or ``score_batch``, or a ``cache_key``.

    ``score_many(texts, lab)``: :meth:`score` of each text, a row per text, shape
    ``(len(texts), *lab.shape[:-1])``; the same numbers as :meth:`score`.
    ``score_batch(texts, lab)``: the same, possibly faster for many new texts, and possibly
    differing from :meth:`score`'s in the last bits (for screening); default ``score_many``.
    ``cache_key``: a stable name for the model's scores, or ``None`` (then nothing computed
    from them is kept on disk); it must change whenever the scores do.
    ``in_view(lab)``: the model reading texts against the colours in view (a board's squares),
    for a model whose reading of a colour depends on what else is on offer; by default the
    model itself.

    Without a key, a player reads its whole clue vocabulary afresh for each new model object: a
    tournament entrant whose factory builds such a model for every game plays 7-17x slower than
    a built-in (docs/tournaments.md). Give a key, and build the model once and share it.
    """

    __slots__ = ()

    @abc.abstractmethod
    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """Log-likelihood of each colour given the text; shape ``lab.shape[:-1]``."""

    @abc.abstractmethod
    def predict(self, text: str) -> Prediction:
        """The text's colour as a point estimate and spread in CIELAB."""

    def score_many(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` of each text stacked, shape ``(len(texts), *lab.shape[:-1])``."""
        colours = as_lab(lab)
        if not texts:
            return np.empty((0, *colours.shape[:-1]))
        out: FloatArray = np.stack([self.score(t, colours) for t in texts])
        return out

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score_many`, unless a subclass reads many new texts faster."""
        return self.score_many(texts, lab)

    @property
    def cache_key(self) -> str | None:
        """The shipped model's name and a hash of the shipped data (``"naming@..."``) for a
        model the package loaded (``NamingModel.default()``, ...), else ``None``."""
        return shipped_key(self)

    def in_view(self, lab: ArrayLike) -> ColourTermModel:
        """The model reading texts against the colours in view ``lab`` (last axis 3): this
        model itself, unless a subclass reads a colour relative to the others on offer."""
        view_colours(lab)
        return self


class _WithCapabilities(ColourTermModelBase):
    """A model that does not inherit :class:`ColourTermModelBase`, with its optional methods:
    its own where it has them, else the base class's defaults. The one place that asks a model
    whether it has them."""

    __slots__ = ("model",)

    def __init__(self, model: ColourTermModel) -> None:
        self.model = model

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        return self.model.score(text, lab)

    def predict(self, text: str) -> Prediction:
        return self.model.predict(text)

    def score_many(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        own = getattr(self.model, "score_many", None)
        if callable(own):
            out: FloatArray = own(texts, lab)
            return out
        return super().score_many(texts, lab)

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        own = getattr(self.model, "score_batch", None)
        if callable(own):
            out: FloatArray = own(texts, lab)
            return out
        return self.score_many(texts, lab)

    def in_view(self, lab: ArrayLike) -> ColourTermModel:
        own = getattr(self.model, "in_view", None)
        if callable(own):
            out: ColourTermModel = own(lab)
            return out
        view_colours(lab)
        return self.model

    @property
    def cache_key(self) -> str | None:
        shipped = shipped_key(self.model)
        if shipped is not None:
            return shipped
        own = getattr(self.model, "cache_key", None)
        return own if isinstance(own, str) else None


def with_capabilities(model: ColourTermModel) -> ColourTermModelBase:
    """``model`` with every optional method (``score_many``, ``score_batch``, ``cache_key``):
    the model itself when it inherits :class:`ColourTermModelBase`, else a thin wrapper that
    uses the model's own methods where it has them and the defaults where it does not. Cheap:
    callers wrap a model where they use it and keep the model itself as a cache key."""
    if isinstance(model, ColourTermModelBase):
        return model
    return _WithCapabilities(model)


def in_view(model: ColourTermModel, lab: ArrayLike) -> ColourTermModel:
    """``model`` reading texts against the colours in view, ``lab`` (CIELAB, last axis 3: a
    board's squares): its own ``in_view(lab)`` where it has one, else the model itself.

    The default model reads each basic colour term relative to how well the colours in view fit
    it (:meth:`ObjectColourModel.in_view`): on a board with no square people would call black, a
    black thing reads as the squares nearest to black, not as a grey that fits the word's other
    colours. The players read every clue on their board this way; ``model.score`` itself reads
    any colours alone."""
    return with_capabilities(model).in_view(lab)


def view_colours(lab: ArrayLike) -> FloatArray:
    """The colours in view as a read-only ``(n, 3)`` array (a copy); a ValueError names what
    is wrong (no colours, or not finite CIELAB: :func:`as_lab`)."""
    colours = np.array(as_lab(lab), dtype=np.float64).reshape(-1, 3)
    if len(colours) == 0:
        raise ValueError("the colours in view are none: give at least one CIELAB colour")
    colours.flags.writeable = False
    return colours


def model_cache_key(model: object) -> str | None:
    """A stable name for ``model``'s scores (its ``cache_key``), or ``None`` when it has none
    (then nothing computed from it is kept on disk).

    The shipped models (``default_model()``, ``NamingModel.default()``,
    ``EmbeddingModel.default()``, ``combined_model()``, ``ObjectColourModel.default()``) and
    blends or combinations of them have one, made from a hash of the package's model data and
    ``SCORES_VERSION``. Any other model may opt in with a non-empty ``cache_key`` string
    (an attribute, or a property of a :class:`ColourTermModelBase`), which must change
    whenever its scores do."""
    key = with_capabilities(cast(ColourTermModel, model)).cache_key
    return key if isinstance(key, str) and key else None
