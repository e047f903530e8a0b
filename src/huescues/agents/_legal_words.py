"""Which words of a vocabulary are legal clues at a decision, as one mask: a second clue's
screening asks of hundreds of words, and a call per word costs more than the rest of it."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from huescues.engine import IllegalClue, Rules, View, normalise_clue, validate_clue

from ._readings import Kind, Readings, Same

__all__ = ["legal_mask"]

BoolArray = NDArray[np.bool_]

#: Per vocabulary, rules and kind of clue: which words pass R18-R21 alone, and each normalised
#: word's positions (for R22). A few: a process plays with few vocabularies and rules.
LEGAL_WORDS: Kind[tuple[BoolArray, dict[str, list[int]]]] = Kind("the legal words", 16)


def legal_mask(
    readings: Readings, words: tuple[str, ...], view: View, *, second: bool
) -> BoolArray:
    """For each of ``words``, whether it is a legal clue (``second`` or first) in ``view``'s
    game: what :func:`~huescues.validate_clue` says of it with the game's rules and clues
    (what depends on the words and rules alone kept in ``readings``)."""
    rules = view.rules
    alone, index = readings.get(
        (), LEGAL_WORDS, (Same(words), Same(rules), second), lambda: _alone(words, rules, second)
    )
    if not (rules.refuse_repeated_clues and view.clues_given):
        return alone
    out = alone.copy()
    for clue in view.clues_given:
        out[index.get(normalise_clue(clue), [])] = False
    return out


def _alone(
    words: tuple[str, ...], rules: Rules, second: bool
) -> tuple[BoolArray, dict[str, list[int]]]:
    # The verdict on a text alone depends only on the rules (R18-R21); R22 in legal_mask.
    alone = np.array([_passes(w, rules, second) for w in words], dtype=bool)
    alone.flags.writeable = False
    index: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        index.setdefault(normalise_clue(w), []).append(i)
    return alone, index


def _passes(word: str, rules: Rules, second: bool) -> bool:
    try:
        validate_clue(word, second=second, rules=rules)
    except IllegalClue:
        return False
    return True
