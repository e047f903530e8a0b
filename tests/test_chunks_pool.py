"""The worker pool that reads results files on every core (``_chunks_pool.map_in_order``): the
results in order, and the caller's garbage collector as it was."""

from __future__ import annotations

import gc
import os

from huescues.tournament._chunks_pool import map_in_order


def _pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x


def test_results_come_in_order_from_worker_processes() -> None:
    found = list(map_in_order(_pid_and_square, range(20), workers=2))
    assert [square for _, square in found] == [x * x for x in range(20)]
    assert {pid for pid, _ in found} - {os.getpid()}, "the chunks were not read by workers"


def test_a_caller_that_froze_objects_gets_no_more_frozen() -> None:
    """The pool freezes what exists before forking (so the workers' collections copy no pages),
    and unfreezes after; where the caller had frozen objects of its own, unfreezing would thaw
    those too, so nothing is frozen for the pool: the objects made since the caller's freeze
    stay collectable."""
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        made_since = [[i] for i in range(1000)]
        found = list(map_in_order(_pid_and_square, range(20), workers=2))
        assert {pid for pid, _ in found} - {os.getpid()}, "the chunks were not read by workers"
        assert gc.get_freeze_count() == frozen
        assert made_since
    finally:
        gc.unfreeze()


def test_the_pool_leaves_nothing_frozen() -> None:
    assert gc.get_freeze_count() == 0
    list(map_in_order(_pid_and_square, range(20), workers=2))
    assert gc.get_freeze_count() == 0
