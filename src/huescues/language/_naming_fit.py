"""Fitting the naming-data model: the arrays of :class:`~huescues.language.NamingModel` built
from the XKCD names, ``color-name-list`` and c3 (``_naming`` reads them). How the sources are
weighed, how words and modifiers are learned: ``docs/naming.md``."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ._naming_arrays import (
    SOURCES,
    FittedArrays,
    ModifierForm,
    f32,
    int_array,
    name_key,
    symmetric,
    weighted_gaussian,
)
from ._protocol import FloatArray

__all__ = ["fit_arrays"]

IntArray = NDArray[np.int64]
ComplexArray = NDArray[np.complex128]

#: Pseudo-names of the prior covariance when a word's covariance is estimated from few names.
WORD_PRIOR_NAMES = 3.0
#: Words in at least this many names (effectively) make the prior word covariance.
PRIOR_MIN_NAMES = 2.0
#: Words with at least this many names in both groups measure how far the groups disagree.
BIAS_MIN_NAMES = 1.0
#: Pseudo-pairs pulling a modifier's scales towards 1 (ridge), and its residual covariance
#: towards the spread of one name.
MODIFIER_PRIOR_PAIRS = 2.0
#: A modifier needs at least this many (modifier + name, name) pairs in the data.
MIN_MODIFIER_PAIRS = 5
#: Two colours within this CIEDE2000 of each other for the same name are one copied colour,
#: not two opinions (``color-name-list`` copied most of the XKCD names).
COPY_DELTA_E = 0.5
#: The least variance (ΔE00 squared) a source or a word-group gap may be given.
MIN_VARIANCE = 1.0
#: Number of sums kept per word by :func:`_sums`.
_SUMS = 14


def fit_arrays(
    *,
    exclude: Collection[str] = (),
    sources: Collection[str] = SOURCES,
    modifier_form: ModifierForm = "lch",
    colornames_weight: float | None = None,
) -> FittedArrays:
    """The arrays of a model fitted to the naming data shipped in the package (what
    :meth:`NamingModel.fit <huescues.language.NamingModel.fit>` does; its arguments)."""
    # One name is one source (a string's letters are no sources); so is one name to exclude.
    chosen = {sources} if isinstance(sources, str) else set(sources)
    if isinstance(exclude, str):
        exclude = (exclude,)
    unknown = chosen - set(SOURCES)
    if unknown:
        raise ValueError(f"unknown naming sources {sorted(unknown)}; choose from {SOURCES}")
    if not chosen:
        raise ValueError("fitting needs at least one naming source")
    if modifier_form not in ("lch", "lab", "full", "none"):
        raise ValueError(f"unknown modifier form {modifier_form!r}")
    if colornames_weight is not None and not colornames_weight > 0:
        raise ValueError(f"colornames_weight must be positive, not {colornames_weight}")
    return _fit(
        frozenset(name_key(n) for n in exclude),
        tuple(s for s in SOURCES if s in chosen),
        modifier_form,
        colornames_weight,
    )


@dataclass(frozen=True, slots=True)
class _Names:
    """Every name's colour, pooled over its sources."""

    keys: list[str]
    lab: FloatArray
    #: Variance of the pooled colour (ΔE00 squared).
    var: FloatArray
    #: Bit i set: the name is in SOURCES[i].
    bits: IntArray


