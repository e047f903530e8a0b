"""Colour science the library needs: sRGB <-> CIELAB (D65) and CIEDE2000, on arrays.

A thin layer over colour-science, imported lazily so that ``import huescues`` stays fast.
"""

from ._convert import delta_e_2000, lab_to_srgb, srgb_to_lab

__all__ = ["delta_e_2000", "lab_to_srgb", "srgb_to_lab"]
