"""What every drawing of a board shares: marks and the scoring frame must be on the board (R1),
the frame is the 3 x 3 squares around a square clipped at the board's edge (R4, R5), and a mark
is inked black on light squares and white on dark ones."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NamedTuple

from huescues.engine import Board, Cell

__all__ = ["FrameBounds", "check_squares", "frame_bounds", "ink"]

#: Lightness (CIELAB L*) above which a mark is inked in black, else in white.
LIGHT = 55.0


class FrameBounds(NamedTuple):
    """The rows and columns the scoring frame covers, inclusive, 0-based."""

    top: int
    bottom: int
    left: int
    right: int


def check_squares(board: Board, marks: Iterable[Cell], frame: Cell | None) -> None:
    """Refuse a mark or a frame on a square that is not on the board (R1)."""
    for cell in [*marks, *([frame] if frame is not None else [])]:
        if cell not in board:
            raise ValueError(f"square {cell} is not on the {board.rows} x {board.cols} board (R1)")


def frame_bounds(board: Board, frame: Cell) -> FrameBounds:
    """The 3 x 3 scoring frame centred on ``frame`` (R4), clipped to the board (R5)."""
    return FrameBounds(
        top=max(frame.row - 1, 0),
        bottom=min(frame.row + 1, board.rows - 1),
        left=max(frame.col - 1, 0),
        right=min(frame.col + 1, board.cols - 1),
    )


def ink(lightness: float) -> Literal["black", "white"]:
    """Black on light squares, white on dark ones (``lightness`` is the square's CIELAB L*)."""
    return "black" if lightness > LIGHT else "white"
