"""The batch's clues: a fixed list of clue texts, each known by its id, with its verdicts under
the clue rules (R18-R21) worked out once per list and rules rather than once per clue given."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from huescues.agents import RANDOM_CLUE_WORDS
from huescues.engine import IllegalClue, Rules, normalise_clue, validate_clue

__all__ = ["PAIR_STEPS", "ClueVocabulary"]

#: The standard vocabulary's pairs: each word followed by the word this many places on in the
#: sorted word list (cyclically). Fixed, so a clue's id means the same text in every run.
PAIR_STEPS: tuple[int, ...] = (1, 2, 3, 5, 8, 13, 21, 34)

BoolArray = NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class ClueVocabulary:
    """Clue texts by id: single words first, then pairs of words (R9, R11).

    Two texts never normalise to the same clue, so R22 (no repeats) is a mask over ids.
    """

    #: The clue texts; a clue's id is its index here.
    texts: tuple[str, ...]
    #: How many words each clue has, by id.
    word_counts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.texts:
            raise ValueError("a clue vocabulary needs at least one clue")
        if len({normalise_clue(t) for t in self.texts}) != len(self.texts):
            raise ValueError("two clues of the vocabulary are the same clue (R22)")
        object.__setattr__(self, "word_counts", tuple(len(t.split()) for t in self.texts))

    def __len__(self) -> int:
        return len(self.texts)

    @classmethod
    def standard(cls) -> ClueVocabulary:
        """The random agent's words, then 8 pairs per word (:data:`PAIR_STEPS`)."""
        return _standard()

    def verdicts(self, rules: Rules) -> tuple[BoolArray, BoolArray]:
        """Which ids are legal first clues and which legal second clues under ``rules``, before
        R22: :func:`~huescues.validate_clue` once per text and clue (read-only arrays), under
        every setting the engine's clue check reads (the word counts, the banned terms, the
        relative words, the named-colours house rule, the language)."""
        return _verdicts(self.texts, rules)


@functools.cache
def _standard() -> ClueVocabulary:
    words = RANDOM_CLUE_WORDS
    n = len(words)
    pairs = [f"{words[i]} {words[(i + step) % n]}" for step in PAIR_STEPS for i in range(n)]
    return ClueVocabulary((*words, *pairs))


@functools.lru_cache(maxsize=64)
def _verdicts(texts: tuple[str, ...], rules: Rules) -> tuple[BoolArray, BoolArray]:
    out = []
    for second in (False, True):
        ok = np.zeros(len(texts), dtype=bool)
        for i, text in enumerate(texts):
            try:
                validate_clue(text, second=second, rules=rules, previous=())
            except IllegalClue:
                continue
            ok[i] = True
        ok.flags.writeable = False
        out.append(ok)
    return out[0], out[1]
