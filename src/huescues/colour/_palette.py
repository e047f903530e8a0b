"""The library's own board palette (R1), generated from a colour model, and its statistics.

The board is read as rings round its centre. Hue runs round the edge, where every square is a
*full colour* of the sRGB gamut (one channel at 0, one at 255: the most saturated colour of its
hue), consecutive squares equally far apart by CIEDE2000, yellow at the top and blue at the
bottom. Going inwards, chroma falls towards a near-neutral centre whose lightness falls from top
to bottom, so the board is light at the top and dark at the bottom, as real surface colours are
(yellow light, blue dark). Inner squares are placed at nearly even CIEDE2000 steps along each ray
from the centre and round each ring. Colours are modelled in OKLCh, whose hues stay the same hue
as chroma falls (CIELAB's blue drifts to purple), and chroma is reduced, never clipped, to stay
inside sRGB. Nothing is random: the same code gives the same colours.

``scripts/make_standard_board.py`` writes the standard board's CSV from :func:`standard_palette`
and prints :func:`palette_stats`; docs/board.md describes the model and quotes the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._convert import _colour, delta_e_2000, srgb_to_lab

__all__ = ["PaletteModel", "PaletteStats", "palette_srgb", "palette_stats", "standard_palette"]

FloatArray = NDArray[np.float64]

#: The six corners of the RGB cube's full-colour loop: red, yellow, green, cyan, blue, magenta.
_FULL_COLOUR_CORNERS = np.array(
    [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1], [1, 0, 1], [1, 0, 0]],
    dtype=np.float64,
)
#: Where the loop puts pure yellow, the colour at the top centre of the board.
_YELLOW_CORNER = 1


@dataclass(frozen=True, slots=True)
class PaletteModel:
    """The settings of the palette model; the defaults make the standard board (R1)."""

    rows: int = 16
    cols: int = 30
    #: CIELAB L* of the neutral centre line at the top and at the bottom row: the lightness
    #: the squares tend to as their chroma falls.
    top_lightness: float = 90.0
    bottom_lightness: float = 28.0
    #: At radius t the edge colour's own lightness weighs ``t ** lightness_reach`` against the
    #: neutral line's (1: linearly; 2: the neutral line's lightness reaches further out).
    lightness_reach: float = 2.0
    #: 0: squares sit at their geometric radius; 1: at even CIEDE2000 steps along each ray
    #: (chroma falls fast near the edge, where CIEDE2000 counts chroma differences least).
    radial_evenness: float = 1.0
    #: The fraction of the edge over which the rays' spacings are averaged, so that the
    #: squares of a ring stay at similar radii (0: each ray its own; 1: one for all).
    ray_smoothing: float = 0.15
    #: Samples of the full-colour loop, of each ray and of each ring (accuracy, not shape).
    loop_samples: int = 1536
    ray_samples: int = 65
    ring_samples: int = 720


@dataclass(frozen=True, slots=True)
class PaletteStats:
    """CIEDE2000 differences of a board's colours (R1): neighbours close, no two nearly alike.

    ``closest`` is the pair of squares, as ``(row, col)`` 0-based, with the smallest difference.
    """

    neighbour4_median: float
    neighbour4_min: float
    neighbour4_max: float
    neighbour8_median: float
    neighbour8_min: float
    pairwise_min: float
    closest: tuple[tuple[int, int], tuple[int, int]]


def standard_palette(model: PaletteModel | None = None) -> NDArray[np.uint8]:
    """The board's colours as 8-bit sRGB, shape ``(rows, cols, 3)``, row A first (R1)."""
    srgb = palette_srgb(model or PaletteModel())
    return np.asarray(np.round(srgb * 255.0), dtype=np.uint8)


def palette_srgb(model: PaletteModel) -> FloatArray:
    """The board's colours as sRGB floats in [0, 1], before rounding to 8 bits.

    Each square gets a radius ``t`` (0 centre, 1 edge) and an edge phase ``s`` (where on the
    loop of full colours its hue comes from), then its colour from :meth:`_Field.oklab`.
    """
    loop = _FullColourLoop(model.loop_samples)
    geo = _Geometry(model.rows, model.cols)
    field = _Field(model, loop, geo)
    k, phi = geo.radius, geo.phase
    grid = np.linspace(0.0, 1.0, model.ring_samples + 1)
    arcs = field.ray_arcs(grid)
    s = np.empty_like(phi)
    for radius in np.unique(k):
        ring = k == radius
        s[ring] = field.ring_warp(float(radius), phi[ring], grid, arcs)
    t = field.radial_warp(k, s, grid, arcs)
    t[k >= 1.0] = 1.0
    rgb = field.srgb(t, s)
    if rgb.min() < -1e-9 or rgb.max() > 1.0 + 1e-9:  # pragma: no cover - a bug in the model
        raise ValueError("the palette model left the sRGB gamut")
    return np.clip(rgb, 0.0, 1.0)  # removes floating-point noise only (checked just above)


