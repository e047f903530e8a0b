"""A colour-term model read from naming data: the XKCD names, the names of ``color-name-list``
and Heer & Stone's c3 model, with modifiers (``pale``, ``dark``, ...) learned as maps in CIELAB.

How a text is read (see ``docs/naming.md``); words are compared normalised, split at anything
that is not a letter:

1. one of c3's 153 terms: c3's smoothed density p(colour | term) (the XKCD survey's answers);
2. an exact name: the name's colour, its sources weighed by how well each agrees with the
   others, spread as widely as people spread one name's colours;
3. a modifier before a known rest (``pale`` + ``ocean blue``): the modifier's learned map
   applied to the rest's distribution;
4. otherwise the longest known names in the text and its single words (every name containing
   the word, as a Gaussian), multiplied: where they agree. Unknown words are ignored; a text with
   no known word gets the flat answer.
"""

from __future__ import annotations

import functools
import io
import math
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._protocol import FLAT_LOG_DENSITY, FloatArray, Prediction, as_lab, check_text
from ._splits import normalise_name

__all__ = [
    "MODEL_FILE",
    "SOURCES",
    "Modifier",
    "ModifierForm",
    "NamingModel",
    "name_key",
    "words_of",
]

#: The naming sources, in the order the model keeps them.
SOURCES: tuple[str, ...] = ("xkcd", "colornames", "c3")
#: The precomputed default model, in ``huescues/data/naming/``.
MODEL_FILE = "naming_model.npz"
#: Bumped whenever the fitted arrays change meaning (the npz stores it).
FORMAT_VERSION = 1

#: How a modifier maps colours. ``"lch"`` (the default): lightness ``L' = a L + b`` and the
#: chroma plane multiplied by a complex number (a chroma scale and a hue turn); ``"lab"``: one
#: shift in CIELAB; ``"full"``: ``"lch"`` plus a shift in the chroma plane; ``"none"``: no
#: modifiers (to measure what they add).
ModifierForm = Literal["lch", "lab", "full", "none"]

IntArray = NDArray[np.int64]
ComplexArray = NDArray[np.complex128]

_WORD = re.compile(r"[^\W\d_]+")
#: Share of belief spread flat over the gamut whatever the text, so that a colour far from every
#: reading still scores finitely and one bad reading cannot rule a colour out.
FLOOR = 0.02
#: Share of a c3 term's density given to the Gaussian fitted to it (the rest is the histogram).
C3_GAUSSIAN_SHARE = 0.1
#: c3's bins are cubes 5 CIELAB units on a side.
C3_BIN_SIZE = 5.0
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


def words_of(text: str) -> tuple[str, ...]:
    """The words of a text as the model reads them: normalised, split at anything that is not a
    letter (``"blue/green"`` and ``"blue-green"`` are ``("blue", "green")``)."""
    return tuple(_WORD.findall(normalise_name(text).replace("\u2019", "")))


def name_key(text: str) -> str:
    """The key names are compared by: their words joined by single spaces."""
    return " ".join(words_of(text))


# --------------------------------------------------------------------------- modifiers


