"""The clue givers' vocabulary and what a model makes of it on a board, computed once per
(model, board) and kept in the players' :class:`~huescues.agents.Readings`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board
from huescues.language import BlendedModel, ColourTermModel, TranslatedModel, with_capabilities

from . import _scores
from ._languages import clue_vocabulary
from ._listener import on_board
from ._readings import Kind, Readings, Same
from ._store import cache_path, encode, load, readings_cache_dir, readings_key, save, shipped_path

__all__ = [
    "BoardReading",
    "board_reading",
    "clue_vocabulary",
    "frame_table",
    "model_language",
    "words_key",
]

FloatArray = NDArray[np.float64]


def model_language(model: object) -> str:
    """The language a model reads clues in: a :class:`~huescues.language.TranslatedModel`'s;
    a :class:`~huescues.language.BlendedModel`'s two models' (a pool of Spanish models reads
    Spanish), a ValueError if they read different languages (no one vocabulary is theirs);
    else English."""
    if isinstance(model, TranslatedModel):
        return model.language
    if isinstance(model, BlendedModel):
        base, other = model_language(model.base), model_language(model.other)
        if base != other:
            raise ValueError(
                f"a blend of a model reading {base!r} and one reading {other!r} has no one "
                "vocabulary: give the clue giver its words"
            )
        return base
    return "en"


@dataclass(frozen=True, slots=True, eq=False)
class BoardReading:
    """A vocabulary read on one board: for every word, the literal listener's log belief over
    the squares (normalised), and the chance that a pawn placed by that belief lands in each
    square's frame."""

    words: tuple[str, ...]
    index: dict[str, int]
    #: log L0(square | word), shape (words, rows, cols), float32.
    log_belief: NDArray[np.float32]
    #: P(a pawn lands within distance 1 of square t | word), shape (words, rows, cols), float32.
    frame: NDArray[np.float32]


#: Boards (and vocabularies) whose readings are kept per model: a reading of the shipped
#: vocabulary on the standard board is 14 MB.
BOARDS_KEPT = 8

#: Readings per model, keyed by board id and vocabulary.
READINGS: Kind[BoardReading] = Kind("a vocabulary read on a board", BOARDS_KEPT)
#: Averaged frame probabilities of ensembles of listener models, likewise.
ENSEMBLE_FRAMES: Kind[tuple[tuple[str, ...], NDArray[np.float32]]] = Kind(
    "an ensemble's frame table", BOARDS_KEPT
)


def words_key(words: tuple[str, ...] | None) -> Same | None:
    """A player's vocabulary as part of a key: ``None`` for the models' shipped one, else the
    tuple itself compared by identity (hashing thousands of words at every decision would
    cost more than the decision)."""
    return None if words is None else Same(words)


def board_reading(
    readings: Readings,
    model: ColourTermModel,
    board: Board,
    words: tuple[str, ...] | None = None,
) -> BoardReading:
    """The vocabulary (the shipped one by default) read by ``model`` on ``board``; made once,
    kept in ``readings``.

    For a model with a stable name (the shipped ones, :func:`~huescues.language.model_cache_key`)
    the reading is taken from the package for the standard board and the shipped vocabulary,
    else from the user cache directory (``readings_cache_dir``), where it is written the first
    time; the same arrays as a fresh reading, so decisions are the same. ``HUESCUES_CACHE=off``
    reads every board afresh, as every process did before readings were kept.

    The shipped vocabulary is the one of the model's language (:func:`model_language`): a
    Spanish model's is the Spanish one."""
    return readings.get(
        (model,),
        READINGS,
        (board.id, words_key(words)),
        lambda: _kept_reading(
            model, board, clue_vocabulary(model_language(model)) if words is None else words
        ),
    )


def _kept_reading(model: ColourTermModel, board: Board, words: tuple[str, ...]) -> BoardReading:
    """The reading from the shipped file or the disk cache when one was made for this model,
    board, vocabulary and code; else read now (and written to the disk cache). With the cache
    turned off (``HUESCUES_CACHE=off``), always read now."""
    folder = readings_cache_dir()
    key = None if folder is None else readings_key(model, board, words)
    if folder is None or key is None:
        return read_board(model, board, words)
    arrays = load(shipped_path(board, key), key)
    if arrays is None:
        path = cache_path(folder, key)
        arrays = load(path, key)
        if arrays is None:
            reading = read_board(model, board, words)
            # Level 1: writing at zlib's best would cost a second per model.
            save(path, encode(key, reading.log_belief, reading.frame, level=1))
            return reading
    log_belief, frame = arrays
    return BoardReading(words, {w: i for i, w in enumerate(words)}, log_belief, frame)


def read_board(model: ColourTermModel, board: Board, words: tuple[str, ...]) -> BoardReading:
    """The vocabulary read by ``model`` on ``board``, against its squares (:func:`on_board`):
    the work :func:`board_reading` keeps."""
    many = with_capabilities(on_board(model, board)).score_many
    scores = np.asarray(many(list(words), board.lab), dtype=np.float64)
    log_belief, frame = _scores.from_scores(scores)
    return BoardReading(words, {w: i for i, w in enumerate(words)}, log_belief, frame)


def frame_table(
    readings: Readings,
    models: list[ColourTermModel],
    board: Board,
    words: tuple[str, ...] | None = None,
) -> tuple[tuple[str, ...], NDArray[np.float32]]:
    """The vocabulary and, for each word and square, the chance that a pawn placed by the
    literal listener lands in the square's frame, averaged over ``models``; made once, kept in
    ``readings``."""
    read = [board_reading(readings, m, board, words) for m in models]
    if len(read) == 1:
        return read[0].words, read[0].frame
    vocabulary = read[0].words
    return readings.get(
        models,
        ENSEMBLE_FRAMES,
        (board.id, words_key(words)),
        lambda: (vocabulary, np.mean([r.frame for r in read], axis=0, dtype=np.float32)),
    )