def palette_stats(lab: ArrayLike) -> PaletteStats:
    """CIEDE2000 between 4- and 8-neighbours, and the smallest between any two squares.

    ``lab`` is a ``(rows, cols, 3)`` array of CIELAB colours (pass those of the 8-bit colours
    a board ships with, so the numbers describe what players see).
    """
    lab = np.asarray(lab, dtype=np.float64)
    if lab.ndim != 3 or lab.shape[2] != 3:
        raise ValueError(f"expected a (rows, cols, 3) array of CIELAB colours, not {lab.shape}")
    across = delta_e_2000(lab[:, 1:], lab[:, :-1]).ravel()
    down = delta_e_2000(lab[1:], lab[:-1]).ravel()
    diagonal = np.concatenate(
        [
            delta_e_2000(lab[1:, 1:], lab[:-1, :-1]).ravel(),
            delta_e_2000(lab[1:, :-1], lab[:-1, 1:]).ravel(),
        ]
    )
    four = np.concatenate([across, down])
    eight = np.concatenate([four, diagonal])
    flat = lab.reshape(-1, 3)
    pairs = delta_e_2000(flat[:, None, :], flat[None, :, :])
    pairs[np.diag_indices(len(flat))] = np.inf
    i, j = divmod(int(np.argmin(pairs)), len(flat))
    cols = lab.shape[1]
    return PaletteStats(
        neighbour4_median=float(np.median(four)),
        neighbour4_min=float(four.min()),
        neighbour4_max=float(four.max()),
        neighbour8_median=float(np.median(eight)),
        neighbour8_min=float(eight.min()),
        pairwise_min=float(pairs[i, j]),
        closest=(divmod(min(i, j), cols), divmod(max(i, j), cols)),
    )


# -- the model -------------------------------------------------------------------------------


