"""What words mean in colour: a word's colour as a distribution over the 11 basic colour terms
and, where it is known, the lightness and chroma people picture (from CoDa's ratings, WordNet's
glosses, the naming data and the authors' ratings; carried to other words by word vectors), read
on colours through c3's p(term | colour), which peaks on focal, typical colours; each word with
how much is known of it (its evidence), so that a word known only from its vector reads
broadly."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import math
import re
import weakref
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._capabilities import ColourTermModelBase, model_cache_key, view_colours
from ._embedding import TextEncoder, static_encoder
from ._files import model_file
from ._identity import register_shipped
from ._naming import british, floored, name_key, said
from ._protocol import (
    FLAT_LOG_DENSITY,
    SRGB_GAMUT_VOLUME,
    FloatArray,
    Prediction,
    as_lab,
    check_text,
)

__all__ = [
    "BASIC_TERMS",
    "KNOWLEDGE_SOURCES",
    "SPELLING_MIN",
    "VIEW_POWER",
    "ObjectColourModel",
    "TermGrid",
    "carry",
]

#: The 11 basic colour terms of English (Berlin & Kay), in the order of every distribution.
BASIC_TERMS = (
    "black",
    "blue",
    "brown",
    "gray",
    "green",
    "orange",
    "pink",
    "purple",
    "red",
    "white",
    "yellow",
)
#: The sources a word's knowledge can come from, in the order of the bits of ``sources``
#: (docs/knowledge.md names each with its licence).
KNOWLEDGE_SOURCES = (
    "coda",
    "c3",
    "wordnet",
    "names",
    "authors",
    "culture",
    "literature",
    "glove",
)
#: Spread of the lightness and chroma a word's reading prefers (CIELAB units): fixed by design.
TONE_SPREAD = (12.0, 18.0)
DATA_FILE = "object_colours.npz"
_PACKAGE = "huescues.data"
_FOLDER = "objects"
#: Smallest p(term | colour) a reading uses, so that logs stay finite.
_TINY = 1e-6
#: How far a reading in view (:meth:`ObjectColourModel.in_view`) makes up for a term the colours
#: in view fit poorly: each term's weight is divided by its mean p(term | colour) over them to
#: this power (0: not at all; 1: fully, so every term's best colour in view counts alike). Chosen
#: on blind probe lists and the dev clues, confirmed on a blind list written after
#: (docs/knowledge.md, "Read against the board").
VIEW_POWER = 0.5
#: The fewest letters of a misspelt word put right (:meth:`ObjectColourModel.spelled`): a
#: shorter word lies one edit from too many others. Measured on blind probe lists and typos made
#: from them (docs/knowledge.md, "A misspelt word").
SPELLING_MIN = 5
#: The fewest letters of a name matched written together or apart (:func:`_compact`).
_COMPACT_LETTERS = 6
#: The fewest letters of a short form read as the one name it is part of (:func:`_part_of`).
_PART_LETTERS = 4
#: A card's hint in brackets (:meth:`ObjectColourModel._key`).
_BRACKETED = re.compile(r"\([^()]*\)?")
#: Each language pack's words in common use (the clue rules' list, R19 (c)): never read as part of
#: a name, nor as a misspelt word.
_COMMON_WORDS = "languages/{}/common_words.txt.gz"


@dataclass(frozen=True, slots=True, eq=False)
class TermGrid:
    """p(basic term | colour) on a regular CIELAB grid: ``p[i, j, k, t]`` at
    ``origin + step * (i, j, k)``; colours off the grid take the nearest cell."""

    origin: FloatArray
    step: float
    p: FloatArray = field(repr=False)
    #: Cells inside the colours people named (c3's bins), for normalising and modes.
    inside: NDArray[np.bool_] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.p.ndim != 4 or self.p.shape[-1] != len(BASIC_TERMS):
            raise ValueError(f"a term grid has shape (L, a, b, 11), not {self.p.shape}")

    def cells(self, lab: FloatArray) -> tuple[NDArray[np.intp], ...]:
        """Grid indices of the nearest cell of each colour (last axis 3)."""
        idx = np.rint((lab - self.origin) / self.step).astype(np.intp)
        hi = np.asarray(self.p.shape[:3]) - 1
        idx = np.clip(idx, 0, hi)
        return idx[..., 0], idx[..., 1], idx[..., 2]

    def p_at(self, lab: ArrayLike) -> FloatArray:
        """p(term | colour) for each colour: shape ``lab.shape[:-1] + (11,)``."""
        out: FloatArray = np.asarray(self.p[self.cells(np.asarray(lab, dtype=np.float64))])
        return out


def carry(weights: Sequence[FloatArray], x: FloatArray) -> FloatArray:
    """The fitted map from word vectors ``x`` (n, dim) to 11-term distributions: a linear map
    (two arrays) or a network with one ReLU layer (four arrays) to log-distributions, then a
    softmax."""
    if len(weights) == 2:
        z = x @ weights[0] + weights[1]
    elif len(weights) == 4:
        h = np.maximum(x @ weights[0] + weights[1], 0.0)
        z = h @ weights[2] + weights[3]
    else:
        raise ValueError(f"a carry map has 2 or 4 weight arrays, not {len(weights)}")
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: FloatArray = e / e.sum(axis=-1, keepdims=True)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class _Reading:
    """What the model makes of one text: its distribution over the basic terms, the lightness
    and chroma it prefers (or None), its evidence, the sources it comes from (bits of
    :data:`KNOWLEDGE_SOURCES`) and the log of its reading's normaliser over the colours people
    named."""

    q: FloatArray
    tone: FloatArray | None
    evidence: float
    sources: int
    log_norm: float


class ObjectColourModel(ColourTermModelBase):
    """What words mean in colour, from knowledge of the world (a :class:`ColourTermModel`).

    Each known word has a distribution ``q`` over :data:`BASIC_TERMS` (bananas: mostly yellow;
    anger: red, some black), and may have a tone: the lightness L* and chroma C* people picture
    (an hour of the day: bright, warm, light). Other texts get both from their word vector; a
    phrase of known words reads as their product. A colour ``c`` is scored by
    ``log sum_t q_t p(t | c)^focus + tone_weight * g(c)``, normalised over the colours people
    named, where ``g`` is a Gaussian fall-off in L* and C* around the tone (spreads
    :data:`TONE_SPREAD`). So a reading peaks where people most readily give the term, its
    focal colour, at the tone people picture, not at the average of everything the word names.

    Every word carries its **evidence** (:meth:`evidence`, also ``predict(text).evidence``): the
    chance, measured on held-out words, that the reading's main colour is the one people give.
    With ``temper`` the reading is mixed with the flat answer by it, ``evidence * reading +
    (1 - evidence) * flat`` in log terms: a word with attested colour reads sharply, a word
    known only from its vector broadly.
    """

    def __init__(
        self,
        words: Sequence[str],
        q: ArrayLike,
        grid: TermGrid,
        net: Sequence[ArrayLike],
        *,
        encoder: TextEncoder | None = None,
        focus: float = 1.0,
        metadata: dict[str, Any] | None = None,
        tone: ArrayLike | None = None,
        evidence: ArrayLike | None = None,
        sources: ArrayLike | None = None,
        tone_net: Sequence[ArrayLike] = (),
        tone_weight: float = 0.0,
        temper: bool = False,
        carried_evidence: float = 0.25,
        view: ArrayLike | None = None,
    ) -> None:
        dist = np.asarray(q, dtype=np.float64)
        n = len(words)
        if dist.shape != (n, len(BASIC_TERMS)):
            raise ValueError(f"q has shape {dist.shape}, not ({n}, {len(BASIC_TERMS)})")
        if not (math.isfinite(focus) and focus > 0):
            raise ValueError(f"focus must be a positive number, not {focus}")
        if not (math.isfinite(tone_weight) and tone_weight >= 0):
            raise ValueError(f"tone_weight must be a non-negative number, not {tone_weight}")
        if not 0.0 <= carried_evidence <= 1.0:
            raise ValueError(f"carried_evidence must lie in [0, 1], not {carried_evidence}")
        dist = np.maximum(dist, 0.0)
        dist = dist / np.maximum(dist.sum(axis=1, keepdims=True), 1e-12)
        tones = np.full((n, 2), np.nan) if tone is None else np.asarray(tone, dtype=np.float64)
        ev = np.ones(n) if evidence is None else np.asarray(evidence, dtype=np.float64)
        bits = np.zeros(n, dtype=np.int64) if sources is None else np.asarray(sources, np.int64)
        if tones.shape != (n, 2) or ev.shape != (n,) or bits.shape != (n,):
            raise ValueError(
                f"tone, evidence and sources need shapes ({n}, 2), ({n},), ({n},), not "
                f"{tones.shape}, {ev.shape}, {bits.shape}"
            )
        if not np.all((ev >= 0) & (ev <= 1)):
            raise ValueError("evidence must lie in [0, 1] for every word")
        self._index = {w: i for i, w in enumerate(words)}
        self._q = dist
        self._tone = tones
        self._evidence = ev
        self._sources = bits
        self._net = [np.asarray(a, dtype=np.float64) for a in net]
        self._tone_net = [np.asarray(a, dtype=np.float64) for a in tone_net]
        self._encoder = static_encoder() if encoder is None else encoder
        self.focus = float(focus)
        self.tone_weight = float(tone_weight)
        self.temper = bool(temper)
        self.carried_evidence = float(carried_evidence)
        self._raw_grid = grid
        self.grid = TermGrid(
            grid.origin, grid.step, np.maximum(grid.p, _TINY) ** focus, grid.inside
        )
        inside = grid.inside if grid.inside is not None else np.ones(grid.p.shape[:3], dtype=bool)
        self._inside_p = self.grid.p[inside]  # (cells, 11)
        self._inside_lab = grid.origin + grid.step * np.argwhere(inside).astype(np.float64)
        self._inside_lc = _lightness_chroma(self._inside_lab)
        self.metadata = dict(metadata or {})
        # In view of colours: the colours, the terms' weights, and the model read alone that
        # this one was made from (weakly: a player's cache of models in view must not keep it
        # alive) with its name.
        self._root: weakref.ref[ObjectColourModel] | None = None
        self._root_key: str | None = None
        self._view: FloatArray | None = None
        self._view_weights: FloatArray | None = None
        self._view_tag = ""
        if view is not None:
            self._set_view(view_colours(view))
        self._reading = functools.lru_cache(maxsize=1 << 14)(self._read_key)
        self._spelling = functools.lru_cache(maxsize=1 << 14)(self._spelled_key)

    def __reduce__(self) -> tuple[Any, ...]:
        # The shipped model pickles as a reference (workers load their own copy), a model in
        # view as the one it was read from and the colours; others by their arrays (the
        # per-text cache is not pickled).
        if self is _default_model():
            return (ObjectColourModel.default, ())
        root = None if self._root is None else self._root()
        if root is not None and self._view is not None:
            return (_in_view_of, (root, self._view))
        return (_rebuild, (self._arrays(), self._settings()))

    @property
    def cache_key(self) -> str | None:
        """The shipped model's name and data hash (:func:`model_cache_key`); for a model in view
        (:meth:`in_view`), that of the model it was read from and a hash of the colours in view
        (``objects@...@view-3f2a...``); else ``None``."""
        if self._view is None:
            return super().cache_key
        return None if self._root_key is None else self._root_key + self.view_tag

    @property
    def view(self) -> FloatArray | None:
        """The colours in view (CIELAB, ``(n, 3)``, read-only), or ``None`` for colours read
        alone (:meth:`in_view`)."""
        return self._view

    @property
    def view_tag(self) -> str:
        """``""`` for colours read alone, else ``"@view-"`` and a hash of the colours in view:
        what a model in view adds to a name of its scores."""
        return self._view_tag

    def in_view(self, lab: ArrayLike) -> ObjectColourModel:
        """The same knowledge read against the colours in view, ``lab`` (last axis 3: a
        board's squares; any earlier view is replaced).

        Each basic term's weight in a reading is divided by the square root
        (:data:`VIEW_POWER`) of its mean p(term | colour) over the colours in view, so a term
        they fit poorly still counts: on a board with no square people would call black or
        white, a black thing (a gorilla: black, some gray) reads as the darkest squares, not as
        the grey that fits its lesser colour best. Scores stay normalised over the colours
        people named, as :meth:`score`'s. The copy shares this model's arrays; its readings are
        its own."""
        colours = view_colours(lab)
        out = object.__new__(ObjectColourModel)
        out.__dict__.update(self.__dict__)
        if self._view is None:
            out._root, out._root_key = weakref.ref(self), model_cache_key(self)
        out._set_view(colours)
        out._reading = functools.lru_cache(maxsize=1 << 14)(out._read_key)
        out._spelling = functools.lru_cache(maxsize=1 << 14)(out._spelled_key)
        return out

    def _set_view(self, colours: FloatArray) -> None:
        mean = np.asarray(self.grid.p_at(colours), dtype=np.float64).reshape(-1, len(BASIC_TERMS))
        weights = np.maximum(mean.mean(axis=0), _TINY) ** -VIEW_POWER
        self._view = colours
        self._view_weights = weights / weights.mean()
        # Rounded as boards are hashed: the same sRGB board converts to CIELAB values that
        # differ in the last bits between machines.
        rounded = np.round(colours, 6) + 0.0  # + 0.0: no -0.0
        digest = hashlib.sha256(np.ascontiguousarray(rounded).tobytes()).hexdigest()[:12]
        self._view_tag = f"@view-{digest}"

    def _arrays(self) -> dict[str, Any]:
        g = self._raw_grid
        return {
            "words": self.words,
            "q": self._q,
            "grid": g,
            "net": self._net,
            "tone": self._tone,
            "evidence": self._evidence,
            "sources": self._sources,
            "tone_net": self._tone_net,
            "metadata": self.metadata,
        }

    def _settings(self) -> dict[str, Any]:
        return {
            "focus": self.focus,
            "tone_weight": self.tone_weight,
            "temper": self.temper,
            "carried_evidence": self.carried_evidence,
            "view": self._view,
        }

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def default(cls) -> ObjectColourModel:
        """The shipped model (loaded once; ``src/huescues/data/objects/``), read with the
        settings the build chose (``metadata["reading"]``)."""
        return _default_model()

    @classmethod
    def load(
        cls,
        path: str | Path | IO[bytes],
        *,
        focus: float | None = None,
        tone_weight: float | None = None,
        temper: bool | None = None,
    ) -> ObjectColourModel:
        """Read the arrays written by ``scripts/build_object_colours.py`` (npz, no pickle);
        settings not given are the file's own (``metadata["reading"]``)."""
        with model_file(path, "an object colour model") as z:
            words = str(z["words"]).split("\n")
            grid = TermGrid(
                np.asarray(z["grid_origin"], dtype=np.float64),
                float(z["grid_step"]),
                np.asarray(z["grid"], dtype=np.float64),
                np.unpackbits(z["grid_inside"])[: int(np.prod(z["grid"].shape[:3]))]
                .reshape(z["grid"].shape[:3])
                .astype(bool),
            )
            net = [z[f"carry_{i}"] for i in range(sum(k.startswith("carry_") for k in z.files))]
            tone_net = [z[f"tone_{i}"] for i in range(sum(k.startswith("tone_") for k in z.files))]
            meta = json.loads(str(z["metadata"]))
            reading = dict(meta.get("reading", {}))
            has = set(z.files)
            return cls(
                words,
                z["q"],
                grid,
                net,
                focus=float(reading.get("focus", 1.0)) if focus is None else focus,
                metadata=meta,
                tone=z["tone"] if "tone" in has else None,
                evidence=z["evidence"] if "evidence" in has else None,
                sources=z["sources"] if "sources" in has else None,
                tone_net=tone_net,
                tone_weight=(
                    float(reading.get("tone_weight", 0.0)) if tone_weight is None else tone_weight
                ),
                temper=bool(reading.get("temper", False)) if temper is None else temper,
                carried_evidence=float(reading.get("carried_evidence", 0.25)),
            )

    def with_focus(self, focus: float) -> ObjectColourModel:
        """The same knowledge read with another ``focus``."""
        return self.with_reading(focus=focus)

    def with_reading(
        self,
        *,
        focus: float | None = None,
        tone_weight: float | None = None,
        temper: bool | None = None,
    ) -> ObjectColourModel:
        """The same knowledge read with other settings (those not given are kept)."""
        settings = self._settings()
        for name, value in (("focus", focus), ("tone_weight", tone_weight), ("temper", temper)):
            if value is not None:
                settings[name] = value
        return _rebuild(self._arrays(), settings, encoder=self._encoder)

    def with_knowledge(
        self,
        words: Sequence[str],
        q: ArrayLike,
        *,
        tone: ArrayLike,
        evidence: ArrayLike,
        sources: ArrayLike,
    ) -> ObjectColourModel:
        """Other words' knowledge read as this model reads its own (the same colour grid, tone
        and settings): a language pack's words rated in that language (``spanish_knowledge``).
        Texts it does not know are carried by the English word vectors, so ask :meth:`knows`."""
        arrays = self._arrays()
        arrays["words"] = tuple(name_key(w) for w in words)
        arrays["q"] = np.asarray(q, dtype=np.float64)
        arrays["tone"] = np.asarray(tone, dtype=np.float64)
        arrays["evidence"] = np.asarray(evidence, dtype=np.float64)
        arrays["sources"] = np.asarray(sources, dtype=np.int64)
        return _rebuild(arrays, self._settings(), encoder=self._encoder)

    def without(self, words: Sequence[str]) -> ObjectColourModel:
        """The same model with ``words`` and their other forms (plurals, singulars, with "the",
        written together or apart) forgotten (carried by their vectors instead): for
        evaluations held out by word."""
        forgotten = covered_by(words)
        keep = [i for i, w in enumerate(self.words) if not forgotten(w)]
        arrays = self._arrays()
        arrays["words"] = tuple(self.words[i] for i in keep)
        for name in ("q", "tone", "evidence", "sources"):
            arrays[name] = arrays[name][keep]
        return _rebuild(arrays, self._settings(), encoder=self._encoder)

    # -- reading ---------------------------------------------------------------------------

    @property
    def words(self) -> tuple[str, ...]:
        """The words the data know (normalised with :func:`name_key`)."""
        return tuple(self._index)

    def knows(self, text: str) -> bool:
        """Whether the data know the text itself (otherwise it is read as another form of a
        known word, as a phrase of known words, or carried by its word vector)."""
        return name_key(check_text(text)) in self._index

    def spelled(self, text: str) -> str:
        """The text as the knowledge reads it when a word of it is misspelt: where the data
        read nothing of the text (no word, form, name or phrase of known words), each word of
        :data:`SPELLING_MIN` letters or more that the data do not know and that is no English
        word in common use is put right, if exactly one word with a reading of its own lies one
        edit away (a letter left out, added or changed, or two letters swapped: ``emrald`` is
        ``emerald``, ``avacado`` ``avocado``), and the text so put right is kept if the data then
        read it, normalised (:func:`name_key`). Otherwise the text itself."""
        fixed = self._spelling(self._key(text))
        return text if fixed is None else fixed

    def _spelled_key(self, key: str) -> str | None:
        """:meth:`spelled` of a normalised text: the text put right, or None (kept per text)."""
        if not key or self._reads(key):
            return None
        return self._respelled(key)

    def distribution(self, text: str) -> FloatArray:
        """The text's distribution over :data:`BASIC_TERMS` (sums to 1); a copy."""
        key = self._key(text)
        i = self._known_index(key)
        if i is not None:
            return np.array(self._q[i], dtype=np.float64)
        r = self._reading(key)
        return np.zeros(len(BASIC_TERMS)) if r is None else r.q.copy()

    def tone(self, text: str) -> tuple[float, float] | None:
        """The lightness L* and chroma C* people picture for the text, or None where it has
        no tone of its own."""
        r = self._reading(self._key(text))
        if r is None or r.tone is None:
            return None
        return float(r.tone[0]), float(r.tone[1])

    def evidence(self, text: str) -> float:
        """How much is known of the text's colour, 0 to 1: the chance, measured on held-out
        words, that its reading's main colour is the one people give (docs/knowledge.md).
        0 for a text with nothing to read."""
        key = self._key(text)
        i = self._known_index(key)
        if i is not None:
            return float(self._evidence[i])
        r = self._reading(key)
        return 0.0 if r is None else r.evidence

    def sources(self, text: str) -> tuple[str, ...]:
        """Where the text's knowledge comes from (names of :data:`KNOWLEDGE_SOURCES`), ``()``
        for a text carried by its word vector alone."""
        key = self._key(text)
        i = self._known_index(key)
        if i is not None:
            bits = int(self._sources[i])
        else:
            r = self._reading(key)
            if r is None:
                return ()
            bits = r.sources
        return tuple(name for k, name in enumerate(KNOWLEDGE_SOURCES) if bits >> k & 1)

    @property
    def named_colours(self) -> FloatArray:
        """The CIELAB colours people named in the c3 survey (its bins): where readings are
        normalised and peaks are looked for."""
        out: FloatArray = self._inside_lab
        return out

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """log p(colour | text) for CIELAB colours ``lab`` (last axis 3); shape
        ``lab.shape[:-1]``; finite everywhere (a text with no letters: the flat answer)."""
        r = self._reading(self._key(text))
        colours = as_lab(lab)
        if r is None:
            return np.full(colours.shape[:-1], FLAT_LOG_DENSITY)
        log_like = self._log_like(self.grid.p_at(colours), _lightness_chroma(colours), r)
        return self._finish(log_like - r.log_norm, r.evidence)

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts: the texts not yet read are encoded and carried
        together, and every text's reading is evaluated at the colours in one product. Sums run
        in another order, so the numbers may differ from :meth:`score`'s in the last bits (for
        screening many texts); nothing it computes is cached."""
        colours = as_lab(lab)
        flat_pts = colours.reshape(-1, 3)
        keys = [self._key(t) for t in texts]
        readings = self._read_many(list(dict.fromkeys(keys)))
        out = np.full((len(texts), len(flat_pts)), FLAT_LOG_DENSITY)
        p = self.grid.p_at(flat_pts)
        lc = _lightness_chroma(flat_pts)
        for i, key in enumerate(keys):
            r = readings[key]
            if r is not None:
                out[i] = self._finish(self._log_like(p, lc, r) - r.log_norm, r.evidence)
        return out.reshape((len(texts), *colours.shape[:-1]))

    def predict(self, text: str) -> Prediction:
        """The colour where the reading peaks, with the spread of the reading around it and
        the text's evidence."""
        key = self._key(text)
        r = self._reading(key)
        if r is None:
            return Prediction(np.array([50.0, 0.0, 0.0]), np.eye(3) * 1e3, False, "objects", 0.0)
        s = self._log_like(self._inside_p, self._inside_lc, r)
        if self.temper:
            s = r.evidence * s
        w = np.exp(s - s.max())
        mode = self._inside_lab[int(np.argmax(w))]
        w = w / w.sum()
        diff = self._inside_lab - mode
        cov = (w[:, None] * diff).T @ diff + np.eye(3)
        names = self.sources(text)
        source = "objects (" + (", ".join(names) if names else "word vector") + ")"
        return Prediction(mode.copy(), cov, True, source, r.evidence)

    # -- the parts of a reading ------------------------------------------------------------

    def _log_like(self, p: FloatArray, lc: FloatArray, r: _Reading) -> FloatArray:
        """log sum_t q_t p(t | c)^focus plus the tone's fall-off, unnormalised (in view, each
        q_t times the term's weight in view)."""
        q = r.q if self._view_weights is None else r.q * self._view_weights
        out: FloatArray = np.log(np.maximum(p @ q, 1e-300))
        if r.tone is not None and self.tone_weight > 0:
            out = out + self.tone_weight * _tone_fall_off(lc, r.tone)
        return out

    def _finish(self, log_p: FloatArray, evidence: float) -> FloatArray:
        if self.temper:
            log_p = evidence * log_p + (1.0 - evidence) * FLAT_LOG_DENSITY
        return floored(log_p)

    def _make(self, q: FloatArray, tone: FloatArray | None, ev: float, bits: int) -> _Reading:
        """A reading with its normaliser over the colours people named."""
        q = np.asarray(q, dtype=np.float64)
        q.flags.writeable = False
        r = _Reading(q, tone, float(ev), int(bits), 0.0)
        s = self._log_like(self._inside_p, self._inside_lc, r)
        top = float(s.max())
        log_norm = top + math.log(float(np.exp(s - top).mean()) * SRGB_GAMUT_VOLUME)
        return _Reading(q, tone, float(ev), int(bits), log_norm)

    def _key(self, text: str) -> str:
        """The normalised text a clue is read as: a card's words in brackets are a hint, not
        the clue (``woody (toy story)``), so it reads as the words outside them, unless the
        knowledge knows the whole as it is or in another form (``kermit (the frog)`` is
        ``kermit the frog``) or the hint adds a companion (``bert (and ernie)``: the pair's,
        :func:`without_hints`)."""
        key = name_key(check_text(text))
        if "(" not in text:
            return key
        outside = name_key(without_hints(text))
        if not outside or self._known_index(key) is not None:
            return key
        return outside

    def _known(self, i: int) -> _Reading:
        t = self._tone[i]
        return self._make(
            self._q[i], None if np.isnan(t).any() else t.copy(), self._evidence[i], self._sources[i]
        )

    def _read_key(self, key: str) -> _Reading | None:
        return self._read_many([key])[key]

    def _read_many(self, keys: list[str]) -> dict[str, _Reading | None]:
        """Readings of normalised texts: known words from the data (or the name a longer text
        holds, :meth:`_name_inside`), a text without its words that say nothing of a colour
        (:func:`said`), phrases of known words as the product of their words' readings, the rest
        carried by their word vectors (encoded together)."""
        out: dict[str, _Reading | None] = {}
        new: list[str] = []
        for key in keys:
            i = self._index.get(key)
            if i is None:
                i = self._variant(key)
            if i is None:
                i = self._name_inside(key)
            if i is None and (words := said(key)) is not None:
                out[key] = self._read_many([words])[words]  # "the blue one" is "blue"
            elif i is not None:
                out[key] = self._known(i)
            elif not key:
                out[key] = None
            elif (phrase := self._phrase(key)) is not None:
                out[key] = phrase
            elif (fixed := self._spelling(key)) is not None:
                out[key] = self._read_many([fixed])[fixed]  # a misspelt word put right
            else:
                new.append(key)
        if new:
            x, ok = self._encoder.encode(new)
            vec = np.asarray(x, dtype=np.float64)
            carried = carry(self._net, vec)
            tones = _carry_tone(self._tone_net, vec)
            for j, key in enumerate(new):
                if not bool(ok[j]):
                    out[key] = None
                    continue
                t = None if tones is None else tones[j]
                out[key] = self._make(carried[j], t, self.carried_evidence, 0)
        return out

    def _known_index(self, key: str) -> int | None:
        """The known word a normalised text is, or is a form of (as :meth:`_read_many` finds
        it; a name inside a longer text is found there): its facts are looked up, with no
        reading made (a reading's normaliser costs about a millisecond)."""
        i = self._index.get(key)
        return self._variant(key) if i is None else i

    def _variant(self, key: str) -> int | None:
        """The known word a text is another form of (:func:`_forms`), the first one known; else
        the known word it is when written together or apart (``tinkerbell`` is ``tinker bell``,
        ``lady bug`` is ``ladybug``: people write names either way). A text with an American
        spelling the data do not know is read in the British one (``grayish``: :func:`british`);
        the data know both spellings of most words, and some names only one (``the color
        purple``)."""
        spelt = british(key)
        forms = _forms(key) if spelt == key else [spelt, *_forms(spelt), *_forms(key)]
        for form in forms:
            i = self._index.get(form)
            if i is not None:
                return i
        joined = self._joined
        for form in (key, *forms):
            i = joined.get(_compact(form))
            if i is not None:
                return i
        if _part_of(key):
            for form in (key, *forms):
                i = self._parts.get(form)
                if i is not None:
                    return i
        return None

    def _reads(self, key: str) -> bool:
        """Whether the data read a normalised text: a known word or a form of one, a name
        inside it, or a phrase of known words (not carried by its word vector)."""
        return (
            self._known_index(key) is not None
            or self._name_inside(key) is not None
            or self._phrase(key) is not None
        )

    def _respelled(self, key: str) -> str | None:
        """A normalised text the data do not read with its misspelt words put right
        (:meth:`spelled`), if the data read it so; else None."""
        words = key.split()
        changed = False
        for i, word in enumerate(words):
            if (
                len(word) < SPELLING_MIN
                or not word.isalpha()
                or word in self._index
                or word in _common_words()
            ):
                continue
            near = {w for w in _one_edit(word) if w in self._attested_words}
            # A word and its plural are one word ("olivee": olive, not olives).
            near = {w for w in near if not any(f in near for f in _forms(w) if len(f) < len(w))}
            if len(near) == 1:  # two or more: which was meant is anyone's guess
                words[i] = near.pop()
                changed = True
        fixed = " ".join(words)
        return fixed if changed and self._reads(fixed) else None

    @functools.cached_property
    def _attested_words(self) -> frozenset[str]:
        """The single words with a reading of their own (more evidence than a carried word's):
        what a misspelt word may be put right to."""
        return frozenset(
            w
            for w, i in self._index.items()
            if " " not in w and self._evidence[i] > self.carried_evidence
        )

    @functools.cached_property
    def _joined(self) -> dict[str, int]:
        """Each known word written without its spaces (:func:`_compact`), to its index: the
        first word of each such form, in the data's order."""
        out: dict[str, int] = {}
        for i, word in enumerate(self._index):
            if compact := _compact(word):
                out.setdefault(compact, i)
        return out

    @functools.cached_property
    def _parts(self) -> dict[str, int]:
        """The first and last word of each name from culture of two words or more (after a
        leading article), to that name's index, where the word is part of that name only:
        players shorten a name to it (``vader``, ``packers``)."""
        culture = 1 << KNOWLEDGE_SOURCES.index("culture")
        names: dict[str, set[int]] = {}
        for i, word in enumerate(self._index):
            if self._sources[i] & culture:
                for part in _ends(word):
                    names.setdefault(part, set()).add(i)
        return {part: min(ids) for part, ids in names.items() if len(ids) == 1}

    def _name_inside(self, key: str) -> int | None:
        """The name from culture a longer text begins or ends with (after a leading article),
        where the text is no known word: a card or a player writes a name with an epithet, a
        title or its franchise (``clifford the big red dog``, ``elmo from sesame street``, ``the
        amazing spider man``, ``super mario``). Its first words are tried first, longest first
        (the name comes first in "X the Y" and "X from Y"), then its last; a text that joins
        names with "and" is the pair's, read as a phrase."""
        words = _without_article(key.split())
        if len(words) < 2 or "and" in words:
            return None
        n = len(words)
        culture = 1 << KNOWLEDGE_SOURCES.index("culture")
        spans = [words[:size] for size in range(n - 1, 0, -1)]
        spans += [words[n - size :] for size in range(n - 1, 0, -1)]
        for span in spans:
            # As it is, or with "the" (the grinch); not another form, which would read a
            # title's adjective as a name (incredible: the incredibles).
            text = " ".join(span)
            i = self._index.get(text)
            if i is None:
                i = self._index.get("the " + text)
            if i is not None and self._sources[i] & culture:
                return i
        return None

    def _phrase(self, key: str) -> _Reading | None:
        """A phrase whose every word the data know (``dark forest``): the product of its words'
        distributions, their tones averaged, and evidence the least of the words' times how
        much their distributions overlap (words that pull apart are not one colour)."""
        parts = key.split()
        if len(parts) < 2 or any(p not in self._index for p in parts):
            return None
        idx = [self._index[p] for p in parts]
        qs = self._q[idx]
        log_q = np.log(np.maximum(qs, 1e-4)).mean(axis=0)
        q = np.exp(log_q - log_q.max())
        q /= q.sum()
        # The Bhattacharyya overlap of the words' distributions, pairwise, the least.
        overlap = min(
            float(np.sqrt(qs[a] * qs[b]).sum())
            for a in range(len(idx))
            for b in range(a + 1, len(idx))
        )
        tones = self._tone[idx]
        have = ~np.isnan(tones).any(axis=1)
        tone = tones[have].mean(axis=0) if have.any() else None
        ev = float(self._evidence[idx].min()) * overlap
        bits = int(np.bitwise_or.reduce(self._sources[idx]))
        return self._make(q, tone, ev, bits)


