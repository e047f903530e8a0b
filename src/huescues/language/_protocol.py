"""The ColourTermModel protocol: how well a text describes colours, for any colours."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "FLAT_LOG_DENSITY",
    "ColourTermModel",
    "Prediction",
    "as_lab",
    "check_text",
    "gaussian_log_density",
]

FloatArray = NDArray[np.float64]

#: The volume of the sRGB gamut in CIELAB (D65), about 8.3e5 cubic units (measured by counting
#: 1-unit cells hit by a 161^3 grid of sRGB colours). A model that knows nothing of a text
#: spreads its belief evenly over it.
SRGB_GAMUT_VOLUME = 8.3e5
#: log of the uniform density over the sRGB gamut: the flat, honest answer for an unknown text.
FLAT_LOG_DENSITY = -math.log(SRGB_GAMUT_VOLUME)
#: Longest text a model reads; longer texts are refused with a clear error.
MAX_TEXT_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Prediction:
    """A model's reading of a text as one colour: a point estimate and its spread in CIELAB."""

    #: The most likely colour, CIELAB (D65), shape ``(3,)``.
    lab: FloatArray
    #: Spread as a covariance in CIELAB, shape ``(3, 3)``.
    cov: FloatArray
    #: Whether the model knew the text (False: a flat guess, the mean colour of its data).
    known: bool = True
    #: Which part of the model answered (``"xkcd"``, ``"embedding"``, ...), for reports.
    source: str = ""
    #: How much the model knows of the text's colour, from 0 (nothing: a flat guess) to 1: the
    #: chance, measured on held-out words, that the reading's main colour is the one people
    #: give (docs/knowledge.md). ``None`` when the model does not grade its knowledge: then
    #: 1.0 for a known text and 0.0 for an unknown one.
    evidence: float | None = None

    def __post_init__(self) -> None:
        if self.evidence is None:
            object.__setattr__(self, "evidence", 1.0 if self.known else 0.0)
        elif not 0.0 <= float(self.evidence) <= 1.0:
            raise ValueError(f"evidence must lie in [0, 1], not {self.evidence}")

    @property
    def std(self) -> FloatArray:
        """Standard deviations along L*, a*, b*."""
        return np.sqrt(np.diag(self.cov))


@runtime_checkable
class ColourTermModel(Protocol):
    """Anything that says how well a text describes colours.

    ``score(text, lab)``: for CIELAB colours ``lab`` (any array with last axis 3), the
    log-likelihood ``log p(colour | text)`` of each, shape ``lab.shape[:-1]``; higher is better;
    finite for every input (an unknown word gives a flat answer, not an error or NaN).
    ``predict(text)``: a point estimate and spread (:class:`Prediction`).

    Optional, with defaults (:class:`~huescues.language.ColourTermModelBase`, which the shipped
    models inherit, gives them to a subclass; :func:`~huescues.language.with_capabilities` to
    any model): ``score_many(texts, lab)`` and ``score_batch(texts, lab)`` score many texts at
    once (default: :meth:`score` of each), and ``cache_key`` names the model's scores so that
    what players compute from them may be kept on disk (default ``None``: nothing is kept).
    """

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """Log-likelihood of each colour given the text; shape ``lab.shape[:-1]``."""
        ...

    def predict(self, text: str) -> Prediction:
        """The text's colour as a point estimate and spread in CIELAB."""
        ...


def check_text(text: object) -> str:
    """The text to interpret, or a clear error: text must be a non-empty string of at most
    :data:`MAX_TEXT_LENGTH` characters. Other scripts and non-letters are allowed (models give a
    flat answer for what they do not know)."""
    if not isinstance(text, str):
        raise TypeError(f"a colour term is text, not {type(text).__name__}")
    if not text.strip():
        raise ValueError("a colour term needs at least one word, not empty text")
    if len(text) > MAX_TEXT_LENGTH:
        raise ValueError(
            f"text of {len(text)} characters is too long for a colour term "
            f"(at most {MAX_TEXT_LENGTH})"
        )
    return text


def as_lab(lab: ArrayLike) -> FloatArray:
    """``lab`` as a float array with last axis 3 and finite values, or a clear error."""
    arr = np.asarray(lab, dtype=np.float64)
    if arr.ndim == 0 or arr.shape[-1] != 3:
        raise ValueError(f"CIELAB colours need a last axis of 3, not shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("CIELAB colours must be finite (found NaN or infinity)")
    return arr


def gaussian_log_density(lab: FloatArray, mean: ArrayLike, cov: ArrayLike) -> FloatArray:
    """log N(lab | mean, cov) over the leading axes of ``lab``."""
    m = np.asarray(mean, dtype=np.float64)
    c = np.asarray(cov, dtype=np.float64)
    chol = np.linalg.cholesky(c)
    diff = (lab - m).reshape(-1, 3)
    z = np.linalg.solve(chol, diff.T)
    maha = np.einsum("ij,ij->j", z, z)
    log_det = 2.0 * float(np.log(np.diag(chol)).sum())
    out: FloatArray = -0.5 * (maha + log_det + 3.0 * math.log(2.0 * math.pi))
    return out.reshape(lab.shape[:-1])
