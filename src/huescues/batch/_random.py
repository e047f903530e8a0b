"""Random players for a whole batch at once: a random square of the card, a random legal clue of
the vocabulary, a random empty square, as a few vectorised draws per step."""

from __future__ import annotations

import itertools
import numbers

import numpy as np
from numpy.typing import NDArray

from huescues.engine import GameRecord, Rules

from ._action_space import PASS, whole
from ._games import MAX_SEED, FinishedGame, GameBatch

__all__ = ["play_random_batch", "random_actions", "random_batch_games"]

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
#: Redraws of a row's choice before giving up (a clue or square is taken with chance < 1/10).
_TRIES = 200


def random_actions(
    batch: GameBatch, rng: np.random.Generator, *, pass_probability: float = 0.25
) -> IntArray:
    """One legal random action code per row (0 where the game is over): a target uniform on
    the card (R8); a first clue uniform among the vocabulary's legal ones not yet given (R9,
    R22); a pass with ``pass_probability`` where allowed (R11), else a second clue of one word
    or of two, half the time each when both are legal; a pawn uniform on the empty squares
    (R13)."""
    if (
        isinstance(pass_probability, bool)
        or not isinstance(pass_probability, numbers.Real)
        or not 0.0 <= pass_probability <= 1.0  # (NaN too: it would never pass)
    ):
        raise ValueError(f"pass_probability is a probability from 0 to 1, not {pass_probability!r}")
    space = batch.space
    phase = batch.phase
    out = np.zeros(batch.size, dtype=np.int64)
    t = np.flatnonzero(phase == 0)
    out[t] = rng.integers(0, 4, size=t.size)
    g = np.flatnonzero((phase == 2) | (phase == 4))
    all_squares = np.arange(batch.board.size)
    out[g] = space.first_pawn + _draw(batch.occupied, g, all_squares, rng)
    used = batch.used if batch.rules.refuse_repeated_clues else None
    c1 = np.flatnonzero(phase == 1)
    if c1.size:
        out[c1] = space.first_clue + _draw(used, c1, batch.first_clue_ids, rng)
    c2 = np.flatnonzero(phase == 3)
    if c2.size:
        words, pairs = batch.second_word_ids, batch.second_pair_ids
        if batch.rules.second_clue_may_pass:
            passing = rng.random(c2.size) < pass_probability
            if not (words.size or pairs.size):
                passing[:] = True
            out[c2[passing]] = PASS
            c2 = c2[~passing]
        if words.size and pairs.size:
            one = rng.random(c2.size) < 0.5
            out[c2[one]] = space.first_clue + _draw(used, c2[one], words, rng)
            out[c2[~one]] = space.first_clue + _draw(used, c2[~one], pairs, rng)
        elif c2.size:
            out[c2] = space.first_clue + _draw(used, c2, words if words.size else pairs, rng)
    return out


def _draw(
    taken: BoolArray | None, rows: IntArray, choices: IntArray, rng: np.random.Generator
) -> IntArray:
    """For each of ``rows``, a uniform draw from ``choices`` not taken in that row (by
    redrawing the few that are)."""
    picked = choices[rng.integers(0, choices.size, size=rows.size)]
    if taken is None:
        return picked
    clash = np.flatnonzero(taken[rows, picked])
    for _ in range(_TRIES):
        if not clash.size:
            return picked
        picked[clash] = choices[rng.integers(0, choices.size, size=clash.size)]
        clash = clash[taken[rows[clash], picked[clash]]]
    raise RuntimeError("no free choice left for a random player (R13, R22)")


def random_batch_games(
    n_games: int,
    n_players: int,
    seed: int = 0,
    *,
    rules: Rules | None = None,
    batch_size: int = 1024,
    pass_probability: float = 0.25,
) -> list[FinishedGame]:
    """Play ``n_games`` games of random players in batches of up to ``batch_size``; game ``i``
    is dealt as :func:`new_game` deals for seed ``seed + i``, and the players draw from one
    generator seeded with ``seed``. The games in the order of their seeds."""
    if rules is None:
        rules = Rules.standard(n_players)
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules are a Rules object, not {rules!r:.80}")
    elif rules.n_players != n_players:
        raise ValueError(f"the rules are for {rules.n_players} players, not {n_players} (R2)")
    n_games = whole(n_games, "n_games")
    if n_games < 0:
        raise ValueError(f"n_games must be >= 0, not {n_games}")
    try:
        first = whole(seed, "a seed")
    except TypeError:
        first = -1
    if not 0 <= first <= MAX_SEED - max(n_games - 1, 0):
        raise ValueError(
            f"seed {seed!r} refused: the games' seeds, seed to seed + n_games - 1, are whole "
            "numbers from 0 to 2**63 - 1 (R27)"
        )
    seed = first
    if n_games == 0:
        return []
    size = min(n_games, batch_size)
    batch = GameBatch(rules, size, range(seed, seed + n_games))
    rng = np.random.Generator(np.random.PCG64(seed))
    for _ in itertools.count():
        if not batch.playing:
            break
        batch.step(random_actions(batch, rng, pass_probability=pass_probability))
    return sorted(batch.finished, key=lambda game: game.seed)


def play_random_batch(
    n_games: int, n_players: int, seed: int = 0, *, rules: Rules | None = None
) -> list[GameRecord]:
    """The records of ``n_games`` games of random players played by the batched engine (see
    :func:`random_batch_games`); each replays in :class:`~huescues.GameState` to the same
    scores and winners."""
    return [game.record() for game in random_batch_games(n_games, n_players, seed, rules=rules)]
