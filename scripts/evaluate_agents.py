"""The players' evaluation (the tables of docs/agents.md): every clue giver with every guesser,
4 players, the same fixed seeds for every pair, on the standard board and a second board; then
the default players' self-play against the others', paired game by game.

    python scripts/evaluate_agents.py             # about fifteen minutes on 2 cores
    python scripts/evaluate_agents.py --games 4   # a quick look
    python scripts/evaluate_agents.py --self-play --seed 1000 --games 48   # fresh seeds
"""

from __future__ import annotations

import argparse
import time

from huescues.agents import (
    DEFAULT_GIVER_MODELS,
    DEFAULT_GUESSER_MODELS,
    DEFAULT_PAIR_FROM,
    EmbeddingClueGiver,
    EmbeddingGuesser,
    OracleGuesser,
    RandomAgent,
    evaluate,
)
from huescues.colour import hue_lightness_palette
from huescues.engine import Board

GIVERS = {
    "random": RandomAgent,
    "naming data": lambda: EmbeddingClueGiver(model="naming"),
    "embedding": lambda: EmbeddingClueGiver(model="embedding"),
    "combined": EmbeddingClueGiver,
    "default (ensemble)": lambda: EmbeddingClueGiver(
        model=DEFAULT_GIVER_MODELS, pair_from=DEFAULT_PAIR_FROM
    ),
}
GUESSERS = {
    "random": RandomAgent,
    "naming data": lambda: EmbeddingGuesser(model="naming"),
    "embedding": lambda: EmbeddingGuesser(model="embedding"),
    "combined": EmbeddingGuesser,
    "default (ensemble)": lambda: EmbeddingGuesser(model=DEFAULT_GUESSER_MODELS, pragmatic=True),
    "default, literal": lambda: EmbeddingGuesser(model=DEFAULT_GUESSER_MODELS),
    "default, pawns ignored": lambda: EmbeddingGuesser(
        model=DEFAULT_GUESSER_MODELS, pragmatic=True, use_pawns=False
    ),
    "naming data, pragmatic": lambda: EmbeddingGuesser(
        model="naming", pragmatic=True, speakers=("naming",)
    ),
    "oracle (upper bound)": OracleGuesser,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="games per pair (default 24)")
    parser.add_argument(
        "--board",
        choices=["standard", "hue-lightness", "both"],
        default="both",
        help="which board (default both; run one per process to use two cores)",
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--self-play",
        action="store_true",
        help="only the pairs of the self-play comparison (each giver with its own guessers)",
    )
    args = parser.parse_args()
    pairs = None
    if args.self_play:
        pairs = [(g, g) for g in GIVERS] + [("naming data", "naming data, pragmatic")]
    boards = []
    if args.board in ("standard", "both"):
        boards.append(Board.standard())
    if args.board in ("hue-lightness", "both"):
        boards.append(Board.from_rgb(hue_lightness_palette(), id="hue-lightness-16x30"))
    for board in boards:
        start = time.perf_counter()
        result = evaluate(
            GIVERS,
            GUESSERS,
            games=args.games,
            seed=args.seed,
            board=board,
            pairs=pairs,
            progress=lambda m: print(m, flush=True),
        )
        print()
        print(result.table())
        print()
        print("Self-play, paired by seed: the default pair minus another pair")
        print("| other pair | giver points / round | guesser points / pawn |")
        print("| --- | ---: | ---: |")
        mine = ("default (ensemble)", "default (ensemble)")
        for other in ("naming data", "combined", "embedding", "random"):
            giver, guesser = result.difference(mine, (other, other))
            print(f"| {other} | {giver.signed()} | {guesser.signed()} |")
        giver, guesser = result.difference(mine, ("naming data", "naming data, pragmatic"))
        print(f"| naming data, pragmatic guessers | {giver.signed()} | {guesser.signed()} |")
        print(f"({time.perf_counter() - start:.0f} s)\n")


if __name__ == "__main__":
    main()
