"""The second clue's screening (R11): which words of the vocabulary may be among a giver's best
second clues, found for every word at once in float32 with an error bound of its own, so that
only those few are valued exactly (:meth:`~huescues.agents.ModelClueGiver.give_second_clue`).
And the tables the valuing reads: the target's frame and points (R4, R5, R15)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, Cell, View
from huescues.language import ColourTermModel

from ._readings import Kind, Readings
from ._vocabulary import BoardReading, words_key

__all__ = [
    "ALIKE_FROM",
    "alike_places",
    "belief32",
    "near",
    "screen_totals",
    "shortlist",
    "target_of",
]

FloatArray = NDArray[np.float64]
#: What the second guesses are worth to the giver, from each word's share of them in the frame
#: and their expected points (the giver's ``_value``).
Value = Callable[[View, FloatArray, FloatArray], FloatArray]

#: A word's float32 screening is trusted when its weights' total is at least this (far above
#: float32's smallest normal, so that what underflows cannot matter).
_SURE_TOTAL = 1e-25
#: A bound on the relative error of the screening's float32 sums over a board's squares
#: (rounding of exp and of up to a thousand products and additions).
_REL_ERROR = 1e-4
#: A shortlist this long or shorter is valued without looking for words read alike.
ALIKE_FROM = 32

#: exp(log L0) of a vocabulary in float32 per model, keyed by board id and vocabulary; 7 MB
#: each on the standard board.
BELIEF32: Kind[NDArray[np.float32]] = Kind("a vocabulary's belief in float32", 4)
#: Which words of a vocabulary a model reads alike (the same bits), per model, keyed by board
#: id and vocabulary: each word's first alike (an index).
ALIKE: Kind[NDArray[np.intp]] = Kind("the words read alike", 4)
#: The target's frame and every square's R15 points against it, keyed by the square, the
#: board's shape and the points (no models).
NEAR: Kind[tuple[NDArray[np.intp], FloatArray]] = Kind("a target's frame and points", 1024)
#: The squares that earn points against the target and which are in its frame, likewise.
REACH: Kind[tuple[NDArray[np.intp], NDArray[np.bool_]]] = Kind("a target's reach", 1024)


def belief32(
    readings: Readings,
    model: ColourTermModel,
    board: Board,
    reading: BoardReading,
    words: tuple[str, ...] | None,
) -> NDArray[np.float32]:
    """L0(square | word) for every square (rows) and word of ``reading`` (``model``'s on
    ``board`` of the vocabulary ``words``), float32: a row per square, so that a few squares'
    rows are quick to take."""
    n = len(reading.words)
    return readings.get(
        (model,),
        BELIEF32,
        (board.id, words_key(words)),
        lambda: np.ascontiguousarray(np.exp(reading.log_belief.reshape(n, -1)).T),
    )


def screen_totals(weights32: NDArray[np.float32], table: NDArray[np.float32]) -> FloatArray:
    """Each word's total weight over the board: one float32 vector product (``weights32`` by
    the table of :func:`belief32`). The one way the screening's totals are made, for one game
    or a batch's games: the same call on the same numbers, so the same bits (a matrix product
    for many games at once would sum in another order)."""
    out: FloatArray = (weights32 @ table).astype(np.float64)
    return out


def _first_alike(reading: BoardReading) -> NDArray[np.intp]:
    """For each word of the vocabulary, the first whose reading has the same bytes."""
    rows = np.ascontiguousarray(reading.log_belief.reshape(len(reading.words), -1))
    as_bytes = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, inverse = np.unique(as_bytes, return_index=True, return_inverse=True)
    out: NDArray[np.intp] = first[inverse.ravel()]
    out.flags.writeable = False
    return out


def alike_places(
    readings: Readings,
    models: list[ColourTermModel],
    board: Board,
    read: list[BoardReading],
    words: tuple[str, ...] | None,
    shortlist: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp]] | None:
    """The places in ``shortlist`` of the first of each set of words that every model reads
    alike, and each word's set (an index into those places); ``None`` when no two are."""
    n = len(read[0].words)
    key = (board.id, words_key(words))
    firsts = [
        readings.get((m,), ALIKE, key, functools.partial(_first_alike, r))
        for m, r in zip(models, read, strict=True)
    ]
    if n ** len(firsts) < 2**62:
        # One number per word for its first alike in every model (a digit per model, base n).
        kinds = np.zeros(len(shortlist), dtype=np.int64)
        for first in firsts:
            kinds = kinds * n + first.take(shortlist)
    else:
        rows = np.stack([first.take(shortlist) for first in firsts], axis=1)
        kinds = np.unique(rows, axis=0, return_inverse=True)[1].ravel()
    _, first_place, place = np.unique(kinds, return_index=True, return_inverse=True)
    if len(first_place) == len(shortlist):
        return None
    return first_place, place.ravel()


def _kth_legal(values: FloatArray, k: int, legal: NDArray[np.bool_]) -> float:
    """The ``k``-th largest of ``values`` (``-inf`` for words left out) among the words
    ``legal`` marks (one flag per value), or ``-inf`` when fewer are. A value, so the order in
    which ties are met changes nothing."""
    kept = values[legal & (values > -np.inf)]
    n = len(kept)
    if n < k:
        return -np.inf
    # A sort, not a partition: the screening's values have many ties (words read alike), on
    # which a partition takes ten times as long.
    return float(np.sort(kept)[n - k])