def _fit(
    exclude: frozenset[str],
    sources: tuple[str, ...],
    modifier_form: ModifierForm,
    colornames_weight: float | None,
) -> FittedArrays:
    from ._data import c3, colornames, xkcd_names  # the loaders import colour-science

    # Each source as {name key: colour}, the held-out names dropped.
    per_source: dict[str, dict[str, FloatArray]] = {}
    for label, data in (("xkcd", xkcd_names()), ("colornames", colornames())):
        per_source[label] = _by_key(_source_keys(label, data.names), data.lab, exclude)
    c3_data = c3()
    c3_keep = [i for i, t in enumerate(c3_data.terms) if name_key(t) not in exclude]
    c3_keys = [name_key(c3_data.terms[i]) for i in c3_keep]
    c3_counts = c3_data.counts[:, c3_keep]
    per_source["c3"] = {
        k: weighted_gaussian(c3_data.bin_lab, c3_counts[:, j])[0] for j, k in enumerate(c3_keys)
    }

    # How well the sources agree is measured on all three, whichever are used.
    variance = _source_variance(per_source)
    if colornames_weight is not None:
        variance[SOURCES.index("colornames")] = variance[0] / colornames_weight
    names = _pool_names({s: per_source[s] for s in sources}, variance)
    spread = _name_spread(c3_data.bin_lab, c3_counts, c3_keys)
    stats = _word_stats(names, spread)
    word_mean, word_cov, word_n = stats.gaussians(stats.sums)
    modifiers = {} if modifier_form == "none" else _fit_modifiers(names, stats, modifier_form)

    use_c3 = "c3" in sources
    mod_keys = tuple(sorted(modifiers))
    return FittedArrays(
        sources=sources,
        source_variance=f32(variance),
        spread=f32(spread),
        flat_mean=f32(names.lab.mean(axis=0)),
        # The spread of a uniform belief over the gamut (c3's bins cover it).
        flat_cov=f32(np.cov(c3_data.bin_lab.T)),
        name_keys=tuple(names.keys),
        name_lab=f32(names.lab),
        name_var=f32(names.var),
        name_sources=int_array(names.bits),
        word_keys=tuple(stats.keys),
        word_mean=f32(word_mean),
        word_cov=f32(word_cov),
        word_names=f32(word_n),
        c3_keys=tuple(c3_keys) if use_c3 else (),
        c3_bin_lab=f32(c3_data.bin_lab),
        c3_counts=f32(c3_counts if use_c3 else np.zeros((len(c3_data.bin_lab), 0))),
        modifier_keys=mod_keys,
        modifier_params=f32(np.array([modifiers[k][0] for k in mod_keys]).reshape(-1, 6)),
        modifier_shift=f32(np.array([modifiers[k][1] for k in mod_keys]).reshape(-1, 3)),
        modifier_cov=f32(np.array([modifiers[k][2] for k in mod_keys]).reshape(-1, 3, 3)),
        modifier_pairs=int_array([modifiers[k][3] for k in mod_keys]),
    )


#: Each source's names as keys (:func:`_source_keys`).
_SOURCE_KEYS: dict[str, list[str]] = {}


def _source_keys(label: str, names: Iterable[str]) -> list[str]:
    """The keys of a shipped source's names, worked out once a process: a fit a fold (the
    evaluations refit five times or more) spent a third of its time on them."""
    if label not in _SOURCE_KEYS:
        _SOURCE_KEYS[label] = [name_key(n) for n in names]
    return _SOURCE_KEYS[label]


def _by_key(keys: Iterable[str], lab: FloatArray, exclude: frozenset[str]) -> dict[str, FloatArray]:
    """{name key: mean colour of the names with that key}, without the excluded keys."""
    groups: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        if k and k not in exclude:
            groups.setdefault(k, []).append(i)
    return {k: lab[rows].mean(axis=0) for k, rows in groups.items()}


def _source_variance(per_source: Mapping[str, Mapping[str, FloatArray]]) -> FloatArray:
    """Each source's error variance (ΔE00 squared) by the three-cornered hat: on the names all
    three give (leaving out ``color-name-list``'s copies of XKCD colours, which are not a second
    opinion), the squared median CIEDE2000 between two sources is the sum of their variances."""
    from huescues.colour import delta_e_2000

    x, c, t = (per_source[s] for s in SOURCES)
    shared = sorted(k for k in x if k in c and k in t)
    xs = np.array([x[k] for k in shared]).reshape(-1, 3)
    cs = np.array([c[k] for k in shared]).reshape(-1, 3)
    ts = np.array([t[k] for k in shared]).reshape(-1, 3)
    own = delta_e_2000(xs, cs) > COPY_DELTA_E
    if own.sum() < 10:  # too few names to measure: weigh the sources alike
        return np.ones(3)
    d_xc = float(np.median(delta_e_2000(xs[own], cs[own]))) ** 2
    d_xt = float(np.median(delta_e_2000(xs[own], ts[own]))) ** 2
    d_ct = float(np.median(delta_e_2000(cs[own], ts[own]))) ** 2
    var = np.array(
        [(d_xc + d_xt - d_ct) / 2.0, (d_xc + d_ct - d_xt) / 2.0, (d_xt + d_ct - d_xc) / 2.0]
    )
    out: FloatArray = np.maximum(var, MIN_VARIANCE)
    return out


