"""The random agent: legal random moves, for baselines, tests and benchmarks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from huescues.engine import (
    ChooseTarget,
    GiveClue,
    IllegalClue,
    Pass,
    PlacePawn,
    View,
    validate_clue,
)

from ._clue_words import RANDOM_CLUE_WORDS, random_clue_words

__all__ = ["RandomAgent"]

_TRIES = 200


@dataclass(frozen=True, slots=True)
class RandomAgent:
    """Plays legal moves uniformly at random: a random card square, clues of random words from
    a small built-in list that passes the clue rules (R18-R22), a random empty square.

    Its clues are in the game's language: with the built-in ``words``, a Spanish game
    (``rules.language == "es"``) draws from :data:`RANDOM_CLUE_WORDS_ES` instead.

    ``pass_probability`` is how often it passes the second clue where the rules allow (R11).
    """

    pass_probability: float = 0.25
    words: tuple[str, ...] = RANDOM_CLUE_WORDS

    def __post_init__(self) -> None:
        if not 0.0 <= self.pass_probability <= 1.0:
            raise ValueError(f"pass_probability must lie in [0, 1], not {self.pass_probability}")
        if not self.words:
            raise ValueError("RandomAgent needs at least one clue word")

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """A random square of the card (R8)."""
        assert view.card is not None, "only the clue giver chooses a target"
        index = int(_uniform(rng)() * len(view.card))
        return _TARGETS[index] if index < len(_TARGETS) else ChooseTarget(index)

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """A legal clue of ``first_clue_words`` random words (R9)."""
        clue = self._clue(view, rng, view.rules.first_clue_words, second=False)
        if clue is None:
            raise RuntimeError("RandomAgent found no legal first clue in its word list")
        return clue

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """A pass now and then (R11), else a legal clue of 1 to ``second_clue_words`` words."""
        rules = view.rules
        random = _uniform(rng)
        if rules.second_clue_may_pass and random() < self.pass_probability:
            return _PASS
        n_words = 1 + int(random() * rules.second_clue_words)
        clue = self._clue(view, rng, n_words, second=True)
        if clue is not None:
            return clue
        if rules.second_clue_may_pass:
            return _PASS
        raise RuntimeError("RandomAgent found no legal second clue in its word list")

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """A random empty square (R13): uniform, by drawing squares until one is empty."""
        moves = view.board.pawn_moves()
        occupied = view.occupied
        n = len(moves)
        if len(occupied) >= n:
            raise RuntimeError("no empty square is left on the board (R13)")
        bits = rng.bit_generator
        if type(bits) is _PCG64:
            raw = bits.random_raw  # rng.random() is (raw >> 11) * 2**-53: the same numbers
            while True:
                move = moves[int((raw() >> 11) * _UNIT * n)]
                if move.cell not in occupied:
                    return move
        random = rng.random
        while True:
            move = moves[int(random() * n)]
            if move.cell not in occupied:
                return move

    def _clue(
        self, view: View, rng: np.random.Generator, n_words: int, *, second: bool
    ) -> GiveClue | None:
        words = self.words
        if words is RANDOM_CLUE_WORDS and view.rules.language != "en":
            # The built-in list in the game's language (a list given by the user is kept).
            words = random_clue_words(view.rules.language)
        n = len(words)
        random = _uniform(rng)
        rules, previous = view.rules, view.clues_given
        for _ in range(_TRIES):
            if n_words == 1:
                text = words[int(random() * n)]
            else:
                text = " ".join([words[int(random() * n)] for _ in range(n_words)])
            try:
                validate_clue(text, second=second, rules=rules, previous=previous)
            except IllegalClue:
                continue
            return GiveClue(text)
        return None


_PCG64 = np.random.PCG64
#: 2**-53: a PCG64 generator's ``random()`` is its next raw 64-bit word, shifted right by 11 bits,
#: times this (numpy's ``pcg64_next_double``).
_UNIT = 1.0 / 9007199254740992.0
_TARGETS = tuple(ChooseTarget(i) for i in range(4))
_PASS = Pass()


def _uniform(rng: np.random.Generator) -> Callable[[], float]:
    """``rng.random``, or for PCG64 (every game's generators) the same draws from its raw words
    at half the cost: the random agent is the engine benchmark's player."""
    bits = rng.bit_generator
    if type(bits) is _PCG64:
        raw = bits.random_raw
        return lambda: (raw() >> 11) * _UNIT
    return rng.random
