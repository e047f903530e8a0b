"""A picture of a board (R1): its squares, row letters and column numbers, pawns and a frame."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from huescues.engine import ROW_LETTERS, Board, Cell

from ._figure import new_figure
from ._marks import check_squares, frame_bounds, ink

__all__ = ["render_board"]

#: Size of a square, in inches, and the gap between squares as a fraction of it.
_SQUARE_INCHES = 0.32
_GAP = 0.12
#: The board's background (the gaps between squares) and its labels.
_BACKGROUND = "#1d1d1f"
_LABEL = "#e8e8e8"


def render_board(
    board: Board,
    path: str | os.PathLike[str],
    *,
    marks: Mapping[Cell, str] | None = None,
    frame: Cell | None = None,
    title: str | None = None,
    dpi: int = 150,
) -> Path:
    """Write a PNG picture of ``board`` to ``path`` and return the path (R1).

    Rows are lettered down both sides, columns numbered along the top and bottom, and squares are
    drawn in their sRGB colours with small gaps, as on the game's board. ``marks`` puts a short
    label (a pawn, a target) on squares, in black or white, whichever stands out more.
    ``frame`` outlines the 3 x 3 scoring frame centred on that square, clipped to the board
    (R4, R5). Needs matplotlib: ``pip install 'huescues[plot]'``.
    """
    rows, cols = board.shape
    margin = 0.9
    margin_top = margin + (0.9 if title else 0.0)
    width = cols + 2 * margin
    height = rows + margin_top + margin
    fig = new_figure(
        "drawing a board",
        figsize=(width * _SQUARE_INCHES, height * _SQUARE_INCHES),
        facecolor=_BACKGROUND,
    )
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle, Rectangle

    marks = dict(marks or {})
    check_squares(board, marks, frame)

    ax: Any = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(-margin, cols + margin)
    ax.set_ylim(rows + margin, -margin_top)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_facecolor(_BACKGROUND)

    # Squares: one collection, so drawing 480 of them stays quick.
    half_gap = _GAP / 2
    squares = [
        Rectangle((c + half_gap, r + half_gap), 1 - _GAP, 1 - _GAP)
        for r in range(rows)
        for c in range(cols)
    ]
    colours = np.clip(board.srgb.reshape(-1, 3), 0.0, 1.0)
    ax.add_collection(PatchCollection(squares, facecolors=colours, edgecolors="none"))

    font = 7.5
    for r in range(rows):
        for x in (-0.4, cols + 0.4):
            ax.text(
                x, r + 0.5, ROW_LETTERS[r], ha="center", va="center", color=_LABEL, fontsize=font
            )
    for c in range(cols):
        for y in (-0.4, rows + 0.4):
            ax.text(c + 0.5, y, str(c + 1), ha="center", va="center", color=_LABEL, fontsize=font)
    if title:
        ax.text(cols / 2, -1.4, title, ha="center", va="center", color=_LABEL, fontsize=font * 1.6)

    for cell, label in marks.items():
        colour = ink(board.lab[cell.row, cell.col, 0])
        x, y = cell.col + 0.5, cell.row + 0.5
        ax.add_patch(Circle((x, y), 0.36, facecolor="none", edgecolor=colour, linewidth=1.2))
        ax.text(x, y, label, ha="center", va="center", color=colour, fontsize=font * 0.85)

    if frame is not None:
        top, bottom, left, right = frame_bounds(board, frame)
        box = (left + half_gap / 2, top + half_gap / 2)
        size = (right - left + 1 - half_gap, bottom - top + 1 - half_gap)
        # A white line on a black one reads on light and dark squares alike.
        for colour, line in (("black", 3.2), ("white", 1.6)):
            ax.add_patch(Rectangle(box, *size, facecolor="none", edgecolor=colour, linewidth=line))

    out = Path(path)
    fig.savefig(out, format="png", dpi=dpi, facecolor=_BACKGROUND)
    return out