def _pool_names(per_source: Mapping[str, Mapping[str, FloatArray]], variance: FloatArray) -> _Names:
    """Every name's colour: its sources' colours weighed by inverse variance."""
    keys = sorted({k for d in per_source.values() for k in d})
    index = {k: i for i, k in enumerate(keys)}
    total = np.zeros((len(keys), 3))
    precision = np.zeros(len(keys))
    bits = np.zeros(len(keys), dtype=np.int64)
    for s, d in per_source.items():
        if not d:
            continue
        b = SOURCES.index(s)
        rows = np.array([index[k] for k in d], dtype=np.int64)
        total[rows] += np.array(list(d.values())) / variance[b]
        precision[rows] += 1.0 / variance[b]
        bits[rows] |= 1 << b
    return _Names(keys, total / precision[:, None], 1.0 / precision, bits)


def _name_spread(bin_lab: FloatArray, counts: FloatArray, keys: list[str]) -> FloatArray:
    """How widely people spread one specific name: the mean covariance of c3's terms of two
    words or more (``ocean blue``, ``dark green``) around their own means."""
    covs = [weighted_gaussian(bin_lab, counts[:, j])[1] for j, k in enumerate(keys) if " " in k]
    if not covs:
        return 150.0 * np.eye(3)
    return symmetric(np.mean(covs, axis=0))