def _forms(key: str) -> list[str]:
    """Other forms of a normalised text that name the same thing: without a leading article
    ("the hulk"), or with "the" where it has none (a show known as "the simpsons" is typed
    "simpsons"), then its singular or plural ("minion", "smurfs"), with "the" last; three
    letters or more."""
    heads = ("the ", "a ", "an ")
    bare = [key[len(head) :] for head in heads if key.startswith(head)]
    forms = [*bare] if bare or not key else ["the " + key]
    plain = []
    for base in [key, *bare]:
        if base.endswith("ies"):
            plain.append(base[:-3] + "y")
        if base.endswith("es"):
            plain.append(base[:-2])
        if base.endswith("s"):
            plain.append(base[:-1])
        else:
            plain.append(base + "s")
    forms += plain
    if not bare and key:
        forms += ["the " + f for f in plain]
    return [f for f in forms if len(f) >= 3]


def without_hints(text: str, joiners: Collection[str] = ("and",)) -> str:
    """A clue card's text without its hints in brackets (``woody (toy story)``: ``woody``; a
    bracket left open runs to the end), or the text whole where a hint adds a companion, its
    first word one of ``joiners`` (``bert (and ernie)``): such a card is the pair's."""
    for hint in _BRACKETED.findall(text):
        if name_key(hint).split()[:1] in ([j] for j in joiners):
            return text
    return _BRACKETED.sub(" ", text)


