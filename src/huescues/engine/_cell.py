"""Squares of the board and their names (R1), and the distance between them (R5)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Self

from ._ints import as_int

__all__ = ["ROW_LETTERS", "STANDARD_COLS", "STANDARD_ROWS", "Cell", "all_cells"]

STANDARD_ROWS = 16
STANDARD_COLS = 30
#: The row letters, top to bottom (R1): a board has at most 26 rows.
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NAME = re.compile(r"([A-Za-z])([0-9]{1,3})")


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """A square of the board: ``row`` and ``col`` are 0-based; its name is ``"F12"`` (R1).

    Rows are letters from the top (``A``), columns numbers from the left (``1``).
    """

    row: int
    col: int

    def __post_init__(self) -> None:
        row, col = self.row, self.col
        if type(row) is not int or type(col) is not int:
            # Numpy integers (from argmax) become ints here, once, not in the engine's hot paths.
            object.__setattr__(self, "row", row := as_int(row, "a Cell's row"))
            object.__setattr__(self, "col", col := as_int(col, "a Cell's col"))
        if not (0 <= row < len(ROW_LETTERS)) or col < 0:
            raise ValueError(
                f"Cell(row={self.row!r}, col={self.col!r}) has no name: rows run 0-25 (A-Z), "
                "columns from 0 (R1)"
            )

    @classmethod
    def parse(cls, text: str, *, rows: int = STANDARD_ROWS, cols: int = STANDARD_COLS) -> Self:
        """Parse a square's name such as ``"F12"`` (any case, surrounding spaces allowed).

        ``rows`` and ``cols`` are the board's size (the standard 16 x 30 by default); a name
        outside it is an error that names the bad text (R1).
        """
        if not isinstance(text, str):
            raise TypeError(f"a square's name must be text, not {type(text).__name__}")
        match = _NAME.fullmatch(text.strip())
        if match is None:
            raise ValueError(
                f"{text!r} is not a square: a square is a row letter and a column number, "
                f"such as 'F12' (R1)"
            )
        row = ROW_LETTERS.index(match.group(1).upper())
        col = int(match.group(2)) - 1
        if row >= rows or not 0 <= col < cols:
            raise ValueError(
                f"{text!r} is not a square of a {rows} x {cols} board: rows run "
                f"A-{ROW_LETTERS[rows - 1]} and columns 1-{cols} (R1)"
            )
        return cls(row, col)

    def __hash__(self) -> int:
        # Cheaper than hashing a (row, col) tuple; squares are hashed on every pawn placed.
        return self.row << 16 | self.col

    def __str__(self) -> str:
        return f"{ROW_LETTERS[self.row]}{self.col + 1}"

    def __repr__(self) -> str:
        return f"Cell.parse({str(self)!r})"

    def distance(self, other: Cell) -> int:
        """Chebyshev distance to ``other`` (R5): 0 on the square, 1 inside its frame."""
        return max(abs(self.row - other.row), abs(self.col - other.col))


@functools.cache
def all_cells(rows: int, cols: int) -> tuple[Cell, ...]:
    """Every square of a ``rows`` x ``cols`` board, row by row (made once per size)."""
    return tuple(Cell(r, c) for r in range(rows) for c in range(cols))
