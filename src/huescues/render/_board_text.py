"""The board as text for a terminal: 24-bit colour squares, or plain text without colour (R1, R4).

Pure functions: they return strings and print nothing. ``colour_wanted`` reads the ``NO_COLOR``
convention (https://no-color.org) for the callers that print.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from huescues.engine import ROW_LETTERS, Board, Cell

from ._marks import check_squares, frame_bounds, ink

__all__ = ["board_text", "colour_wanted"]

_RESET = "\x1b[0m"
#: The ANSI foreground for a mark's ink: bold black or bold white.
_INK = {"black": "\x1b[1;38;2;0;0;0m", "white": "\x1b[1;38;2;255;255;255m"}
_EMPTY: Mapping[Cell, str] = {}


def colour_wanted(colour: bool | None = None) -> bool:
    """``colour`` if given, else true colour unless the ``NO_COLOR`` variable is set and not
    empty."""
    if colour is not None:
        return colour
    return not os.environ.get("NO_COLOR", "")


def board_text(
    board: Board,
    *,
    marks: Mapping[Cell, str] = _EMPTY,
    frame: Cell | None = None,
    colour: bool = True,
) -> str:
    """The board as lines of text (R1).

    Each square is two characters wide, with a one-character gap before it, as on the game's
    board; rows are lettered on both sides and columns numbered above and below. With
    ``colour`` the squares are painted in their sRGB colours with 24-bit ANSI escapes
    (``ESC[48;2;R;G;Bm``); without it (for terminals without colour, or ``NO_COLOR``) a square is
    ``..`` and the marked squares are listed with their hex codes under the board.

    ``marks`` puts up to two characters on squares (a seat digit for a pawn, ``*`` for the
    target), in black or white, whichever stands out on the square. ``frame`` draws the 3 x 3
    scoring frame centred on that square (R4) as brackets in the gaps, clipped to the board
    (R5).
    """
    check_squares(board, marks, frame)
    rows, cols = board.shape
    width = max(2, len(str(cols)))
    label = max(1, len(ROW_LETTERS[rows - 1]))
    srgb = (board.srgb * 255.0).round().astype(int).tolist()
    lightness = board.lab[..., 0]
    # An empty range of rows when there is no frame.
    top, bottom, left, right = frame_bounds(board, frame) if frame is not None else (1, 0, -1, -1)

    numbers = " " * (label + 1) + "".join(f"{c + 1:>{width + 1}}" for c in range(cols))
    lines = [numbers]
    for r in range(rows):
        letter = ROW_LETTERS[r]
        framed = top <= r <= bottom
        parts = [f"{letter:>{label}} "]
        for c in range(cols + 1):
            if framed and c == left:
                parts.append("[")
            elif framed and c == right + 1:
                parts.append("]")
            else:
                parts.append(" ")
            if c == cols:
                break
            text = marks.get(Cell(r, c), "")[:width].center(width)
            if not colour:
                parts.append(text if text.strip() else "." * width)
                continue
            red, green, blue = srgb[r][c]
            pen = _INK[ink(lightness[r, c])] if text.strip() else ""
            parts.append(f"\x1b[48;2;{red};{green};{blue}m{pen}{text}{_RESET}")
        parts.append(f" {letter}")
        lines.append("".join(parts))
    lines.append(numbers)
    if not colour and marks:
        listed = ", ".join(
            f"{marks[cell].strip() or '?'} {cell} {board.hex(cell)}" for cell in sorted(marks)
        )
        lines.append(f"marked: {listed}")
    if not colour and frame is not None:
        lines.append(f"frame: the 3 x 3 squares around {frame} {board.hex(frame)}, in [ ]")
    return "\n".join(line.rstrip() for line in lines)