@dataclass(frozen=True, slots=True)
class _WordStats:
    """Sums over the names containing each word, kept apart for the survey's names (XKCD, c3)
    and for the names only ``color-name-list`` gives: so that a word can be re-estimated with a
    name left out, and the two groups weighed by how well they agree."""

    keys: list[str]
    #: Each name's word indices.
    incidence: list[list[int]]
    #: Each name's group: 0 the survey (XKCD or c3), 1 ``color-name-list`` only.
    group: IntArray
    #: Per group and word: the sums of :func:`_sums`, shape ``(2, words, _SUMS)``.
    sums: FloatArray
    #: Per name: its own contribution to the sums.
    single: FloatArray
    #: Per group: the covariance of a typical word's names (the shrinkage target).
    prior: FloatArray
    #: Covariance of the gap between the two groups' means for a word, beyond sampling error.
    gap: FloatArray
    spread: FloatArray

    def gaussians(self, sums: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Mean, covariance and effective number of names of words from per-group sums
        (shape ``(2, k, _SUMS)``). Each group's mean is weighed by its precision as an estimate
        of the word's colour (sampling error, plus the gap for ``color-name-list``); the
        covariance is the names' (shrunk towards the prior), plus the spread of one name."""
        means, precisions, covs, counts = [], [], [], []
        for g in range(2):
            mean, cov, n = _gaussians(sums[g])
            n = np.where(sums[g][:, 0] > 0, n, 0.0)
            shrunk = _shrink(cov, n, self.prior[g])
            var = shrunk / np.maximum(n, 1e-9)[:, None, None] + (self.gap if g else 0.0)
            means.append(mean)
            precisions.append(np.linalg.inv(var) * (n > 0)[:, None, None])
            covs.append(shrunk)
            counts.append(n)
        total = precisions[0] + precisions[1]
        weighted = np.einsum("kij,kj->ki", precisions[0], means[0]) + np.einsum(
            "kij,kj->ki", precisions[1], means[1]
        )
        mean = np.linalg.solve(total, weighted[..., None])[..., 0]
        share = np.trace(precisions[0], axis1=1, axis2=2) / np.trace(total, axis1=1, axis2=2)
        cov = share[:, None, None] * covs[0] + (1.0 - share)[:, None, None] * covs[1]
        return mean, symmetric(cov) + self.spread, counts[0] + counts[1]


def _shrink(cov: FloatArray, n: FloatArray, prior: FloatArray) -> FloatArray:
    """Covariances estimated from ``n`` names, shrunk towards ``prior`` (WORD_PRIOR_NAMES)."""
    out: FloatArray = (n[:, None, None] * cov + WORD_PRIOR_NAMES * prior) / (
        n[:, None, None] + WORD_PRIOR_NAMES
    )
    return out


def _word_stats(names: _Names, spread: FloatArray) -> _WordStats:
    """Every word of every name, with the sums of its names' colours per group, the groups'
    prior covariances and the gap between the groups."""
    vocab: dict[str, int] = {}
    incidence: list[list[int]] = []
    for key in names.keys:
        incidence.append([vocab.setdefault(w, len(vocab)) for w in dict.fromkeys(key.split(" "))])
    rows = np.array([i for i, ids in enumerate(incidence) for _ in ids], dtype=np.int64)
    cols = np.array([w for ids in incidence for w in ids], dtype=np.int64)
    m = len(vocab)
    weight = 1.0 / names.var
    survey_bits = 1 << SOURCES.index("xkcd") | 1 << SOURCES.index("c3")
    group = np.where(names.bits & survey_bits, 0, 1).astype(np.int64)
    sums = np.stack(
        [_sums(names.lab[rows], weight[rows] * (group[rows] == g), cols, m) for g in range(2)]
    )
    single = _sums(names.lab, weight, np.arange(len(names.keys)), len(names.keys))
    prior = np.zeros((2, 3, 3))
    per_group = []
    for g in range(2):
        mean, cov, n = _gaussians(sums[g])
        several = n >= PRIOR_MIN_NAMES
        prior[g] = np.mean(cov[several], axis=0) if several.any() else 400.0 * np.eye(3)
        per_group.append((mean, _shrink(cov, n, prior[g]), n))
    # The gap: how far the groups' means for one word differ beyond what sampling explains.
    (m0, c0, n0), (m1, c1, n1) = per_group
    both = (n0 >= BIAS_MIN_NAMES) & (n1 >= BIAS_MIN_NAMES)
    if both.sum() >= 10:
        d = m0[both] - m1[both]
        excess = (
            d[:, :, None] * d[:, None, :]
            - c0[both] / n0[both, None, None]
            - c1[both] / n1[both, None, None]
        )
        vals, vecs = np.linalg.eigh(symmetric(np.mean(excess, axis=0)))
        gap = (vecs * np.maximum(vals, MIN_VARIANCE)) @ vecs.T
    else:
        gap = 100.0 * np.eye(3)
    words = sorted(vocab, key=vocab.__getitem__)
    return _WordStats(words, incidence, group, sums, single, prior, symmetric(gap), spread)


def _sums(lab: FloatArray, w: FloatArray, col: IntArray, m: int) -> FloatArray:
    """Per word (``col``): sum w, sum w^2, sum w x (3), sum w x x^T (9)."""
    out = np.zeros((m, _SUMS))
    out[:, 0] = np.bincount(col, w, m)
    out[:, 1] = np.bincount(col, w * w, m)
    for a in range(3):
        out[:, 2 + a] = np.bincount(col, w * lab[:, a], m)
        for b in range(3):
            out[:, 5 + 3 * a + b] = np.bincount(col, w * lab[:, a] * lab[:, b], m)
    return out


def _gaussians(sums: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Weighted means, covariances (unbiased for weights; zero from one name) and effective
    numbers of names, from sums."""
    sw = np.maximum(sums[:, 0], 1e-300)
    mean = sums[:, 2:5] / sw[:, None]
    second = sums[:, 5:14].reshape(-1, 3, 3) / sw[:, None, None]
    biased = second - mean[:, :, None] * mean[:, None, :]
    n_eff = sums[:, 0] ** 2 / np.maximum(sums[:, 1], 1e-300)
    scale = np.where(n_eff > 1.0, n_eff / np.maximum(n_eff - 1.0, 1e-9), 0.0)
    return mean, symmetric(biased * scale[:, None, None]), n_eff


def _fit_modifiers(
    names: _Names, stats: _WordStats, form: ModifierForm
) -> dict[str, tuple[FloatArray, FloatArray, FloatArray, int]]:
    """Modifiers from the data. A word is one when it begins at least MIN_MODIFIER_PAIRS names
    ``word X`` whose rest ``X`` is itself a name, and its map, fitted to those pairs (weighed by
    the names' precision), predicts the modified names' colours, each left out of the fit in
    turn, better than the intersection of the words' distributions does (each name left out of
    its words too). Returns per word: map parameters, mean shift, residual covariance, pairs."""
    from huescues.colour import delta_e_2000

    index = {k: i for i, k in enumerate(names.keys)}
    pairs: dict[str, list[tuple[int, int]]] = {}
    for i, key in enumerate(names.keys):
        first, _, rest = key.partition(" ")
        j = index.get(rest, -1) if rest else -1
        if j >= 0:
            pairs.setdefault(first, []).append((i, j))

    fitted = sorted(w for w in pairs if len(pairs[w]) >= MIN_MODIFIER_PAIRS)
    # Every modified name's guess from its words, at once (a name begins with one word, so it
    # is one modifier's at most).
    rows = np.array([i for w in fitted for i, _ in pairs[w]], dtype=np.int64)
    guessed = _words_guesses(stats, rows, names.lab.mean(axis=0))
    out: dict[str, tuple[FloatArray, FloatArray, FloatArray, int]] = {}
    start = 0
    for word in fitted:
        found = pairs[word]
        guesses, start = guessed[start : start + len(found)], start + len(found)
        full_rows = np.array([i for i, _ in found])
        base_rows = np.array([j for _, j in found])
        full, base = names.lab[full_rows], names.lab[base_rows]
        weight = 1.0 / (names.var[full_rows] + names.var[base_rows])
        params, held_out = _fit_map(base, full, weight, form)
        err_map = _weighted_median(delta_e_2000(held_out, full), weight)
        err_words = _weighted_median(delta_e_2000(guesses, full), weight)
        if err_map >= err_words:
            continue
        resid = full - _apply_params(params, base)
        n = len(found)
        rcov = (
            n * np.cov(resid.T, aweights=weight, bias=True) + MODIFIER_PRIOR_PAIRS * stats.spread
        ) / (n + MODIFIER_PRIOR_PAIRS)
        shift = np.average(full - base, axis=0, weights=weight)
        out[word] = (params, shift, symmetric(rcov), n)
    return out


def _words_guesses(stats: _WordStats, rows: IntArray, fallback: FloatArray) -> FloatArray:
    """Each name's colour (``rows``) from the intersection of its words' distributions, the
    name left out of them (``fallback`` when no other name has any of its words). All names at
    once: one name at a time was half of a fit's time."""
    owner = np.array([p for p, i in enumerate(rows) for _ in stats.incidence[i]], dtype=np.int64)
    word = np.array([w for i in rows for w in stats.incidence[i]], dtype=np.int64)
    sums = stats.sums[:, word].copy()
    sums[stats.group[rows[owner]], np.arange(len(word))] -= stats.single[rows[owner]]
    mean, cov, n = stats.gaussians(sums)
    seen = n > 0
    precision = np.zeros_like(cov)
    precision[seen] = np.linalg.inv(cov[seen])
    total = np.zeros((len(rows), 3, 3))
    np.add.at(total, owner, precision)
    pulled = np.zeros((len(rows), 3))
    np.add.at(pulled, owner, np.einsum("wij,wj->wi", precision, mean))
    known = np.bincount(owner, seen, len(rows)) > 0
    guesses = np.tile(fallback, (len(rows), 1))
    guesses[known] = np.linalg.solve(total[known], pulled[known][..., None])[..., 0]
    return guesses


def _fit_map(
    base: FloatArray, full: FloatArray, weight: FloatArray, form: ModifierForm
) -> tuple[FloatArray, FloatArray]:
    """A modifier's map fitted by weighted least squares to pairs (base -> full), and each
    pair's prediction by the map fitted without it. Ridge terms worth MODIFIER_PRIOR_PAIRS
    average pairs pull the scales towards 1. Params: l_scale, l_shift, chroma_scale, hue_turn,
    ab_shift a, ab_shift b."""
    n = len(base)
    ul = base[:, 0].astype(np.complex128)
    vl = full[:, 0].astype(np.complex128)
    u = base[:, 1] + 1j * base[:, 2]
    v = full[:, 1] + 1j * full[:, 2]

    def sums(x: ComplexArray) -> ComplexArray:
        """Index 0: the weighted sum over all pairs; index 1 + i: over all pairs but i."""
        wx = weight * x
        total = wx.sum()
        out: ComplexArray = np.concatenate([[total], total - wx])
        return out

    count = sums(np.ones(n, dtype=np.complex128))
    ones = np.ones(n + 1, dtype=np.complex128)
    if form == "lab":
        l_scale, l_shift = ones, sums(vl - ul) / count
        z, t = ones, sums(v - u) / count
    else:
        ridge = MODIFIER_PRIOR_PAIRS / n
        lam_l = ridge * float((weight * base[:, 0] ** 2).sum())
        l_scale, l_shift = _solve_affine(
            count, sums(ul), sums(vl), sums(ul * ul), sums(ul * vl), lam_l
        )
        uu = (u * np.conj(u)).real.astype(np.complex128)
        lam_ab = ridge * float((weight * uu.real).sum())
        uv = np.conj(u) * v
        if form == "lch":
            z = (sums(uv) + lam_ab) / (sums(uu) + lam_ab)
            t = np.zeros(n + 1, dtype=np.complex128)
        else:
            z, t = _solve_affine(count, sums(u), sums(v), sums(uu), sums(uv), lam_ab)
    params = np.array(
        [
            l_scale[0].real,
            l_shift[0].real,
            abs(z[0]),
            math.atan2(z[0].imag, z[0].real),
            t[0].real,
            t[0].imag,
        ]
    )
    pred_l = (l_scale[1:] * ul + l_shift[1:]).real
    pred_ab = z[1:] * u + t[1:]
    return params, np.stack([pred_l, pred_ab.real, pred_ab.imag], axis=-1)


def _solve_affine(
    cnt: ComplexArray,
    su: ComplexArray,
    sv: ComplexArray,
    suu: ComplexArray,
    suv: ComplexArray,
    lam: float,
) -> tuple[ComplexArray, ComplexArray]:
    """Weighted least squares for ``v = z u + t`` (complex or real) from sums, with the ridge
    ``lam |z - 1|^2``: solves ``z (suu + lam) + t conj(su) = suv + lam``, ``z su + t cnt = sv``."""
    aa = suu + lam
    ab = suv + lam
    det = aa * cnt - np.conj(su) * su
    return (ab * cnt - np.conj(su) * sv) / det, (aa * sv - su * ab) / det


def _weighted_median(values: FloatArray, weight: FloatArray) -> float:
    """The weighted median: the value where the cumulative weight passes half, and where it
    reaches half exactly (a tie, up to rounding) the mean of the two middle values. "Up to
    rounding" matters: whether a sum of weights lands on half exactly depends on the CPU's
    arithmetic, and the fit must not (the shipped model is checked against a fresh fit)."""
    order = np.argsort(values)
    ordered = values[order]
    cum = np.cumsum(weight[order])
    half = 0.5 * cum[-1]
    i = int(np.searchsorted(cum, half * (1.0 - 1e-9)))
    if i + 1 < len(ordered) and abs(cum[i] - half) <= 1e-9 * cum[-1]:
        return float(0.5 * (ordered[i] + ordered[i + 1]))
    return float(ordered[i])


def _apply_params(params: FloatArray, lab: FloatArray) -> FloatArray:
    z = params[2] * np.exp(1j * params[3])
    ab = z * (lab[:, 1] + 1j * lab[:, 2]) + (params[4] + 1j * params[5])
    out: FloatArray = np.stack([params[0] * lab[:, 0] + params[1], ab.real, ab.imag], axis=-1)
    return out
