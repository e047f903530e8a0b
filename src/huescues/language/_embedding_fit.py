"""Fitting the embedding model (needs scikit-learn and scipy): kernel ridge regression from word
vectors to CIELAB, its spread calibrated on a cross-validation, the word colours of the extra
names (``_embedding`` reads the result with numpy alone; ``docs/embedding.md`` has the method)."""

from __future__ import annotations

import dataclasses
import datetime
import importlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

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
from ._protocol import FloatArray, as_lab, check_text
from ._splits import N_FOLDS, fold_of, normalise_name

__all__ = ["fit_arrays", "held_out", "prepare"]

IntArray = NDArray[np.int64]

#: A branch calibrates its own spread only with at least this many held-out names; otherwise it
#: uses the spread fitted to all held-out names together.
MIN_CALIBRATION_NAMES = 20
#: Ratios b / a tried when fitting the spread ``a + b * v0`` (maximum likelihood over the grid;
#: ``a`` then has a closed form).
_RATIO_GRID = np.concatenate([[0.0], np.logspace(-3, 3, 241)])
_FIT_EXTRA = (
    "fitting an embedding model needs scikit-learn (a dependency of huescues): "
    "pip install scikit-learn; predicting with a fitted model needs only numpy"
)


def fit_arrays(
    names: Sequence[str],
    lab: ArrayLike,
    encoder: TextEncoder,
    *,
    weights: ArrayLike | None = None,
    params: EmbeddingParams = DEFAULT_PARAMS,
    extra_names: Sequence[str] | None = None,
    extra_lab: ArrayLike | None = None,
    folds: int = N_FOLDS,
    description: str = "",
    metadata: Mapping[str, Any] | None = None,
) -> FittedArrays:
    """The arrays of a model fitted to colour names and their CIELAB colours with ``encoder``
    (what :meth:`EmbeddingModel.fit <huescues.language.EmbeddingModel.fit>` does; its
    arguments)."""
    data = prepare(names, lab, weights, extra_names, extra_lab, encoder, folds)
    held = held_out(data, params, folds)
    pred, branch = combine(held, params)
    residual = data.lab - pred
    var_a, var_b, counts = _calibrate(residual, held.v0, branch, data.weights)
    dual, mean = _fit_krr(data.vectors, data.lab, data.weights, params)
    linalg = _scipy_linalg()
    chol = linalg.cholesky(_gram(data.vectors, data.weights, params), lower=True)
    l_inv = linalg.solve_triangular(chol, np.eye(len(chol)), lower=True)
    errors = _delta_e(pred, data.lab)
    total_words, total_counts, total_sums = _word_stats_total(data.extra_stats)
    extra_means = total_sums / np.maximum(total_counts, 1.0)[:, None]
    info: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "description": description,
        "fitted": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "n_names": len(data.names),
        "n_extra_names": len(data.extra_names),
        "n_extra_words": len(total_words),
        "cross_validation": {
            "folds": folds,
            "median_delta_e_2000": float(np.median(errors)),
            "mean_delta_e_2000": float(np.mean(errors)),
            "names_per_branch": {b: int(c) for b, c in zip(BRANCHES, counts, strict=True)},
            "median_v0": float(np.median(held.v0)),
        },
        "versions": _versions(),
    }
    info.update(dict(metadata or {}))
    return FittedArrays(
        names=data.names,
        lab=data.lab,
        weights=data.weights,
        vectors=data.vectors,
        dual=dual,
        l_inv=_f32(l_inv),
        mean=mean,
        prior_cov=_weighted_cov(data.lab, data.weights),
        var_a=var_a,
        var_b=var_b,
        extra_words=total_words,
        extra_counts=_f32(total_counts),
        extra_means=_f32(extra_means),
        params=params,
        encoder_fingerprint=encoder.fingerprint,
        metadata=info,
    )


@dataclasses.dataclass(frozen=True, slots=True)
class _Data:
    names: tuple[str, ...]
    lab: FloatArray
    weights: FloatArray
    vectors: FloatArray
    extra_names: tuple[str, ...]
    #: Per fold: word -> (count, sum of CIELAB) over the extra names of that fold.
    extra_stats: tuple[dict[str, tuple[float, FloatArray]], ...]
    encoder: TextEncoder


