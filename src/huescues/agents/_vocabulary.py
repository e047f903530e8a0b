"""The clue givers' vocabulary and what a model makes of it on a board, computed once per
(model, board) and kept while the model lives."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board
from huescues.language import LANGUAGES, ColourTermModel, TranslatedModel, with_capabilities

from ._memo import ModelMemo, words_key
from ._points import frame_probability
from ._store import cache_path, encode, load, readings_cache_dir, readings_key, save, shipped_path

__all__ = ["BoardReading", "board_reading", "clue_vocabulary", "frame_table", "model_language"]

#: Words whose frame probabilities are computed together.
_CHUNK = 256

FloatArray = NDArray[np.float64]


def clue_vocabulary(language: str = "en") -> tuple[str, ...]:
    """The shipped vocabulary of the clue givers in ``language``. English (the default): 3,395
    common English words people use in colour names, most used first (made by
    ``scripts/make_clue_vocabulary.py``). Spanish (``"es"``): 774 common Spanish words, each the
    Spanish reading's translation of one of the English words, in their order (made by
    ``scripts/make_clue_vocabulary_es.py``, docs/languages.md). Another language is a
    ValueError."""
    # One tuple per language however it is asked for (the memos key readings by its id).
    return _clue_vocabulary(language)


@functools.cache
def _clue_vocabulary(language: str) -> tuple[str, ...]:
    if language not in LANGUAGES:
        raise ValueError(
            f"unknown language {language!r}: the givers speak {', '.join(map(repr, LANGUAGES))}"
        )
    data = resources.files("huescues.data")
    if language == "es":
        lines = data.joinpath(SPANISH_VOCABULARY).read_text(encoding="utf-8").splitlines()
        return tuple(line.split("\t")[0] for line in lines[1:] if line)
    return tuple(data.joinpath("clue_vocabulary.txt").read_text().split())


#: The Spanish givers' vocabulary, relative to the package's data folder: the Spanish word,
#: the English word it translates, the translation's confidence and the word's frequency.
SPANISH_VOCABULARY = "languages/es/clue_vocabulary.tsv"


def model_language(model: object) -> str:
    """The language a model reads clues in: a :class:`~huescues.language.TranslatedModel`'s,
    else English."""
    return model.language if isinstance(model, TranslatedModel) else "en"


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

#: Readings per model, kept while the model lives, keyed by board id and vocabulary.
READINGS: ModelMemo[BoardReading] = ModelMemo(per_models=BOARDS_KEPT)
#: Averaged frame probabilities of ensembles of listener models, likewise (with the vocabulary
#: they are for, which keeps its id a safe key).
ENSEMBLE_FRAMES: ModelMemo[tuple[tuple[str, ...], NDArray[np.float32]]] = ModelMemo(
    per_models=BOARDS_KEPT
)


def board_reading(
    model: ColourTermModel, board: Board, words: tuple[str, ...] | None = None
) -> BoardReading:
    """The vocabulary (the shipped one by default) read by ``model`` on ``board``; made once
    while the model lives.

    For a model with a stable name (the shipped ones, :func:`~huescues.language.model_cache_key`)
    the reading is taken from the package for the standard board and the shipped vocabulary,
    else from the user cache directory (``readings_cache_dir``), where it is written the first
    time; the same arrays as a fresh reading, so decisions are the same. ``HUESCUES_CACHE=off``
    reads every board afresh, as every process did before readings were kept.

    The shipped vocabulary is the one of the model's language (:func:`model_language`): a
    Spanish model's is the Spanish one."""
    words = clue_vocabulary(model_language(model)) if words is None else words
    # The reading holds ``words``, so their id is a safe key (words_key).
    return READINGS.get(
        (model,), (board.id, words_key(words)), lambda: _kept_reading(model, board, words)
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
    """The vocabulary read by ``model`` on ``board`` (the work :func:`board_reading` keeps)."""
    many = with_capabilities(model).score_many
    scores = np.asarray(many(list(words), board.lab), dtype=np.float64)
    log_belief, frame = from_scores(scores)
    return BoardReading(words, {w: i for i, w in enumerate(words)}, log_belief, frame)


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


def frame_table(
    models: list[ColourTermModel], board: Board, words: tuple[str, ...] | None = None
) -> tuple[tuple[str, ...], NDArray[np.float32]]:
    """The vocabulary and, for each word and square, the chance that a pawn placed by the
    literal listener lands in the square's frame, averaged over ``models``; made once while
    the models live."""
    readings = [board_reading(m, board, words) for m in models]
    if len(readings) == 1:
        return readings[0].words, readings[0].frame
    words = readings[0].words
    return ENSEMBLE_FRAMES.get(
        models,
        (board.id, words_key(words)),
        lambda: (words, np.mean([r.frame for r in readings], axis=0, dtype=np.float32)),
    )


def _logsumexp(a: FloatArray, axis: int) -> FloatArray:
    m = a.max(axis=axis, keepdims=True)
    out: FloatArray = (m + np.log(np.exp(a - m).sum(axis=axis, keepdims=True))).squeeze(axis)
    return out
