"""The embedding model: word vectors mapped to CIELAB by kernel ridge regression, with an
uncertainty of its own, so that words no colour table names still land where a person would look.

How a text is read (``docs/embedding.md`` has the method and the measurements):

1. The text is encoded into a unit vector by static word vectors (:class:`WordPieceEncoder`:
   model2vec vectors distilled from all-MiniLM-L6-v2, numpy only). No known token: the flat
   answer.
2. Kernel ridge regression with an RBF kernel (fitted with scikit-learn on centred CIELAB
   targets) maps the vector to a colour; the same kernel gives the Gaussian-process variance
   ``v0 = k(x, x) - k_x^T (K + alpha W^-1)^-1 k_x`` in [0, 1]: near 0 on a training name, near 1
   far from all of them.
3. Words shared with training names pull the colour towards those names: the training names
   with the highest word overlap (Jaccard) when there are any, else the mean colour of the extra
   names (``color-name-list``) containing the text's words. The weights were chosen by held-out
   error.
4. The spread is diagonal in CIELAB: per channel ``a + b * v0`` for each of the three ways of
   step 3, with ``a`` and ``b`` fitted by maximum likelihood to the residuals of a 5-fold
   cross-validation on the training names (held out by :func:`fold_of`), between a floor and
   the variance of all training colours.

Prediction runs on numpy alone; only :meth:`EmbeddingModel.fit` needs scikit-learn. Fitted
models are saved as npz with JSON metadata, never pickled. This module reads a fitted model (and
loads and saves it); ``_embedding_fit`` fits one.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import ArrayLike

from ._capabilities import ColourTermModelBase
from ._embedding_arrays import (
    BRANCHES,
    DEFAULT_PARAMS,
    FORMAT_VERSION,
    EmbeddingParams,
    FittedArrays,
    HeldOut,
    TextEncoder,
    combine,
    extra_lookup,
    jaccard_share,
    word_index,
)
from ._embedding_fit import fit_arrays
from ._files import model_file
from ._identity import register_shipped
from ._protocol import (
    FLAT_LOG_DENSITY,
    FloatArray,
    Prediction,
    as_lab,
    check_text,
    gaussian_log_density,
)
from ._splits import N_FOLDS, normalise_name
from ._wordpiece import WordPieceEncoder

__all__ = [
    "BRANCHES",
    "DEFAULT_PARAMS",
    "FORMAT_VERSION",
    "EmbeddingModel",
    "EmbeddingParams",
    "FittedArrays",
    "HeldOut",
    "TextEncoder",
    "combine",
    "extra_lookup",
    "jaccard_share",
    "static_encoder",
    "word_index",
]

#: Where the shipped vectors and the fitted default live inside the package.
_PACKAGE = "huescues.data"
_FOLDER = "embedding"
VECTORS_FILE = "static_vectors.npz"
REGRESSOR_FILE = "regressor.npz"
#: Least variance (CIELAB units squared) along each axis, so no prediction is a spike.
VARIANCE_FLOOR = 1.0
#: Cache of predictions per model (texts).
_CACHE_SIZE = 4096
#: Bands of rows in which the batched regression multiplies the triangular ``L^-1``.
_BANDS = 16


# -- encoders --------------------------------------------------------------------------------


def _open_data(name: str) -> IO[bytes]:
    return resources.files(_PACKAGE).joinpath(_FOLDER).joinpath(name).open("rb")


@functools.cache
def static_encoder() -> WordPieceEncoder:
    """The shipped static word vectors (model2vec distilled from all-MiniLM-L6-v2, PCA, float16),
    read once."""
    with _open_data(VECTORS_FILE) as fh:
        return WordPieceEncoder.load(fh)


# -- the fitted model ------------------------------------------------------------------------


class EmbeddingModel(ColourTermModelBase):
    """Word vectors mapped to CIELAB by kernel ridge regression, with a spread that widens away
    from the training names (a :class:`ColourTermModel`)."""

    def __init__(self, fitted: FittedArrays, encoder: TextEncoder | None = None) -> None:
        encoder = static_encoder() if encoder is None else encoder
        if encoder.fingerprint != fitted.encoder_fingerprint:
            raise ValueError(
                f"the model was fitted on vectors {fitted.encoder_fingerprint}, not on the "
                f"encoder's {encoder.fingerprint}: pass the encoder it was fitted with"
            )
        n = len(fitted.names)
        shapes = {
            "lab": (fitted.lab.shape, (n, 3)),
            "weights": (fitted.weights.shape, (n,)),
            "dual": (fitted.dual.shape, (n, 3)),
            "l_inv": (fitted.l_inv.shape, (n, n)),
            "vectors": (fitted.vectors.shape[:1], (n,)),
        }
        for label, (got, want) in shapes.items():
            if got != want:
                raise ValueError(f"{label} has shape {got}, not {want}, for {n} names")
        self._fitted = fitted
        self._encoder = encoder
        self._x = np.ascontiguousarray(fitted.vectors, dtype=np.float64)
        self._x_sq = np.einsum("ij,ij->i", self._x, self._x)
        self._l_inv = np.ascontiguousarray(fitted.l_inv, dtype=np.float64)
        #: Whether ``l_inv`` is lower triangular (None: not yet checked).
        self._lower: bool | None = None
        self._word_index = word_index(fitted.names)
        self._name_words = [frozenset(n.split()) for n in fitted.names]
        self._extra = {w: i for i, w in enumerate(fitted.extra_words)}
        self._cache: OrderedDict[str, tuple[Prediction, bool]] = OrderedDict()
        self._lock = threading.Lock()
        # score_batch's readings of texts not in _cache (last bits may differ), oldest first.
        self._batch_cache: OrderedDict[str, tuple[Prediction, bool]] = OrderedDict()

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def fit(
        cls,
        names: Sequence[str],
        lab: ArrayLike,
        *,
        weights: ArrayLike | None = None,
        params: EmbeddingParams = DEFAULT_PARAMS,
        extra_names: Sequence[str] | None = None,
        extra_lab: ArrayLike | None = None,
        encoder: TextEncoder | None = None,
        folds: int = N_FOLDS,
        description: str = "",
        metadata: Mapping[str, Any] | None = None,
    ) -> EmbeddingModel:
        """Fit to colour names and their CIELAB colours (needs scikit-learn).

        ``weights`` weigh the names (default: all 1). ``extra_names``/``extra_lab`` are further
        named colours (for instance ``color-name-list``) used only through the mean colour of
        the names containing each word (step 3). The spread is calibrated on a ``folds``-fold
        cross-validation by :func:`fold_of`. ``description`` and ``metadata`` (JSON-able) are
        kept with the model.
        """
        encoder = static_encoder() if encoder is None else encoder
        # (Fitting imports scikit-learn and scipy only when it runs; reading needs numpy alone.)
        fitted = fit_arrays(
            names,
            lab,
            encoder,
            weights=weights,
            params=params,
            extra_names=extra_names,
            extra_lab=extra_lab,
            folds=folds,
            description=description,
            metadata=metadata,
        )
        return cls(fitted, encoder)

    @classmethod
    def default(cls) -> EmbeddingModel:
        """The shipped model: fitted to the 949 XKCD names, with the words of
        ``color-name-list`` (loaded once)."""
        return _default_model()

    @classmethod
    def load(
        cls, path: str | Path | IO[bytes], encoder: TextEncoder | None = None
    ) -> EmbeddingModel:
        """Read a model written by :meth:`save` (npz; no pickle). ``encoder`` defaults to the
        shipped static vectors and must be the one the model was fitted with."""
        with model_file(path, "an embedding model") as data:
            meta = json.loads(str(data["metadata"]))
            if meta.get("format_version") != FORMAT_VERSION:
                raise ValueError(
                    f"embedding model format {meta.get('format_version')} is not "
                    f"{FORMAT_VERSION}: refit it with this version of huescues"
                )
            fitted = FittedArrays(
                names=tuple(str(n) for n in data["names"]),
                lab=np.asarray(data["lab"], dtype=np.float64),
                weights=np.asarray(data["weights"], dtype=np.float64),
                vectors=np.asarray(data["vectors"], dtype=np.float64),
                dual=np.asarray(data["dual"], dtype=np.float64),
                # C order, as the model reads it: else __init__ keeps a second copy (7 MB).
                l_inv=np.ascontiguousarray(data["l_inv"], dtype=np.float64),
                mean=np.asarray(data["mean"], dtype=np.float64),
                prior_cov=np.asarray(data["prior_cov"], dtype=np.float64),
                var_a=np.asarray(data["var_a"], dtype=np.float64),
                var_b=np.asarray(data["var_b"], dtype=np.float64),
                extra_words=tuple(str(w) for w in data["extra_words"]),
                extra_counts=np.asarray(data["extra_counts"], dtype=np.float64),
                extra_means=np.asarray(data["extra_means"], dtype=np.float64),
                params=EmbeddingParams(**meta["params"]),
                encoder_fingerprint=str(meta["encoder_fingerprint"]),
                metadata=meta,
            )
        return cls(fitted, encoder)

    def save(self, path: str | Path | IO[bytes]) -> None:
        """Write the model as a compressed npz of arrays with JSON metadata (no pickle)."""
        f = self._fitted
        meta = dict(f.metadata)
        meta["format_version"] = FORMAT_VERSION
        meta["params"] = dataclasses.asdict(f.params)
        meta["encoder_fingerprint"] = f.encoder_fingerprint
        np.savez_compressed(
            path,
            names=np.array(f.names, dtype=np.str_),
            lab=f.lab,
            weights=f.weights,
            # Training vectors came from float16 token vectors: float32 loses nothing.
            vectors=f.vectors.astype(np.float32),
            dual=f.dual,
            l_inv=f.l_inv.astype(np.float32),
            mean=f.mean,
            prior_cov=f.prior_cov,
            var_a=f.var_a,
            var_b=f.var_b,
            extra_words=np.array(f.extra_words, dtype=np.str_),
            extra_counts=f.extra_counts.astype(np.float32),
            extra_means=f.extra_means.astype(np.float32),
            metadata=np.array(json.dumps(meta, sort_keys=True)),
        )

    # -- facts -----------------------------------------------------------------------------

    @property
    def params(self) -> EmbeddingParams:
        """The settings it was fitted with."""
        return self._fitted.params

    @property
    def metadata(self) -> dict[str, Any]:
        """What made the model: versions, data, cross-validation figures (a copy)."""
        return json.loads(json.dumps(self._fitted.metadata))  # type: ignore[no-any-return]

    @property
    def training_names(self) -> tuple[str, ...]:
        """The (normalised) names it was fitted to."""
        return self._fitted.names

    @property
    def training_lab(self) -> FloatArray:
        """Their CIELAB colours (a copy), shape ``(n, 3)``."""
        return self._fitted.lab.copy()

    @property
    def encoder(self) -> TextEncoder:
        """The encoder that turns texts into vectors."""
        return self._encoder

    # -- the protocol ----------------------------------------------------------------------

    def predict(self, text: str) -> Prediction:
        """The text's colour and spread; ``known`` is False when no token is known or the text
        is far from every training name (``v0`` at least ``known_v0``, no word shared)."""
        return self._predictions([check_text(text)])[0][0]

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """Gaussian log density of each colour under :meth:`predict`; the flat
        :data:`FLAT_LOG_DENSITY` when the text has no known token."""
        colours = as_lab(lab)
        pred, flat = self._predictions([check_text(text)])[0]
        if flat:
            return np.full(colours.shape[:-1], FLAT_LOG_DENSITY)
        return gaussian_log_density(colours, pred.lab, pred.cov)

    def score_many(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts at once (encoded together): shape
        ``(len(texts), *lab.shape[:-1])``."""
        colours = as_lab(lab)
        checked = [check_text(t) for t in texts]
        preds = self._predictions(checked)
        flat_pts = colours.reshape(-1, 3)
        out = np.empty((len(checked), len(flat_pts)))
        for row, (pred, flat) in enumerate(preds):
            if flat:
                out[row] = FLAT_LOG_DENSITY
                continue
            var = np.diag(pred.cov)
            z = (flat_pts - pred.lab) ** 2 / var
            out[row] = -0.5 * (z.sum(axis=1) + np.log(var).sum() + 3.0 * math.log(2.0 * math.pi))
        return out.reshape((len(checked), *colours.shape[:-1]))

    def predict_many(self, texts: Sequence[str]) -> list[Prediction]:
        """:meth:`predict` for many texts at once (encoded together)."""
        return [p for p, _ in self._predictions([check_text(t) for t in texts])]

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score_many` with the regression of texts not yet read done for all of them
        in matrix products (several times faster for a few dozen new texts). Sums run in
        another order, so the numbers may differ from :meth:`score`'s in the last bits: for
        screening many texts, not where :meth:`score`'s exact values are needed. What it
        computes is kept apart from :meth:`predict`'s readings, which it leaves unchanged."""
        colours = as_lab(lab)
        flat_pts = colours.reshape(-1, 3)
        out = np.full((len(texts), len(flat_pts)), FLAT_LOG_DENSITY)
        preds = self.predict_batch(texts)
        rows = [i for i, (_, flat) in enumerate(preds) if not flat]
        if rows:
            mean = np.stack([preds[i][0].lab for i in rows])
            var = np.stack([np.diag(preds[i][0].cov) for i in rows])
            z = ((flat_pts[None, :, :] - mean[:, None, :]) ** 2 / var[:, None, :]).sum(axis=2)
            norm = np.log(var).sum(axis=1) + 3.0 * math.log(2.0 * math.pi)
            out[rows] = -0.5 * (z + norm[:, None])
        return out.reshape((len(texts), *colours.shape[:-1]))

    def predict_batch(self, texts: Sequence[str]) -> list[tuple[Prediction, bool]]:
        """(prediction, flat) for each text as :meth:`score_batch` reads it: the cached
        reading when there is one, else one computed with the others in matrix products."""
        checked = [check_text(t) for t in texts]
        with self._lock:
            found = {t: self._cache[t] for t in checked if t in self._cache}
            found.update((t, self._batch_cache[t]) for t in checked if t in self._batch_cache)
        missing = list(dict.fromkeys(t for t in checked if t not in found))
        if missing:
            new = dict(zip(missing, self._compute(missing, batched=True), strict=True))
            with self._lock:
                self._batch_cache.update(new)
                while len(self._batch_cache) > _CACHE_SIZE:
                    self._batch_cache.popitem(last=False)
            found.update(new)
        return [found[t] for t in checked]

    # -- internals -------------------------------------------------------------------------

    def _predictions(self, texts: list[str]) -> list[tuple[Prediction, bool]]:
        """Cached (prediction, flat) per text; the missing ones computed in one batch."""
        with self._lock:
            found = {t: self._cache[t] for t in texts if t in self._cache}
            for t in found:
                self._cache.move_to_end(t)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            new = dict(zip(missing, self._compute(missing), strict=True))
            with self._lock:
                for t, v in new.items():
                    self._cache[t] = v
                while len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
            found.update(new)
        return [found[t] for t in texts]

    def _compute(self, texts: list[str], *, batched: bool = False) -> list[tuple[Prediction, bool]]:
        f = self._fitted
        p = f.params
        vectors, has_token = self._encoder.encode(texts)
        xq = np.asarray(vectors, dtype=np.float64)
        krr = np.empty((len(texts), 3))
        v0 = np.empty(len(texts))
        if batched:
            krr, v0 = self._regress_many(xq)
        else:
            for i in range(len(texts)):
                krr[i], v0[i] = self._regress(xq[i])
        share = np.full((len(texts), 3), np.nan)
        extra_mean = np.full((len(texts), 3), np.nan)
        extra_count = np.zeros(len(texts))
        for i, text in enumerate(texts):
            words = normalise_name(text).split()
            s = jaccard_share(words, self._word_index, self._name_words, f.lab, f.weights)
            if s is not None:
                share[i] = s
            m, n = extra_lookup(words, self._extra, f.extra_counts, f.extra_means)
            if m is not None:
                extra_mean[i], extra_count[i] = m, n
        held = HeldOut(krr, v0, share, extra_mean, extra_count)
        pred, branch = combine(held, p)
        var = f.var_a[branch] + f.var_b[branch] * v0[:, None]
        # Never wider than the spread of all training colours (the mean-colour model's answer,
        # and the Gaussian-process prior), never narrower than the floor.
        var = np.maximum(np.minimum(var, np.diag(f.prior_cov)), VARIANCE_FLOOR)
        out: list[tuple[Prediction, bool]] = []
        for i in range(len(texts)):
            if not has_token[i]:
                prediction = Prediction(
                    _frozen(f.mean), _frozen(f.prior_cov), known=False, source="embedding"
                )
                out.append((prediction, True))
                continue
            known = bool(branch[i] != 2 or v0[i] < p.known_v0)
            cov = _frozen(np.diag(var[i]))
            out.append((Prediction(_frozen(pred[i]), cov, known=known, source="embedding"), False))
        return out

    def _kernel(self, x: FloatArray) -> FloatArray:
        """``k(x, x_i)`` for every training vector (one text at a time, so that a text's answer
        never depends on which texts it was computed with)."""
        d2 = self._x_sq + float(x @ x) - 2.0 * (self._x @ x)
        out: FloatArray = np.exp(-self._fitted.params.gamma * np.maximum(d2, 0.0))
        return out

    def _regress(self, x: FloatArray) -> tuple[FloatArray, float]:
        """The regression's colour for vector ``x`` and its ``v0``."""
        k = self._kernel(x)
        z = self._l_inv @ k
        v0 = min(max(1.0 - float(z @ z), 0.0), 1.0)
        colour: FloatArray = self._fitted.mean + k @ self._fitted.dual
        return colour, v0

    def _regress_many(self, xq: FloatArray) -> tuple[FloatArray, FloatArray]:
        """:meth:`_regress` for every row of ``xq`` in matrix products (the same formulas,
        the sums in another order)."""
        d2 = self._x_sq[:, None] + np.einsum("ij,ij->i", xq, xq)[None, :] - 2.0 * (self._x @ xq.T)
        k = np.exp(-self._fitted.params.gamma * np.maximum(d2, 0.0))
        # L^-1 is lower triangular: each band of its rows times only the columns up to the
        # band's end (the zeros above the diagonal skipped; twice as fast for a few texts).
        if self._lower is None:
            # A fit's factor always is; a model built from other arrays is checked once.
            self._lower = not np.triu(self._l_inv, 1).any()
        if self._lower:
            n = len(k)
            z = np.empty_like(k)
            edges = [n * b // _BANDS for b in range(_BANDS + 1)]
            for r0, r1 in itertools.pairwise(edges):
                np.matmul(self._l_inv[r0:r1, :r1], k[:r1], out=z[r0:r1])
        else:
            z = self._l_inv @ k
        v0: FloatArray = np.clip(1.0 - np.einsum("ij,ij->j", z, z), 0.0, 1.0)
        colour: FloatArray = self._fitted.mean + k.T @ self._fitted.dual
        return colour, v0

    def explain(self, text: str) -> dict[str, Any]:
        """How a text was read: its tokens, ``v0``, the branch, and the regression's own colour
        (for reports and debugging)."""
        text = check_text(text)
        f = self._fitted
        vectors, has_token = self._encoder.encode([text])
        xq = np.asarray(vectors[0], dtype=np.float64)
        regression, v0 = self._regress(xq)
        kx = self._kernel(xq)
        words = normalise_name(text).split()
        share = jaccard_share(words, self._word_index, self._name_words, f.lab, f.weights)
        extra, n_extra = extra_lookup(words, self._extra, f.extra_counts, f.extra_means)
        nearest = np.argsort(-kx)[:5]
        info: dict[str, Any] = {
            "has_known_token": bool(has_token[0]),
            "v0": v0,
            "regression_lab": regression.tolist(),
            "shared_names_lab": None if share is None else share.tolist(),
            "extra_words_lab": None if extra is None else extra.tolist(),
            "extra_names": n_extra,
            "nearest_names": [f.names[i] for i in nearest],
        }
        if isinstance(self._encoder, WordPieceEncoder):
            info["tokens"] = self._encoder.tokenize(text)
        return info


@functools.cache
def _default_model() -> EmbeddingModel:
    with _open_data(REGRESSOR_FILE) as fh:
        model = EmbeddingModel.load(fh)
    register_shipped(model, "embedding")
    return model


def _frozen(a: FloatArray) -> FloatArray:
    out = np.array(a, dtype=np.float64, copy=True)
    out.flags.writeable = False
    return out
