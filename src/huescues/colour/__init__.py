"""Colour science the library needs: sRGB <-> CIELAB (D65) and CIEDE2000, on arrays.

A thin layer over colour-science, imported lazily so that ``import huescues`` stays fast.
"""

from ._convert import delta_e_2000, lab_to_srgb, srgb_to_lab
from ._grid import hue_lightness_palette
from ._munsell import WCS_BOARD_ID, munsell_to_srgb, wcs_palette, wcs_specifications
from ._palette import PaletteModel, PaletteStats, palette_srgb, palette_stats, standard_palette

__all__ = [
    "WCS_BOARD_ID",
    "PaletteModel",
    "PaletteStats",
    "delta_e_2000",
    "hue_lightness_palette",
    "lab_to_srgb",
    "munsell_to_srgb",
    "palette_srgb",
    "palette_stats",
    "srgb_to_lab",
    "standard_palette",
    "wcs_palette",
    "wcs_specifications",
]

# Public objects name the public module they are used from (as httpx's do), not a private one.
for _obj in map(globals().__getitem__, __all__):
    if getattr(_obj, "__qualname__", "") and _obj.__module__.startswith(f"{__name__}._"):
        _obj.__module__ = __name__
