"""The players' evaluation (the tables of docs/agents.md): every clue giver with every guesser,
4 players, the same fixed seeds for every pair, on the standard board and a second board.

    python scripts/evaluate_agents.py             # about five minutes
    python scripts/evaluate_agents.py --games 4   # a quick look
"""

from __future__ import annotations

import argparse
import time

from huescues.agents import (
    EmbeddingClueGiver,
    EmbeddingGuesser,
    OracleGuesser,
    RandomAgent,
    evaluate,
)
from huescues.agents._players import DEFAULT_GIVER_MODELS, DEFAULT_GUESSER_MODELS
from huescues.colour import hue_lightness_palette
from huescues.engine import Board

GIVERS = {
    "random": RandomAgent,
    "naming data": lambda: EmbeddingClueGiver(model="naming"),
    "embedding": lambda: EmbeddingClueGiver(model="embedding"),
    "combined": EmbeddingClueGiver,
    "default (ensemble)": lambda: EmbeddingClueGiver(model=DEFAULT_GIVER_MODELS),
}
GUESSERS = {
    "random": RandomAgent,
    "naming data": lambda: EmbeddingGuesser(model="naming"),
    "embedding": lambda: EmbeddingGuesser(model="embedding"),
    "combined": EmbeddingGuesser,
    "default (ensemble)": lambda: EmbeddingGuesser(model=DEFAULT_GUESSER_MODELS),
    "default, pawns ignored": lambda: EmbeddingGuesser(
        model=DEFAULT_GUESSER_MODELS, use_pawns=False
    ),
    "default, pragmatic": lambda: EmbeddingGuesser(model=DEFAULT_GUESSER_MODELS, pragmatic=True),
    "oracle (upper bound)": OracleGuesser,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per pair (default 12)")
    args = parser.parse_args()
    boards = [
        Board.standard(),
        Board.from_rgb(hue_lightness_palette(), id="hue-lightness-16x30"),
    ]
    for board in boards:
        start = time.perf_counter()
        result = evaluate(
            GIVERS, GUESSERS, games=args.games, board=board, progress=lambda m: print(m, flush=True)
        )
        print()
        print(result.table())
        print(f"({time.perf_counter() - start:.0f} s)\n")


if __name__ == "__main__":
    main()
