"""Seeded randomness for the engine (R27), stable across numpy versions.

The engine draws raw 64-bit words from PCG64, whose stream numpy keeps fixed, and does its own
arithmetic on them, so a seed gives the same game with any numpy release. (A ``Generator``'s
methods may change their streams between numpy versions.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from ._ints import as_int

__all__ = ["as_seed", "below", "engine_stream", "seat_generators", "shuffled"]

T = TypeVar("T")


def as_seed(seed: object) -> int:
    """``seed`` as a Python int (numpy integers too), or a ValueError naming it (R27)."""
    try:
        value = as_int(seed, "a seed")
    except TypeError:
        value = -1
    if value < 0:
        raise ValueError(f"a seed is a whole number >= 0, not {seed!r} (R27)")
    return value


def _child(seed: int, index: int) -> np.random.SeedSequence:
    """``SeedSequence(seed).spawn(n)[index]``, made directly (spawning all costs more)."""
    if type(seed) is not int:
        seed = as_seed(seed)
    if seed < 0:
        raise ValueError(f"a seed is a whole number >= 0, not {seed!r} (R27)")
    return np.random.SeedSequence(seed, spawn_key=(index,))


def engine_stream(seed: int) -> np.random.PCG64:
    """The engine's own stream: the deck's shuffle and a random first giver (R3, R6)."""
    return np.random.PCG64(_child(seed, 0))


def seat_generators(seed: int, n_players: int) -> list[np.random.Generator]:
    """One generator per seat for the agents, independent of the engine's stream (R27)."""
    n_players = as_int(n_players, "n_players")
    return [np.random.Generator(np.random.PCG64(_child(seed, 1 + i))) for i in range(n_players)]


def below(stream: np.random.PCG64, n: int) -> int:
    """A whole number in ``[0, n)`` (modulo bias below 2**-50 for any n the game uses)."""
    return int(stream.random_raw()) % n


def shuffled(stream: np.random.PCG64, items: Sequence[T]) -> list[T]:
    """A Fisher-Yates shuffle of ``items`` driven by ``stream``, as :func:`below` draws."""
    out = list(items)
    n = len(out)
    if n < 2:
        return out
    # Each draw's place, raws[k] % (i + 1), worked out at once (exact in uint64); the swaps
    # then one after another.
    places = stream.random_raw(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)
    for i, j in zip(range(n - 1, 0, -1), places.tolist(), strict=True):
        out[i], out[j] = out[j], out[i]
    return out
