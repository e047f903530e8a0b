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

This module reads a fitted model (and loads and saves its arrays); ``_naming_fit`` fits one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from ._capabilities import ColourTermModelBase
from ._identity import register_shipped
from ._naming_arrays import (
    C3_BIN_SIZE,
    SOURCES,
    FittedArrays,
    IntArray,
    ModifierForm,
    british,
    f32,
    int_array,
    name_key,
    read_key,
    symmetric,
    weighted_gaussian,
    words_of,
)
from ._naming_fit import fit_arrays
from ._protocol import FLAT_LOG_DENSITY, FloatArray, Prediction, as_lab, check_text

__all__ = [
    "FUNCTION_WORDS",
    "MODEL_FILE",
    "SOURCES",
    "FittedArrays",
    "Modifier",
    "ModifierForm",
    "NamingModel",
    "british",
    "f32",
    "floored",
    "gaussian_product",
    "int_array",
    "name_key",
    "read_key",
    "said",
    "symmetric",
    "weighted_gaussian",
    "words_of",
]

#: Words that say nothing of a colour, left out of a text that is no name when other words
#: remain (:meth:`NamingModel._read_key`): the articles and demonstratives, personal pronouns,
#: forms of "be" and of seeming ("looks like"), a chat's interjections and hedges ("ok", "lol",
#: "sorry", "maybe", "i think"), "one" and the words for colour itself. As words of names they
#: read as the mean colour of every name that holds them, a grey, and a text's words are
#: multiplied: "the blue one" read as a greyish blue, and described a vivid blue less well
#: than a dull one.
FUNCTION_WORDS = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "thats", "one", "ones"}
    | {"i", "im", "it", "its", "me", "my", "you", "your", "we"}
    | {"is", "are", "was", "be", "looks", "look", "looking", "seems", "like", "think", "guess"}
    | {"ok", "okay", "lol", "haha", "hmm", "um", "uh", "oh", "yes", "yeah", "yep", "sorry"}
    | {"please", "thanks", "hi", "hello", "oops", "maybe", "probably", "basically"}
    | {"colour", "colours", "shade", "shades"}
)


def said(key: str) -> str | None:
    """A :func:`name_key` without its :data:`FUNCTION_WORDS`, or None when it has none or is
    nothing else ("the blue one": "blue"). A reader keeps a text it knows whole ("the matrix")."""
    tokens = key.split(" ")
    kept = [t for t in tokens if t not in FUNCTION_WORDS]
    return " ".join(kept) if kept and len(kept) < len(tokens) else None


#: The precomputed default model, in ``huescues/data/naming/``.
MODEL_FILE = "naming_model.npz"
#: Share of belief spread flat over the gamut whatever the text, so that a colour far from every
#: reading still scores finitely and one bad reading cannot rule a colour out.
FLOOR = 0.02
#: Share of a c3 term's density given to the Gaussian fitted to it (the rest is the histogram).
C3_GAUSSIAN_SHARE = 0.1
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
    return mean, symmetric(cov)


def _pick(
    pair: tuple[FloatArray, FloatArray] | None, belief: _Belief | None, mean: bool
) -> FloatArray:
    if pair is not None:
        return pair[0] if mean else pair[1]
    assert belief is not None
    return belief.centre if mean else belief.cov


def floored(log_p: FloatArray) -> FloatArray:
    """A log density mixed with the flat floor (weight :data:`FLOOR`), so that no colour is ever
    ruled out and every value is finite."""
    out: FloatArray = np.logaddexp(math.log1p(-FLOOR) + log_p, math.log(FLOOR) + FLAT_LOG_DENSITY)
    return out


