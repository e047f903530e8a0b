"""Batched engine speed: random-play actions a second on one core at batch sizes 1, 64, 1,024
and 4,096, beside the game-by-game engine's (``play_game`` with ``RandomAgent``) in the same
run. A script, not a test:

    python benchmarks/bench_batched.py            # about half a minute
    python benchmarks/bench_batched.py --json     # one JSON object: {"actions_per_s": {"1": ...}}

Actions are counted as ``GameState.apply`` counts them: one per target, clue, pass and pawn.
Times are the process's CPU time (one thread: the batch's numpy calls use no BLAS), so other
jobs on a shared machine slow the figures less than wall-clock ones; pin it for steadier
figures: ``taskset -c 1 python benchmarks/bench_batched.py``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import time

import numpy as np

import huescues
from huescues import Rules, play_game
from huescues.agents import RandomAgent
from huescues.batch import GameBatch, random_actions, random_batch_games

BATCH_SIZES = (1, 64, 1024, 4096)


def batched_actions_per_second(n_players: int, size: int, seconds: float) -> float:
    """Step ``size`` random games (reset as they end, every game a new seed) for about
    ``seconds`` of CPU time; return actions a second."""
    batch = GameBatch(Rules.standard(n_players), size, itertools.count(), keep_finished=False)
    rng = np.random.Generator(np.random.PCG64(0))
    for _ in range(50):  # warm up
        batch.step(random_actions(batch, rng))
    clock = time.process_time
    actions = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(10):
            actions += batch.step(random_actions(batch, rng))
    return actions / (clock() - start)


def engine_actions_per_second(n_players: int, seconds: float) -> float:
    """The game-by-game engine: whole games of ``play_game`` with ``RandomAgent``s."""
    agents = [RandomAgent() for _ in range(n_players)]
    play_game(agents, seed=0)
    clock = time.process_time
    games = actions = 0
    start = clock()
    while clock() - start < seconds:
        record, _ = play_game(agents, seed=games)
        games += 1
        actions += len(record.actions)
    return actions / (clock() - start)


def records_per_second(n_players: int, n_games: int) -> tuple[float, float]:
    """``random_batch_games`` end to end (deals, play, the finished games kept) and the records
    made from them: games a second for each."""
    clock = time.process_time
    start = clock()
    games = random_batch_games(n_games, n_players, seed=1)
    played = clock() - start
    start = clock()
    for game in games:
        game.record()
    recorded = clock() - start
    return n_games / played, n_games / (played + recorded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--players", type=int, default=6, help="players a game (default 6)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a figure")
    args = parser.parse_args()
    n = args.players
    batched = {str(b): batched_actions_per_second(n, b, args.seconds) for b in BATCH_SIZES}
    engine = engine_actions_per_second(n, args.seconds)
    played, recorded = records_per_second(n, 4096)
    if args.json:
        print(
            json.dumps(
                {
                    "actions_per_s": {b: round(v) for b, v in batched.items()},
                    "engine_actions_per_s": round(engine),
                    "n_players": n,
                    "batch_games_per_s": round(played),
                    "batch_games_with_records_per_s": round(recorded),
                }
            )
        )
        return
    print(f"huescues {huescues.__version__}, Python {platform.python_version()}, "
          f"numpy {np.__version__}, {platform.machine()}, {os.cpu_count()} cores")  # fmt: skip
    print(f"random play, {n} players, CPU time of one thread")
    print(f"{'engine':>14} {engine:>12,.0f} actions/s (play_game, RandomAgent)")
    for b, v in batched.items():
        print(f"{'batch ' + b:>14} {v:>12,.0f} actions/s  ({v / engine:.1f}x)")
    print(f"random_batch_games(4096): {played:,.0f} games/s; with GameRecords {recorded:,.0f}")


if __name__ == "__main__":
    main()
