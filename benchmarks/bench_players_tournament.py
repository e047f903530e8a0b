"""Tournament speed with real players: default-vs-naming 4-player games a second, in this
process (one core, as one worker plays them) and, with ``--workers``, a whole run on worker
processes. A script, not a test:

    python benchmarks/bench_players_tournament.py                  # 300 games, about 15 s
    python benchmarks/bench_players_tournament.py --games 1000
    python benchmarks/bench_players_tournament.py --games 10000 --workers 2   # issue 23's run

The in-process figure is after one warm-up game (the models loaded and the vocabulary read), in
CPU time of this process (``time.process_time``) and wall-clock time; on a shared machine the
CPU time is the steadier one. The target (issue 23 item 5): 10,000 games on 2 workers in 45 s.
Compare trees by pointing ``PYTHONPATH`` at each, in the same session.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import tempfile
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # as in a tournament's workers

from huescues.tournament import run_tournament  # noqa: E402

ENTRANTS = ["default", "naming"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games to time (default 300)")
    parser.add_argument("--seed", type=int, default=13, help="the tournament's seed")
    parser.add_argument(
        "--workers", type=int, default=0, help="time a whole run on this many worker processes"
    )
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results.jsonl"
        if args.workers:
            start = time.perf_counter()
            run_tournament(
                ENTRANTS, games=args.games, seed=args.seed, workers=args.workers, out=out
            )
            wall = time.perf_counter() - start
            print(
                f"{args.games:,} games on {args.workers} workers: {wall:.1f} s wall, "
                f"{args.games / wall:.1f} games/s (start-up and model loading included)"
            )
        else:
            run_tournament(ENTRANTS, games=1, seed=args.seed, workers=1, out=out)  # warm up
            out.unlink()
            cpu, wall = time.process_time(), time.perf_counter()
            run_tournament(ENTRANTS, games=args.games, seed=args.seed, workers=1, out=out)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(
                f"{args.games:,} games in this process: {cpu:.2f} s CPU "
                f"({1000 * cpu / args.games:.1f} ms a game, {args.games / cpu:.1f} games/s), "
                f"{wall:.2f} s wall"
            )
        digest = hashlib.sha256(out.read_bytes()).hexdigest()[:16]
        print(f"results file sha256 {digest} (the same for the same games, whatever the tree)")


if __name__ == "__main__":
    main()
