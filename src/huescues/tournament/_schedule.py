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

from . import _schedule_seeds as fast
from ._entrants import Entrant

__all__ = ["GameSpec", "Schedule", "balanced_games", "block_seed", "make_schedule"]

# Spawn keys under the tournament seed: one branch for game seeds, one for lineup shuffles.
_SEEDS, _SHUFFLES = 0, 1
# Blocks (and cycles of lineups) worked out together when one of them is first needed: the
# fast draws cost little more for a run of them than for one.
_RUN = 128


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


# What the fast draws are checked on before a process uses them: seeds and spawn keys of one
# and of several 32-bit words, and orders of 2 to 12 entrants (some drawing again).
_CHECK_SEEDS = (0, 9, 2**32 + 5, 2**64 - 1)
_CHECK_BLOCKS = (0, 1, 2, 127, 2**32 - 1, 2**32 + 3)
_CHECK_ORDERS = ((3, 2), (4, 5), (7, 12), (10, 9))
_CHECK_CYCLES = (0, 1, 2, 3, 2**33)


@functools.cache
def _fast_draws_agree() -> bool:
    """Whether :mod:`._schedule_seeds` gives numpy's own seeds and orders (asked once a process,
    a few ms: it replicates numpy's algorithms, and numpy may change ``Generator.permutation``'s);
    if not, the schedule takes numpy's, block by block."""
    try:
        for seed in _CHECK_SEEDS:
            if fast.block_seeds(seed, _CHECK_BLOCKS) != [
                block_seed(seed, b) for b in _CHECK_BLOCKS
            ]:
                return False
            for n, k in _CHECK_ORDERS:
                if fast.cycle_orders(seed, n, _CHECK_CYCLES, k) != [
                    tuple(_cycle_order(seed, n, c, k)) for c in _CHECK_CYCLES
                ]:
                    return False
    except Exception:  # numpy changed so that the replica fails outright: numpy's own too
        return False
    return True


def _block_seeds(seed: int, blocks: Sequence[int]) -> list[int]:
    """``block_seed(seed, b)`` for each of ``blocks``: the fast draws if they agree with numpy."""
    if _fast_draws_agree():
        return fast.block_seeds(seed, blocks)
    return [block_seed(seed, b) for b in blocks]


def _cycle_orders(
    seed: int, n_players: int, cycles: Sequence[int], k: int
) -> list[tuple[int, ...]]:
    """``_cycle_order`` of each of ``cycles``: the fast draws if they agree with numpy."""
    if _fast_draws_agree():
        return fast.cycle_orders(seed, n_players, cycles, k)
    return [tuple(_cycle_order(seed, n_players, c, k)) for c in cycles]


def _blocks_per_cycle(k: int, n: int) -> int:
    """How many blocks of ``n`` seats take every one of ``k`` entrants equally often."""
    return k // math.gcd(k, n)


def _blocks_reached(games: int, players: Sequence[int]) -> int:
    """How many blocks ``games`` games take (the last may be cut short)."""
    turns, rest = divmod(games, sum(players))
    places = 0
    while rest > 0:
        rest -= players[places]
        places += 1
    return turns * len(players) + places


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
        # The blocks the games reach, and the lineup cycles those take for each player count.
        self._n_blocks = _blocks_reached(games, self._players)
        self._n_cycles = {n: self._cycles_reached(n) for n in self._players}
        # Runs of _RUN block seeds and cycle orders (a few runs kept: memory stays flat).
        self._seed_runs = functools.lru_cache(maxsize=4)(self._seed_run)
        self._order_runs = functools.lru_cache(maxsize=4 * len(self._n_cycles))(self._order_run)
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

    def _cycles_reached(self, n: int) -> int:
        """How many cycles of lineups the schedule's blocks for ``n`` players take."""
        players = self._players
        turns, places = divmod(self._n_blocks, len(players))
        blocks = turns * players.count(n) + players[:places].count(n)
        per_cycle = _blocks_per_cycle(len(self._entrants), n)
        return (blocks + per_cycle - 1) // per_cycle

    def _seed_run(self, run: int) -> list[int]:
        """The seeds of the blocks of run ``run`` (blocks ``run * _RUN`` on, up to the last)."""
        start = run * _RUN
        return _block_seeds(self._seed, range(start, min(start + _RUN, self._n_blocks)))

    def _order_run(self, n: int, run: int) -> list[tuple[int, ...]]:
        """The entrants' orders in run ``run`` of the cycles for ``n`` players."""
        start = run * _RUN
        cycles = range(start, min(start + _RUN, self._n_cycles[n]))
        return _cycle_orders(self._seed, n, cycles, len(self._entrants))

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
        order = self._order_runs(n, cycle // _RUN)[cycle % _RUN]
        lineup = [self._entrants[order[(within * n + s) % k]] for s in range(n)]
        names = tuple(e.name for e in lineup)
        return (
            self._seed_runs(block // _RUN)[block % _RUN],
            n,
            names,
            tuple(e.factory for e in lineup),
            [list(names[n - rest :] + names[: n - rest]) for rest in range(n)],
        )
