"""What things look like: a word's colour as a distribution over the 11 basic colour terms (from
CoDa's ratings, WordNet's glosses and the naming data; carried to other words by the word
vectors), read on colours through c3's p(term | colour), which peaks on focal, typical colours."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._embedding import TextEncoder, static_encoder
from ._identity import register_shipped
from ._naming import floored, name_key
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
DATA_FILE = "object_colours.npz"
_PACKAGE = "huescues.data"
_FOLDER = "objects"
#: Smallest p(term | colour) a reading uses, so that logs stay finite.
_TINY = 1e-6


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


class ObjectColourModel:
    """A word's colour from knowledge of what things look like (a :class:`ColourTermModel`).

    Each known word has a distribution ``q`` over :data:`BASIC_TERMS` (bananas: mostly yellow);
    other texts get one from their word vector. A colour ``c`` is scored by
    ``log sum_t q_t p(t | c)^focus``, normalised over the colours people named, so a reading peaks
    where people most readily give the term, its focal colour (where people click), not at the
    average colour of everything the word names. ``focus`` above 1 sharpens the peaks.
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
    ) -> None:
        dist = np.asarray(q, dtype=np.float64)
        if dist.shape != (len(words), len(BASIC_TERMS)):
            raise ValueError(f"q has shape {dist.shape}, not ({len(words)}, {len(BASIC_TERMS)})")
        if not (math.isfinite(focus) and focus > 0):
            raise ValueError(f"focus must be a positive number, not {focus}")
        dist = np.maximum(dist, 0.0)
        dist = dist / np.maximum(dist.sum(axis=1, keepdims=True), 1e-12)
        self._index = {w: i for i, w in enumerate(words)}
        self._q = dist
        self._net = [np.asarray(a, dtype=np.float64) for a in net]
        self._encoder = static_encoder() if encoder is None else encoder
        self.focus = float(focus)
        self._raw_grid = grid
        self.grid = TermGrid(
            grid.origin, grid.step, np.maximum(grid.p, _TINY) ** focus, grid.inside
        )
        inside = grid.inside if grid.inside is not None else np.ones(grid.p.shape[:3], dtype=bool)
        self._inside_p = self.grid.p[inside]  # (cells, 11)
        self._inside_lab = grid.origin + grid.step * np.argwhere(inside).astype(np.float64)
        # log of the integral of p(t | c)^focus over the gamut, per term: the normaliser.
        self._mass = self._inside_p.mean(axis=0) * SRGB_GAMUT_VOLUME
        self.metadata = dict(metadata or {})
        self._reading = functools.lru_cache(maxsize=1 << 14)(self._read_key)

    def __reduce__(self) -> tuple[Any, ...]:
        # The shipped model pickles as a reference (workers load their own copy); others by
        # their arrays (the per-text cache is not pickled).
        if self is _default_model():
            return (ObjectColourModel.default, ())
        g = self._raw_grid
        args = (self.words, self._q, g.origin, g.step, g.p, g.inside, self._net, self.focus)
        return (_rebuild, (*args, self.metadata))

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def default(cls) -> ObjectColourModel:
        """The shipped model (loaded once; ``src/huescues/data/objects/``)."""
        return _default_model()

    @classmethod
    def load(cls, path: str | Path | IO[bytes], *, focus: float = 1.0) -> ObjectColourModel:
        """Read the arrays written by ``scripts/build_object_colours.py`` (npz, no pickle)."""
        with np.load(path, allow_pickle=False) as z:
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
            meta = json.loads(str(z["metadata"]))
            return cls(words, z["q"], grid, net, focus=focus, metadata=meta)

    def with_focus(self, focus: float) -> ObjectColourModel:
        """The same knowledge read with another ``focus``."""
        return ObjectColourModel(
            self.words,
            self._q,
            self._raw_grid,
            self._net,
            encoder=self._encoder,
            focus=focus,
            metadata=self.metadata,
        )

    # -- reading ---------------------------------------------------------------------------

    @property
    def words(self) -> tuple[str, ...]:
        """The words the data know (normalised with :func:`name_key`)."""
        return tuple(self._index)

    def knows(self, text: str) -> bool:
        """Whether the data know the text (otherwise it is carried by its word vector)."""
        return name_key(check_text(text)) in self._index

    def distribution(self, text: str) -> FloatArray:
        """The text's distribution over :data:`BASIC_TERMS` (sums to 1); a copy."""
        q = self._reading(name_key(check_text(text)))
        return np.zeros(len(BASIC_TERMS)) if q is None else q.copy()

    @property
    def named_colours(self) -> FloatArray:
        """The CIELAB colours people named in the c3 survey (its bins): where readings are
        normalised and peaks are looked for."""
        out: FloatArray = self._inside_lab
        return out

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """log p(colour | text) for CIELAB colours ``lab`` (last axis 3); shape
        ``lab.shape[:-1]``; finite everywhere (a text with no letters: the flat answer)."""
        q = self._reading(name_key(check_text(text)))
        colours = as_lab(lab)
        if q is None:
            return np.full(colours.shape[:-1], FLAT_LOG_DENSITY)
        like = self.grid.p_at(colours) @ q
        return floored(np.log(like) - math.log(float(self._mass @ q)))

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts: the texts not yet read are encoded and carried
        together, and every text's reading is evaluated at the colours in one product. Sums run
        in another order, so the numbers may differ from :meth:`score`'s in the last bits (for
        screening many texts); nothing it computes is cached."""
        colours = as_lab(lab)
        flat_pts = colours.reshape(-1, 3)
        keys = [name_key(check_text(t)) for t in texts]
        q: dict[str, FloatArray | None] = {}
        new: list[str] = []
        for key in dict.fromkeys(keys):
            i = self._index.get(key)
            if i is not None:
                q[key] = self._q[i]
            elif not key:
                q[key] = None
            else:
                new.append(key)
        if new:
            x, ok = self._encoder.encode(new)
            carried = carry(self._net, np.asarray(x, dtype=np.float64))
            for key, row, known in zip(new, carried, ok, strict=True):
                q[key] = row if bool(known) else None
        out = np.full((len(texts), len(flat_pts)), FLAT_LOG_DENSITY)
        rows = [i for i, k in enumerate(keys) if q[k] is not None]
        if rows:
            dist = np.stack([q[keys[i]] for i in rows])  # type: ignore[misc]
            like = dist @ self.grid.p_at(flat_pts).T
            out[rows] = floored(np.log(like) - np.log(dist @ self._mass)[:, None])
        return out.reshape((len(texts), *colours.shape[:-1]))

    def predict(self, text: str) -> Prediction:
        """The colour where the reading peaks, with the spread of the reading around it."""
        key = name_key(check_text(text))
        q = self._reading(key)
        if q is None:
            return Prediction(np.array([50.0, 0.0, 0.0]), np.eye(3) * 1e3, False, "objects")
        w = self._inside_p @ q
        mode = self._inside_lab[int(np.argmax(w))]
        w = w / w.sum()
        diff = self._inside_lab - mode
        cov = (w[:, None] * diff).T @ diff + np.eye(3)
        source = "objects" if key in self._index else "objects (word vector)"
        return Prediction(mode.copy(), cov, True, source)

    def _read_key(self, key: str) -> FloatArray | None:
        i = self._index.get(key)
        if i is not None:
            out: FloatArray = self._q[i]
            return out
        if not key:
            return None
        x, ok = self._encoder.encode([key])
        if not bool(ok[0]):
            return None
        q: FloatArray = carry(self._net, np.asarray(x, dtype=np.float64))[0]
        q.flags.writeable = False
        return q


def _rebuild(
    words: Sequence[str],
    q: FloatArray,
    origin: FloatArray,
    step: float,
    p: FloatArray,
    inside: NDArray[np.bool_] | None,
    net: Sequence[FloatArray],
    focus: float,
    metadata: dict[str, Any],
) -> ObjectColourModel:
    grid = TermGrid(origin, step, p, inside)
    return ObjectColourModel(words, q, grid, net, focus=focus, metadata=metadata)


@functools.cache
def _default_model() -> ObjectColourModel:
    with resources.files(_PACKAGE).joinpath(_FOLDER).joinpath(DATA_FILE).open("rb") as fh:
        model = ObjectColourModel.load(fh)
    register_shipped(model, "objects")
    return model
