"""Expected points on a board: R15 as a small kernel slid over a belief about the target."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Rules

from ._readings import Kind, Readings

__all__ = [
    "POINTS_TIE",
    "RingKernel",
    "best_squares",
    "expected_points",
    "expected_points_many",
    "frame_probability",
    "kept_kernel",
    "ring_kernel",
    "ring_sums",
]

FloatArray = NDArray[np.float64]

#: Values within this of the most (relative, for values above 1) count as the most, and the
#: first of them (in reading order) is chosen. Squares a symmetric belief makes equal come out
#: of the arithmetic a last bit apart, and which bit with the machine (its vector units' ``exp``
#: and ``log``, numpy's kernels blocking rows by the vector width): a plain argmax chose between
#: them by the machine, and a game played on one machine went otherwise on another.
POINTS_TIE = 1e-9


class RingKernel(NamedTuple):
    """What :func:`ring_sums` slides over a board of one size for one table of weights by
    distance (R15's points, or R16's frame): the weights and their shifts in the sums' order,
    and for one board the gather that makes the same sums at once."""

    weights: tuple[int, ...]
    #: Every non-zero shift: (weight, first row, first column) of the shifted board.
    offsets: tuple[tuple[float, int, int], ...]
    #: The flat indices of every shift into the padded boards of each weight (a row a shift).
    gather: NDArray[np.intp]
    #: The distinct non-zero weights, shape ``(k, 1, 1)``: one padded board for each.
    scales: FloatArray


#: Each board size's kernel for each table of points (the players keep theirs: the gather is
#: a hundred microseconds to make, a decision's few to use).
KERNELS: Kind[RingKernel] = Kind("a board's ring kernel", 16)


def best_squares(values: FloatArray) -> NDArray[np.intp]:
    """Along the last axis, the index of the largest value: the first of those within
    :data:`POINTS_TIE` of it, relative above 1 (``-inf`` for a square that may not be chosen; a
    NaN is never chosen while a number is there)."""
    top = values.max(axis=-1, keepdims=True)
    if values.ndim == 1 and math.isfinite(top[0]):
        # One square's choice, as each pawn is: few array operations (it is on the hot path).
        best = float(top[0])
        margin = POINTS_TIE * max(1.0, abs(best))
        return np.asarray(np.argmax(values >= best - margin))
    if np.isnan(top).any():  # (max keeps a NaN: a NaN is never the best while a number is there)
        values = np.where(np.isnan(values), -np.inf, values)
        top = values.max(axis=-1, keepdims=True)
    # An infinite best is a tie only with itself.
    tie = np.where(np.isfinite(top), POINTS_TIE * np.maximum(1.0, np.abs(top)), 0.0)
    found: NDArray[np.intp] = np.argmax(values >= top - tie, axis=-1)
    return found


def expected_points(belief: FloatArray, rules: Rules) -> FloatArray:
    """For every square, the R15 points a pawn there earns on average when the target is
    distributed as ``belief`` (shape ``(rows, cols)``, summing to 1).

    Squares off the board do not exist (R5): the sum runs over the board only, so a pawn at the
    edge gets nothing for targets beyond it.
    """
    return ring_sums(
        belief, ring_kernel(belief.shape[-2], belief.shape[-1], rules.points_by_distance)
    )


def expected_points_many(beliefs: FloatArray, rules: Rules) -> FloatArray:
    """:func:`expected_points` of each board of ``beliefs`` (shape ``(n, rows, cols)``), bit
    for bit (the same products added in the same order)."""
    return ring_sums(
        beliefs, ring_kernel(beliefs.shape[-2], beliefs.shape[-1], rules.points_by_distance)
    )


def frame_probability(belief: FloatArray) -> FloatArray:
    """For every square, the probability that a pawn there lands inside the frame (distance at
    most 1 from the target, R16) when the target is distributed as ``belief``."""
    return ring_sums(belief, _kernel_of(belief, (1, 1)))


def kept_kernel(readings: Readings, shape: tuple[int, int], weights: tuple[int, ...]) -> RingKernel:
    """:func:`ring_kernel` of a board's ``shape`` and ``weights``, kept in ``readings``."""
    rows, cols = shape
    return readings.get((), KERNELS, (shape, weights), lambda: ring_kernel(rows, cols, weights))


