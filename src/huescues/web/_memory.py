"""Memory the server freed, given back to the system.

After a thousand abandoned tables expire or a thousand idle connections close, their Python
objects are freed, but glibc's allocator keeps the freed pages in its arenas: the server's
resident size stays ~30 % above where it was (``benchmarks/bench_web_abuse.py``), though the
memory is reused. A full collection first frees what only cycles held (a cancelled table's
task and its frames), which an idle server's allocations would not trigger for a long time;
then ``malloc_trim(0)`` hands the pages back. Elsewhere (macOS, musl) only the collection runs.
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Callable

__all__ = ["release_memory"]


def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)  # glibc only
    if trim is None:
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    function: Callable[[int], int] = trim
    return function


_TRIM = _malloc_trim()


def release_memory() -> bool:
    """Collect garbage cycles, then give freed heap pages back to the system (glibc's
    ``malloc_trim``); whether it could. ctypes releases the GIL for the trim, so it may run in
    a thread beside the event loop."""
    gc.collect()
    if _TRIM is None:
        return False
    _TRIM(0)
    return True
