"""Tournament speed: random-agent 4-player games per second with 1 and 2 worker processes, the
default players' games per second on one core, and the memory of a worker. A script, not a
test:

    python benchmarks/bench_tournament.py            # about a minute
    python benchmarks/bench_tournament.py --quick    # about fifteen seconds

The target (issue 5): 10,000 random-agent 4-player games in under 30 s with 2 workers.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import tempfile
import time
from pathlib import Path

from huescues.tournament import run_tournament

RANDOMS = ["random", "random2=huescues.agents:RandomAgent"]


def timed(entrants: list[str], games: int, workers: int, out: Path) -> float:
    """Seconds for a whole run (worker start-up and the final rewrite of the file included)."""
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    run_tournament(entrants, games=games, players=(4,), seed=1, workers=workers, out=out)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args()
    n_random = 2_000 if args.quick else 10_000
    n_default = 8 if args.quick else 24
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results.jsonl"
        for workers in (1, 2):
            seconds = timed(RANDOMS, n_random, workers, out)
            print(
                f"random agents, {workers} worker(s): {n_random:,} games in {seconds:.1f} s, "
                f"{n_random / seconds:,.0f} games/s (file {out.stat().st_size / 1e6:.0f} MB)"
            )
        run_tournament(["default"], games=1, workers=1)  # load the models once
        seconds = timed(["default", "naming"], n_default, 1, out)
        print(
            f"default and naming players, 1 worker: {n_default} games in {seconds:.1f} s, "
            f"{n_default / seconds:.2f} games/s per core"
        )
        seconds = timed(["default", "naming"], n_default, 2, out)
        print(
            f"default and naming players, 2 workers: {n_default} games in {seconds:.1f} s "
            f"(model loading in each worker included), {n_default / seconds:.2f} games/s"
        )
    # ru_maxrss is in KiB on Linux (bytes on macOS): the largest worker process's peak.
    scale = 1 if platform.system() == "Darwin" else 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale / 2**20
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20
    print(f"memory: largest worker peak {children:.0f} MiB; this process's peak {parent:.0f} MiB")


if __name__ == "__main__":
    main()
