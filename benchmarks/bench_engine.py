"""Engine speed: random-agent games per second and actions per second on one core, the median
time to apply one action, and memory. A script, not a test:

    python benchmarks/bench_engine.py            # about half a minute
    python benchmarks/bench_engine.py --quick    # a few seconds

Pin it to one core for steadier figures: ``taskset -c 1 python benchmarks/bench_engine.py``.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import statistics
import time
import tracemalloc

import numpy as np

import huescues
from huescues import play_game
from huescues.agents import RandomAgent


def games_per_second(n_players: int, seconds: float) -> tuple[float, float, int]:
    """Play random games for about ``seconds``; return games/s, actions/s and games played."""
    agents = [RandomAgent() for _ in range(n_players)]
    play_game(agents, seed=0)  # warm the caches (board, deck, word lists)
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            record, _ = play_game(agents, seed=games)
            games += 1
            actions += len(record.actions)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, games


def apply_times(n_players: int, n_games: int) -> list[float]:
    """The time of each ``state.apply(action)`` when replaying ``n_games`` recorded games."""
    agents = [RandomAgent() for _ in range(n_players)]
    records = [play_game(agents, seed=s).record for s in range(n_games)]
    times: list[float] = []
    clock = time.perf_counter_ns
    for record in records:
        state = huescues.new_game(n_players, seed=record.seed)
        for action in record.actions:
            t0 = clock()
            state = state.apply(action)
            times.append(clock() - t0)
    return times


def memory_of_a_game(n_players: int) -> tuple[int, int]:
    """Bytes allocated at peak while playing one game, and the size of its final state's JSON."""
    agents = [RandomAgent() for _ in range(n_players)]
    play_game(agents, seed=1)
    gc.collect()
    tracemalloc.start()
    _, state = play_game(agents, seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, len(state.to_json())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs (noisier)")
    args = parser.parse_args()
    seconds = 1.0 if args.quick else 8.0
    print(f"huescues {huescues.__version__}, Python {platform.python_version()}, "
          f"numpy {np.__version__}, {platform.machine()}, {os.cpu_count()} cores")  # fmt: skip
    print("random agents, one process (one core)")
    print(f"{'players':>7} {'games/s':>9} {'actions/s':>10} {'median apply':>13} "
          f"{'peak memory/game':>17} {'state JSON':>11}")  # fmt: skip
    for n in (3, 6, 10):
        gps, aps, _ = games_per_second(n, seconds)
        times = apply_times(n, 20 if args.quick else 100)
        peak, json_size = memory_of_a_game(n)
        print(f"{n:>7} {gps:>9.0f} {aps:>10.0f} {statistics.median(times) / 1000:>10.2f} us "
              f"{peak / 1024:>14.0f} KiB {json_size / 1024:>7.1f} KiB")  # fmt: skip
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"max resident memory of this process: {rss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
