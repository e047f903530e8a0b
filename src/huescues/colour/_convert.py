"""sRGB <-> CIELAB and CIEDE2000 through colour-science's array functions."""

from __future__ import annotations

import functools
import warnings
from types import ModuleType

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["delta_e_2000", "lab_to_srgb", "srgb_to_lab"]

FloatArray = NDArray[np.float64]


@functools.cache
def _colour() -> ModuleType:
    # colour-science warns at import about optional packages it does not find (SciPy,
    # Matplotlib); none of what we call needs them, and the import costs ~0.5 s, so it is
    # done once, on first use.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import colour
    return colour


# sRGB (IEC 61966-2-1) to CIE XYZ, and the D65 white point (CIE 1931 2 degree observer, xy
# 0.3127, 0.3290): the same constants colour-science uses, which the tests check.
_SRGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
_D65 = np.array([0.3127 / 0.3290, 1.0, (1.0 - 0.3127 - 0.3290) / 0.3290])


def srgb_to_lab(srgb: ArrayLike) -> FloatArray:
    """CIELAB (D65, L in 0-100) of sRGB colours with components in [0, 1]; last axis 3.

    The standard formulas in numpy, equal to colour-science's ``sRGB_to_XYZ`` then
    ``XYZ_to_Lab`` (a test checks): loading a board should not cost colour-science's import
    (half a second, and 150 MB when SciPy is installed).
    """
    rgb = np.asarray(srgb, dtype=np.float64)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _SRGB_TO_XYZ.T / _D65
    eps, kappa = 216 / 24389, 24389 / 27
    f = np.where(xyz > eps, np.cbrt(xyz), (kappa * xyz + 16) / 116)
    lab = np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])],
        axis=-1,
    )
    return np.asarray(lab, dtype=np.float64)


def _srgb_to_lab_colour_science(srgb: ArrayLike) -> FloatArray:
    """colour-science's own conversion, kept for the test that compares the two."""
    c = _colour()
    rgb = np.asarray(srgb, dtype=np.float64)
    with c.utilities.domain_range_scale("reference"):
        xyz = c.sRGB_to_XYZ(rgb)
        lab = c.XYZ_to_Lab(xyz, c.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"])
    return np.asarray(lab, dtype=np.float64)


def lab_to_srgb(lab: ArrayLike, *, clip: bool = False) -> FloatArray:
    """sRGB (components in [0, 1] when in gamut) of CIELAB (D65) colours; last axis 3.

    Out-of-gamut colours give components outside [0, 1] unless ``clip`` is set.
    """
    c = _colour()
    lab_arr = np.asarray(lab, dtype=np.float64)
    with c.utilities.domain_range_scale("reference"):
        xyz = c.Lab_to_XYZ(lab_arr, c.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"])
        rgb = np.asarray(c.XYZ_to_sRGB(xyz), dtype=np.float64)
    return np.clip(rgb, 0.0, 1.0) if clip else rgb


def delta_e_2000(lab1: ArrayLike, lab2: ArrayLike) -> FloatArray:
    """CIEDE2000 colour difference between CIELAB colours (broadcasting on leading axes)."""
    c = _colour()
    return np.asarray(
        c.delta_E(np.asarray(lab1, np.float64), np.asarray(lab2, np.float64), method="CIE 2000"),
        dtype=np.float64,
    )
