"""Boards: a grid of colour squares with their sRGB and CIELAB colours (R1)."""

from __future__ import annotations

import csv
import functools
import hashlib
import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Self, SupportsIndex

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._actions import PlacePawn, pawn_moves
from ._cell import ROW_LETTERS, STANDARD_COLS, STANDARD_ROWS, Cell, all_cells
from ._csv import safe_row, unescape_cell

__all__ = ["STANDARD_BOARD_ID", "Board"]

#: The id of :meth:`Board.standard`; bumped whenever its colours change.
STANDARD_BOARD_ID = "huescues-standard-v1"
#: The retail game's board as measured (:meth:`Board.retail`).
RETAIL_BOARD_ID = "retail"

FloatArray = NDArray[np.float64]


def _readonly(a: NDArray[np.float64]) -> FloatArray:
    a = np.array(a, dtype=np.float64, copy=True)
    a.flags.writeable = False
    return a


def _first_bad(arr: NDArray[Any], *bad: NDArray[np.bool_]) -> str:
    """The first colour value ``bad`` marks, in the square order (row by row), named by its
    channel and square: ``"green 300 at B3 is outside the range"``."""
    where = np.logical_or.reduce(bad)
    row, col, channel = (int(i) for i in np.argwhere(where)[0])
    value = arr[row, col, channel]
    shown = f"{value:g}" if np.issubdtype(arr.dtype, np.floating) else str(int(value))
    name = ("red", "green", "blue")[channel]
    return f"{name} {shown} at {Cell(row, col)} is outside the range"


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """A rectangular grid of colour squares (R1).

    ``srgb`` (components in [0, 1]) and ``lab`` (CIELAB, D65) are read-only arrays of shape
    ``(rows, cols, 3)``. ``id`` names the palette: game records refer to boards by it. Boards
    compare equal when their ids are equal.
    """

    id: str
    srgb: FloatArray = field(repr=False)
    lab: FloatArray = field(repr=False)
    #: Where the colours came from, in a few words.
    source: str = ""
    #: Number of rows (letters).
    rows: int = field(init=False)
    #: Number of columns (numbers).
    cols: int = field(init=False)
    _cells: tuple[Cell, ...] = field(init=False, repr=False)
    _pawn_moves: tuple[PlacePawn, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        shape = self.srgb.shape
        if len(shape) != 3 or shape[2] != 3 or self.lab.shape != shape:
            raise ValueError(f"a board's colours must have shape (rows, cols, 3), not {shape}")
        object.__setattr__(self, "rows", int(shape[0]))
        object.__setattr__(self, "cols", int(shape[1]))
        object.__setattr__(self, "_cells", all_cells(self.rows, self.cols))
        # One tuple per board size, shared (actions are frozen): a pickle of a board holds it.
        object.__setattr__(self, "_pawn_moves", pawn_moves(self.rows, self.cols))

    @classmethod
    def standard(cls) -> Board:
        """The library's own 16 x 30 palette (see ``scripts/make_standard_board.py``)."""
        return _standard_board()

    @classmethod
    def retail(cls) -> Board:
        """The retail game's board, its squares measured with a colorimeter by Alabau-Bosque et
        al. (2025) (id ``"retail"``; its licence is in ``data/research``). Its centre has few
        grey squares (3.5 % have chroma below 15, against 11 % on the standard board). Read
        once per process."""
        return _retail_board()

    @classmethod
    def wcs(cls) -> Board:
        """A 10 x 41 chart laid out like the World Color Survey's, from Munsell notation (an
        approximation of the survey's chips; see ``docs/munsell.md``). Built once per process
        (a few seconds)."""
        return _wcs_board()

    @classmethod
    def from_rgb(cls, rgb: ArrayLike, *, id: str | None = None, source: str = "") -> Self:
        """A board from a ``(rows, cols, 3)`` array of sRGB colours.

        Integer arrays are read as 0-255, float arrays as [0, 1]. ``id`` defaults to one made
        from the colours, so the same palette always has the same id.
        """
        arr = np.asarray(rgb)
        if arr.ndim != 3 or arr.shape[2] != 3:
            raise ValueError(f"a board's colours must have shape (rows, cols, 3), not {arr.shape}")
        rows, cols = arr.shape[:2]
        if not (1 <= rows <= len(ROW_LETTERS)) or cols < 1:
            raise ValueError(f"a board has 1 to {len(ROW_LETTERS)} rows and at least 1 column (R1)")
        if np.issubdtype(arr.dtype, np.integer):
            if arr.min() < 0 or arr.max() > 255:
                raise ValueError(
                    f"integer colours must lie in 0-255: {_first_bad(arr, arr < 0, arr > 255)}"
                )
            srgb = arr.astype(np.float64) / 255.0
        elif np.issubdtype(arr.dtype, np.floating):
            if not np.all(np.isfinite(arr)) or arr.min() < 0.0 or arr.max() > 1.0:
                bad = _first_bad(arr, ~np.isfinite(arr), arr < 0.0, arr > 1.0)
                raise ValueError(
                    f"float colours must lie in [0, 1] (give integers for 0-255 values): {bad}"
                )
            srgb = arr.astype(np.float64)
        else:
            raise TypeError(f"colours must be integers or floats, not {arr.dtype}")
        if id is None:
            digest = hashlib.sha256(np.round(srgb * 255.0).astype(np.uint8).tobytes())
            digest.update(f"{rows}x{cols}".encode())
            id = f"rgb-{rows}x{cols}-{digest.hexdigest()[:12]}"
        from huescues.colour import srgb_to_lab

        return cls(id, _readonly(srgb), _readonly(srgb_to_lab(srgb)), source)

    @classmethod
    def from_csv(
        cls, path: str | os.PathLike[str], *, id: str | None = None, source: str = ""
    ) -> Self:
        """A board from a CSV file: a header row, then one row per square with five columns,
        in this order: row letter, column number, red, green, blue (0-255).

        Every square of the rectangle must appear exactly once; an error names the bad line.
        ``id`` names the palette in game records (default: one made from the colours, as
        :meth:`from_rgb` makes it); ``source`` says where the colours come from (default: the
        file's path).
        """
        try:
            with open(path, newline="", encoding="utf-8") as f:
                lines = [[unescape_cell(v) for v in line] for line in csv.reader(f)]
        except UnicodeDecodeError as e:
            raise ValueError(
                f"{path}: not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start}); "
                "a board is a CSV file"
            ) from None
        return cls._from_csv_rows(lines, name=str(path), id=id, source=source or str(path))

    @classmethod
    def _from_csv_rows(
        cls, lines: list[list[str]], *, name: str, id: str | None, source: str
    ) -> Self:
        if len(lines) < 2:
            raise ValueError(f"{name}: a header row and at least one square are needed")
        entries: dict[tuple[int, int], tuple[int, int, int]] = {}
        for lineno, line in enumerate(lines[1:], start=2):
            if not line or all(not x.strip() for x in line):
                continue
            if len(line) != 5:
                raise ValueError(
                    f"{name}, line {lineno}: expected 5 columns (row, column, red, green, blue), "
                    f"got {len(line)}"
                )
            letter, col_text, *rgb_text = (x.strip() for x in line)
            try:
                cell = Cell.parse(f"{letter}{col_text}", rows=len(ROW_LETTERS), cols=999)
                rgb = tuple(int(v) for v in rgb_text)
            except ValueError as e:
                raise ValueError(f"{name}, line {lineno}: {e}") from None
            if len(letter) != 1:
                raise ValueError(f"{name}, line {lineno}: bad row letter {letter!r} in {line!r}")
            for channel, v in zip(("red", "green", "blue"), rgb, strict=True):
                if not 0 <= v <= 255:
                    raise ValueError(
                        f"{name}, line {lineno}: {channel} {v} is outside 0-255 in {line!r}"
                    )
            key = (cell.row, cell.col)
            if key in entries:
                raise ValueError(f"{name}, line {lineno}: square {cell} appears twice")
            entries[key] = (rgb[0], rgb[1], rgb[2])
        if not entries:
            raise ValueError(f"{name}: a header row and at least one square are needed")
        rows = 1 + max(r for r, _ in entries)
        cols = 1 + max(c for _, c in entries)
        if len(entries) != rows * cols:
            missing = [
                str(Cell(r, c)) for r in range(rows) for c in range(cols) if (r, c) not in entries
            ]
            raise ValueError(
                f"{name}: the board is {rows} x {cols} but {len(missing)} squares are missing "
                f"(first: {', '.join(missing[:5])})"
            )
        arr = np.zeros((rows, cols, 3), dtype=np.int64)
        for (r, c), rgb in entries.items():
            arr[r, c] = rgb
        return cls.from_rgb(arr, id=id, source=source)

    # -- shape and squares -------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return (self.rows, self.cols)

    @property
    def size(self) -> int:
        """Number of squares."""
        return self.rows * self.cols

    def cell(self, name: str) -> Cell:
        """Parse a square's name on this board (R1)."""
        return Cell.parse(name, rows=self.rows, cols=self.cols)

    def cells(self) -> tuple[Cell, ...]:
        """Every square, row by row: ``cells()[i]`` is square ``i`` of the flattened board."""
        return self._cells

    def pawn_moves(self) -> tuple[PlacePawn, ...]:
        """A pawn on every square, in :meth:`cells` order (R10: one action per square, made
        once per board size)."""
        return self._pawn_moves

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, Cell) and 0 <= cell.row < self.rows and 0 <= cell.col < self.cols

    def hex(self, cell: Cell) -> str:
        """The square's colour as ``#rrggbb``."""
        if not isinstance(cell, Cell):
            raise TypeError(f"Board.hex takes a Cell, such as Cell.parse('F12'), not {cell!r:.40}")
        if cell not in self:
            raise ValueError(
                f"{cell!r:.40} is not a square of board {self.id!r} ({self.rows} x {self.cols}, R1)"
            )
        r, g, b = (round(v * 255) for v in self.srgb[cell.row, cell.col])
        return f"#{r:02x}{g:02x}{b:02x}"

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write the board in the format :meth:`from_csv` reads."""
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["row", "column", "red", "green", "blue"])
            rgb = np.round(self.srgb * 255.0).astype(int)
            for cell in self.cells():
                row = [ROW_LETTERS[cell.row], cell.col + 1, *rgb[cell.row, cell.col].tolist()]
                w.writerow(safe_row(row))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # The library's standard board pickles as its name: the other process's own copy is
        # the same board, and its 30 KB of colours went with every block of a resume's lines.
        if _STANDARD and self is _STANDARD[0]:
            return (Board.standard, ())
        return (_unpickled, (self.id, self.srgb, self.lab, self.source))


def _unpickled(id: str, srgb: FloatArray, lab: FloatArray, source: str) -> Board:
    """A board from another process: its colours read-only again, as every board has them."""
    return Board(id, _readonly(srgb), _readonly(lab), source)


_STANDARD: list[Board] = []


def _standard_board() -> Board:
    if not _STANDARD:
        text = resources.files("huescues.data").joinpath("standard_board.csv").read_text()
        lines = list(csv.reader(text.splitlines()))
        board = Board._from_csv_rows(
            lines,
            name="standard_board.csv",
            id=STANDARD_BOARD_ID,
            source="huescues' own palette, generated by scripts/make_standard_board.py",
        )
        if board.shape != (STANDARD_ROWS, STANDARD_COLS):
            raise RuntimeError("the packaged standard board is not 16 x 30")
        _STANDARD.append(board)
    return _STANDARD[0]


@functools.cache
def _retail_board() -> Board:
    text = resources.files("huescues.data").joinpath("research", "retail-board.csv").read_text()
    return Board._from_csv_rows(
        list(csv.reader(text.splitlines())),
        name="retail-board.csv",
        id=RETAIL_BOARD_ID,
        source="retail board measured by Alabau-Bosque et al. (2025)",
    )


@functools.cache
def _wcs_board() -> Board:
    from huescues.colour import WCS_BOARD_ID, wcs_palette

    return Board.from_rgb(
        wcs_palette(),
        id=WCS_BOARD_ID,
        source=(
            "World Color Survey layout (values 9.5-1.5 by 40 Munsell hues and a neutral column) "
            "at the highest even Munsell chroma inside sRGB; an approximation of the physical "
            "chips, from colour-science's Munsell renotation"
        ),
    )
