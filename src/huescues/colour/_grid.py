"""A second palette for studies: hue along the columns and lightness down the rows, like many
printed colour charts (and the retail board's rough layout), generated in CIELCh."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._convert import lab_to_srgb

__all__ = ["hue_lightness_palette"]


def hue_lightness_palette(
    rows: int = 16, cols: int = 30, *, lightness: tuple[float, float] = (92.0, 22.0)
) -> NDArray[np.uint8]:
    """``(rows, cols, 3)`` 8-bit sRGB: column ``c`` has hue ``360 * c / cols`` degrees (CIELCh),
    row ``r`` a lightness running evenly from ``lightness[0]`` (top) to ``lightness[1]``, and
    each square 85% of the largest chroma that stays inside sRGB at its lightness and hue."""
    ls = np.linspace(lightness[0], lightness[1], rows)
    hs = np.radians(np.arange(cols) * 360.0 / cols)
    grid_l, grid_h = np.meshgrid(ls, hs, indexing="ij")
    low = np.zeros_like(grid_l)
    high = np.full_like(grid_l, 150.0)
    for _ in range(30):  # bisection on chroma: never clip RGB
        mid = (low + high) / 2
        lab = np.stack([grid_l, mid * np.cos(grid_h), mid * np.sin(grid_h)], axis=-1)
        rgb = lab_to_srgb(lab)
        inside = np.all((rgb >= 0.0) & (rgb <= 1.0), axis=-1)
        low = np.where(inside, mid, low)
        high = np.where(inside, high, mid)
    chroma = 0.85 * low
    lab = np.stack([grid_l, chroma * np.cos(grid_h), chroma * np.sin(grid_h)], axis=-1)
    out: NDArray[np.uint8] = np.round(np.clip(lab_to_srgb(lab), 0.0, 1.0) * 255).astype(np.uint8)
    return out
