"""The schedule: which entrants play which seats with which seed, decided up front from the
tournament's seed alone (see ``docs/tournaments.md``)."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

from ._entrants import Entrant

__all__ = ["GameSpec", "Schedule", "balanced_games", "block_seed", "make_schedule"]

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
) -> Schedule:
    """Every game of the tournament, in order (a :class:`Schedule`: each game is worked out
    when asked for, so a long tournament's schedule takes no memory).

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
    return Schedule(entrants, games=games, players=players, seed=seed)


class Schedule(Sequence[GameSpec]):
    """The games of a tournament in order, each worked out from its index when asked for (see
    :func:`make_schedule`); equal to a list of the same games."""

    def __init__(
        self, entrants: Sequence[Entrant], *, games: int, players: Sequence[int], seed: int
    ) -> None:
        self._entrants = tuple(entrants)
        self._games = games
        self._players = tuple(players)
        self._seed = seed
        # Games in one turn of the player counts, one block each.
        self._turn = sum(self._players)
        self._orders = functools.lru_cache(maxsize=64)(self._order)
        self._seeds = functools.lru_cache(maxsize=64)(functools.partial(block_seed, seed))
        self._blocks = functools.lru_cache(maxsize=64)(self._block)

    def __len__(self) -> int:
        return self._games

    @overload
    def __getitem__(self, index: int) -> GameSpec: ...
    @overload
    def __getitem__(self, index: slice) -> list[GameSpec]: ...
    def __getitem__(self, index: int | slice) -> GameSpec | list[GameSpec]:
        if isinstance(index, slice):
            return [self._spec(i) for i in range(*index.indices(self._games))]
        i = operator.index(index)
        if i < 0:
            i += self._games
        if not 0 <= i < self._games:
            raise IndexError(f"game {index} is not in a schedule of {self._games} games")
        return self._spec(i)

    def __iter__(self) -> Iterator[GameSpec]:
        return (self._spec(i) for i in range(self._games))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Schedule of {self._games} games, players {list(self._players)}, seed {self._seed}>"
        )

    def _order(self, n: int, cycle: int) -> tuple[int, ...]:
        return tuple(_cycle_order(self._seed, n, cycle, len(self._entrants)))

    def seats(self, i: int) -> tuple[int, int, list[str]]:
        """Game ``i``'s seed, player count and entrant names by seat (as a results line holds
        them), without the rest of its :class:`GameSpec`: what a resume compares with every
        saved game. ``i`` must be a game of the schedule; the list is the schedule's own (read
        it, do not change it)."""
        turn, rest = divmod(i, self._turn)
        place = 0
        players = self._players
        while rest >= players[place]:
            rest -= players[place]
            place += 1
        seed, n, _, _, seated = self._blocks(turn, place)
        return seed, n, seated[rest]

    def _spec(self, i: int) -> GameSpec:
        turn, rest = divmod(i, self._turn)
        place = 0
        players = self._players
        while rest >= players[place]:
            rest -= players[place]
            place += 1
        seed, n, names, factories, _ = self._blocks(turn, place)
        # Seat s holds the lineup's (s - rest) % n-th entrant: the lineup rotated by rest.
        cut = n - rest
        return GameSpec(i, seed, n, names[cut:] + names[:cut], factories[cut:] + factories[:cut])

    def _block(
        self, turn: int, place: int
    ) -> tuple[int, int, tuple[str, ...], tuple[str, ...], list[list[str]]]:
        """The seed, player count and lineup (names and factories) of the ``place``-th block
        of turn ``turn``, before its rotation, and the names by seat of each of its games."""
        players = self._players
        n = players[place]
        block = turn * len(players) + place
        # The how-many-th block for n players this is (the counter of the original loop).
        j = turn * players.count(n) + players[:place].count(n)
        k = len(self._entrants)
        cycle, within = divmod(j, _blocks_per_cycle(k, n))
        order = self._orders(n, cycle)
        lineup = [self._entrants[order[(within * n + s) % k]] for s in range(n)]
        names = tuple(e.name for e in lineup)
        return (
            self._seeds(block),
            n,
            names,
            tuple(e.factory for e in lineup),
            [list(names[n - rest :] + names[: n - rest]) for rest in range(n)],
        )
