"""The schedule's numpy draws for many blocks at once: replicas of what
``SeedSequence(seed, spawn_key=...)``, ``PCG64`` and ``Generator.permutation`` compute, bit for
bit, with the hashing of a whole run of spawn keys done in numpy arrays.

Numpy's objects cost about 9 us for a block's seed and 14 us for a lineup order, built one
block at a time as a resume checks its games; here a run of 128 seeds costs about 0.3 us each
and an order 2-6 us (2 to 12 entrants: the generator's draws are Python ints, one order at a
time). :mod:`._schedule` keeps numpy's own functions as the reference, and checks these against
them before it uses them (numpy promises stable ``SeedSequence`` and ``PCG64`` streams but not
``Generator.permutation``'s algorithm).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["block_seeds", "cycle_orders"]

_MASK32 = 0xFFFF_FFFF
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
# SeedSequence's constants: its entropy hash, its state hash and its mixing of two words.
_INIT_A, _MULT_A = 0x43B0_D7E5, 0x931E_8875
_INIT_B, _MULT_B = 0x8B51_F9DD, 0x58F3_8DED
_MIX_L, _MIX_R = 0xCA01_F9DD, 0x4973_F715
_POOL = 4
# PCG64's 128-bit multiplier.
_PCG_MULT = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645


def _words(n: int) -> list[int]:
    """``n`` as SeedSequence reads an int: its 32-bit words, lowest first (``[0]`` for 0)."""
    words = [n & _MASK32]
    n >>= 32
    while n:
        words.append(n & _MASK32)
        n >>= 32
    return words


def _hash_a(calls: int) -> int:
    """The entropy hash's multiplier after ``calls`` hashes (each hash moves it on)."""
    return _INIT_A * pow(_MULT_A, calls, 1 << 32) & _MASK32


def _hashmix(value: int, calls: int) -> int:
    """The ``calls``-th (from 0) hash of an entropy word."""
    value = (value ^ _hash_a(calls)) * _hash_a(calls + 1) & _MASK32
    return value ^ value >> 16


def _mix(x: int, y: int) -> int:
    mixed = (_MIX_L * x - _MIX_R * y) & _MASK32
    return mixed ^ mixed >> 16


@functools.lru_cache(maxsize=64)
def _start(seed: int, key: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The pool of ``SeedSequence(seed, spawn_key=key + rest)`` before ``rest``'s words are
    mixed in, and how many hashes that took: the part all of a run's spawn keys share."""
    run = _words(seed)
    # With a spawn key the run entropy is padded to the pool's size.
    entropy = run + [0] * (_POOL - len(run)) + [w for part in key for w in _words(part)]
    calls = 0
    pool = []
    for word in entropy[:_POOL]:
        pool.append(_hashmix(word, calls))
        calls += 1
    # Every word mixed into every other, so late words reach early ones.
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], calls))
                calls += 1
    for word in entropy[_POOL:]:
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], _hashmix(word, calls))
            calls += 1
    return tuple(pool), calls


def _mix_in(pools: NDArray[np.uint32], words: NDArray[np.uint32], calls: int) -> None:
    """Mix one entropy word per column into each column's pool (``pools`` is 4 by columns), as
    SeedSequence mixes a word past the pool's size: into every pool word, with hashes ``calls``
    to ``calls + 3``. The pool words do not depend on each other here, so all four go at once."""
    consts = np.array([_hash_a(calls + d) for d in range(_POOL + 1)], dtype=np.uint32)[:, None]
    hashed = (words[None, :] ^ consts[:-1]) * consts[1:]
    hashed ^= hashed >> 16
    mixed = _MIX_L * pools - _MIX_R * hashed
    mixed ^= mixed >> 16
    pools[...] = mixed


def _word_groups(values: Sequence[int]) -> Iterator[tuple[list[int], NDArray[np.uint32]]]:
    """``values`` split by how many 32-bit words each takes: the positions of each group and
    its words (one row per word, one column per value)."""
    if max(values) <= _MASK32:
        yield list(range(len(values))), np.array([values], dtype=np.uint32)
        return
    groups: dict[int, list[int]] = {}
    for at, value in enumerate(values):
        groups.setdefault(len(_words(value)), []).append(at)
    for group in groups.values():
        yield group, np.array([_words(values[i]) for i in group], dtype=np.uint32).T


