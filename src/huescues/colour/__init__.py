"""Colour science the library needs: sRGB <-> CIELAB (D65) and CIEDE2000, on arrays.

A thin layer over colour-science, imported lazily so that ``import huescues`` stays fast.
"""

from huescues.public import name_public_objects as _name_public_objects

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

# Public objects name this package as their module, not a private one.
_name_public_objects(globals())
