"""A batched clue giver whose clues mean something: for the target's square it says the word of
the vocabulary a colour-naming model finds most fitting, so a guesser can learn what its words
mean (the random players' clues carry no information)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board
from huescues.language import ColourTermModel, NamingModel, in_view

from ._games import GameBatch
from ._random import random_actions
from ._vocabulary import ClueVocabulary

__all__ = ["NamingGiver", "naming_ranking"]

IntArray = NDArray[np.int64]


def naming_ranking(
    vocabulary: ClueVocabulary,
    board: Board,
    model: ColourTermModel | None = None,
    *,
    top: int = 16,
) -> IntArray:
    """``(squares, top)``: for each square, the ids of the vocabulary's one-word clues that
    ``model`` (default: :meth:`NamingModel.default`, the XKCD naming data), read against the
    board's squares (:func:`~huescues.language.in_view`), scores highest for its colour, best
    first."""
    model = NamingModel.default() if model is None else model
    words = np.flatnonzero(np.array(vocabulary.word_counts) == 1)
    if words.size == 0:
        raise ValueError("the vocabulary has no one-word clues to rank")
    lab = board.lab.reshape(-1, 3)
    model = in_view(model, lab)  # against the board's squares, as the players read
    scores = np.stack([np.asarray(model.score(vocabulary.texts[i], lab)) for i in words])
    order = np.argsort(-scores, axis=0, kind="stable")[: min(top, words.size)]
    ranking: IntArray = words[order.T].astype(np.int64)
    return ranking


@dataclass(frozen=True, slots=True)
class NamingGiver:
    """Batched players, called as ``players(batch, rng)`` like :func:`random_actions`: as clue
    giver, a target uniform on the card (R8), then the best-ranked legal clue not yet given for
    the target's square (:func:`naming_ranking`; R9, R11, R22; the second clue is the next
    word, never a pass); as guesser, a random empty square (R13). Where none of a square's
    ranked words is legal, a random legal clue."""

    #: ``(squares, k)`` clue ids per square, best first (:func:`naming_ranking`).
    ranking: IntArray

    @classmethod
    def for_batch(cls, batch: GameBatch, model: ColourTermModel | None = None) -> NamingGiver:
        """The naming giver for ``batch``'s vocabulary and board."""
        return cls(naming_ranking(batch.space.vocabulary, batch.board, model))

    def __call__(self, batch: GameBatch, rng: np.random.Generator) -> IntArray:
        out = random_actions(batch, rng)
        clue = np.flatnonzero((batch.phase == 1) | (batch.phase == 3))
        if clue.size == 0:
            return out
        second = batch.phase[clue] == 3
        candidates = self.ranking[batch.target[clue]]  # (rows, k)
        ok = np.where(
            second[:, None], batch.second_clue_ok[candidates], batch.first_clue_ok[candidates]
        )
        if batch.rules.refuse_repeated_clues:
            ok &= ~batch.used[clue[:, None], candidates]
        found = ok.any(axis=1)
        best = candidates[np.arange(clue.size), np.argmax(ok, axis=1)]
        out[clue[found]] = batch.space.first_clue + best[found]
        return out