def _pools(seed: int, key: tuple[int, ...], last: Sequence[int]) -> NDArray[np.uint32]:
    """The pools of ``SeedSequence(seed, spawn_key=key + (v,))`` for each ``v`` in ``last``
    (4 by ``len(last)``)."""
    pool, calls = _start(seed, key)
    pools = np.empty((_POOL, len(last)), dtype=np.uint32)
    for at, words in _word_groups(last):
        group = np.repeat(np.array(pool, dtype=np.uint32)[:, None], len(at), axis=1)
        for i, row in enumerate(words):
            _mix_in(group, row, calls + _POOL * i)
        pools[:, at] = group
    return pools


def _state(pools: NDArray[np.uint32], n_words: int) -> NDArray[np.uint32]:
    """``generate_state(n_words, np.uint32)`` of each column's pool (``n_words`` by columns):
    the pool's words in turn, each hashed with the next state multiplier."""
    consts = [_INIT_B * pow(_MULT_B, t, 1 << 32) & _MASK32 for t in range(n_words + 1)]
    c = np.array(consts, dtype=np.uint32)[:, None]
    state = (pools[[t % _POOL for t in range(n_words)]] ^ c[:-1]) * c[1:]
    state ^= state >> 16
    return state


def block_seeds(seed: int, blocks: Sequence[int]) -> list[int]:
    """``block_seed(seed, b)`` for each ``b`` in ``blocks``: the top 53 bits of
    ``SeedSequence(seed, spawn_key=(0, b)).generate_state(1, np.uint64)``."""
    if not blocks:
        return []
    low, high = _state(_pools(seed, (0,), blocks), 2).astype(np.uint64)
    seeds: list[int] = ((low | high << np.uint64(32)) >> np.uint64(11)).tolist()
    return seeds


def _permutation(words: Sequence[int], k: int) -> tuple[int, ...]:
    """``Generator(PCG64(ss)).permutation(k)`` from ``ss.generate_state(8, np.uint32)``."""
    # PCG64 takes generate_state(4, uint64): the state from the first two, the stream from the
    # last two (each 128-bit number high word first, each word little-endian).
    seed = (words[0] | words[1] << 32) << 64 | words[2] | words[3] << 32
    inc = (((words[4] | words[5] << 32) << 64 | words[6] | words[7] << 32) << 1 | 1) & _MASK128
    # pcg64_srandom: from state 0, step, add the seed, step.
    state = ((inc + seed) * _PCG_MULT + inc) & _MASK128
    order = list(range(k))
    spare = -1  # the high half of the last output, not drawn yet
    # Fisher-Yates from the end, each j drawn as numpy's random_interval does: a 32-bit draw
    # masked to i's bits, again while over i. Written out in one loop as it is the slow part.
    for i in range(k - 1, 0, -1):
        mask = (1 << i.bit_length()) - 1
        while True:
            if spare < 0:
                # PCG64's next output: step, then the XSL-RR of the new state; next_uint32
                # gives its low half now and keeps the high half for the next draw.
                state = (state * _PCG_MULT + inc) & _MASK128
                folded = (state >> 64 ^ state) & _MASK64
                turn = state >> 122
                out = (folded >> turn | folded << (64 - turn)) & _MASK64
                draw, spare = out & _MASK32, out >> 32
            else:
                draw, spare = spare, -1
            j = draw & mask
            if j <= i:
                break
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def cycle_orders(seed: int, n_players: int, cycles: Sequence[int], k: int) -> list[tuple[int, ...]]:
    """``_cycle_order(seed, n_players, c, k)`` for each ``c`` in ``cycles``: cycle 0 (or one
    entrant) in the given order, others permuted by
    ``Generator(PCG64(SeedSequence(seed, spawn_key=(1, n_players, c))))``."""
    if not cycles:
        return []
    words = _state(_pools(seed, (1, n_players), cycles), 8).T.tolist()
    same = tuple(range(k))
    return [
        same if c == 0 or k == 1 else _permutation(w, k) for c, w in zip(cycles, words, strict=True)
    ]
