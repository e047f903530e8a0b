"""Which words of a vocabulary are legal clues at a decision, as one mask: a second clue's
screening asks of hundreds of words, and a call per word costs more than the rest of it."""

from __future__ import annotations

import threading

import numpy as np
from numpy.typing import NDArray

from huescues.engine import IllegalClue, Rules, View, normalise_clue, validate_clue

__all__ = ["legal_mask"]

BoolArray = NDArray[np.bool_]

#: Per vocabulary, rules and kind of clue (by ids, the value keeping both objects so that the
#: ids stay theirs): which words pass R18-R21 alone, and each normalised word's positions (for
#: R22). A few entries: a process plays with few vocabularies and rules.
_KEPT: dict[
    tuple[int, int, bool], tuple[tuple[str, ...], Rules, BoolArray, dict[str, list[int]]]
] = {}
_KEPT_MAX = 16
_LOCK = threading.Lock()


def legal_mask(words: tuple[str, ...], view: View, *, second: bool) -> BoolArray:
    """For each of ``words``, whether it is a legal clue (``second`` or first) in ``view``'s
    game: what :func:`~huescues.validate_clue` says of it with the game's rules and clues."""
    rules = view.rules
    key = (id(words), id(rules), second)
    with _LOCK:
        kept = _KEPT.get(key)
    if kept is None or kept[0] is not words or kept[1] is not rules:
        # The verdict on a text alone depends only on the rules (R18-R21); R22 below.
        alone = np.array([_passes(w, rules, second) for w in words], dtype=bool)
        alone.flags.writeable = False
        index: dict[str, list[int]] = {}
        for i, w in enumerate(words):
            index.setdefault(normalise_clue(w), []).append(i)
        kept = (words, rules, alone, index)
        with _LOCK:
            if len(_KEPT) >= _KEPT_MAX:
                _KEPT.pop(next(iter(_KEPT)))
            _KEPT[key] = kept
    _, _, alone, index = kept
    if not (rules.refuse_repeated_clues and view.clues_given):
        return alone
    out = alone.copy()
    for clue in view.clues_given:
        out[index.get(normalise_clue(clue), [])] = False
    return out


def _passes(word: str, rules: Rules, second: bool) -> bool:
    try:
        validate_clue(word, second=second, rules=rules)
    except IllegalClue:
        return False
    return True
