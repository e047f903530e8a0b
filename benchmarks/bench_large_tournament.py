"""A large random-player tournament through the real command, with the memory of every process
measured over time: games per second, the report's time, and each process's peak and its memory
at each quarter of the run (flat means nothing grows with the number of games). A script, not a
test (needs psutil):

    python benchmarks/bench_large_tournament.py --games 100000          # about two minutes
    python benchmarks/bench_large_tournament.py --games 100000 --dask   # a LocalCluster of 2
    python benchmarks/bench_large_tournament.py --games 20000 --format jsonl

The target (issue 13): 100,000 games to Parquet on two workers with each process's memory flat,
and the report in seconds.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil

ENTRANTS = ["random", "random2=huescues.agents:RandomAgent"]
MIB = 2**20


class Watcher:
    """Samples the RSS of a process and all its descendants every ``every`` seconds."""

    def __init__(self, root: psutil.Process, every: float = 0.2) -> None:
        self.root = root
        self.every = every
        self.peak: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.timeline: list[tuple[float, dict[int, int]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watcher:
        self.start = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            sample: dict[int, int] = {}
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.Error:
                procs = []
            for p in procs:
                try:
                    rss = p.memory_info().rss
                    if p.pid not in self.names:
                        self.names[p.pid] = _role(p)
                except psutil.Error:
                    continue
                sample[p.pid] = rss
                self.peak[p.pid] = max(self.peak.get(p.pid, 0), rss)
            self.timeline.append((time.perf_counter() - self.start, sample))
            self._stop.wait(self.every)

    def table(self, played: float | None, skip: int | None = None) -> str:
        """Each process's peak while the games were played and after (putting the results in
        order, the report), and its RSS at 25, 50, 75 and 100% of the games, in MiB."""
        end = played if played is not None else (self.timeline[-1][0] if self.timeline else 0.0)
        marks = [end * q for q in (0.25, 0.5, 0.75, 1.0)]
        rows = ["process          peak: games  after |  25%   50%   75%  100% of the games (MiB)"]
        for pid in sorted(self.peak):
            if pid == skip:
                continue
            during = [s[pid] for t, s in self.timeline if t <= end and pid in s]
            after = [s[pid] for t, s in self.timeline if t > end and pid in s]
            at = []
            for m in marks:
                seen = [s[pid] for t, s in self.timeline if t <= m and pid in s]
                at.append(f"{seen[-1] / MIB:5.0f}" if seen else "    -")
            rows.append(
                f"{self.names.get(pid, '?')[:16]:<16} {max(during, default=0) / MIB:10.0f} "
                f"{max(after, default=0) / MIB:6.0f} | {' '.join(at)}"
            )
        return "\n".join(rows)


def _role(p: psutil.Process) -> str:
    cmd = " ".join(p.cmdline())
    if "huescues tournament" in cmd or "-m huescues" in cmd:
        return f"parent {p.pid}"
    if "spawn_main" in cmd or "multiprocessing" in cmd:
        return f"worker {p.pid}"
    if "distributed" in cmd or "dask" in cmd:
        return f"dask {p.pid}"
    return f"{p.name()} {p.pid}"


def run_watched(cmd: list[str], env: dict[str, str]) -> tuple[float, Watcher, str, float | None]:
    """Seconds, the watcher, stdout, and when (seconds from the start) the progress said 100%."""
    me = psutil.Process()
    with Watcher(me) as w:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        all_played: list[float] = []
        err: list[str] = []

        def read_stderr() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                err.append(line)
                if "(100%)" in line:
                    all_played.append(time.perf_counter() - w.start)

        reader = threading.Thread(target=read_stderr)
        reader.start()
        out, _ = proc.communicate()
        reader.join()
        seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{''.join(err)[-2000:]}")
    return seconds, w, out, all_played[0] if all_played else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--format", choices=("parquet", "jsonl"), default="parquet")
    parser.add_argument("--dask", action="store_true", help="on a LocalCluster of 2 processes")
    parser.add_argument("--keep", help="write the results here instead of a temporary place")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}")
    env = dict(os.environ)
    cluster: Any = None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or tmp) / f"results.{args.format}"
        cmd = [sys.executable, "-m", "huescues", "tournament", "--games", str(args.games)]
        cmd += ["--entrants", *ENTRANTS, "--out", str(out), "--seed", "1"]
        if args.dask:
            from distributed import LocalCluster

            cluster = LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
            )
            cmd += ["--scheduler", cluster.scheduler_address]
        else:
            cmd += ["--workers", str(args.workers)]
        where = "a Dask LocalCluster of 2 worker processes" if args.dask else "local workers"
        seconds, watcher, _, played = run_watched(cmd, env)
        games_s = played if played is not None else seconds
        print(
            f"{args.games:,} random-agent 4-player games to {args.format} on {where}: "
            f"{seconds:.1f} s in all; the games {games_s:.1f} s ({args.games / games_s:,.0f} "
            f"games/s, start-up included), then {seconds - games_s:.1f} s to put the results in "
            f"order and print the report"
        )
        print(watcher.table(played, skip=os.getpid() if not args.dask else None))
        report = (
            "import sys, time; from huescues.tournament import TournamentResults; "
            "t = time.perf_counter(); r = TournamentResults.load(sys.argv[1], check=False); "
            "t1 = time.perf_counter(); rep = r.report(seed=1); t2 = time.perf_counter(); "
            "TournamentResults.load(sys.argv[1]); t3 = time.perf_counter(); "
            "print(f'{t1 - t:.1f} {t2 - t1:.1f} {t3 - t2:.1f} {rep.n_games}')"
        )
        seconds, watcher, text, _ = run_watched([sys.executable, "-c", report, str(out)], env)
        load, compute, checked, n = text.split()
        print(
            f"the report of the {int(n):,} games in a fresh process: {compute} s (after "
            f"{load} s to find the games); loading them with every record replayed as a check: "
            f"{checked} s; that process's peak "
            f"{max(v for k, v in watcher.peak.items() if k != os.getpid()) / MIB:.0f} MiB"
        )
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
