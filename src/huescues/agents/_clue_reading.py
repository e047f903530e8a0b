"""Where a colour-term model reads a clue on a board: its belief over the squares, and the best
few squares (a literal listener, as :func:`log_literal` reads a clue for the players)."""

from __future__ import annotations

import numpy as np

from huescues.engine import Board, Cell
from huescues.language import ColourTermModel

from ._listener import FloatArray, log_literal, posterior

__all__ = ["clue_probabilities", "top_squares"]


def clue_probabilities(model: ColourTermModel, text: str, board: Board) -> FloatArray:
    """The model's belief over the board's squares for ``text``: ``score`` on every square,
    normalised (a flat prior over squares). Shape ``(rows, cols)``, summing to 1."""
    return posterior([log_literal(model, text, board)])


def top_squares(
    model: ColourTermModel, text: str, board: Board, k: int = 5
) -> list[tuple[Cell, float]]:
    """The ``k`` squares the model finds most likely for ``text``, best first, with their
    probabilities."""
    p = clue_probabilities(model, text, board)
    order = np.argsort(-p, axis=None, kind="stable")[:k]
    cells = board.cells()
    return [(cells[int(i)], float(p.flat[int(i)])) for i in order]
