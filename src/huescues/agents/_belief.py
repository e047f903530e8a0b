"""What a clue says about the target, as the players read it: the literal listener's belief
over the squares for a word of the vocabulary (its reading on the board) or any other clue
(read once and kept), two-word clues read in a batch, and the pawns' evidence (R15's frame is
:mod:`._points`'s)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, Cell, normalise_clue
from huescues.language import ColourTermModel, listen, reads_in_context, with_capabilities

from ._listener import log_literal, on_board, pawn_log_likelihood, posterior
from ._readings import Kind, Readings
from ._vocabulary import board_reading

__all__ = ["later_reading", "log_l0", "pawn_terms", "phrases_log_l0"]

FloatArray = NDArray[np.float64]

#: Readings of clues outside the vocabulary, per model, keyed by board id and clue: at most
#: this many per model (4 KB each on the standard board).
LOG_L0: Kind[FloatArray] = Kind("a clue read by a model", 4096)
#: Readings of two-word second clues from the models' batched ``score_batch`` (equal to
#: :func:`log_l0`'s but for the last bits), per model, keyed by board id and clue.
PHRASE_L0: Kind[FloatArray] = Kind("a phrase read in a batch", 4096)
#: A guesser's readings of a later clue (the models' literal readings averaged), per tuple of
#: its models, keyed by board id and clue: every guess after the clue reads it again.
LATER_READINGS: Kind[FloatArray] = Kind("a later clue read by an ensemble", 128)
#: Every square's term of :func:`pawn_log_likelihood` (flat), keyed by board shape and how
#: pawns are read (no models).
PAWN_TERMS: Kind[FloatArray] = Kind("the pawns' terms", 4)


def log_l0(readings: Readings, model: ColourTermModel, board: Board, text: str) -> FloatArray:
    """log L0(square | text) on the board, from the vocabulary's reading when the text is a
    word of it, else computed once and kept."""
    reading = board_reading(readings, model, board)
    i = reading.index.get(text.lower().strip())
    if i is not None:
        row: FloatArray = reading.log_belief[i].astype(np.float64)
        return row
    key = (board.id, normalise_clue(text))
    return readings.get((model,), LOG_L0, key, lambda: _read_clue(model, text, board))


def _read_clue(model: ColourTermModel, text: str, board: Board) -> FloatArray:
    """log L0 of a clue outside the vocabulary; one with a negation, a comparative or "other"
    ("not sky") is read against the board's squares (listen)."""
    if not reads_in_context(text):
        return log_literal(model, text, board)
    p = listen(text, board.lab.reshape(-1, 3), model=on_board(model, board))
    out: FloatArray = np.log(p).reshape(board.shape)
    return out


def phrases_log_l0(
    readings: Readings, model: ColourTermModel, board: Board, phrases: Sequence[str]
) -> FloatArray:
    """log L0(square | phrase) for each phrase, a row per phrase (flat squares): those not yet
    read are read together by the model's ``score_batch`` (much faster than one by one; a model
    without one reads them one by one, :func:`~huescues.language.with_capabilities`). The rows
    may differ from :func:`log_l0`'s in the last bits; a phrase read in context (a negation, a
    comparative, "other") is read as :func:`log_l0` reads it."""
    keys = [(board.id, normalise_clue(p)) for p in phrases]
    rows = readings.cached_many((model,), PHRASE_L0, keys)
    new = [i for i, r in enumerate(rows) if r is None and not reads_in_context(phrases[i])]
    if new:
        batch = with_capabilities(on_board(model, board)).score_batch
        s = np.asarray(batch([phrases[i] for i in new], board.lab.reshape(-1, 3)), np.float64)
        top = s.max(axis=1, keepdims=True)
        read = s - (top + np.log(np.exp(s - top).sum(axis=1, keepdims=True)))
        for i, row in zip(new, read, strict=True):
            rows[i] = readings.get((model,), PHRASE_L0, keys[i], functools.partial(_same, row))
    out: FloatArray = np.stack(
        [
            r.ravel() if r is not None else log_l0(readings, model, board, p).ravel()
            for r, p in zip(rows, phrases, strict=True)
        ]
    )
    return out


def _same(row: FloatArray) -> FloatArray:
    return row


def later_reading(
    readings: Readings, models: list[ColourTermModel], board: Board, clue: str
) -> FloatArray:
    """The literal readings of a later clue by ``models``, averaged (flat squares; kept,
    read-only)."""

    def make() -> FloatArray:
        out: FloatArray = np.mean(
            [posterior([log_l0(readings, m, board, clue)]).ravel() for m in models], axis=0
        )
        out.flags.writeable = False
        return out

    return readings.get(models, LATER_READINGS, (board.id, clue), make)


def pawn_terms(
    readings: Readings, shape: tuple[int, int], spread: float, floor: float
) -> FloatArray:
    """Every square's term of :func:`pawn_log_likelihood` (flat), a row per square, and a last
    row of zeros (no pawn); kept in ``readings``. A pawn's row added to zeros is its term (the
    same bits), so sums of rows are :func:`pawn_log_likelihood`'s sums."""

    def make() -> FloatArray:
        rows, cols = shape
        out = np.zeros((rows * cols + 1, rows * cols))
        for r in range(rows):
            for c in range(cols):
                term = pawn_log_likelihood([Cell(r, c)], shape, spread=spread, floor=floor)
                out[r * cols + c] = term.ravel()
        out.flags.writeable = False
        return out

    return readings.get((), PAWN_TERMS, (shape, spread, floor), make)
