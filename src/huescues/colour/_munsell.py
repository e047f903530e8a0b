"""A Munsell chart laid out like the World Color Survey's (WCS) stimulus array, built from
Munsell notation with colour-science: an sRGB *approximation* of the survey's physical chips,
playable like any board (``docs/munsell.md``).

Rows A-J are Munsell values 9.5, 9, 8, ..., 2, 1.5; column 1 is the neutral (N) column and
columns 2-41 the 40 hues 2.5R, 5R, ..., 10RP. A chromatic square has the highest even Munsell
chroma whose colour lies inside sRGB (the survey's chips have the highest chroma the chip set
offered instead, often outside sRGB). Rows A and J hold only a neutral chip in the survey; here
their hue columns are filled with low-chroma colours, the same rule capped at chroma 4: pale
tints (A) and very dark shades (J), so that every square is a distinct colour a player can aim
at. (The cap also keeps clear of colour-science's extrapolation beyond the renotation data at
those values, which reaches implausible chromas such as 10Y 9.5/22.)
"""

from __future__ import annotations

import functools
from importlib import resources

import numpy as np
from numpy.typing import NDArray

from ._convert import _colour

__all__ = [
    "EDGE_ROW_MAX_CHROMA",
    "WCS_BOARD_ID",
    "WCS_HUES",
    "WCS_VALUES",
    "munsell_to_srgb",
    "wcs_palette",
    "wcs_specifications",
]

#: The id of ``Board.wcs()``, made from :func:`wcs_palette`; bumped when its colours change.
WCS_BOARD_ID = "wcs-munsell-approx-v1"

#: Munsell values of rows A-J, as in the WCS chart.
WCS_VALUES: tuple[float, ...] = (9.5, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.5)

#: The 40 Munsell hues of columns 2-41, as in the WCS chart (its columns 1-40).
WCS_HUES: tuple[str, ...] = tuple(
    f"{step}{family}"
    for family in ("R", "YR", "Y", "GY", "G", "BG", "B", "PB", "P", "RP")
    for step in ("2.5", "5", "7.5", "10")
)

#: Highest chroma tried: beyond every sRGB colour's Munsell chroma.
_MAX_CHROMA = 30
#: Highest chroma in rows A and J (values 9.5 and 1.5), which have no hue chips in the WCS.
EDGE_ROW_MAX_CHROMA = 4
#: How far outside [0, 1] a linear sRGB component may fall and still count as inside sRGB.
_GAMUT_TOLERANCE = 1e-6


def _fmt(value: float) -> str:
    return f"{value:g}"


def munsell_to_srgb(specification: str, *, encode: bool = True) -> NDArray[np.float64]:
    """sRGB (D65; gamma-encoded unless ``encode`` is false) of a Munsell specification such as
    ``"5R 4/14"`` or ``"N5"``, from the renotation data (illuminant C, Bradford adaptation).

    Components are not clipped: a colour outside sRGB has some outside [0, 1]. Raises
    ``ValueError`` for a specification colour-science cannot convert (outside the renotation
    data's domain).
    """
    c = _colour()
    illuminant_c = c.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["C"]
    try:
        with c.utilities.domain_range_scale("reference"):
            xyy = c.munsell_colour_to_xyY(specification)
            xyz = c.xyY_to_XYZ(xyy)
    except (ValueError, AssertionError, KeyError, IndexError) as e:
        raise ValueError(f"Munsell colour {specification!r} cannot be converted: {e}") from e
    rgb = c.XYZ_to_sRGB(
        xyz,
        illuminant=illuminant_c,
        chromatic_adaptation_transform="Bradford",
        apply_cctf_encoding=encode,
    )
    out = np.asarray(rgb, dtype=np.float64)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"Munsell colour {specification!r} gave no finite sRGB colour")
    return out


def _inside(specification: str) -> bool:
    """Whether the specification converts and its colour lies inside sRGB."""
    try:
        linear = munsell_to_srgb(specification, encode=False)
    except ValueError:
        return False
    return bool(linear.min() >= -_GAMUT_TOLERANCE and linear.max() <= 1.0 + _GAMUT_TOLERANCE)