def prepare(
    names: Sequence[str],
    lab: ArrayLike,
    weights: ArrayLike | None,
    extra_names: Sequence[str] | None,
    extra_lab: ArrayLike | None,
    encoder: TextEncoder,
    folds: int = N_FOLDS,
) -> _Data:
    norm = tuple(normalise_name(check_text(n)) for n in names)
    colours = as_lab(lab).reshape(-1, 3)
    if len(norm) != len(colours):
        raise ValueError(f"{len(norm)} names for {len(colours)} colours")
    if len(norm) < 2 * folds:
        raise ValueError(f"fitting needs at least {2 * folds} names, not {len(norm)}")
    w = np.ones(len(norm)) if weights is None else np.asarray(weights, dtype=np.float64)
    if w.shape != (len(norm),) or not np.all(np.isfinite(w)) or np.any(w <= 0):
        raise ValueError("weights must be one positive, finite number per name")
    vectors, known = encoder.encode(norm)
    if not np.all(known):
        unknown = [n for n, k in zip(norm, known, strict=True) if not k]
        raise ValueError(f"names with no known token cannot be fitted: {unknown[:5]}")
    extra: tuple[str, ...] = ()
    stats: list[dict[str, tuple[float, FloatArray]]] = [{} for _ in range(folds)]
    if extra_names is not None or extra_lab is not None:
        if extra_names is None or extra_lab is None:
            raise ValueError("extra_names and extra_lab go together")
        extra = tuple(normalise_name(n) for n in extra_names)
        extra_colours = as_lab(extra_lab).reshape(-1, 3)
        if len(extra) != len(extra_colours):
            raise ValueError(f"{len(extra)} extra names for {len(extra_colours)} colours")
        acc: list[defaultdict[str, list[Any]]] = [
            defaultdict(lambda: [0.0, np.zeros(3)]) for _ in range(folds)
        ]
        for name, colour in zip(extra, extra_colours, strict=True):
            bucket = acc[fold_of(name, folds)]
            for word in set(name.split()):
                entry = bucket[word]
                entry[0] += 1.0
                entry[1] = entry[1] + colour
        stats = [{w: (float(c), s) for w, (c, s) in b.items()} for b in acc]
    return _Data(
        norm,
        colours.copy(),
        w,
        np.asarray(vectors, dtype=np.float64),
        extra,
        tuple(stats),
        encoder,
    )


def held_out(
    data: _Data,
    params: EmbeddingParams,
    folds: int,
    queries: Sequence[str] | None = None,
) -> HeldOut:
    """Each name's components from a model fitted without its fold (by :func:`fold_of`); with
    ``queries``, those texts' components instead, each from the model fitted without its fold."""
    texts = data.names if queries is None else tuple(normalise_name(q) for q in queries)
    n = len(texts)
    fold = np.array([fold_of(name, folds) for name in data.names])
    query_fold = fold if queries is None else np.array([fold_of(t, folds) for t in texts])
    query_vectors = data.vectors
    if queries is not None:
        encoded, _ = data.encoder.encode(texts)
        query_vectors = np.asarray(encoded, dtype=np.float64)
    krr = np.zeros((n, 3))
    v0 = np.zeros(n)
    share = np.full((n, 3), np.nan)
    extra_mean = np.full((n, 3), np.nan)
    extra_count = np.zeros(n)
    names_words = [frozenset(name.split()) for name in data.names]
    linalg = _scipy_linalg()
    for k in range(folds):
        train = np.flatnonzero(fold != k)
        test = np.flatnonzero(query_fold == k)
        if len(test) == 0:
            continue
        x, y, w = data.vectors[train], data.lab[train], data.weights[train]
        # The system KernelRidge solves, solved here by Cholesky, whose factor gives v0 too.
        chol = linalg.cholesky(_gram(x, w, params), lower=True)
        mean = np.average(y, axis=0, weights=w)
        dual = linalg.cho_solve((chol, True), y - mean)
        xt = query_vectors[test]
        kx = _rbf(xt, x, params.gamma, np.einsum("ij,ij->i", xt, xt), np.einsum("ij,ij->i", x, x))
        krr[test] = mean + kx @ dual
        z = linalg.solve_triangular(chol, kx.T, lower=True)
        v0[test] = np.clip(1.0 - np.sum(z**2, axis=0), 0, 1)
        train_names = [data.names[i] for i in train]
        index = word_index(train_names)
        train_words = [names_words[i] for i in train]
        words_k, counts_k, sums_k = _word_stats_total(
            tuple(s for j, s in enumerate(data.extra_stats) if j != k)
        )
        extra_k = {word: i for i, word in enumerate(words_k)}
        means_k = sums_k / np.maximum(counts_k, 1.0)[:, None]
        for i in test:
            words = texts[i].split()
            s = jaccard_share(words, index, train_words, y, w)
            if s is not None:
                share[i] = s
            m, c = extra_lookup(words, extra_k, counts_k, means_k)
            if m is not None:
                extra_mean[i], extra_count[i] = m, c
    return HeldOut(krr, v0, share, extra_mean, extra_count)


def _gram(x: FloatArray, w: FloatArray, params: EmbeddingParams) -> FloatArray:
    """``K + alpha W^-1``: the matrix kernel ridge regression with sample weights inverts."""
    x_sq = np.einsum("ij,ij->i", x, x)
    gram = _rbf(x, x, params.gamma, x_sq, x_sq)
    gram[np.diag_indices_from(gram)] += params.alpha / w
    return gram