def _kernel_of(belief: FloatArray, weights: tuple[int, ...]) -> RingKernel:
    """:func:`ring_kernel` of ``belief``'s board (its last two axes)."""
    return ring_kernel(belief.shape[-2], belief.shape[-1], weights)


def ring_sums(belief: FloatArray, kernel: RingKernel) -> FloatArray:
    """sum over targets t of weights[d(s, t)] * belief[t], with d the Chebyshev distance (R5)
    and the weights ``kernel``'s (made for this board size); the last two axes are the board,
    any leading axes are a batch."""
    *lead, rows, cols = belief.shape
    weights = kernel.weights
    reach = len(weights) - 1
    if not lead:
        # One board (every decision): the same sums in the same order, as one gather from the
        # padded board times each weight (w * b is the same product before the gather as after).
        index, scales = kernel.gather, kernel.scales
        padded = np.zeros((len(scales), rows + 2 * reach, cols + 2 * reach))
        padded[:, reach : reach + rows, reach : reach + cols] = belief
        padded *= scales
        # The reduction over the first axis adds the terms one after another, as the loop does.
        summed: FloatArray = np.add.reduce(np.take(padded.ravel(), index), axis=0)
        return summed.reshape(rows, cols)
    # A batch: each shift added for all the boards at once. The boards padded one after
    # another, flat: a shift by (dr, dc) is a shift by dr * width + dc, so each shift's terms
    # for every square of every board are one run, from the first board's first square to the
    # last board's last (the padding between is summed too and dropped; each square's terms
    # stay within its own board's padding). The same products, added in the same order, as
    # one board's gather (a first term as it is: 0 + x is x).
    n = math.prod(lead)
    height, width = rows + 2 * reach, cols + 2 * reach
    padded = np.zeros((n, height, width))
    padded[:, reach : reach + rows, reach : reach + cols] = belief.reshape(n, rows, cols)
    flat = padded.ravel()
    start = reach * width + reach
    stop = n * height * width - start
    scaled = {w: flat * w for w in sorted({float(w) for w in weights if w})}
    out = np.zeros(n * height * width)
    run = out[start:stop]
    for k, (w, r0, c0) in enumerate(kernel.offsets):
        shift = (r0 - reach) * width + (c0 - reach)
        part = scaled[w][start + shift : stop + shift]
        if k == 0:
            run[...] = part
        else:
            np.add(run, part, out=run)
    boards = out.reshape(n, height, width)[:, reach : reach + rows, reach : reach + cols]
    return np.ascontiguousarray(boards).reshape(belief.shape)


def ring_kernel(rows: int, cols: int, weights: tuple[int, ...]) -> RingKernel:
    """The :class:`RingKernel` of a ``rows`` x ``cols`` board for ``weights`` by distance:
    every non-zero shift in the sums' order, and for one board the distinct non-zero weights and
    the flat indices into their padded boards of every shift (in the loop's order, one row per
    shift), each into the board of its weight."""
    reach = len(weights) - 1
    offsets = tuple(
        (float(weights[max(abs(dr), abs(dc))]), reach + dr, reach + dc)
        for dr in range(-reach, reach + 1)
        for dc in range(-reach, reach + 1)
        if weights[max(abs(dr), abs(dc))]
    )
    width = cols + 2 * reach
    size = (rows + 2 * reach) * width
    base = (np.arange(rows)[:, None] * width + np.arange(cols)[None, :]).ravel()
    distinct = sorted({float(w) for w in weights if w})
    shifts = [distinct.index(w) * size + r0 * width + c0 for w, r0, c0 in offsets]
    index = np.array(shifts, dtype=np.intp)[:, None] + base[None, :]
    index.flags.writeable = False
    scales = np.array(distinct)[:, None, None]
    scales.flags.writeable = False
    return RingKernel(weights, offsets, index, scales)
