"""A vocabulary's reading from a model's scores on a board: the literal listener's log beliefs
and the chance a pawn lands in each square's frame, the arrays a reading is (and a reading's
file is checked against)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._points import frame_probability

__all__ = ["from_scores"]

FloatArray = NDArray[np.float64]

#: Words whose frame probabilities are computed together.
_CHUNK = 256


def from_scores(scores: FloatArray) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """A reading's arrays from a model's scores, shape (words, rows, cols): the log beliefs
    (normalised over the squares) and the frame probabilities, both float32."""
    flat = scores.reshape(len(scores), -1)
    log_belief = flat - _logsumexp(flat, axis=1)[:, None]
    # Frame probabilities in chunks, kept as float32: a few MB per board, not a hundred.
    frame = np.empty(scores.shape, dtype=np.float32)
    for start in range(0, len(scores), _CHUNK):
        part = np.exp(log_belief[start : start + _CHUNK]).reshape(-1, *scores.shape[1:])
        frame[start : start + _CHUNK] = frame_probability(part)
    return log_belief.reshape(scores.shape).astype(np.float32), frame


def _logsumexp(a: FloatArray, axis: int) -> FloatArray:
    m = a.max(axis=axis, keepdims=True)
    out: FloatArray = (m + np.log(np.exp(a - m).sum(axis=axis, keepdims=True))).squeeze(axis)
    return out
