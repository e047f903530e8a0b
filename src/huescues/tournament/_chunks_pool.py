"""Work on chunks of a results file in worker processes, the results in order: what a checked load,
a resume and the report use to read a large file on every core.

Only a few chunks are in flight at a time (two per worker), so the memory does not grow with the
file; the results come back in the chunks' order, whatever order the workers finish in. Work too
small to pay for starting workers (or one core) is done in this process.

The workers are forked, never spawned: a spawned worker imports the caller's main script again,
so a script that reads results at its top level (without ``if __name__ == "__main__":``) would
start over in every worker. Forking a process that runs other threads is unsafe (a lock another
thread holds stays held in the child), so where that is the case, or where there is no ``fork``,
the work is done in this process.
"""

from __future__ import annotations

import concurrent.futures as cf
import gc
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

__all__ = ["WORKERS_FROM", "map_in_order", "n_workers"]

T = TypeVar("T")
R = TypeVar("R")

#: Fewer chunks than this are worked on in this process (starting a worker costs about a
#: quarter of a second).
WORKERS_FROM = 4


def n_workers() -> int:
    """The worker processes to use: one per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _may_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def map_in_order(
    fn: Callable[[T], R], chunks: Iterable[T], *, workers: int | None = None
) -> Iterator[R]:
    """``fn(chunk)`` for each chunk, in order, in forked worker processes when there are several
    cores, at least :data:`WORKERS_FROM` chunks and no other thread (``fn`` and the chunks must
    pickle). An exception raised by ``fn`` is raised here, at its chunk's turn."""
    count = n_workers() if workers is None else workers
    it = iter(chunks)
    first: list[T] = []
    for chunk in it:
        first.append(chunk)
        if len(first) >= WORKERS_FROM:
            break
    if count <= 1 or len(first) < WORKERS_FROM or not _may_fork():
        for chunk in first:
            yield fn(chunk)
        for chunk in it:
            yield fn(chunk)
        return
    context = multiprocessing.get_context("fork")
    # The objects made so far are the workers' too: frozen, the workers' garbage collections
    # leave them alone instead of writing to (and so copying) every page that holds one. Not
    # where the caller froze objects of its own: unfreezing after would thaw those too, and
    # leaving ours frozen would keep the caller's later objects from ever being collected.
    thawed = gc.get_freeze_count() == 0
    if thawed:
        gc.freeze()
    try:
        with cf.ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
            pending: deque[cf.Future[R]] = deque()
            queued = iter(first)
            try:
                for source in (queued, it):
                    for chunk in source:
                        pending.append(pool.submit(fn, chunk))
                        if len(pending) >= 2 * count:
                            yield pending.popleft().result()
                while pending:
                    yield pending.popleft().result()
            finally:
                for future in pending:
                    future.cancel()
    finally:
        if thawed:
            gc.unfreeze()
