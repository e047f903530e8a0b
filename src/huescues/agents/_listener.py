"""What a clue makes a listener believe about the target: a posterior over the board's squares
from a colour-term model, with the clues combined, optional evidence from pawns already placed,
and an optional pragmatic step (Rational Speech Acts)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, Cell
from huescues.language import ColourTermModel

__all__ = ["log_literal", "pawn_log_likelihood", "posterior"]

FloatArray = NDArray[np.float64]


def log_literal(model: ColourTermModel, text: str, board: Board) -> FloatArray:
    """log L0(square | text): the model's log-likelihood on every square, normalised over the
    board (a flat prior). Shape ``(rows, cols)``."""
    s = np.asarray(model.score(text, board.lab), dtype=np.float64)
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
