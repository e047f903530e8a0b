"""What a clue makes a listener believe about the target: a posterior over the board's squares
from a colour-term model, with the clues combined, optional evidence from pawns already placed,
and an optional pragmatic step (Rational Speech Acts)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, Cell
from huescues.language import ColourTermModel, in_view

__all__ = ["log_literal", "on_board", "pawn_log_likelihood", "posterior"]

FloatArray = NDArray[np.float64]

#: Each model's reading in view of a board, by board id (made once: its readings are its own).
_ON_BOARD: weakref.WeakKeyDictionary[object, dict[str, ColourTermModel | None]] = (
    weakref.WeakKeyDictionary()
)
_ON_BOARD_LOCK = threading.Lock()


def on_board(model: ColourTermModel, board: Board) -> ColourTermModel:
    """``model`` reading clues against the board's squares
    (:func:`~huescues.language.in_view`): how the players read every clue. Made once per model
    and board and kept while the model lives."""
    try:
        with _ON_BOARD_LOCK:
            kept = _ON_BOARD.setdefault(model, {})
            if board.id not in kept:
                viewed = in_view(model, board.lab)
                # None for the model itself: a value that held its key would keep it alive.
                kept[board.id] = None if viewed is model else viewed
            found = kept[board.id]
    except TypeError:  # a model that cannot be weakly referenced: read in view each time
        return in_view(model, board.lab)
    return model if found is None else found


def log_literal(model: ColourTermModel, text: str, board: Board) -> FloatArray:
    """log L0(square | text): the model's log-likelihood on every square, read against the
    board's squares (:func:`on_board`) and normalised over them (a flat prior). Shape
    ``(rows, cols)``."""
    s = np.asarray(on_board(model, board).score(text, board.lab), dtype=np.float64)
    return s - _logsumexp(s)


def pawn_log_likelihood(
    pawns: Iterable[Cell], shape: tuple[int, int], *, spread: float, floor: float
) -> FloatArray:
    """log p(pawns | target) for every target square: each pawn placed by another player is a
    noisy reading of the clue, near the target with a Gaussian fall-off of ``spread`` squares,
    or anywhere with probability ``floor`` (players misread clues, or guess at random)."""
    out = np.zeros(shape)
    for p in pawns:
        out += _pawn_term(p.row, p.col, (int(shape[0]), int(shape[1])), float(spread), float(floor))
    return out


def _pawn_term(
    row: int, col: int, shape: tuple[int, int], spread: float, floor: float
) -> FloatArray:
    """One pawn's term of :func:`pawn_log_likelihood` (the guessers keep every square's,
    :func:`~huescues.agents._belief.pawn_terms`)."""
    rows, cols = shape
    r = np.arange(rows)[:, None]
    c = np.arange(cols)[None, :]
    d2 = (r - row) ** 2 + (c - col) ** 2
    near = np.exp(-0.5 * d2 / spread**2)
    near /= near.sum()
    out: FloatArray = np.log((1.0 - floor) * near + floor / (rows * cols))
    out.flags.writeable = False
    return out


def posterior(log_terms: Sequence[FloatArray]) -> FloatArray:
    """Normalised probabilities over squares from a sum of log terms."""
    total = np.sum(log_terms, axis=0)
    z = np.exp(total - total.max())
    out: FloatArray = z / z.sum()
    return out


def _logsumexp(a: FloatArray) -> float:
    m = float(a.max())
    return m + float(np.log(np.exp(a - m).sum()))
