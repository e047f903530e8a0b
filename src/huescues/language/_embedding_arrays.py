"""The embedding model's parts as data, and what reading a fitted model (``_embedding``) and
fitting one (``_embedding_fit``) both use: the settings of a fit, the fitted arrays, the text
encoder's protocol, and how a text's readings are combined."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from ._protocol import FloatArray

__all__ = [
    "BRANCHES",
    "DEFAULT_PARAMS",
    "FORMAT_VERSION",
    "EmbeddingParams",
    "FittedArrays",
    "HeldOut",
    "TextEncoder",
    "combine",
    "extra_lookup",
    "jaccard_share",
    "word_index",
]

IntArray = NDArray[np.int64]
Float32Array = NDArray[np.float32]
BoolArray = NDArray[np.bool_]

#: Bumped whenever the saved arrays change meaning.
FORMAT_VERSION = 1

#: The three ways a colour is read (step 3 above), each with its own calibrated spread:
#: ``names``: a training name shares a word with the text; ``extra``: only extra names
#: (``color-name-list``) do; ``embedding``: none does, the regression alone answers.
BRANCHES: tuple[str, ...] = ("names", "extra", "embedding")


@runtime_checkable
class TextEncoder(Protocol):
    """Texts to vectors: what the regression reads. ``encode`` returns float32 vectors of shape
    ``(n, dim)`` and, per text, whether any of it was known (unknown texts get a flat answer);
    ``fingerprint`` identifies the vectors, so a saved model is never read with other ones."""

    @property
    def fingerprint(self) -> str:
        """A short identifier of the encoder and its vectors."""
        ...

    def encode(self, texts: Iterable[str]) -> tuple[Float32Array, BoolArray]:
        """Vectors of ``texts`` and whether each had a known token."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class EmbeddingParams:
    """The settings of a fit (the defaults were chosen by 5-fold cross-validation on the XKCD
    names: ``python scripts/build_embeddings.py --fit``)."""

    #: RBF kernel width: ``k(x, y) = exp(-gamma |x - y|^2)`` (vectors have unit length).
    gamma: float = 1.4
    #: Ridge penalty (the noise-to-signal ratio of the Gaussian-process view).
    alpha: float = 0.03
    #: Weight of the training names sharing the most words with the text (Jaccard overlap).
    share_weight: float = 0.5
    #: Largest weight of the extra names' word colours; a word seen in ``n`` extra names gets
    #: ``extra_weight * n / (n + extra_kappa)``.
    extra_weight: float = 1.0
    extra_kappa: float = 0.3
    #: A text read by the regression alone counts as known when ``v0`` is below this.
    known_v0: float = 0.5


DEFAULT_PARAMS = EmbeddingParams()


@dataclasses.dataclass(frozen=True, slots=True)
class FittedArrays:
    """Everything a fitted model is: arrays and settings, saved as they are."""

    names: tuple[str, ...]
    lab: FloatArray
    weights: FloatArray
    vectors: FloatArray
    dual: FloatArray
    #: Inverse of the Cholesky factor L of ``K + alpha W^-1`` (lower triangular, float32
    #: precision): ``v0 = 1 - |L^-1 k_x|^2``. Stored, so that loading does no cubic work.
    l_inv: FloatArray
    mean: FloatArray
    prior_cov: FloatArray
    #: Spread per branch (rows, in :data:`BRANCHES` order) and CIELAB axis: ``a + b * v0``.
    var_a: FloatArray
    var_b: FloatArray
    extra_words: tuple[str, ...]
    extra_counts: FloatArray
    extra_means: FloatArray
    params: EmbeddingParams
    encoder_fingerprint: str
    metadata: dict[str, Any]


@dataclasses.dataclass(frozen=True, slots=True)
class HeldOut:
    """Per name (or text): the regression's colour and ``v0``, the colour of the training
    names sharing the most words (NaN: none), and the extra names' word colour and count."""

    krr: FloatArray
    v0: FloatArray
    share: FloatArray
    extra_mean: FloatArray
    extra_count: FloatArray


def combine(held: HeldOut, params: EmbeddingParams) -> tuple[FloatArray, IntArray]:
    """The colour of each text and its branch (index into :data:`BRANCHES`)."""
    pred = held.krr.copy()
    branch = np.full(len(pred), 2, dtype=np.int64)
    has_share = ~np.isnan(held.share[:, 0])
    pred[has_share] = (1 - params.share_weight) * held.krr[has_share] + (
        params.share_weight * held.share[has_share]
    )
    branch[has_share] = 0
    has_extra = ~has_share & (held.extra_count > 0)
    n = held.extra_count[has_extra]
    w = (params.extra_weight * n / (n + params.extra_kappa))[:, None]
    pred[has_extra] = (1 - w) * held.krr[has_extra] + w * held.extra_mean[has_extra]
    branch[has_extra] = 1
    return pred, branch


def word_index(names: Sequence[str]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = defaultdict(list)
    for i, name in enumerate(names):
        for word in set(name.split()):
            index[word].append(i)
    return dict(index)


def jaccard_share(
    words: Sequence[str],
    index: dict[str, list[int]],
    name_words: Sequence[frozenset[str]],
    lab: FloatArray,
    weights: FloatArray,
) -> FloatArray | None:
    """Weighted mean colour of the names with the highest word overlap |A & B| / |A | B| with
    ``words`` (None: no name shares a word)."""
    query = frozenset(words)
    candidates = {i for word in query for i in index.get(word, ())}
    if not candidates:
        return None
    scored = [(len(query & name_words[i]) / len(query | name_words[i]), i) for i in candidates]
    best = max(s for s, _ in scored)
    rows = [i for s, i in scored if s == best]
    # np.average(lab[rows], axis=0, weights=weights[rows]), the same operations without its
    # checks (called for every text read): the weights as a column, summed, then the products.
    w = np.broadcast_to(weights[rows], (1, len(rows))).swapaxes(-1, 0)
    out: FloatArray = np.multiply(lab[rows], w).sum(axis=(0,)) / w.sum(axis=(0,))
    return out


def extra_lookup(
    words: Sequence[str],
    index: dict[str, int],
    counts: FloatArray,
    means: FloatArray,
) -> tuple[FloatArray | None, float]:
    """Mean colour of the extra names containing any of ``words`` (each name once per word),
    and how many there are."""
    rows = [index[w] for w in set(words) if w in index]
    if not rows:
        return None, 0.0
    c = counts[rows]
    total = float(c.sum())
    out: FloatArray = (c[:, None] * means[rows]).sum(axis=0) / total
    return out, total
