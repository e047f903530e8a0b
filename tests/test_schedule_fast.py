"""The schedule's fast draws (tournament/_schedule_seeds.py): the same block seeds and lineup
orders as numpy's own SeedSequence, PCG64 and Generator.permutation."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from huescues.tournament import _schedule_seeds as fast
from huescues.tournament._schedule import _cycle_order, block_seed

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
