"""The naming model's data as arrays, and the helpers both reading a fitted model
(``_naming``) and fitting one (``_naming_fit``) use: the sources, how names are keyed, and the
fitted arrays saved to and loaded from npz (never pickled)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._files import model_file
from ._protocol import FloatArray
from ._splits import normalise_name

__all__ = [
    "C3_BIN_SIZE",
    "FORMAT_VERSION",
    "SOURCES",
    "FittedArrays",
    "IntArray",
    "ModifierForm",
    "british",
    "f32",
    "int_array",
    "name_key",
    "read_key",
    "symmetric",
    "weighted_gaussian",
    "words_of",
]

IntArray = NDArray[np.int64]

#: The naming sources, in the order the model keeps them.
SOURCES: tuple[str, ...] = ("xkcd", "colornames", "c3")
#: Bumped whenever the fitted arrays change meaning (the npz stores it).
FORMAT_VERSION = 1

#: How a modifier maps colours. ``"lch"`` (the default): lightness ``L' = a L + b`` and the
#: chroma plane multiplied by a complex number (a chroma scale and a hue turn); ``"lab"``: one
#: shift in CIELAB; ``"full"``: ``"lch"`` plus a shift in the chroma plane; ``"none"``: no
#: modifiers (to measure what they add).
ModifierForm = Literal["lch", "lab", "full", "none"]

_WORD = re.compile(r"[^\W\d_]+")
#: c3's bins are cubes 5 CIELAB units on a side.
C3_BIN_SIZE = 5.0


def words_of(text: str) -> tuple[str, ...]:
    """The words of a text as the model reads them: normalised, split at anything that is not a
    letter (``"blue/green"`` and ``"blue-green"`` are ``("blue", "green")``)."""
    return tuple(_WORD.findall(normalise_name(text).replace("\u2019", "")))


def name_key(text: str) -> str:
    """The key names are compared by: their words joined by single spaces."""
    return " ".join(words_of(text))


#: American spellings of the words for colour itself, with the endings read: the naming data
#: spell them only the British way (XKCD's names and c3's terms say "grey" and "colour"; none
#: of color-name-list's 31,918 names says "gray" or "color" as a word), so that a reader knew
#: "grayish blue" as "blue" and "gray blue" as a vivid blue.
_AMERICAN: dict[str, tuple[str, frozenset[str]]] = {
    "gray": ("grey", frozenset({"", "s", "ish", "er", "est", "ness", "ed", "ing"})),
    "color": ("colour", frozenset({"", "s", "ed", "ful", "less", "ing"})),
}


def british(key: str) -> str:
    """A :func:`name_key` with the American spellings of "grey" and "colour" and their forms
    (``"grayish"``, ``"colored"``) spelt the British way, as the naming data spell them; every
    other word as it is (``"colorado"``, ``"stingray"``)."""
    words = key.split(" ")
    for i, word in enumerate(words):
        for stem, (spelt, endings) in _AMERICAN.items():
            if word.startswith(stem) and word[len(stem) :] in endings:
                words[i] = spelt + word[len(stem) :]
    return " ".join(words)


def read_key(text: str) -> str:
    """The key a text is read by: its :func:`name_key`, spelt as the naming data spell it
    (:func:`british`). Names are fitted by :func:`name_key` alone, so the data are as they are."""
    return british(name_key(text))


@dataclass(frozen=True, slots=True, eq=False)
class FittedArrays:
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
    def load(cls, data: bytes, name: str = "") -> FittedArrays:
        values: dict[str, object] = {}
        with model_file(io.BytesIO(data), "a naming model", name) as npz:
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

    def equals(self, other: FittedArrays) -> bool:
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


def f32(a: ArrayLike) -> FloatArray:
    """Rounded to float32 precision, kept as float64, read-only."""
    out = np.asarray(a, dtype=np.float64).astype(np.float32).astype(np.float64)
    out.flags.writeable = False
    return out


def int_array(a: ArrayLike) -> IntArray:
    out = np.array(a, dtype=np.int64)
    out.flags.writeable = False
    return out


def symmetric(cov: NDArray[np.floating]) -> FloatArray:
    out: FloatArray = 0.5 * (cov + np.swapaxes(cov, -1, -2)).astype(np.float64)
    return out


# --------------------------------------------------------------------------- the model


def weighted_gaussian(points: FloatArray, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Mean and covariance of binned colours (each bin's own width included)."""
    w = weights / weights.sum()
    mean: FloatArray = w @ points
    diff = points - mean
    cov = (diff * w[:, None]).T @ diff + (C3_BIN_SIZE**2 / 12.0) * np.eye(3)
    return mean, symmetric(cov)
