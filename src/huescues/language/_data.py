"""The naming data shipped with the package: the XKCD colour names, the names of the npm package
``color-name-list``, and Heer & Stone's c3 colour-naming model (``data/naming/``, with their
licences). Loaded on first use and kept."""

from __future__ import annotations

import csv
import functools
import gzip
import io
import json
from dataclasses import dataclass, field
from importlib import resources

import numpy as np
from numpy.typing import NDArray

from huescues.colour import srgb_to_lab

from ._splits import normalise_name

__all__ = ["C3Data", "NamedColours", "c3", "colornames", "xkcd_names"]

FloatArray = NDArray[np.float64]

#: Where the naming data live inside the package.
_PACKAGE = "huescues.data"
_FOLDER = "naming"
#: c3's CIELAB bins are 5 units apart along each axis.
C3_BIN_SIZE = 5.0


def _read_bytes(name: str) -> bytes:
    raw = resources.files(_PACKAGE).joinpath(_FOLDER).joinpath(name).read_bytes()
    return gzip.decompress(raw) if name.endswith(".gz") else raw


def _readonly(a: NDArray[np.float64]) -> FloatArray:
    out = np.array(a, dtype=np.float64, copy=True)
    out.flags.writeable = False
    return out


def _hex_to_lab(codes: list[str]) -> FloatArray:
    """CIELAB of ``#rrggbb`` sRGB codes."""
    rgb = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in codes], dtype=np.float64)
    return srgb_to_lab(rgb.reshape(-1, 3) / 255.0)


@dataclass(frozen=True, slots=True, eq=False)
class NamedColours:
    """Colour names with their colours: ``names[i]`` (normalised with
    :func:`~huescues.language.normalise_name`) is ``lab[i]`` (CIELAB, D65, read-only)."""

    names: tuple[str, ...]
    lab: FloatArray = field(repr=False)
    #: Which list the names come from (``"xkcd"``, ``"colornames"``).
    source: str

    def __post_init__(self) -> None:
        if self.lab.shape != (len(self.names), 3):
            raise ValueError(f"{len(self.names)} names for colours of shape {self.lab.shape}")

    def __len__(self) -> int:
        return len(self.names)


@dataclass(frozen=True, slots=True, eq=False)
class C3Data:
    """Heer & Stone's c3 model: how often people in the XKCD survey gave each of 153 terms to
    colours in each of 8,325 CIELAB bins.

    ``terms`` are written with spaces as the XKCD names are (``"light blue"``; ``raw_terms``
    keeps c3's own ``"lightblue"``); ``bin_lab`` are the bins' centres, shape ``(8325, 3)``;
    ``counts[bin, term]`` the naming counts, shape ``(8325, 153)``.
    """

    terms: tuple[str, ...]
    raw_terms: tuple[str, ...]
    bin_lab: FloatArray = field(repr=False)
    counts: FloatArray = field(repr=False)

    @property
    def term_counts(self) -> FloatArray:
        """How often each term was given, shape ``(153,)``."""
        out: FloatArray = self.counts.sum(axis=0)
        return out

    @property
    def total(self) -> int:
        """All naming counts (2,677,400)."""
        return int(self.counts.sum())


@functools.cache
def xkcd_names() -> NamedColours:
    """The 949 colour names of the XKCD colour survey (Munroe, 2010; public domain, CC0)."""
    text = _read_bytes("xkcd-colors.tsv").decode("utf-8")
    names: list[str] = []
    codes: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, code = line.split("\t")
        names.append(normalise_name(name))
        codes.append(code.strip())
    return NamedColours(tuple(names), _readonly(_hex_to_lab(codes)), "xkcd")


@functools.cache
def colornames() -> NamedColours:
    """The 31,918 named colours of the npm package ``color-name-list`` 14.51.0 (David Aerne and
    contributors; MIT licence). Every row is usable: none is dropped."""
    text = _read_bytes("colornames.csv.gz").decode("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    if rows[0] != ["name", "hex"]:
        raise ValueError(f"unexpected colornames header {rows[0]}")
    names = tuple(normalise_name(r[0]) for r in rows[1:])
    return NamedColours(names, _readonly(_hex_to_lab([r[1] for r in rows[1:]])), "colornames")


@functools.cache
def c3() -> C3Data:
    """Heer & Stone's c3 colour-naming model (CHI 2012; Stanford University, BSD-3-Clause)."""
    data = json.loads(_read_bytes("c3_data.json.gz"))
    bins = np.asarray(data["color"], dtype=np.float64).reshape(-1, 3)
    raw_terms = tuple(str(t) for t in data["terms"])
    pairs = np.asarray(data["T"], dtype=np.int64).reshape(-1, 2)
    counts = np.zeros((len(bins), len(raw_terms)), dtype=np.float64)
    np.add.at(counts.reshape(-1), pairs[:, 0], pairs[:, 1])
    # c3 writes compounds without spaces; its terms are XKCD names, so spell them as XKCD does.
    spaced = {n.replace(" ", ""): n for n in xkcd_names().names}
    terms = tuple(spaced.get(t, t) for t in raw_terms)
    return C3Data(terms, raw_terms, _readonly(bins), _readonly(counts))
