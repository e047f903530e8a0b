"""The combined colour-term model: the naming data where they know a word, the embedding model
where they do not, and the words of a clue combined (a modifier shifts, two nouns intersect).
:func:`~huescues.language.default_model` builds on it (blended with what things look like)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ._capabilities import ColourTermModelBase, model_cache_key
from ._embedding import EmbeddingModel
from ._naming import Modifier, NamingModel, floored, gaussian_product, read_key
from ._protocol import (
    FLAT_LOG_DENSITY,
    FloatArray,
    Prediction,
    as_lab,
    check_text,
    gaussian_log_density,
)

__all__ = ["CombinedModel", "combined_model"]

_CACHE_SIZE = 1 << 16
#: Texts scored together by score_many.
_CHUNK = 128


class CombinedModel(ColourTermModelBase):
    """Reads a text with both models and keeps what they agree on.

    The naming data read exact names, words of names, c3's terms and learned modifiers (a
    modifier shifts: ``pale X`` is X's colour moved by the learned map of ``pale``; the words of
    a longer text are multiplied, so two nouns intersect). The embedding model reads any text
    from word vectors. Where only one of them knows the text, its reading is the answer; where
    both do, the two Gaussians are multiplied, so that the surer opinion counts more. (Measured
    on held-out names, this beats either model alone and beats using the naming data wherever
    they know a word: see ``docs/language.md``.) A text neither knows gets the flat answer.

    Readings are cached per text, so scoring a board for a text already seen costs only the
    Gaussian density (tens of microseconds for 480 squares).
    """

    def __init__(self, naming: NamingModel, embedding: EmbeddingModel) -> None:
        self.naming = naming
        self.embedding = embedding
        self._read = functools.lru_cache(maxsize=_CACHE_SIZE)(self._read_key)
        # Embedding readings made in batches by predict_many, used by _read_key.
        self._vectors: dict[str, Prediction] = {}
        self._batched: set[str] = set()

    def __reduce__(self) -> tuple[object, ...]:
        # The shipped model pickles as a reference to itself (workers load their own copy).
        if self is combined_model():
            return (combined_model, ())
        return (CombinedModel, (self.naming, self.embedding))

    @property
    def cache_key(self) -> str | None:
        """``combined(naming key,embedding key)`` when both parts have a key, else ``None``.
        A subclass may score otherwise, so it has none unless it names its own."""
        if type(self) is not CombinedModel:
            return None
        naming, vectors = model_cache_key(self.naming), model_cache_key(self.embedding)
        if naming is None or vectors is None:
            return None
        return f"combined({naming},{vectors})"

    def predict(self, text: str) -> Prediction:
        """The text's colour and spread in CIELAB."""
        return self._read(read_key(check_text(text)))

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """log p(colour | text) for CIELAB colours ``lab`` (last axis 3); shape
        ``lab.shape[:-1]``; finite everywhere."""
        reading = self._read(read_key(check_text(text)))
        colours = as_lab(lab)
        if not reading.known:
            return np.full(colours.shape[:-1], FLAT_LOG_DENSITY)
        return floored(gaussian_log_density(colours, reading.lab, reading.cov))

    def predict_many(self, texts: Sequence[str]) -> list[Prediction]:
        """:meth:`predict` for many texts, reading new ones in one batch (much faster for a
        vocabulary of thousands)."""
        keys = [read_key(check_text(t)) for t in texts]
        new = sorted({k for k in keys if k} - self._batched)
        if new:
            by_vectors = self.embedding.predict_many(new)
            for key, vec in zip(new, by_vectors, strict=True):
                self._vectors[key] = vec
            self._batched.update(new)
        return [self._read(k) for k in keys]

    def score_many(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts at once: shape ``(len(texts), *lab.shape[:-1])``."""
        return _densities(self.predict_many(texts), as_lab(lab))

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score_many` with the word vectors' readings of new texts from
        :meth:`EmbeddingModel.score_batch`'s matrix products (several times faster for a few
        dozen new texts; the numbers may differ from :meth:`score`'s in the last bits, for
        screening). Nothing it computes is cached."""
        keys = [read_key(check_text(t)) for t in texts]
        words = [k for k in keys if k]
        by_vectors = dict(zip(words, self.embedding.predict_batch(words), strict=True))
        pairs = self.naming._word_products(keys)
        readings: list[Prediction] = []
        both: list[int] = []
        names: list[tuple[FloatArray, FloatArray]] = []
        for i, key in enumerate(keys):
            if not key:
                readings.append(self._read(key))
                continue
            vec = self._vectors.get(key) or by_vectors[key][0]
            pair = pairs[i]
            if pair is None:
                readings.append(_agreed(self.naming.predict(key), vec))
            elif vec.known:
                both.append(i)
                names.append(pair)
                readings.append(vec)  # replaced by the product below
            else:
                readings.append(Prediction(pair[0], pair[1], True, "words"))
        if both:
            # The two words' reading times the word vectors', for all such texts together.
            p_names = np.linalg.inv(np.stack([c for _, c in names]))
            p_vectors = np.linalg.inv(np.stack([readings[i].cov for i in both]))
            cov = np.linalg.inv(p_names + p_vectors)
            m_names = np.stack([m for m, _ in names])
            m_vectors = np.stack([readings[i].lab for i in both])
            weighted = p_names @ m_names[:, :, None] + p_vectors @ m_vectors[:, :, None]
            mean = (cov @ weighted)[..., 0]
            cov = 0.5 * (cov + cov.transpose(0, 2, 1))
            for j, i in enumerate(both):
                readings[i] = Prediction(mean[j], cov[j], True, "words x embedding")
        return _densities(readings, as_lab(lab))

    def known(self, text: str) -> bool:
        """Whether either model reads the text."""
        return self.predict(text).known

    def _read_key(self, key: str) -> Prediction:
        if not key:  # no letters at all
            return self.embedding.predict("?")
        by_names = self.naming.predict(key)
        by_vectors = self._vectors.get(key) or self.embedding.predict(key)
        return _agreed(by_names, by_vectors)


def _agreed(by_names: Prediction, by_vectors: Prediction) -> Prediction:
    """What the two readings agree on: their product when both know the text, else the one
    that does."""
    if by_names.known and by_vectors.known:
        return _product([by_names, by_vectors])
    return by_names if by_names.known else by_vectors


def _densities(readings: Sequence[Prediction], colours: FloatArray) -> FloatArray:
    """The floored Gaussian log density of each reading at ``colours``, shape
    ``(len(readings), *colours.shape[:-1])`` (the flat one where a reading is unknown)."""
    flat = colours.reshape(-1, 3)
    out = np.full((len(readings), len(flat)), FLAT_LOG_DENSITY)
    known = [i for i, r in enumerate(readings) if r.known]
    for start in range(0, len(known), _CHUNK):  # chunks keep the intermediates small
        rows = known[start : start + _CHUNK]
        means = np.stack([readings[i].lab for i in rows])
        covs = np.stack([readings[i].cov for i in rows])
        chol = np.linalg.cholesky(covs)
        diff = flat[None, :, :] - means[:, None, :]
        z = np.linalg.solve(chol, diff.transpose(0, 2, 1))
        maha = np.einsum("kij,kij->kj", z, z)
        log_det = 2.0 * np.log(np.diagonal(chol, axis1=1, axis2=2)).sum(axis=1)
        log_p = -0.5 * (maha + log_det[:, None] + 3.0 * math.log(2.0 * math.pi))
        out[rows] = floored(log_p)
    return out.reshape(len(readings), *colours.shape[:-1])


def _modified(mod: Modifier, p: Prediction) -> Prediction:
    a, t = mod.matrix()
    cov = a @ p.cov @ a.T + mod.cov
    return Prediction(a @ p.lab + t, 0.5 * (cov + cov.T), True, f"{mod.word} + {p.source}")


def _product(parts: Sequence[Prediction]) -> Prediction:
    """The product of Gaussians: where all the readings agree (two nouns intersect)."""
    mean, cov = gaussian_product((p.lab, p.cov) for p in parts)
    return Prediction(mean, cov, True, " x ".join(p.source for p in parts))


@functools.cache
def combined_model() -> CombinedModel:
    """The shipped naming model and embedding model, combined (loaded once): the direct reading
    of a text's colour, which :func:`~huescues.language.default_model` blends with what things
    look like."""
    return CombinedModel(NamingModel.default(), EmbeddingModel.default())
