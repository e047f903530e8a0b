"""The worker pool that reads results files on every core (``_chunks_pool.map_in_order``): the
results in order, and the caller's garbage collector as it was."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from huescues.tournament._chunks_pool import map_in_order

HERE = Path(__file__).resolve().parent


def _in_a_fresh_process(check: str) -> None:
    """Run ``check`` of this module in a new Python: the pool forks only a process that runs no
    other thread, and a test runner may run threads of its own (pytest-xdist's workers do)."""
    code = f"import {Path(__file__).stem} as t; t.{check}()"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "src"), str(HERE)])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x


def test_results_come_in_order_from_worker_processes() -> None:
    _in_a_fresh_process("_results_in_order")


def _results_in_order() -> None:
    found = list(map_in_order(_pid_and_square, range(20), workers=2))
    assert [square for _, square in found] == [x * x for x in range(20)]
    assert {pid for pid, _ in found} - {os.getpid()}, "the chunks were not read by workers"


def test_a_caller_that_froze_objects_gets_no_more_frozen() -> None:
    """The pool freezes what exists before forking (so the workers' collections copy no pages),
    and unfreezes after; where the caller had frozen objects of its own, unfreezing would thaw
    those too, so nothing is frozen for the pool: the objects made since the caller's freeze
    stay collectable."""
    _in_a_fresh_process("_frozen_by_the_caller")


def _frozen_by_the_caller() -> None:
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