@dataclass(frozen=True, slots=True, eq=False)
class Modifier:
    """A modifier learned from pairs of names (``pale X``, ``X``) as a map in CIELAB:
    ``L' = l_scale * L + l_shift`` and, in the chroma plane written as complex numbers
    ``a + ib``, ``ab' = chroma_scale * exp(i * hue_turn) * ab + ab_shift``.

    ``shift`` is the mean CIELAB change over its pairs and ``cov`` the covariance of what the map
    leaves unexplained (added to the spread of whatever it modifies).
    """

    word: str
    #: Number of (modifier + name, name) pairs it was learned from.
    pairs: int
    l_scale: float
    l_shift: float
    chroma_scale: float
    #: Hue turn in radians (positive: from +a* towards +b*).
    hue_turn: float
    ab_shift: tuple[float, float]
    shift: FloatArray = field(repr=False)
    cov: FloatArray = field(repr=False)

    def matrix(self) -> tuple[FloatArray, FloatArray]:
        """The map as ``(A, t)``: ``lab' = A @ lab + t``."""
        c = self.chroma_scale * math.cos(self.hue_turn)
        s = self.chroma_scale * math.sin(self.hue_turn)
        a = np.array([[self.l_scale, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
        t = np.array([self.l_shift, self.ab_shift[0], self.ab_shift[1]])
        return a, t

    def apply(self, lab: ArrayLike) -> FloatArray:
        """The modified colours (CIELAB, last axis 3)."""
        a, t = self.matrix()
        out: FloatArray = as_lab(lab) @ a.T + t
        return out


# --------------------------------------------------------------------------- fitted arrays


@dataclass(frozen=True, slots=True, eq=False)
class _Fitted:
    """Everything a fitted model holds, as arrays (saved to and loaded from npz, never pickled).
    Floating-point arrays are rounded to float32 precision, so that a fresh fit and the saved
    file are identical."""

    sources: tuple[str, ...]
    #: Each source's variance (ΔE00 squared) as measured by agreement, in SOURCES order.
    source_variance: FloatArray
    #: How widely people spread one name's colours (CIELAB covariance).
    spread: FloatArray
    flat_mean: FloatArray
    flat_cov: FloatArray
    name_keys: tuple[str, ...]
    name_lab: FloatArray
    #: Variance of each name's colour estimate (from its sources' variances).
    name_var: FloatArray
    #: Bit i set: the name is in SOURCES[i].
    name_sources: IntArray
    word_keys: tuple[str, ...]
    word_mean: FloatArray
    word_cov: FloatArray
    #: Effective number of names behind each word.
    word_names: FloatArray
    c3_keys: tuple[str, ...]
    c3_bin_lab: FloatArray
    #: Naming counts, bins x kept terms.
    c3_counts: FloatArray
    modifier_keys: tuple[str, ...]
    #: Per modifier: l_scale, l_shift, chroma_scale, hue_turn, ab_shift a, ab_shift b.
    modifier_params: FloatArray
    modifier_shift: FloatArray
    modifier_cov: FloatArray
    modifier_pairs: IntArray

    def save(self, path: str | Path) -> None:
        arrays: dict[str, NDArray[np.generic]] = {"format_version": np.array(FORMAT_VERSION)}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                arrays[f.name] = np.frombuffer("\n".join(value).encode("utf-8"), dtype=np.uint8)
            elif value.dtype.kind == "f":
                arrays[f.name] = value.astype(np.float32)
            else:
                arrays[f.name] = value.astype(np.int32)
        with open(path, "wb") as fh:
            np.savez_compressed(fh, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, data: bytes) -> _Fitted:
        values: dict[str, object] = {}
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            version = int(npz["format_version"])
            if version != FORMAT_VERSION:
                raise ValueError(
                    f"the naming model file has format {version}, this library reads format "
                    f"{FORMAT_VERSION}: rebuild it with scripts/build_naming_model.py"
                )
            for f in fields(cls):
                raw = npz[f.name]
                if f.name in _STRING_FIELDS:
                    text = raw.tobytes().decode("utf-8")
                    values[f.name] = tuple(text.split("\n")) if text else ()
                elif raw.dtype.kind == "f":
                    values[f.name] = _readonly(raw.astype(np.float64))
                else:
                    values[f.name] = _readonly(raw.astype(np.int64))
        return cls(**values)  # type: ignore[arg-type]

    def equals(self, other: _Fitted) -> bool:
        """Whether two fits hold the same names and numbers."""
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, tuple):
                if a != b:
                    return False
            elif a.shape != b.shape or not np.array_equal(a, b):
                return False
        return True


_STRING_FIELDS = frozenset({"sources", "name_keys", "word_keys", "c3_keys", "modifier_keys"})


def _readonly(a: NDArray[np.generic]) -> NDArray[np.generic]:
    a.flags.writeable = False
    return a


def _f32(a: ArrayLike) -> FloatArray:
    """Rounded to float32 precision, kept as float64, read-only."""
    out = np.asarray(a, dtype=np.float64).astype(np.float32).astype(np.float64)
    out.flags.writeable = False
    return out


def _int(a: ArrayLike) -> IntArray:
    out = np.array(a, dtype=np.int64)
    out.flags.writeable = False
    return out


# --------------------------------------------------------------------------- beliefs


@dataclass(frozen=True, slots=True, eq=False)
class _Belief:
    """A reading of a text: a colour and spread in CIELAB, and what scores colours (a Gaussian,
    and for a c3 term its density)."""

    mean: FloatArray
    cov: FloatArray
    source: str
    known: bool = True
    #: Column of the c3 term whose density scores this reading, or -1.
    term: int = -1
    #: Centre of the Gaussian that scores colours, when not ``mean`` (a c3 term's own mean).
    score_mean: FloatArray | None = None
    #: The scoring Gaussian's centre, inverse Cholesky factor and log normaliser.
    centre: FloatArray = field(init=False, repr=False)
    whiten: FloatArray = field(init=False, repr=False)
    log_norm: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        centre = self.mean if self.score_mean is None else self.score_mean
        object.__setattr__(self, "centre", centre)
        chol = np.linalg.cholesky(self.cov)
        object.__setattr__(self, "whiten", np.linalg.inv(chol))
        log_det = 2.0 * float(np.log(np.diag(chol)).sum())
        object.__setattr__(self, "log_norm", -0.5 * (log_det + 3.0 * math.log(2.0 * math.pi)))

    def log_gaussian(self, lab: FloatArray) -> FloatArray:
        z = (lab - self.centre) @ self.whiten.T
        out: FloatArray = self.log_norm - 0.5 * np.einsum("...i,...i->...", z, z)
        return out


def gaussian_product(
    parts: Iterable[tuple[FloatArray, FloatArray]],
) -> tuple[FloatArray, FloatArray]:
    """Mean and covariance of the (normalised) product of Gaussians given as (mean, cov): where
    they all agree."""
    precision = np.zeros((3, 3))
    weighted = np.zeros(3)
    for m, c in parts:
        p = np.linalg.inv(c)
        precision += p
        weighted += p @ m
    cov = np.linalg.inv(precision)
    mean: FloatArray = cov @ weighted
    return mean, _symmetric(cov)


def floored(log_p: FloatArray) -> FloatArray:
    """A log density mixed with the flat floor (weight :data:`FLOOR`), so that no colour is ever
    ruled out and every value is finite."""
    out: FloatArray = np.logaddexp(math.log1p(-FLOOR) + log_p, math.log(FLOOR) + FLAT_LOG_DENSITY)
    return out


def _symmetric(cov: NDArray[np.floating]) -> FloatArray:
    out: FloatArray = 0.5 * (cov + np.swapaxes(cov, -1, -2)).astype(np.float64)
    return out


# --------------------------------------------------------------------------- the model


class NamingModel:
    """Words to colours from naming data (a :class:`~huescues.language.ColourTermModel`).

    Build one with :meth:`fit` (from the data shipped in the package, optionally holding names
    out) or take the precomputed :meth:`default`. Readings are cached per text.
    """

    __slots__ = (
        # Players keep readings per model only while it lives (huescues.agents).
        "__weakref__",
        "_c3_grid",
        "_c3_index",
        "_c3_log_density",
        "_fitted",
        "_flat",
        "_modifiers",
        "_name_index",
        "_read",
        "_word_index",
    )

    def __init__(self, fitted: _Fitted) -> None:
        self._fitted = fitted
        self._name_index = {k: i for i, k in enumerate(fitted.name_keys)}
        self._word_index = {k: i for i, k in enumerate(fitted.word_keys)}
        self._c3_index = {k: i for i, k in enumerate(fitted.c3_keys)}
        self._modifiers = {
            k: _modifier_from_arrays(fitted, i) for i, k in enumerate(fitted.modifier_keys)
        }
        self._flat = _Belief(fitted.flat_mean, fitted.flat_cov, "flat", known=False)
        self._c3_grid = _C3Grid(fitted.c3_bin_lab)
        self._c3_log_density: dict[int, FloatArray] = {}
        self._read = functools.lru_cache(maxsize=1 << 14)(self._read_key)

    # ----------------------------------------------------------------- construction

    @classmethod
    def fit(
        cls,
        *,
        exclude: Collection[str] = (),
        sources: Collection[str] = SOURCES,
        modifier_form: ModifierForm = "lch",
        colornames_weight: float | None = None,
    ) -> NamingModel:
        """Fit the model to the naming data shipped in the package (a second or two).

        ``exclude``: names to hold out, dropped from every source (compared by
        :func:`name_key`, so ``"blue/green"`` also drops ``"blue green"``). ``sources``: which of
        :data:`SOURCES` to use. ``modifier_form``: how modifiers map colours
        (:data:`ModifierForm`). ``colornames_weight``: the weight of a ``color-name-list``
        colour relative to an XKCD one (default: measured from how well the sources agree).
        """
        chosen = set(sources)
        unknown = chosen - set(SOURCES)
        if unknown:
            raise ValueError(f"unknown naming sources {sorted(unknown)}; choose from {SOURCES}")
        if not chosen:
            raise ValueError("fitting needs at least one naming source")
        if modifier_form not in ("lch", "lab", "full", "none"):
            raise ValueError(f"unknown modifier form {modifier_form!r}")
        if colornames_weight is not None and not colornames_weight > 0:
            raise ValueError(f"colornames_weight must be positive, not {colornames_weight}")
        fitted = _fit(
            frozenset(name_key(n) for n in exclude),
            tuple(s for s in SOURCES if s in chosen),
            modifier_form,
            colornames_weight,
        )
        return cls(fitted)

    @classmethod
    def default(cls) -> NamingModel:
        """The model fitted on all the data: precomputed, loaded once and kept."""
        return _default_model()

    @classmethod
    def load(cls, path: str | Path) -> NamingModel:
        """A model saved with :meth:`save`."""
        return cls(_Fitted.load(Path(path).read_bytes()))

    def save(self, path: str | Path) -> None:
        """Save the fitted model as a compressed npz (arrays only, no pickles)."""
        self._fitted.save(path)

    def same_fit(self, other: NamingModel) -> bool:
        """Whether two models hold exactly the same fitted names and numbers."""
        return self._fitted.equals(other._fitted)

    # ----------------------------------------------------------------- the protocol

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """log p(colour | text) for CIELAB colours ``lab`` (last axis 3), shape
        ``lab.shape[:-1]``. A flat floor keeps every value finite; an unknown text scores
        :data:`~huescues.language.FLAT_LOG_DENSITY` everywhere."""
        belief = self._read(name_key(check_text(text)))
        colours = as_lab(lab)
        if not belief.known:
            return np.full(colours.shape[:-1], FLAT_LOG_DENSITY)
        log_p = belief.log_gaussian(colours)
        if belief.term >= 0:
            # share x Gaussian + (1 - share) x smoothed histogram (zero outside c3's bins).
            hist = self._c3_density(belief.term)[self._c3_grid.bins(colours)]
            log_p = np.logaddexp(math.log(C3_GAUSSIAN_SHARE) + log_p, hist)
        return floored(log_p)

    def predict(self, text: str) -> Prediction:
        """The text's colour and spread; for a text with no known word, the data's mean colour
        spread over the whole gamut, with ``known=False``."""
        b = self._read(name_key(check_text(text)))
        return Prediction(b.mean.copy(), b.cov.copy(), known=b.known, source=b.source)

    # ----------------------------------------------------------------- vocabulary

    def known(self, text: str) -> bool:
        """Whether the model reads any of the text (a name or at least one known word)."""
        return self._read(name_key(check_text(text))).known

    def words(self) -> frozenset[str]:
        """Every single word the model knows (as :func:`words_of` writes words)."""
        return frozenset(self._fitted.word_keys)

    def names(self) -> frozenset[str]:
        """Every exact name the model knows (as :func:`name_key` writes names)."""
        return frozenset(self._fitted.name_keys)

    def is_name(self, text: str) -> bool:
        """Whether the text is a name of the data or one of c3's terms."""
        key = name_key(check_text(text))
        return key in self._name_index or key in self._c3_index

    def is_modifier(self, word: str) -> bool:
        """Whether the word is a modifier learned from the data (``pale``, ``dark``, ...)."""
        return name_key(word) in self._modifiers

    def modifiers(self) -> dict[str, Modifier]:
        """The learned modifiers by word."""
        return dict(self._modifiers)

    def modifier(self, word: str) -> Modifier:
        """A modifier's learned map; KeyError if the word is not a modifier."""
        key = name_key(word)
        if key not in self._modifiers:
            raise KeyError(f"{word!r} is not a modifier the data taught")
        return self._modifiers[key]

    def modifier_shift(self, word: str) -> tuple[FloatArray, FloatArray]:
        """A modifier's mean CIELAB shift over its pairs, and the covariance its map leaves."""
        m = self.modifier(word)
        return m.shift.copy(), m.cov.copy()

    @property
    def sources(self) -> tuple[str, ...]:
        """The naming sources the model was fitted on."""
        return self._fitted.sources

    def source_weights(self) -> dict[str, float]:
        """Each source's weight for a name's colour (inverse variance by agreement, XKCD = 1)."""
        var = self._fitted.source_variance
        return {s: float(var[0] / var[i]) for i, s in enumerate(SOURCES) if s in self.sources}

    # ----------------------------------------------------------------- reading

    def _read_key(self, key: str) -> _Belief:
        """The reading of a text given by its :func:`name_key` (cached by ``_read``)."""
        f = self._fitted
        if not key:
            return self._flat
        term = self._c3_index.get(key, -1)
        name = self._name_index.get(key, -1)
        if term >= 0:
            c3_mean, c3_cov = _weighted_gaussian(f.c3_bin_lab, f.c3_counts[:, term])
            mean = f.name_lab[name] if name >= 0 else c3_mean
            return _Belief(mean, c3_cov, "c3", term=term, score_mean=c3_mean)
        if name >= 0:
            return self._name_belief(name)
        tokens = key.split(" ")
        if len(tokens) > 1 and tokens[0] in self._modifiers:
            rest = self._read(" ".join(tokens[1:]))
            if rest.known:
                mod = self._modifiers[tokens[0]]
                a, t = mod.matrix()
                return _Belief(
                    a @ rest.mean + t,
                    _symmetric(a @ rest.cov @ a.T + mod.cov),
                    f"modifier {tokens[0]} + {rest.source}",
                )
        # Unknown words are left out: their distribution would be flat.
        parts = [
            self._piece_belief(p) for p in self._pieces(tokens) if " " in p or p in self._word_index
        ]
        if not parts:
            return self._flat
        if len(parts) == 1:
            return parts[0]
        mean, cov = gaussian_product((b.mean, b.cov) for b in parts)
        return _Belief(mean, cov, "words")

    def _pieces(self, tokens: list[str]) -> list[str]:
        """The text cut into the longest names of two words or more, left to right, and the
        single words left between them."""
        out: list[str] = []
        i = 0
        while i < len(tokens):
            for j in range(len(tokens), i + 1, -1):
                piece = " ".join(tokens[i:j])
                if piece in self._name_index or piece in self._c3_index:
                    out.append(piece)
                    i = j
                    break
            else:
                out.append(tokens[i])
                i += 1
        return out

    def _piece_belief(self, piece: str) -> _Belief:
        if " " in piece:
            return self._read(piece)
        f = self._fitted
        w = self._word_index[piece]
        return _Belief(f.word_mean[w], f.word_cov[w], f"word {piece}")

    def _name_belief(self, i: int) -> _Belief:
        f = self._fitted
        which = "+".join(s for b, s in enumerate(SOURCES) if f.name_sources[i] >> b & 1)
        cov = f.spread + f.name_var[i] * np.eye(3)
        return _Belief(f.name_lab[i], cov, f"name ({which})")

    def _c3_density(self, term: int) -> FloatArray:
        """log of (1 - Gaussian share) x the term's smoothed histogram density at every bin,
        and a last entry (-inf) for colours outside the bins."""
        cached = self._c3_log_density.get(term)
        if cached is None:
            smooth = self._c3_grid.smooth(self._fitted.c3_counts[:, term])
            density = (1.0 - C3_GAUSSIAN_SHARE) * smooth / (smooth.sum() * C3_BIN_SIZE**3)
            with np.errstate(divide="ignore"):
                cached = np.append(np.log(density), -np.inf)
            self._c3_log_density[term] = cached
        return cached


@functools.cache
def _default_model() -> NamingModel:
    raw = resources.files("huescues.data").joinpath("naming").joinpath(MODEL_FILE).read_bytes()
    return NamingModel(_Fitted.load(raw))


def _modifier_from_arrays(f: _Fitted, i: int) -> Modifier:
    p = f.modifier_params[i]
    return Modifier(
        word=f.modifier_keys[i],
        pairs=int(f.modifier_pairs[i]),
        l_scale=float(p[0]),
        l_shift=float(p[1]),
        chroma_scale=float(p[2]),
        hue_turn=float(p[3]),
        ab_shift=(float(p[4]), float(p[5])),
        shift=f.modifier_shift[i],
        cov=f.modifier_cov[i],
    )


class _C3Grid:
    """c3's bins on a dense grid: the bin of any colour, and smoothing between neighbours."""

    __slots__ = ("_cells", "_lo", "_n_bins", "_shape")

    def __init__(self, bin_lab: FloatArray) -> None:
        self._n_bins = len(bin_lab)
        self._lo = bin_lab.min(axis=0)
        idx = np.rint((bin_lab - self._lo) / C3_BIN_SIZE).astype(np.int64)
        self._shape = np.max(idx, axis=0) + 1
        # Colours outside every bin map to index n_bins (one past the end).
        self._cells = np.full(tuple(self._shape), self._n_bins, dtype=np.int64)
        self._cells[idx[:, 0], idx[:, 1], idx[:, 2]] = np.arange(self._n_bins)

    def bins(self, lab: FloatArray) -> IntArray:
        """Each colour's bin, or ``n_bins`` for colours outside them."""
        idx = np.rint((lab - self._lo) / C3_BIN_SIZE).astype(np.int64)
        inside = np.all((idx >= 0) & (idx < self._shape), axis=-1)
        idx = np.where(inside[..., None], idx, 0)
        out: IntArray = np.where(
            inside, self._cells[idx[..., 0], idx[..., 1], idx[..., 2]], self._n_bins
        )
        return out

    def smooth(self, counts: FloatArray) -> FloatArray:
        """Counts spread to neighbouring bins with a (1, 2, 1) / 4 kernel along each axis (what
        lands outside the bins, out of the sRGB gamut, is dropped)."""
        grid = np.zeros(tuple(self._shape + 2))
        valid = self._cells < self._n_bins
        grid[1:-1, 1:-1, 1:-1][valid] = counts[self._cells[valid]]
        for axis in range(3):
            grid = 0.5 * grid + 0.25 * (np.roll(grid, 1, axis) + np.roll(grid, -1, axis))
        out = np.zeros(self._n_bins)
        out[self._cells[valid]] = grid[1:-1, 1:-1, 1:-1][valid]
        return out


def _weighted_gaussian(points: FloatArray, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Mean and covariance of binned colours (each bin's own width included)."""
    w = weights / weights.sum()
    mean: FloatArray = w @ points
    diff = points - mean
    cov = (diff * w[:, None]).T @ diff + (C3_BIN_SIZE**2 / 12.0) * np.eye(3)
    return mean, _symmetric(cov)


# --------------------------------------------------------------------------- fitting


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
) -> _Fitted:
    from ._data import c3, colornames, xkcd_names  # the loaders import colour-science

    # Each source as {name key: colour}, the held-out names dropped.
    per_source: dict[str, dict[str, FloatArray]] = {}
    for label, data in (("xkcd", xkcd_names()), ("colornames", colornames())):
        per_source[label] = _by_key(data.names, data.lab, exclude)
    c3_data = c3()
    c3_keep = [i for i, t in enumerate(c3_data.terms) if name_key(t) not in exclude]
    c3_keys = [name_key(c3_data.terms[i]) for i in c3_keep]
    c3_counts = c3_data.counts[:, c3_keep]
    per_source["c3"] = {
        k: _weighted_gaussian(c3_data.bin_lab, c3_counts[:, j])[0] for j, k in enumerate(c3_keys)
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
    return _Fitted(
        sources=sources,
        source_variance=_f32(variance),
        spread=_f32(spread),
        flat_mean=_f32(names.lab.mean(axis=0)),
        # The spread of a uniform belief over the gamut (c3's bins cover it).
        flat_cov=_f32(np.cov(c3_data.bin_lab.T)),
        name_keys=tuple(names.keys),
        name_lab=_f32(names.lab),
        name_var=_f32(names.var),
        name_sources=_int(names.bits),
        word_keys=tuple(stats.keys),
        word_mean=_f32(word_mean),
        word_cov=_f32(word_cov),
        word_names=_f32(word_n),
        c3_keys=tuple(c3_keys) if use_c3 else (),
        c3_bin_lab=_f32(c3_data.bin_lab),
        c3_counts=_f32(c3_counts if use_c3 else np.zeros((len(c3_data.bin_lab), 0))),
        modifier_keys=mod_keys,
        modifier_params=_f32(np.array([modifiers[k][0] for k in mod_keys]).reshape(-1, 6)),
        modifier_shift=_f32(np.array([modifiers[k][1] for k in mod_keys]).reshape(-1, 3)),
        modifier_cov=_f32(np.array([modifiers[k][2] for k in mod_keys]).reshape(-1, 3, 3)),
        modifier_pairs=_int([modifiers[k][3] for k in mod_keys]),
    )


def _by_key(
    names: Iterable[str], lab: FloatArray, exclude: frozenset[str]
) -> dict[str, FloatArray]:
    """{name key: mean colour of the names with that key}, without the excluded keys."""
    groups: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        k = name_key(n)
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
    covs = [_weighted_gaussian(bin_lab, counts[:, j])[1] for j, k in enumerate(keys) if " " in k]
    if not covs:
        return 150.0 * np.eye(3)
    return _symmetric(np.mean(covs, axis=0))


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
        return mean, _symmetric(cov) + self.spread, counts[0] + counts[1]

    def without(self, name: int) -> FloatArray:
        """The per-group sums of the name's words with the name itself left out."""
        sums = self.sums[:, self.incidence[name]].copy()
        sums[self.group[name]] -= self.single[name]
        return sums


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
        vals, vecs = np.linalg.eigh(_symmetric(np.mean(excess, axis=0)))
        gap = (vecs * np.maximum(vals, MIN_VARIANCE)) @ vecs.T
    else:
        gap = 100.0 * np.eye(3)
    words = sorted(vocab, key=vocab.__getitem__)
    return _WordStats(words, incidence, group, sums, single, prior, _symmetric(gap), spread)


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
    return mean, _symmetric(biased * scale[:, None, None]), n_eff


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

    out: dict[str, tuple[FloatArray, FloatArray, FloatArray, int]] = {}
    for word in sorted(pairs):
        found = pairs[word]
        if len(found) < MIN_MODIFIER_PAIRS:
            continue
        full_rows = np.array([i for i, _ in found])
        base_rows = np.array([j for _, j in found])
        full, base = names.lab[full_rows], names.lab[base_rows]
        weight = 1.0 / (names.var[full_rows] + names.var[base_rows])
        params, held_out = _fit_map(base, full, weight, form)
        err_map = _weighted_median(delta_e_2000(held_out, full), weight)
        fallback = names.lab.mean(axis=0)
        guesses = np.array([_words_guess(stats, int(i), fallback) for i in full_rows])
        err_words = _weighted_median(delta_e_2000(guesses, full), weight)
        if err_map >= err_words:
            continue
        resid = full - _apply_params(params, base)
        n = len(found)
        rcov = (
            n * np.cov(resid.T, aweights=weight, bias=True) + MODIFIER_PRIOR_PAIRS * stats.spread
        ) / (n + MODIFIER_PRIOR_PAIRS)
        shift = np.average(full - base, axis=0, weights=weight)
        out[word] = (params, shift, _symmetric(rcov), n)
    return out


def _words_guess(stats: _WordStats, name: int, fallback: FloatArray) -> FloatArray:
    """A name's colour from the intersection of its words' distributions, the name left out
    (``fallback`` when no other name has any of its words)."""
    mean, cov, n = stats.gaussians(stats.without(name))
    seen = n > 0
    if not seen.any():
        return fallback
    precision = np.linalg.inv(cov[seen])
    guess: FloatArray = np.linalg.solve(
        precision.sum(axis=0), np.einsum("wij,wj->i", precision, mean[seen])
    )
    return guess


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
    order = np.argsort(values)
    cum = np.cumsum(weight[order])
    return float(values[order][np.searchsorted(cum, 0.5 * cum[-1])])


def _apply_params(params: FloatArray, lab: FloatArray) -> FloatArray:
    z = params[2] * np.exp(1j * params[3])
    ab = z * (lab[:, 1] + 1j * lab[:, 2]) + (params[4] + 1j * params[5])
    out: FloatArray = np.stack([params[0] * lab[:, 0] + params[1], ab.real, ab.imag], axis=-1)
    return out
