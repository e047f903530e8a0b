"""What the schedule costs a resume: CPU per game of ``Schedule.seats(i)`` for every game in
order from a fresh schedule, and of the resume's check of each saved game
(``SavedGameCheck(index, game)``, the games as a results file holds them) in order and as one of
two workers sees them (every other chunk of 250 lines). Best of a few runs; pin it to one core:

    taskset -c 1 python benchmarks/bench_schedule.py
    taskset -c 1 python benchmarks/bench_schedule.py --games 20000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from huescues.tournament._entrants import Entrant, entrant
from huescues.tournament._saved import SavedGameCheck
from huescues.tournament._schedule import make_schedule

CONFIGS = {
    "2 entrants, players [4] (bench_large_tournament's)": (
        ["random", "random2=huescues.agents:RandomAgent"],
        [4],
    ),
    "5 entrants, players [3, 4, 5]": (
        [f"e{i}=huescues.agents:RandomAgent" for i in range(5)],
        [3, 4, 5],
    ),
    "12 entrants, players [4]": ([f"e{i}=huescues.agents:RandomAgent" for i in range(12)], [4]),
}


def best(run: Callable[[], float], repeats: int) -> str:
    """The best of ``repeats`` runs (us a game), and all of them."""
    times = [run() for _ in range(repeats)]
    return f"{min(times):.2f} us a game (runs {', '.join(f'{t:.2f}' for t in times)})"


def seats(entrants: list[Entrant], games: int, players: list[int]) -> Callable[[], float]:
    """A run of Schedule.seats over every game of a fresh schedule."""

    def run() -> float:
        look = make_schedule(entrants, games=games, players=players, seed=1).seats
        start = time.process_time()
        for i in range(games):
            look(i)
        return (time.process_time() - start) / games * 1e6

    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    games = args.games
    for name, (specs, players) in CONFIGS.items():
        run = seats([entrant(e) for e in specs], games, players)
        print(f"{name}: seats {best(run, args.repeats)}")

    entrants = [entrant(e) for e in next(iter(CONFIGS.values()))[0]]
    settings: dict[str, Any] = {
        "games": games, "players": [4], "seed": 1, "board_id": "standard", "rules": {}
    }  # fmt: skip
    schedule = SavedGameCheck(Path("x"), entrants, **settings).schedule
    saved = []
    for i in range(games):
        seed, n, seated = schedule.seats(i)
        saved.append({"format": 1, "seed": seed, "n_players": n, "seats": list(seated),
                      "board_id": "standard", "record": None})  # fmt: skip

    def check(lines: list[int]) -> Callable[[], float]:
        def run() -> float:
            check = SavedGameCheck(Path("x"), entrants, **settings)
            start = time.process_time()
            for i in lines:
                check(i, saved[i])
            return (time.process_time() - start) / len(lines) * 1e6

        return run

    in_order = list(range(games))
    one_of_two = [i for i in in_order if i // 250 % 2 == 0]
    print(f"resume check, games in order: {best(check(in_order), args.repeats)}")
    print(f"resume check, one of two workers: {best(check(one_of_two), args.repeats)}")


if __name__ == "__main__":
    main()
