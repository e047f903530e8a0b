"""What a clue says about the target once you know why a giver chose it: the pragmatic listener
of Rational Speech Acts, L1(t | w) ∝ P(t) S1(w | t).

The imagined clue giver is :class:`~huescues.agents.ModelClueGiver` on some listener
models: it takes the word with the most expected pawns in the target's frame, so
S1(w | t) ∝ exp(alpha * frame(w, t)) over its vocabulary. It also picks the target: the card
square its best word reaches best, so a square is chosen when the card's three other squares
reach less far, P(t) ∝ F(reach(t))^3 with F the share of the board's squares that reach less.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board
from huescues.language import ColourTermModel

from ._readings import Kind, Readings
from ._vocabulary import BOARDS_KEPT, frame_table, words_key

__all__ = ["SpeakerReading", "log_pragmatic", "speaker_reading"]

FloatArray = NDArray[np.float64]

#: How sharply the imagined giver prefers its best word (1 / the temperature of its softmax over
#: frame probabilities). Its choice is an argmax; 100 keeps near-ties apart but not certain.
ALPHA = 100.0

#: The other squares on a card, against which the giver picks its target (R8).
_RIVALS = 3


@dataclass(frozen=True, slots=True, eq=False)
class SpeakerReading:
    """An imagined clue giver on one board: its vocabulary, its frame table, the log of its
    softmax normaliser per square and its log prior over targets (all flat over squares)."""

    index: dict[str, int]
    frame: NDArray[np.float32]
    log_norm: FloatArray
    log_prior: FloatArray


#: Imagined givers per tuple of listener models, keyed by board id and vocabulary.
SPEAKERS: Kind[SpeakerReading] = Kind("an imagined giver", BOARDS_KEPT)


def speaker_reading(
    readings: Readings,
    models: list[ColourTermModel],
    board: Board,
    words: tuple[str, ...] | None = None,
) -> SpeakerReading:
    """The clue giver built on ``models`` (and ``words``, the shipped vocabulary by default),
    read on ``board``; made once, kept in ``readings``."""
    return readings.get(
        models,
        SPEAKERS,
        (board.id, words_key(words)),
        lambda: _imagine(readings, models, board, words),
    )


def _imagine(
    readings: Readings,
    models: list[ColourTermModel],
    board: Board,
    words: tuple[str, ...] | None,
) -> SpeakerReading:
    """The imagined giver on ``board`` (the work :func:`speaker_reading` keeps)."""
    vocabulary, frame3 = frame_table(readings, models, board, words)
    frame = frame3.reshape(len(vocabulary), -1)
    log_norm = np.zeros(frame.shape[1])
    top = frame.max(axis=0).astype(np.float64)
    # The softmax normaliser in chunks of squares: no words x squares float64 array.
    for start in range(0, frame.shape[1], 64):
        part = ALPHA * (frame[:, start : start + 64] - top[start : start + 64])
        log_norm[start : start + 64] = ALPHA * top[start : start + 64] + np.log(
            np.exp(part, dtype=np.float64).sum(axis=0)
        )
    share = (np.argsort(np.argsort(top, kind="stable"), kind="stable") + 1.0) / len(top)
    return SpeakerReading(
        {w: i for i, w in enumerate(vocabulary)}, frame, log_norm, _RIVALS * np.log(share)
    )


def log_pragmatic(speaker: SpeakerReading, text: str) -> FloatArray | None:
    """log L1(square | text), flat over the board and normalised, or ``None`` when the imagined
    giver would never say ``text`` (not one of its words)."""
    i = speaker.index.get(text.lower().strip())
    if i is None:
        return None
    out: FloatArray = ALPHA * speaker.frame[i].astype(np.float64) - speaker.log_norm
    out += speaker.log_prior
    out -= out.max()
    out -= np.log(np.exp(out).sum())
    return out
