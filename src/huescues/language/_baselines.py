"""Baselines for the evaluation: a model that knows nothing, the mean colour, and the nearest
training name."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ._capabilities import ColourTermModelBase
from ._protocol import (
    FLAT_LOG_DENSITY,
    FloatArray,
    Prediction,
    as_lab,
    check_text,
    gaussian_log_density,
)
from ._splits import normalise_name

__all__ = ["FlatModel", "MeanColourModel", "NearestNameModel"]


class FlatModel(ColourTermModelBase):
    """Knows nothing: every colour fits every text equally (the uniform density over the sRGB
    gamut). Its belief over a board is uniform, the baseline of the likelihood measures; the
    square it would choose is any of the board's interior squares (they tie)."""

    __slots__ = ()

    def predict(self, text: str) -> Prediction:
        """A mid grey with a spread as wide as the gamut, marked unknown."""
        check_text(text)
        return Prediction(np.array([50.0, 0.0, 0.0]), 2500.0 * np.eye(3), known=False)

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """:data:`FLAT_LOG_DENSITY` for every colour."""
        check_text(text)
        return np.full(as_lab(lab).shape[:-1], FLAT_LOG_DENSITY)


class MeanColourModel(ColourTermModelBase):
    """Predicts the mean colour of its training names for every text, with their spread: what
    a model that reads nothing scores."""

    def __init__(self, lab: ArrayLike) -> None:
        data = as_lab(lab).reshape(-1, 3)
        if len(data) < 2:
            # One colour has no spread (numpy's covariance is NaN), none not even a mean.
            raise ValueError(f"a mean colour model needs at least 2 colours, not {len(data)}")
        self._mean = data.mean(axis=0)
        self._cov = np.cov(data.T) + 1e-6 * np.eye(3)

    def predict(self, text: str) -> Prediction:
        """The mean colour, whatever the text."""
        check_text(text)
        return Prediction(self._mean.copy(), self._cov.copy(), known=False, source="mean colour")

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """A Gaussian fitted to all training colours, whatever the text."""
        check_text(text)
        return gaussian_log_density(as_lab(lab), self._mean, self._cov)


class NearestNameModel(ColourTermModelBase):
    """Predicts the colour of the training names that share the most words with the text (their
    mean when several tie), else the mean colour: a lookup with no model of meaning."""

    def __init__(self, names: Sequence[str], lab: ArrayLike, *, spread: float = 15.0) -> None:
        self._names = [normalise_name(n).split() for n in names]
        self._lab = as_lab(lab).reshape(-1, 3)
        if len(self._names) != len(self._lab):
            raise ValueError(f"{len(self._names)} names for {len(self._lab)} colours")
        if len(self._lab) < 2:  # the mean colour, for texts sharing no word, needs a spread
            raise ValueError(f"a nearest-name model needs at least 2 names, not {len(self._lab)}")
        if not (isinstance(spread, int | float) and math.isfinite(spread) and spread > 0):
            raise ValueError(f"spread must be a positive number of CIELAB units, not {spread!r}")
        self._by_word: dict[str, list[int]] = {}
        for i, words in enumerate(self._names):
            for w in set(words):
                self._by_word.setdefault(w, []).append(i)
        self._fallback = MeanColourModel(self._lab)
        self._cov = spread**2 * np.eye(3)

    @functools.lru_cache(maxsize=4096)  # noqa: B019 (one model per evaluation fold; bounded)
    def predict(self, text: str) -> Prediction:
        """The mean colour of the names sharing the most words with ``text``."""
        words = normalise_name(check_text(text)).split()
        counts: dict[int, int] = {}
        for w in set(words):
            for i in self._by_word.get(w, ()):
                counts[i] = counts.get(i, 0) + 1
        if not counts:
            return self._fallback.predict(text)
        best = max(counts.values())
        rows = [i for i, c in counts.items() if c == best]
        return Prediction(self._lab[rows].mean(axis=0), self._cov, source="nearest name")

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """A Gaussian around :meth:`predict`'s colour."""
        p = self.predict(text)
        return gaussian_log_density(as_lab(lab), p.lab, p.cov)
