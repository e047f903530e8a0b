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
    rows, cols = shape
    r = np.arange(rows)[:, None]
    c = np.arange(cols)[None, :]
    out = np.zeros(shape)
    for p in pawns:
        d2 = (r - p.row) ** 2 + (c - p.col) ** 2
        near = np.exp(-0.5 * d2 / spread**2)
        near /= near.sum()
        out += np.log((1.0 - floor) * near + floor / (rows * cols))
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
