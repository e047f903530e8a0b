"""Whole games of the default player, in a language: games a second. A script, not a test:

python benchmarks/bench_games.py --language es --games 150

Every seat is ``default_agent(language)``, seeds 0 to games - 1, the standard rules for four
players in that language; the readings come from the disk cache after the first run. For two
trees, time the whole process of each in turn (``PYTHONPATH`` chooses the tree), pair by pair.
"""

from __future__ import annotations

import argparse
import time

from huescues.agents import default_agent, play_game
from huescues.engine import Rules


def main() -> None:
    ap = argparse.ArgumentParser(description="Whole games of the default player, in a language.")
    ap.add_argument("--language", default="en", help="the players' language (en, es)")
    ap.add_argument("--games", type=int, default=150)
    args = ap.parse_args()
    rules = Rules.standard(4, language=args.language)
    t0 = time.perf_counter()
    for seed in range(args.games):
        play_game([default_agent(args.language) for _ in range(4)], seed=seed, rules=rules)
    seconds = time.perf_counter() - t0
    print(f"{args.games} default games in {args.language}: {args.games / seconds:.1f} games/s")


if __name__ == "__main__":
    main()
