"""The report, the checked load and the resume of a large results file, timed. A script, not a
test:

    python benchmarks/bench_reports.py                  # 100,000 games (the file made once)
    python benchmarks/bench_reports.py --games 10000

The results file (random agents, 4 players, seed 1) is made once with 2 workers and kept under
``/tmp/huescues-bench-reports/`` for later runs (about two minutes to make 100,000 games). Each
figure is the wall time of one step, the CPU time of this process and its workers in it (on a
shared machine the wall time depends on the other jobs), and the peak resident memory so far:

- the report: ``TournamentResults.load(path, check=False).report(seed=1)`` (finding the games
  and the one pass over them);
- the checked load: ``TournamentResults.load(path)``, every record replayed;
- the resume: ``run_tournament(..., out=copy, resume=True)`` on a copy of the complete file,
  every saved game read, checked against the schedule and replayed, nothing left to play.

The targets (issue 23, item 6): the report of 100,000 games in at most 5 s; a checked load or
resume of 100,000 games in at most 10 s, on 2 cores, memory flat in the number of games.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import time
from pathlib import Path

from huescues.tournament import TournamentResults, run_tournament

RANDOMS = ["random", "random2=huescues.agents:RandomAgent"]
CACHE = Path("/tmp/huescues-bench-reports")


def results_file(games: int) -> Path:
    """The cached results file of ``games`` random-agent games, made if missing."""
    path = CACHE / f"results-{games}.jsonl"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".making")
        tmp.unlink(missing_ok=True)
        start = time.perf_counter()
        run_tournament(RANDOMS, games=games, players=(4,), seed=1, workers=2, out=tmp)
        tmp.rename(path)
        print(f"made {path} in {time.perf_counter() - start:.0f} s")
    return path


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu() -> float:
    """CPU seconds of this process and its finished workers (on a shared machine the wall time
    says little; this says how much work was done)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def machine_probe() -> float:
    """CPU seconds of a fixed pure-Python loop (5 million additions): the same work on every
    run, so a slow figure can be told from a slow moment of a shared machine."""
    start = time.process_time()
    total = 0
    for i in range(5_000_000):
        total += i
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--only", choices=("report", "load", "resume"), action="append", help="steps to time"
    )
    args = parser.parse_args()
    steps = args.only or ["report", "load", "resume"]
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}")
    print(f"machine probe: a 5-million-step Python loop took {machine_probe():.2f} s of CPU")
    path = results_file(args.games)
    print(f"{path}: {path.stat().st_size / 1e6:.0f} MB, {args.games:,} games")
    if "report" in steps:
        start, used = time.perf_counter(), cpu()
        results = TournamentResults.load(path, check=False)
        found = time.perf_counter()
        report = results.report(seed=1)
        done = time.perf_counter()
        print(
            f"report: {done - start:.1f} s ({found - start:.1f} s to find the games, "
            f"{done - found:.1f} s the pass; {report.n_blocks:,} blocks); "
            f"CPU {cpu() - used:.1f} s; "
            f"peak {peak_mib():.0f} MiB"
        )
    if "load" in steps:
        start, used = time.perf_counter(), cpu()
        results = TournamentResults.load(path)
        print(
            f"checked load: {time.perf_counter() - start:.1f} s ({len(results):,} games); "
            f"CPU {cpu() - used:.1f} s; "
            f"peak {peak_mib():.0f} MiB"
        )
    if "resume" in steps:
        copy = CACHE / f"resume-{args.games}.jsonl"
        shutil.copyfile(path, copy)
        start, used = time.perf_counter(), cpu()
        results = run_tournament(
            RANDOMS, games=args.games, players=(4,), seed=1, workers=2, out=copy, resume=True
        )
        print(
            f"resume: {time.perf_counter() - start:.1f} s ({len(results):,} games, none to "
            f"play); CPU {cpu() - used:.1f} s; peak {peak_mib():.0f} MiB"
        )
        copy.unlink()


if __name__ == "__main__":
    main()
