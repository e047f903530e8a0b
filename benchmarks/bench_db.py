"""What ``synchronous=FULL`` costs the server's database: 1,000 one-row transactions through
``huescues.web.Database`` (WAL mode, as the server writes a click or a game), with SQLite's
``synchronous`` at NORMAL and at FULL, on the disk of ``--dir``. A script, not a test:

    python benchmarks/bench_db.py                  # a few seconds, in the current folder
    python benchmarks/bench_db.py --dir /var/lib/huescues --rows 5000

NORMAL in WAL mode syncs only at checkpoints, so a power cut can lose the last commits (a crash
of the process cannot); FULL syncs the WAL at every commit.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from huescues.web import Database


def commits_per_second(folder: Path, synchronous: str, rows: int) -> tuple[float, float]:
    """Commits per second and the median commit in milliseconds, ``rows`` one-row commits."""
    db = Database(folder / f"bench-{synchronous}.sqlite", schema=["CREATE TABLE t (x TEXT)"])
    db.query(f"PRAGMA synchronous={synchronous}")
    times = []
    start = time.perf_counter()
    for i in range(rows):
        t0 = time.perf_counter()
        with db.transaction() as cur:
            cur.execute("INSERT INTO t VALUES (?)", (f"row {i}",))
        times.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    db.close()
    return rows / elapsed, 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default=".", help="a folder on the disk to measure (default .)")
    parser.add_argument("--rows", type=int, default=1000, help="one-row commits (default 1000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        print(f"{args.rows} one-row transactions, WAL mode, in {Path(args.dir).resolve()}")
        for synchronous in ("NORMAL", "FULL"):
            rate, median = commits_per_second(Path(tmp), synchronous, args.rows)
            print(f"synchronous={synchronous:<6} {rate:8.0f} commits/s, median {median:.3f} ms")


if __name__ == "__main__":
    main()
