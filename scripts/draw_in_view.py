"""Draw how ``default_model()`` reads a clue on a board, alone and against the board's squares
(``huescues.language.in_view``, as the players read): docs/images/in-view-<word>.png. Needs
matplotlib (``huescues[plot]``).

    python scripts/draw_in_view.py penguin            # the retail board, where people's picks are
    python scripts/draw_in_view.py gorilla --board standard
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from draw_pragmatic_reading import board_panels

from huescues.engine import Board
from huescues.language import default_model, in_view

OUT = Path(__file__).resolve().parents[1] / "docs" / "images"
BOARDS = {"retail": Board.retail, "standard": Board.standard}


def belief(scores: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Scores over the squares as a belief (normalised), shaped as the board."""
    w = np.exp(scores - scores.max())
    out: np.ndarray = (w / w.sum()).reshape(shape)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("word", help="a clue")
    parser.add_argument("--board", choices=sorted(BOARDS), default="retail")
    args = parser.parse_args()
    board = BOARDS[args.board]()
    lab = board.lab.reshape(-1, 3)
    model = default_model()
    alone = belief(model.score(args.word, lab), board.shape)
    viewed = belief(in_view(model, lab).score(args.word, lab), board.shape)

    board_panels(
        board,
        f"{args.word!r} on the {args.board} board: read alone, and against its squares",
        ((alone, "alone: default_model().score"), (viewed, "in view: as the players read")),
        OUT / f"in-view-{args.word.replace(' ', '-')}.png",
    )


if __name__ == "__main__":
    main()
