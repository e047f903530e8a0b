"""The board as the pages receive it: one wire format for the game tables and the study, drawn
by ``static/board.js``."""

from __future__ import annotations

from typing import Any

from huescues.engine import ROW_LETTERS, Board

__all__ = ["board_json"]


def board_json(board: Board) -> dict[str, Any]:
    """``board`` as JSON for a page: ``{"id", "rows", "cols", "row_letters": ["A", ...],
    "colours": [["#rrggbb", ...], ...]}``, the colours row by row (``colours[r][c]`` is the
    square in row ``row_letters[r]``, column ``c + 1``). The game's welcome and the study's
    sessions both send it, so that one drawer reads both."""
    cells = board.cells()
    return {
        "id": board.id,
        "rows": board.rows,
        "cols": board.cols,
        "row_letters": list(ROW_LETTERS[: board.rows]),
        "colours": [
            [board.hex(c) for c in cells[r * board.cols : (r + 1) * board.cols]]
            for r in range(board.rows)
        ],
    }
