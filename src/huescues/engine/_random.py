"""Seeded randomness for the engine (R27), stable across numpy versions.

The engine draws raw 64-bit words from PCG64, whose stream numpy keeps fixed, and does its own
arithmetic on them, so a seed gives the same game with any numpy release. (A ``Generator``'s
methods may change their streams between numpy versions.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
from numpy.random.bit_generator import ISpawnableSeedSequence
from numpy.typing import NDArray

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


def engine_stream(seed: int) -> np.random.PCG64:
    """The engine's own stream: the deck's shuffle and a random first giver (R3, R6)."""
    return np.random.PCG64(_ChildSeed(seed, 0))


def seat_generators(seed: int, n_players: int) -> list[np.random.Generator]:
    """One generator per seat for the agents, independent of the engine's stream (R27)."""
    n_players = as_int(n_players, "n_players")
    generator, pcg64 = np.random.Generator, np.random.PCG64
    return [generator(pcg64(_ChildSeed(seed, 1 + i))) for i in range(n_players)]


# numpy's SeedSequence (numpy/random/bit_generator.pyx), in Python ints: its constants.
_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _words32(x: int) -> list[int]:
    """``x`` as numpy's SeedSequence reads it: 32-bit words, least significant first."""
    out = [x & _M32]
    x >>= 32
    while x:
        out.append(x & _M32)
        x >>= 32
    return out


def _mix_in(pool: list[int], h: int, word: int) -> int:
    """Mix one entropy word into every word of the pool; returns the next hash constant."""
    for d in range(4):
        v = word ^ h
        h = (h * _MULT_A) & _M32
        v = (v * h) & _M32
        v ^= v >> 16
        r = (_MIX_L * pool[d] - _MIX_R * v) & _M32
        pool[d] = r ^ (r >> 16)
    return h


def _seed_pool(seed: int) -> tuple[tuple[int, ...], int]:
    """The pool of ``SeedSequence(seed, spawn_key=(k,))`` before ``k`` is mixed in, and the hash
    constant then: the same for every child of a seed, so it is computed once per game."""
    run = _words32(seed)
    if len(run) < 4:
        run += [0] * (4 - len(run))  # numpy pads the seed's words when there is a spawn key
    h = _INIT_A
    pool = []
    for i in range(4):
        v = run[i] ^ h
        h = (h * _MULT_A) & _M32
        v = (v * h) & _M32
        pool.append(v ^ (v >> 16))
    for src in range(4):
        for dst in range(4):
            if src != dst:
                v = pool[src] ^ h
                h = (h * _MULT_A) & _M32
                v = (v * h) & _M32
                v ^= v >> 16
                r = (_MIX_L * pool[dst] - _MIX_R * v) & _M32
                pool[dst] = r ^ (r >> 16)
    for word in run[4:]:
        h = _mix_in(pool, h, word)
    return tuple(pool), h


#: The last seed's pool: a game asks for its engine stream and then its seats' generators.
_LAST_POOL: list[tuple[int, tuple[int, ...], int]] = [(-1, (), 0)]


def _pcg64_seed(seed: int, index: int) -> list[int]:
    """``SeedSequence(seed, spawn_key=(index,)).generate_state(4, np.uint64)`` as ints."""
    last_seed, shared, h = _LAST_POOL[0]
    if last_seed != seed:
        shared, h = _seed_pool(seed)
        _LAST_POOL[0] = (seed, shared, h)
    pool = list(shared)
    for word in _words32(index):
        h = _mix_in(pool, h, word)
    h = _INIT_B
    out = []
    for i in range(8):
        v = pool[i & 3] ^ h
        h = (h * _MULT_B) & _M32
        v = (v * h) & _M32
        out.append(v ^ (v >> 16))
    return [
        out[0] | out[1] << 32,
        out[2] | out[3] << 32,
        out[4] | out[5] << 32,
        out[6] | out[7] << 32,
    ]


class _ChildSeed(ISpawnableSeedSequence):
    """``SeedSequence(seed, spawn_key=(index,))`` for seeding a PCG64: the same state, worked
    out in Python with the seed's share done once per game (numpy's object costs about 5 us,
    made eight times a game). Anything else asked of it (spawning, its entropy, pickling) goes
    to the real SeedSequence, made then."""

    __slots__ = ("_index", "_real", "_seed")

    def __init__(self, seed: int, index: int) -> None:
        if type(seed) is not int or seed < 0:
            seed = as_seed(seed)
        self._seed = seed
        self._index = index
        self._real: np.random.SeedSequence | None = None

    @property
    def real(self) -> np.random.SeedSequence:
        """numpy's SeedSequence with this seed and spawn key."""
        if self._real is None:
            self._real = np.random.SeedSequence(self._seed, spawn_key=(self._index,))
        return self._real

    def generate_state(
        self, n_words: int, dtype: Any = np.uint32
    ) -> NDArray[np.uint32 | np.uint64]:
        if n_words == 4 and dtype is np.uint64 and self._real is None:
            return np.array(_pcg64_seed(self._seed, self._index), dtype=np.uint64)
        return self.real.generate_state(n_words, dtype)

    def spawn(self, n_children: int) -> list[np.random.SeedSequence]:  # type: ignore[override]
        return self.real.spawn(n_children)

    def __getattr__(self, name: str) -> Any:
        # entropy, spawn_key, pool, n_children_spawned, state: the real SeedSequence's.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.real, name)

    def __reduce__(self) -> str | tuple[Any, ...]:
        return self.real.__reduce__()

    def __repr__(self) -> str:
        return repr(self.real)


def below(stream: np.random.PCG64, n: int) -> int:
    """A whole number in ``[0, n)`` (modulo bias below 2**-50 for any n the game uses)."""
    return int(stream.random_raw()) % n


def shuffled(stream: np.random.PCG64, items: Sequence[T]) -> list[T]:
    """A Fisher-Yates shuffle of ``items`` driven by ``stream``, as :func:`below` draws."""
    out = list(items)
    n = len(out)
    if n < 2:
        return out
    raws = stream.random_raw(n - 1).tolist()
    for k, i in enumerate(range(n - 1, 0, -1)):
        j = raws[k] % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out