class NamingModel(ColourTermModelBase):
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

    def __init__(self, fitted: FittedArrays) -> None:
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
        # (Fitting imports the data loaders, and colour-science, only when it runs.)
        return cls(
            fit_arrays(
                exclude=exclude,
                sources=sources,
                modifier_form=modifier_form,
                colornames_weight=colornames_weight,
            )
        )

    @classmethod
    def default(cls) -> NamingModel:
        """The model fitted on all the data: precomputed, loaded once and kept."""
        return _default_model()

    @classmethod
    def load(cls, path: str | Path) -> NamingModel:
        """A model saved with :meth:`save`."""
        return cls(FittedArrays.load(Path(path).read_bytes(), str(path)))

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
        belief = self._read(read_key(check_text(text)))
        colours = as_lab(lab)
        if not belief.known:
            return np.full(colours.shape[:-1], FLAT_LOG_DENSITY)
        log_p = belief.log_gaussian(colours)
        if belief.term >= 0:
            # share x Gaussian + (1 - share) x smoothed histogram (zero outside c3's bins).
            hist = self._c3_density(belief.term)[self._c3_grid.bins(colours)]
            log_p = np.logaddexp(math.log(C3_GAUSSIAN_SHARE) + log_p, hist)
        return floored(log_p)

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts, the Gaussians evaluated together: shape
        ``(len(texts), *lab.shape[:-1])``. Sums run in another order, so the numbers may differ
        from :meth:`score`'s in the last bits (for screening many texts)."""
        colours = as_lab(lab)
        flat_pts = colours.reshape(-1, 3)
        keys = [read_key(check_text(t)) for t in texts]
        pairs = self._word_products(keys)
        beliefs = [None if pairs[i] is not None else self._read(k) for i, k in enumerate(keys)]
        out = np.full((len(texts), len(flat_pts)), FLAT_LOG_DENSITY)
        rows = [i for i, b in enumerate(beliefs) if b is None or b.known]
        if rows:
            centre = np.stack([_pick(pairs[i], beliefs[i], True) for i in rows])
            cov = np.stack([_pick(pairs[i], beliefs[i], False) for i in rows])
            chol = np.linalg.cholesky(cov)
            whiten = np.linalg.inv(chol)
            z = (flat_pts[None, :, :] - centre[:, None, :]) @ whiten.transpose(0, 2, 1)
            log_det = 2.0 * np.log(np.diagonal(chol, axis1=1, axis2=2)).sum(axis=1)
            log_norm = -0.5 * (log_det + 3.0 * math.log(2.0 * math.pi))
            log_p = log_norm[:, None] - 0.5 * (z * z).sum(axis=2)
            for j, i in enumerate(rows):
                b = beliefs[i]
                term = -1 if b is None else b.term
                if term >= 0:
                    hist = self._c3_density(term)[self._c3_grid.bins(flat_pts)]
                    log_p[j] = np.logaddexp(math.log(C3_GAUSSIAN_SHARE) + log_p[j], hist)
            out[rows] = floored(log_p)
        return out.reshape((len(texts), *colours.shape[:-1]))

    def _word_products(self, keys: Sequence[str]) -> list[tuple[FloatArray, FloatArray] | None]:
        """For each :func:`name_key` that is two known single words and no name, modifier, c3
        term or word that says nothing of a colour (most two-word clues), the (mean,
        covariance) of its reading, computed for all of them together (the numbers may differ
        from :meth:`predict`'s in the last bits); ``None`` for other keys."""
        out: list[tuple[FloatArray, FloatArray] | None] = [None] * len(keys)
        rows: list[int] = []
        words: list[tuple[int, int]] = []
        for i, key in enumerate(keys):
            tokens = key.split(" ")
            if (
                len(tokens) == 2
                and key not in self._name_index
                and key not in self._c3_index
                and tokens[0] not in self._modifiers
                and tokens[0] in self._word_index
                and tokens[1] in self._word_index
                and said(key) is None
            ):
                rows.append(i)
                words.append((self._word_index[tokens[0]], self._word_index[tokens[1]]))
        if rows:
            f = self._fitted
            a, b = (np.array(w, dtype=np.intp) for w in zip(*words, strict=True))
            pa, pb = np.linalg.inv(f.word_cov[a]), np.linalg.inv(f.word_cov[b])
            cov = np.linalg.inv(pa + pb)
            weighted = (pa @ f.word_mean[a][:, :, None] + pb @ f.word_mean[b][:, :, None])[..., 0]
            mean = (cov @ weighted[:, :, None])[..., 0]
            cov = symmetric(cov)
            for j, i in enumerate(rows):
                out[i] = (mean[j], cov[j])
        return out

    def predict(self, text: str) -> Prediction:
        """The text's colour and spread; for a text with no known word, the data's mean colour
        spread over the whole gamut, with ``known=False``."""
        b = self._read(read_key(check_text(text)))
        return Prediction(b.mean.copy(), b.cov.copy(), known=b.known, source=b.source)

    # ----------------------------------------------------------------- vocabulary

    def known(self, text: str) -> bool:
        """Whether the model reads any of the text (a name or at least one known word)."""
        return self._read(read_key(check_text(text))).known

    def words(self) -> frozenset[str]:
        """Every single word the model knows (as :func:`words_of` writes words)."""
        return frozenset(self._fitted.word_keys)

    def names(self) -> frozenset[str]:
        """Every exact name the model knows (as :func:`name_key` writes names)."""
        return frozenset(self._fitted.name_keys)

    def is_name(self, text: str) -> bool:
        """Whether the text is a name of the data or one of c3's terms."""
        key = read_key(check_text(text))
        return key in self._name_index or key in self._c3_index

    def is_modifier(self, word: str) -> bool:
        """Whether the word is a modifier learned from the data (``pale``, ``dark``, ...)."""
        return read_key(word) in self._modifiers

    def modifiers(self) -> dict[str, Modifier]:
        """The learned modifiers by word."""
        return dict(self._modifiers)

    def modifier(self, word: str) -> Modifier:
        """A modifier's learned map; KeyError if the word is not a modifier."""
        key = read_key(word)
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
            c3_mean, c3_cov = weighted_gaussian(f.c3_bin_lab, f.c3_counts[:, term])
            mean = f.name_lab[name] if name >= 0 else c3_mean
            return _Belief(mean, c3_cov, "c3", term=term, score_mean=c3_mean)
        if name >= 0:
            return self._name_belief(name)
        if (words := said(key)) is not None:
            return self._read(words)  # "the blue one" is "blue"
        tokens = key.split(" ")
        if len(tokens) > 1 and tokens[0] in self._modifiers:
            rest = self._read(" ".join(tokens[1:]))
            if rest.known:
                mod = self._modifiers[tokens[0]]
                a, t = mod.matrix()
                return _Belief(
                    a @ rest.mean + t,
                    symmetric(a @ rest.cov @ a.T + mod.cov),
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
    model = NamingModel(FittedArrays.load(raw))
    register_shipped(model, "naming")
    return model


def _modifier_from_arrays(f: FittedArrays, i: int) -> Modifier:
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