def _scipy_linalg() -> ModuleType:
    """scipy.linalg (installed with scikit-learn), for fitting only."""
    try:
        return importlib.import_module("scipy.linalg")
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_FIT_EXTRA) from exc


def _fit_krr(
    x: FloatArray, y: FloatArray, w: FloatArray, params: EmbeddingParams
) -> tuple[FloatArray, FloatArray]:
    """Dual coefficients of scikit-learn's kernel ridge regression on centred targets, and the
    (weighted) target mean: centring keeps far texts near the mean colour, not near black."""
    try:
        kernel_ridge = importlib.import_module("sklearn.kernel_ridge")
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_FIT_EXTRA) from exc
    mean = np.average(y, axis=0, weights=w)
    model = kernel_ridge.KernelRidge(kernel="rbf", gamma=params.gamma, alpha=params.alpha)
    model.fit(x, y - mean, sample_weight=w)
    dual = np.asarray(model.dual_coef_, dtype=np.float64).reshape(len(x), 3)
    return dual, mean


def _calibrate(
    residual: FloatArray, v0: FloatArray, branch: IntArray, weights: FloatArray
) -> tuple[FloatArray, FloatArray, IntArray]:
    """Per branch and CIELAB axis, ``a`` and ``b`` of the variance ``a + b * v0`` that make the
    held-out residuals most likely (Gaussian); branches with few names share the pooled fit."""
    pooled = [_fit_variance(residual[:, c], v0, weights) for c in range(3)]
    var_a = np.zeros((len(BRANCHES), 3))
    var_b = np.zeros((len(BRANCHES), 3))
    counts = np.array([int(np.sum(branch == b)) for b in range(len(BRANCHES))], dtype=np.int64)
    for b in range(len(BRANCHES)):
        rows = branch == b
        for c in range(3):
            if counts[b] >= MIN_CALIBRATION_NAMES:
                var_a[b, c], var_b[b, c] = _fit_variance(residual[rows, c], v0[rows], weights[rows])
            else:
                var_a[b, c], var_b[b, c] = pooled[c]
    return var_a, var_b, counts


def _fit_variance(r: FloatArray, v0: FloatArray, w: FloatArray) -> tuple[float, float]:
    """Maximum-likelihood ``(a, b)`` of ``r ~ N(0, a + b v0)``: for each ratio ``b / a`` on a
    grid, ``a`` has a closed form; the best pair wins."""
    r2 = r**2
    s = 1.0 + _RATIO_GRID[:, None] * v0[None, :]
    a = (w * r2 / s).sum(axis=1) / w.sum()
    a = np.maximum(a, 1e-9)
    loglik = -(w * (np.log(a[:, None] * s) + r2 / (a[:, None] * s))).sum(axis=1)
    best = int(np.argmax(loglik))
    return float(a[best]), float(a[best] * _RATIO_GRID[best])


def _word_stats_total(
    stats: Sequence[dict[str, tuple[float, FloatArray]]],
) -> tuple[tuple[str, ...], FloatArray, FloatArray]:
    counts: dict[str, float] = defaultdict(float)
    sums: dict[str, FloatArray] = {}
    for part in stats:
        for word, (c, s) in part.items():
            counts[word] += c
            sums[word] = sums[word] + s if word in sums else s.copy()
    words = tuple(sorted(counts))
    return (
        words,
        np.array([counts[w] for w in words], dtype=np.float64),
        np.array([sums[w] for w in words], dtype=np.float64).reshape(-1, 3),
    )


def _rbf(
    a: FloatArray, b: FloatArray, gamma: float, a_sq: FloatArray, b_sq: FloatArray
) -> FloatArray:
    """``exp(-gamma |a_i - b_j|^2)`` for all pairs (as scikit-learn computes it)."""
    d2 = a_sq[:, None] + b_sq[None, :] - 2.0 * (a @ b.T)
    out: FloatArray = np.exp(-gamma * np.maximum(d2, 0.0))
    return out


def _weighted_cov(lab: FloatArray, w: FloatArray) -> FloatArray:
    out: FloatArray = np.cov(lab.T, aweights=w) + 1e-6 * np.eye(3)
    return out


def _delta_e(a: FloatArray, b: FloatArray) -> FloatArray:
    from huescues.colour import delta_e_2000

    return delta_e_2000(a, b)


def _f32(a: FloatArray) -> FloatArray:
    """``a`` rounded to float32 precision, as it is saved (so a fitted model and the same model
    loaded back predict the same to the last bit)."""
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def _versions() -> dict[str, str]:
    import platform
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("huescues", "numpy", "scikit-learn"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out