def _max_chroma_spec(hue: str, value: float, limit: int = _MAX_CHROMA) -> str:
    """The specification of the highest even chroma up to ``limit`` at ``hue`` and ``value``
    inside sRGB, or the neutral of that value when even chroma 2 is outside.

    Chroma rises in steps of 2 from 2 until a colour leaves sRGB (or cannot be converted: some
    value/chroma pairs lie outside the renotation data); the last one inside is kept.
    """
    best = f"N{_fmt(value)}"
    for chroma in range(2, limit + 1, 2):
        spec = f"{hue} {_fmt(value)}/{chroma}"
        if not _inside(spec):
            break
        best = spec
    return best


def _limit(value: float) -> int:
    edge = value in (WCS_VALUES[0], WCS_VALUES[-1])
    return EDGE_ROW_MAX_CHROMA if edge else _MAX_CHROMA


#: The shipped chart (``scripts/make_wcs_chart.py`` writes it from the functions below):
#: colour-science's Munsell conversion takes a quarter of a minute for the chart's 410 squares and
#: their chroma searches, so a first ``Board.wcs()`` reads the file instead.
_CHART_FILE = "wcs_chart.csv"
_ROWS = "ABCDEFGHIJ"


def build_specifications() -> tuple[tuple[str, ...], ...]:
    """The chart's Munsell specifications worked out afresh from the rule in the module's
    docstring (slow: what ``scripts/make_wcs_chart.py`` ships)."""
    return tuple(
        (f"N{_fmt(value)}", *(_max_chroma_spec(hue, value, _limit(value)) for hue in WCS_HUES))
        for value in WCS_VALUES
    )


def build_palette(specs: tuple[tuple[str, ...], ...]) -> NDArray[np.uint8]:
    """The 8-bit sRGB of ``specs`` (clipped to the gamut, then rounded)."""
    rgb = np.array([[munsell_to_srgb(s) for s in row] for row in specs], dtype=np.float64)
    out: NDArray[np.uint8] = np.round(np.clip(rgb, 0.0, 1.0) * 255.0).astype(np.uint8)
    return out


def chart_csv(specs: tuple[tuple[str, ...], ...], palette: NDArray[np.uint8]) -> str:
    """The shipped file's text: a header, then one line per square, A1 first."""
    lines = ["row,column,munsell,red,green,blue"]
    for r, row in enumerate(specs):
        for c, spec in enumerate(row):
            red, green, blue = (int(v) for v in palette[r, c])
            lines.append(f"{_ROWS[r]},{c + 1},{spec},{red},{green},{blue}")
    return "\n".join(lines) + "\n"


@functools.cache
def _chart() -> tuple[tuple[tuple[str, ...], ...], NDArray[np.uint8]]:
    text = resources.files("huescues.data").joinpath(_CHART_FILE).read_text(encoding="utf-8")
    rows = [line.split(",") for line in text.splitlines()[1:]]
    width = 1 + len(WCS_HUES)
    if len(rows) != len(WCS_VALUES) * width:
        raise ValueError(f"{_CHART_FILE} has {len(rows)} squares, not {len(WCS_VALUES) * width}")
    specs = tuple(tuple(r[2] for r in rows[i : i + width]) for i in range(0, len(rows), width))
    palette = np.array([[int(v) for v in r[3:6]] for r in rows], dtype=np.uint8)
    palette = palette.reshape(len(WCS_VALUES), width, 3)
    palette.flags.writeable = False
    return specs, palette


def wcs_specifications() -> list[list[str]]:
    """The Munsell specification of every square, ``[row][column]`` (10 x 41), as used by
    :func:`wcs_palette`: ``"N9.5"`` for neutrals, ``"2.5R 6/14"`` for hues."""
    return [list(row) for row in _chart()[0]]


def wcs_palette() -> NDArray[np.uint8]:
    """``(10, 41, 3)`` 8-bit sRGB: the WCS chart's layout in Munsell notation (see the module's
    docstring). Read from the package's data once per process (``build_palette`` of
    ``build_specifications`` makes the same afresh, slowly); returns a copy."""
    return _chart()[1].copy()
