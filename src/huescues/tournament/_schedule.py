"""The schedule: which entrants play which seats with which seed, decided up front from the
tournament's seed alone (see ``docs/tournaments.md``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._entrants import Entrant

__all__ = ["GameSpec", "balanced_games", "block_seed", "make_schedule"]

# Spawn keys under the tournament seed: one branch for game seeds, one for lineup shuffles.
_SEEDS, _SHUFFLES = 0, 1


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a tournament: its index, seed, player count and who sits where."""

    index: int
    seed: int
    n_players: int
    #: Entrant names by seat.
    seats: tuple[str, ...]
    #: The entrants' factories by seat.
    factories: tuple[str, ...]


def block_seed(seed: int, block: int) -> int:
    """The game seed of block ``block``: 53 bits of ``SeedSequence(seed, spawn_key=(0, block))``
    (53 bits so that any JSON reader keeps it exact)."""
    state = np.random.SeedSequence(seed, spawn_key=(_SEEDS, block)).generate_state(1, np.uint64)
    return int(state[0]) >> 11


def _cycle_order(seed: int, n_players: int, cycle: int, k: int) -> list[int]:
    """The order of the entrants in a cycle of lineups: as given in cycle 0, then shuffled
    from ``SeedSequence(seed, spawn_key=(1, n_players, cycle))``."""
    if cycle == 0 or k == 1:
        return list(range(k))
    rng = np.random.Generator(
        np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_SHUFFLES, n_players, cycle)))
    )
    return [int(i) for i in rng.permutation(k)]


def _blocks_per_cycle(k: int, n: int) -> int:
    """How many blocks of ``n`` seats take every one of ``k`` entrants equally often."""
    return k // math.gcd(k, n)


def balanced_games(n_entrants: int, players: Sequence[int]) -> int:
    """The smallest number of games after which every entrant has played every seat of every
    player count equally often (the schedule repeats its balance every so many games)."""
    m = math.lcm(*(_blocks_per_cycle(n_entrants, n) for n in players))
    return m * sum(players)


def make_schedule(
    entrants: Sequence[Entrant], *, games: int, players: Sequence[int], seed: int
) -> list[GameSpec]:
    """Every game of the tournament, in order.

    Games come in blocks of ``n`` games (``n`` the block's player count) that share one seed and
    one lineup, rotated one seat per game. Block ``b`` is for ``players[b % len(players)]``; the
    ``j``-th block for ``n`` players takes seats from the entrants laid end to end in cycles of
    ``k / gcd(k, n)`` blocks (``k`` entrants), each cycle in its own order. The last block is cut
    short when ``games`` is not a multiple of the block sizes.
    """
    if type(games) is not int or games < 0:
        raise ValueError(f"games is a whole number >= 0, not {games!r}")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"a tournament seed is a whole number >= 0, not {seed!r}")
    if not entrants:
        raise ValueError("a tournament needs at least one entrant")
    if not players:
        raise ValueError("a tournament needs at least one player count")
    k = len(entrants)
    counters = dict.fromkeys(players, 0)
    out: list[GameSpec] = []
    block = 0
    while len(out) < games:
        n = players[block % len(players)]
        j = counters[n]
        counters[n] += 1
        per_cycle = _blocks_per_cycle(k, n)
        cycle, within = divmod(j, per_cycle)
        order = _cycle_order(seed, n, cycle, k)
        lineup = [entrants[order[(within * n + s) % k]] for s in range(n)]
        game_seed = block_seed(seed, block)
        for r in range(n):
            if len(out) == games:
                break
            seated = [lineup[(s - r) % n] for s in range(n)]
            out.append(
                GameSpec(
                    len(out),
                    game_seed,
                    n,
                    tuple(e.name for e in seated),
                    tuple(e.factory for e in seated),
                )
            )
        block += 1
    return out
