"""The schedule's fast draws (tournament/_schedule_seeds.py): the same block seeds and lineup
orders as numpy's own SeedSequence, PCG64 and Generator.permutation, the same schedules as the
block-by-block reference, and numpy's own functions whenever the fast ones disagree."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from huescues.tournament import Entrant, GameSpec
from huescues.tournament import _schedule as schedule
from huescues.tournament import _schedule_seeds as fast
from huescues.tournament._schedule import _cycle_order, block_seed, make_schedule

SEEDS = st.integers(0, 2**64)
# Spawn-key numbers of one 32-bit word, of two, and runs across the step between them.
NUMBERS = st.one_of(st.integers(0, 300), st.integers(2**32 - 8, 2**32 + 8), st.integers(0, 2**64))


def numbers() -> st.SearchStrategy[list[int]]:
    """A run of consecutive numbers (as a schedule asks for) or scattered ones."""
    run = st.builds(lambda a, n: list(range(a, a + n)), NUMBERS, st.integers(1, 20))
    return st.one_of(run, st.lists(NUMBERS, min_size=1, max_size=20))


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, blocks=numbers())
@example(seed=2**200 + 3, blocks=[0, 1, 2**32 - 1, 2**32, 2**70])  # seeds past the pool too
def test_block_seeds_are_numpys(seed: int, blocks: list[int]) -> None:
    assert fast.block_seeds(seed, blocks) == [block_seed(seed, b) for b in blocks]


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, n=st.integers(3, 10), cycles=numbers(), k=st.integers(1, 12))
@example(seed=2**200 + 3, n=4, cycles=[0, 1, 2**32 - 1, 2**32, 2**70], k=12)
def test_cycle_orders_are_numpys(seed: int, n: int, cycles: list[int], k: int) -> None:
    expected = [tuple(_cycle_order(seed, n, c, k)) for c in cycles]
    assert fast.cycle_orders(seed, n, cycles, k) == expected


def reference_schedule(
    entrants: list[Entrant], games: int, players: tuple[int, ...], seed: int
) -> list[GameSpec]:
    """The schedule as make_schedule's docstring lays it out, block by block with numpy's own
    draws (the list the schedule was before it was made lazily)."""
    k = len(entrants)
    specs: list[GameSpec] = []
    made = dict.fromkeys(players, 0)  # blocks for each player count so far
    block = 0
    while len(specs) < games:
        n = players[block % len(players)]
        cycle, within = divmod(made[n], k // math.gcd(k, n))
        made[n] += 1
        order = _cycle_order(seed, n, cycle, k)
        lineup = [entrants[order[(within * n + s) % k]] for s in range(n)]
        game_seed = block_seed(seed, block)
        for rest in range(min(n, games - len(specs))):
            seated = lineup[n - rest :] + lineup[: n - rest]
            specs.append(
                GameSpec(
                    len(specs),
                    game_seed,
                    n,
                    tuple(e.name for e in seated),
                    tuple(e.factory for e in seated),
                )
            )
        block += 1
    return specs


# Several player counts, entrants not dividing them, games not a multiple of a block or turn,
# and enough blocks and cycles for several runs of them.
CONFIGS = [
    (2, (4,), 601, 1),
    (5, (3, 4, 5), 2011, 2**40 + 7),
    (12, (7,), 1003, 2**64 - 1),
    (3, (3, 10, 4), 667, 0),
    (1, (3,), 31, 5),
    (7, (6, 8, 6), 1501, 2**33),
]


@pytest.mark.parametrize(("k", "players", "games", "seed"), CONFIGS)
def test_a_schedule_is_the_block_by_block_one(
    k: int, players: tuple[int, ...], games: int, seed: int
) -> None:
    entrants = [Entrant(f"e{i}", f"m{i}:factory") for i in range(k)]
    expected = reference_schedule(entrants, games, players, seed)
    assert list(make_schedule(entrants, games=games, players=players, seed=seed)) == expected
    # Backwards and by seats alone, from fresh schedules: runs are found from any end.
    backwards = make_schedule(entrants, games=games, players=players, seed=seed)
    assert [backwards[i] for i in reversed(range(games))] == expected[::-1]
    seats = make_schedule(entrants, games=games, players=players, seed=seed).seats
    assert [seats(g.index) for g in expected] == [
        (g.seed, g.n_players, list(g.seats)) for g in expected
    ]


def test_the_caches_stay_bounded() -> None:
    entrants = [Entrant(f"e{i}", f"m{i}:factory") for i in range(2)]
    specs = make_schedule(entrants, games=70 * 4 * 128, players=(4,), seed=3)
    for i in range(len(specs)):
        specs.seats(i)
    for cache in (specs._seed_runs, specs._order_runs, specs._blocks):
        assert cache.cache_info().currsize <= 64


@pytest.fixture
def fresh_check() -> Iterator[None]:
    """The process's check of the fast draws forgotten before and after the test."""
    schedule._fast_draws_agree.cache_clear()
    yield
    schedule._fast_draws_agree.cache_clear()


# The fast functions themselves, for the wrong ones below while they stand in for them.
FAST_BLOCK_SEEDS, FAST_CYCLE_ORDERS = fast.block_seeds, fast.cycle_orders


def off_by_one_seeds(seed: int, blocks: list[int]) -> list[int]:
    return [s ^ 1 for s in FAST_BLOCK_SEEDS(seed, blocks)]


def reversed_orders(seed: int, n: int, cycles: list[int], k: int) -> list[tuple[int, ...]]:
    return [order[::-1] for order in FAST_CYCLE_ORDERS(seed, n, cycles, k)]


def broken(*args: object) -> list[int]:
    raise TypeError("a numpy this replica does not know")


ENTRANTS = [Entrant(f"e{i}", f"m{i}:factory") for i in range(5)]


@pytest.mark.usefixtures("fresh_check")
@pytest.mark.parametrize(
    ("name", "wrong"),
    [("block_seeds", off_by_one_seeds), ("cycle_orders", reversed_orders), ("block_seeds", broken)],
)
def test_numpys_own_draws_are_used_when_the_fast_ones_disagree(
    monkeypatch: pytest.MonkeyPatch, name: str, wrong: object
) -> None:
    expected = reference_schedule(ENTRANTS, 300, (3, 4), 11)
    monkeypatch.setattr(fast, name, wrong)
    assert list(make_schedule(ENTRANTS, games=300, players=(3, 4), seed=11)) == expected
    assert not schedule._fast_draws_agree()


@pytest.mark.usefixtures("fresh_check")
def test_the_fast_draws_are_used_once_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = reference_schedule(ENTRANTS, 300, (3, 4), 11)
    assert schedule._fast_draws_agree()
    # Numpy's own functions now fail: the schedule must not need them.
    monkeypatch.setattr(schedule, "block_seed", broken)
    monkeypatch.setattr(schedule, "_cycle_order", broken)
    assert list(make_schedule(ENTRANTS, games=300, players=(3, 4), seed=11)) == expected