def shortlist(
    view: View,
    tables: list[NDArray[np.float32]],
    weights: list[FloatArray],
    totals: list[FloatArray],
    ring_pts: FloatArray,
    legal: NDArray[np.bool_],
    allowed: NDArray[np.bool_] | None,
    *,
    keep: int,
    value: Value,
    readings: Readings,
) -> NDArray[np.intp]:
    """The indices (ascending) of every word that may be among the ``keep`` best legal single
    second clues. Each word's worth is estimated in float32 from three sums over the squares
    (vector products per model: ``totals``, each word's total weight over the board, and two
    over the squares near the target) with an error bound of its own; a word is kept when its
    worth may reach the ``keep``-th best legal word's least possible worth. Words whose
    estimate is not trustworthy (their joint belief underflows float32) are kept.

    ``tables`` are the models' :func:`belief32`, ``weights`` each model's weight of every
    square (the first clue's reading over the empty squares), ``allowed`` the words that may be
    second clues at all (``None``: every one)."""
    # Only allowed words can be kept: past the vector products (over every word, as they
    # always are) each word's numbers are its own, so the rest looks at those words alone.
    at = None if allowed is None else np.flatnonzero(allowed)
    n = tables[0].shape[1] if at is None else len(at)
    # Only the squares within the points' reach of the target add to the frame and points.
    target = target_of(view)
    close, in_frame = _reach(readings, target, view.board, view.rules.points_by_distance)
    # The worth is own * in_frame - others * points (see _value): both weights, as bounds.
    n_guessers = len(view.guessers)
    own = float(view.rules.giver_points_per_pawn) * n_guessers
    others = n_guessers / max(1, view.rules.n_players - 1)
    approx = np.zeros(n)
    error = np.zeros(n)
    unsure = np.zeros(n, dtype=bool)
    for table, v, z in zip(tables, weights, totals, strict=True):
        # weight(w, s) ∝ L0(s | w) exp(first(s)) over the empty squares (v): its total (z),
        # its mass in the frame and its expected points, each a sum of non-negative terms.
        part = table.take(close, axis=0)  # the same rows as table[close], taken sooner
        frame_mass = (v[close] * in_frame).astype(np.float32) @ part
        points = (v[close] * ring_pts[close]).astype(np.float32) @ part
        if at is not None:
            frame_mass, points, z = frame_mass[at], points[at], z[at]
        unsure |= ~(z > _SURE_TOTAL)
        safe = np.where(unsure, 1.0, z)
        frame_share, points_share = frame_mass / safe, points / safe
        approx += value(view, frame_share, points_share)
        # Each sum is within _REL_ERROR of its exact value, so each ratio within 2.5 times.
        error += 2.5 * _REL_ERROR * (own * frame_share + others * points_share)
    approx /= len(tables)
    # What underflows adds at most this much to a ratio whose total is sure.
    error = error / len(tables) + (own + others * float(ring_pts.max())) * 1e-9
    lower = np.where(unsure, -np.inf, approx - error)
    # The keep-th largest least worth among legal words: the best few first (most words are
    # legal), all of them if need be.
    legal_here = legal if at is None else legal[at]
    threshold = _kth_legal(lower, keep, legal_here)
    keep_mask = (approx + error >= threshold) | unsure
    out: NDArray[np.intp] = np.flatnonzero(keep_mask)
    return out if at is None else at[out]


def target_of(view: View) -> Cell:
    """The target of a clue giver's view (R8)."""
    if view.target is None:
        raise ValueError("only the clue giver, after choosing a target, gives clues (R8)")
    return view.target


def near(
    readings: Readings, target: Cell, board: Board, points: tuple[int, ...]
) -> tuple[NDArray[np.intp], FloatArray]:
    """The flat indices of the target's frame (R4, clipped, R5), and every square's R15 points
    against the target (read-only: kept for every round with this target)."""
    key = (target.row, target.col, board.shape, points)
    return readings.get((), NEAR, key, lambda: _near(target.row, target.col, board.shape, points))


def _near(
    row: int, col: int, shape: tuple[int, int], points: tuple[int, ...]
) -> tuple[NDArray[np.intp], FloatArray]:
    rows, cols = np.indices(shape)
    d = np.maximum(np.abs(rows - row), np.abs(cols - col)).ravel()
    table = np.array([*points, 0], dtype=np.float64)
    pts = table[np.minimum(d, len(points))]
    frame = np.flatnonzero(d <= 1)
    for a in (frame, pts):
        a.flags.writeable = False
    return frame, pts


def _reach(
    readings: Readings, target: Cell, board: Board, points: tuple[int, ...]
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """The flat indices of the squares that earn points against the target (R15), and which
    of them are in its frame (read-only: kept for every second clue with this target)."""

    def make() -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
        frame_idx, ring_pts = near(readings, target, board, points)
        close = np.flatnonzero(ring_pts > 0)
        frame_mask = np.zeros(len(ring_pts), dtype=bool)
        frame_mask[frame_idx] = True
        in_frame = frame_mask[close]
        for a in (close, in_frame):
            a.flags.writeable = False
        return close, in_frame

    return readings.get((), REACH, (target.row, target.col, board.shape, points), make)
