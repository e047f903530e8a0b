"""A link as a QR code, for a phone to scan off the host's screen: drawn on the server with
segno (pure Python, no network), as SVG the page shows as an image."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from segno import QRCode

__all__ = ["MAX_QR_TEXT", "qr_code", "qr_svg"]

#: The longest text a code is made of (a link of the server's own, with a token).
MAX_QR_TEXT = 300


def qr_code(text: str) -> QRCode:
    """The QR code of ``text`` (segno's, error correction M: a phone reads it off a screen at an
    angle)."""
    import segno

    return segno.make(text, error="m", micro=False)


def qr_svg(text: str) -> str:
    """``text``'s QR code as an SVG document: dark modules on white, a quiet zone of four."""
    out = io.BytesIO()
    qr_code(text).save(out, kind="svg", scale=6, border=4, dark="#111", light="#fff", xmldecl=False)
    return out.getvalue().decode("utf-8")
