"""``python -m huescues``: random agents play one game on the defaults; the moves and the result
are printed. (The ``huescues tournament`` command replaces this as the main job later.)"""

from __future__ import annotations

import argparse

from huescues.agents import RandomAgent, play_game
from huescues.engine import InvalidRules, describe_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m huescues", description=__doc__)
    parser.add_argument("--players", type=int, default=4, help="number of players, 3-10 (R2)")
    parser.add_argument("--seed", type=int, default=0, help="the game's seed (R27)")
    args = parser.parse_args(argv)
    if args.seed < 0:
        parser.error(f"--seed {args.seed}: a seed is a whole number >= 0 (R27)")
    agents = [RandomAgent() for _ in range(args.players)]
    try:
        _, state = play_game(agents, seed=args.seed)
    except InvalidRules as e:
        parser.error(f"--players {args.players}: {e}")
    print(describe_game(state))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