class _FullColourLoop:
    """The sRGB full colours (red, yellow, green, cyan, blue, magenta and between) as a loop.

    A point of the loop is named by ``s`` in [0, 1): its CIEDE2000 arc length from pure yellow,
    as a fraction of the whole loop, so that even steps in ``s`` are even steps in colour.
    """

    def __init__(self, samples: int) -> None:
        per_side = max(samples // 6, 8)
        step = np.linspace(0.0, 1.0, per_side, endpoint=False)[:, None]
        corners = np.roll(_FULL_COLOUR_CORNERS[:-1], -_YELLOW_CORNER, axis=0)
        ends = np.roll(corners, -1, axis=0)
        rgb = np.concatenate([a + (b - a) * step for a, b in zip(corners, ends, strict=True)])
        self._rgb = np.concatenate([rgb, rgb[:1]])
        lab = srgb_to_lab(self._rgb)
        arc = np.concatenate([[0.0], np.cumsum(delta_e_2000(lab[1:], lab[:-1]))])
        self.length = float(arc[-1])
        self._s = arc / arc[-1]

    def even_chords(self, phase: FloatArray, rounds: int = 30) -> FloatArray:
        """Loop positions for squares spread evenly round the loop at ``phase`` (in [0, 1)),
        moved so that the CIEDE2000 between consecutive squares is the same all round: arc
        length overstates it where the loop turns sharply (at pure blue). The middle of the gap
        that straddles ``phase`` 0 stays at yellow."""
        order = np.argsort(phase)
        p = phase[order]
        gaps = np.diff(np.append(p, p[0] + 1.0))  # the last gap straddles 0
        for _ in range(rounds):
            s = gaps[-1] / 2 + np.concatenate([[0.0], np.cumsum(gaps[:-1])])
            lab = srgb_to_lab(self.rgb(s))
            chords = delta_e_2000(lab, np.roll(lab, -1, axis=0))
            gaps = gaps * chords.mean() / chords
            gaps /= gaps.sum()
        out = np.empty_like(phase)
        out[order] = np.mod(gaps[-1] / 2 + np.concatenate([[0.0], np.cumsum(gaps[:-1])]), 1.0)
        return out

    def rgb(self, s: ArrayLike) -> FloatArray:
        """The full colour at ``s`` (taken modulo 1), on the cube's surface, so in gamut."""
        s = np.mod(np.asarray(s, dtype=np.float64), 1.0)
        return np.stack([np.interp(s, self._s, self._rgb[:, i]) for i in range(3)], axis=-1)


class _Geometry:
    """Squares as rings around the board's centre (R1).

    ``radius`` is 1 on the edge and falls towards the centre (Chebyshev distance from the
    centre, scaled to the board's half-width and half-height); ``phase`` in [0, 1) is where
    the ray from the centre through the square meets the edge, as a fraction of the edge,
    clockwise from the top centre.
    """

    def __init__(self, rows: int, cols: int) -> None:
        if rows < 3 or cols < 3:
            raise ValueError("the palette model needs a board of at least 3 x 3 squares")
        self.width, self.height = float(cols - 1), float(rows - 1)
        self.cx, self.cy = self.width / 2, self.height / 2
        self.perimeter = 2 * (self.width + self.height)
        y, x = np.mgrid[0:rows, 0:cols].astype(np.float64)
        dx, dy = x - self.cx, y - self.cy
        self.radius: FloatArray = np.maximum(np.abs(dx) / self.cx, np.abs(dy) / self.cy)
        scale = np.where(self.radius > 0.0, self.radius, 1.0)  # a centre square looks up
        ex = np.clip(self.cx + dx / scale, 0.0, self.width)
        ey = np.clip(self.cy + np.where(self.radius > 0.0, dy, -self.cy) / scale, 0.0, self.height)
        w, h = self.width, self.height
        on_top = np.isclose(ey, 0.0)
        on_right = np.isclose(ex, w) & ~on_top
        on_bottom = np.isclose(ey, h) & ~on_top & ~on_right
        walked = np.select(
            [on_top, on_right, on_bottom],
            [ex, w + ey, w + h + (w - ex)],
            default=2 * w + h + (h - ey),
        )
        self.phase: FloatArray = np.mod((walked - self.cx) / self.perimeter, 1.0)

    def edge_y(self, phase: ArrayLike) -> FloatArray:
        """The row coordinate (0 at the top row) of the edge point at ``phase``."""
        w, h = self.width, self.height
        walked = np.mod(
            np.asarray(phase, dtype=np.float64) * self.perimeter + self.cx, self.perimeter
        )
        return np.select(
            [walked <= w, walked <= w + h, walked <= 2 * w + h],
            [np.zeros_like(walked), walked - w, np.full_like(walked, h)],
            default=h - (walked - 2 * w - h),
        )


class _Field:
    """The continuous colour field: OKLab at radius ``t`` and edge phase ``s``, and the warps
    that place the board's squares evenly (by CIEDE2000) on it.

    ``s`` names both the full colour a ray takes its hue from and the point of the edge the
    ray runs to (which sets the neutral line's lightness along it): on the edge they agree.
    """

    def __init__(self, model: PaletteModel, loop: _FullColourLoop, geo: _Geometry) -> None:
        self.model, self.loop, self.geo = model, loop, geo

    def oklab(self, t: FloatArray, s: FloatArray) -> FloatArray:
        """Colour at radius ``t`` (0 centre, 1 edge) on the ray towards edge phase ``s``.

        Lightness blends the edge colour's own lightness with the neutral line's, which falls
        from top to bottom; chroma is a fraction ``t`` of the edge colour's, reduced to the
        largest in gamut where that is less.
        """
        m, geo = self.model, self.geo
        edge = _srgb_to_oklab(self.loop.rgb(s))
        y = geo.cy + t * (geo.edge_y(s) - geo.cy)
        neutral_lstar = m.top_lightness + (m.bottom_lightness - m.top_lightness) * y / geo.height
        neutral = (neutral_lstar + 16.0) / 116.0  # OKLab L of a grey of that L*
        w = t**m.lightness_reach
        lightness = w * edge[..., 0] + (1.0 - w) * neutral
        hue = np.arctan2(edge[..., 2], edge[..., 1])
        chroma = t * np.hypot(edge[..., 1], edge[..., 2])
        chroma = np.minimum(chroma, _max_chroma(lightness, hue))
        return np.stack([lightness, chroma * np.cos(hue), chroma * np.sin(hue)], axis=-1)

    def srgb(self, t: FloatArray, s: FloatArray) -> FloatArray:
        """sRGB of :meth:`oklab`; on the edge (``t`` = 1) exactly the full colour."""
        rgb = _oklab_to_srgb(self.oklab(t, s))
        edge = t >= 1.0
        rgb[edge] = self.loop.rgb(s[edge])
        return rgb

    def ray_arcs(self, s: FloatArray) -> FloatArray:
        """CIEDE2000 arc length along the rays towards edge phases ``s`` (``s`` samples the
        loop from 0 to 1 inclusive; last axis: radius from 0 to 1), as a fraction of each ray's
        length, averaged over neighbouring rays as far as ``ray_smoothing`` asks."""
        ts = np.linspace(0.0, 1.0, self.model.ray_samples)
        grid_t = np.broadcast_to(ts, (s.size, ts.size))
        grid_s = np.broadcast_to(s.reshape(-1, 1), grid_t.shape)
        lab = _oklab_to_lab(self.oklab(np.array(grid_t), np.array(grid_s)))
        arc = np.cumsum(delta_e_2000(lab[:, 1:], lab[:, :-1]), axis=-1)
        arc = np.concatenate([np.zeros((s.size, 1)), arc], axis=-1)
        frac = arc / arc[:, -1:]
        width = self.model.ray_smoothing
        if width > 0.0:
            # A circular moving average over a fraction ``width`` of the loop.
            half = round(width * (s.size - 1) / 2)
            loop = frac[:-1]
            mean = sum(np.roll(loop, shift, axis=0) for shift in range(-half, half + 1))
            loop = np.asarray(mean, dtype=np.float64) / (2 * half + 1)
            frac = np.concatenate([loop, loop[:1]])
        return np.asarray(frac, dtype=np.float64)

    def radial_warp(
        self, k: FloatArray, s: FloatArray, grid: FloatArray, arcs: FloatArray
    ) -> FloatArray:
        """The radius ``t`` at which squares of geometric radius ``k`` on rays ``s`` are drawn:
        even CIEDE2000 steps along the rays (``arcs``, sampled at ``grid``), as far as
        ``radial_evenness`` asks."""
        mu = self.model.radial_evenness
        ts = np.linspace(0.0, 1.0, self.model.ray_samples)
        pos = np.mod(s, 1.0) * (grid.size - 1)
        lo = np.minimum(np.floor(pos).astype(np.int64), grid.size - 2)
        frac = pos - lo
        rows = arcs[lo] * (1.0 - frac)[..., None] + arcs[lo + 1] * frac[..., None]
        flat_rows = rows.reshape(-1, ts.size)
        even = np.array(
            [np.interp(kk, row, ts) for kk, row in zip(k.ravel(), flat_rows, strict=True)]
        ).reshape(k.shape)
        return np.asarray((1.0 - mu) * k + mu * even, dtype=np.float64)

    def ring_warp(
        self, radius: float, phase: FloatArray, grid: FloatArray, arcs: FloatArray
    ) -> FloatArray:
        """The edge phase at which the squares of one ring are drawn: evenly spaced by
        CIEDE2000 around the ring, with the top centre kept at yellow."""
        if radius >= 1.0:
            return self.loop.even_chords(phase)
        if radius <= 0.0:
            return phase  # the centre of an odd-sized board: grey whatever the phase
        t = self.radial_warp(np.full(grid.size, radius), grid, grid, arcs)
        lab = _oklab_to_lab(self.oklab(t, grid))
        arc = np.concatenate([[0.0], np.cumsum(delta_e_2000(lab[1:], lab[:-1]))])
        return np.asarray(np.interp(phase, arc / arc[-1], grid), dtype=np.float64)


# -- OKLab and the gamut ---------------------------------------------------------------------


def _srgb_to_oklab(rgb: ArrayLike) -> FloatArray:
    c = _colour()
    with c.utilities.domain_range_scale("reference"):
        return np.asarray(c.XYZ_to_Oklab(c.sRGB_to_XYZ(np.asarray(rgb))), dtype=np.float64)


def _oklab_to_srgb(oklab: ArrayLike) -> FloatArray:
    c = _colour()
    with c.utilities.domain_range_scale("reference"):
        return np.asarray(c.XYZ_to_sRGB(c.Oklab_to_XYZ(np.asarray(oklab))), dtype=np.float64)


def _oklab_to_lab(oklab: ArrayLike) -> FloatArray:
    return srgb_to_lab(_oklab_to_srgb(oklab))


def _max_chroma(lightness: FloatArray, hue: FloatArray, steps: int = 40) -> FloatArray:
    """The largest OKLab chroma in the sRGB gamut at each lightness and hue, by bisection."""
    lo = np.zeros_like(lightness)
    hi = np.full_like(lightness, 0.5)
    cos, sin = np.cos(hue), np.sin(hue)
    for _ in range(steps):
        mid = (lo + hi) / 2
        rgb = _oklab_to_srgb(np.stack([lightness, mid * cos, mid * sin], axis=-1))
        inside = np.all((rgb >= 0.0) & (rgb <= 1.0), axis=-1)
        lo = np.where(inside, mid, lo)
        hi = np.where(inside, hi, mid)
    return lo