def _ends(key: str) -> tuple[str, ...]:
    """The first and last word of a name of two words or more, after a leading article (a
    short form a player may give for it); ``()`` for a shorter name."""
    words = _without_article(key.split())
    if len(words) < 2:
        return ()
    return tuple(w for w in (words[0], words[-1]) if _part_of(w))


def _without_article(words: list[str]) -> list[str]:
    """A name's words without a leading article."""
    return words[1:] if words[:1] in (["the"], ["a"], ["an"]) else words


def _part_of(key: str) -> bool:
    """Whether a text may stand for a longer name as its short form: one word of four letters
    or more that is no English word in common use (``hotel`` is not the Grand Budapest Hotel,
    nor ``duty`` Call of Duty)."""
    return len(key) >= _PART_LETTERS and " " not in key and key not in _common_words()


_LOWER = "abcdefghijklmnopqrstuvwxyz"


def _one_edit(word: str, letters: str = _LOWER) -> set[str]:
    """The strings one edit from ``word``: a letter left out, added or changed (to one of
    ``letters``), or two neighbouring letters swapped (the word itself left out)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    out |= {a + b[1:] for a, b in splits if b}
    out |= {a + c + b for a, b in splits for c in letters}
    out |= {a + c + b[1:] for a, b in splits if b for c in letters}
    out.discard(word)
    return out


@functools.cache
def _common_words(language: str = "en") -> frozenset[str]:
    """A language pack's common words (R19 (c)'s list: English SCOWL's, Spanish ``wspanish``
    folded, ``ñ`` as ``n``), read once: words a misspelt word is not."""
    raw = resources.files(_PACKAGE).joinpath(_COMMON_WORDS.format(language)).read_bytes()
    return frozenset(gzip.decompress(raw).decode("utf-8").split())


def covered_by(words: Sequence[str]) -> Callable[[str], bool]:
    """Whether a known word (normalised) is one of ``words`` in any form the model reads as it
    (:func:`_forms`, written together or apart, or a name it is the short form of): what
    forgetting ``words`` must forget, in :meth:`ObjectColourModel.without` and in a knowledge
    build that leaves ratings out."""
    keys = {name_key(w) for w in words}
    keys |= {f for w in list(keys) for f in _forms(w)}
    joined = {_compact(w) for w in keys} - {""}
    parts = {w for w in keys if _part_of(w)}
    return lambda word: (
        word in keys or _compact(word) in joined or not parts.isdisjoint(_ends(word))
    )


def _compact(key: str) -> str:
    """A normalised text without its spaces, as a name is written together; ``""`` for a
    form too short to be told apart (under six letters: ``"a b"`` is no ``"ab"``)."""
    out = key.replace(" ", "")
    return out if len(out) >= _COMPACT_LETTERS else ""


def _lightness_chroma(lab: FloatArray) -> FloatArray:
    """L* and C* of CIELAB colours, last axis 2."""
    out: FloatArray = np.stack([lab[..., 0], np.hypot(lab[..., 1], lab[..., 2])], axis=-1)
    return out


def _tone_fall_off(lc: FloatArray, tone: FloatArray) -> FloatArray:
    """The log of a Gaussian fall-off (unnormalised) in L* and C* around ``tone``."""
    z = (lc - tone) / np.asarray(TONE_SPREAD)
    out: FloatArray = -0.5 * (z * z).sum(axis=-1)
    return out


def _carry_tone(weights: Sequence[FloatArray], x: FloatArray) -> FloatArray | None:
    """The fitted linear map from word vectors to a tone (L*, C*), or None without one."""
    if len(weights) != 2:
        return None
    out: FloatArray = np.clip(x @ weights[0] + weights[1], [5.0, 0.0], [98.0, 110.0])
    return out


def _rebuild(
    arrays: dict[str, Any], settings: dict[str, Any], encoder: TextEncoder | None = None
) -> ObjectColourModel:
    return ObjectColourModel(
        arrays["words"],
        arrays["q"],
        arrays["grid"],
        arrays["net"],
        encoder=encoder,
        metadata=arrays["metadata"],
        tone=arrays["tone"],
        evidence=arrays["evidence"],
        sources=arrays["sources"],
        tone_net=arrays["tone_net"],
        **settings,
    )


def _in_view_of(model: ObjectColourModel, view: FloatArray) -> ObjectColourModel:
    return model.in_view(view)


@functools.cache
def _default_model() -> ObjectColourModel:
    with resources.files(_PACKAGE).joinpath(_FOLDER).joinpath(DATA_FILE).open("rb") as fh:
        model = ObjectColourModel.load(fh)
    register_shipped(model, "objects")
    return model
