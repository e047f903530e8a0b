"""What a custom colour-term model costs a tournament: seconds a 4-player game (fresh agents each
game, as a tournament builds them) for the built-in naming player, and for the same players on
a model of one's own that wraps the naming model, built afresh by each factory call without a
``cache_key``, with one, or built once and shared. A script, not a test:

    taskset -c 1 python benchmarks/bench_custom_model.py

Each case runs in a fresh process (``sys.executable``, with this process's environment), plays
one game to warm up, then ``--games`` games; the median of ``--repeats`` processes is printed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from typing import Any

from huescues.agents import EmbeddingClueGiver, EmbeddingGuesser, Player, naming_agent, play_game
from huescues.language import ColourTermModelBase, NamingModel

CASES = (
    "built-in naming",
    "own model, no cache_key",
    "own model, a cache_key",
    "own model, shared",
)


class Mine(ColourTermModelBase):
    """A model of one's own: the naming model's scores, under another class."""

    def __init__(self, key: str | None = None) -> None:
        self.inner = NamingModel.default()
        self.key = key

    def score(self, text: str, lab: Any) -> Any:
        return self.inner.score(text, lab)

    def predict(self, text: str) -> Any:
        return self.inner.predict(text)

    @property
    def cache_key(self) -> str | None:
        return self.key


def _factory(case: str) -> Any:
    if case == CASES[0]:
        return naming_agent
    shared = Mine() if case == CASES[3] else None

    def build() -> Player:
        model = shared or Mine("bench-mine-v1" if case == CASES[2] else None)
        return Player(EmbeddingClueGiver(model=model), EmbeddingGuesser(model=model))

    return build


def _one(case: str, games: int) -> float:
    import time

    make = _factory(case)
    play_game([make() for _ in range(4)], seed=10_000)  # imports, the shipped readings
    start = time.perf_counter()
    for g in range(games):
        play_game([make() for _ in range(4)], seed=g)
    return (time.perf_counter() - start) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--case", choices=CASES, help=argparse.SUPPRESS)  # one child's case
    args = parser.parse_args()
    if args.case:
        print(_one(args.case, args.games))
        return
    for case in CASES:
        runs = [
            float(
                subprocess.run(
                    [sys.executable, __file__, "--case", case, "--games", str(args.games)],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            )
            for _ in range(args.repeats)
        ]
        print(f"{case:28s} {statistics.median(runs):6.3f} s a game")


if __name__ == "__main__":
    main()
