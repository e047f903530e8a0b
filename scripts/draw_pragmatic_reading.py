"""Draw how the default guesser reads a clue, literally and as the default clue giver would have
meant it (docs/images/pragmatic-<word>.png). Needs matplotlib (``huescues[plot]``).

    python scripts/draw_pragmatic_reading.py pistachio
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from huescues.agents import EmbeddingGuesser, Readings, default_agent, resolve_model
from huescues.agents._speaker import log_pragmatic, speaker_reading
from huescues.engine import Board, Cell

OUT = Path(__file__).resolve().parents[1] / "docs" / "images"


def board_panels(
    board: Board, title: str, beliefs: tuple[tuple[np.ndarray, str], ...], out: Path
) -> None:
    """Draw the board beside each belief over its squares (a heat map, its peak marked +), each
    with its title, to ``out`` (shared by scripts/draw_in_view.py)."""
    rows, cols = board.shape
    n = 1 + len(beliefs)
    fig = Figure(figsize=(n * cols * 0.22 + 1.0, rows * 0.22 + 0.9), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    fig.suptitle(title, fontsize=11)
    letters = [str(Cell(r, 0))[0] for r in range(rows)]
    for k, (image, label) in enumerate(((board.srgb, "the board"), *beliefs)):
        ax = fig.add_subplot(1, n, k + 1)
        if k == 0:
            ax.imshow(image, interpolation="nearest")
        else:
            ax.imshow(image, cmap="magma", interpolation="nearest")
            top = np.unravel_index(int(np.argmax(image)), image.shape)
            ax.text(top[1], top[0], "+", ha="center", va="center", color="cyan", fontsize=9)
        ax.set_title(label, fontsize=9)
        ax.set_xticks(range(0, cols, 3))
        ax.set_xticklabels([str(c + 1) for c in range(0, cols, 3)], fontsize=6)
        ax.set_yticks(range(rows))
        ax.set_yticklabels(letters, fontsize=6)
    fig.savefig(out, bbox_inches="tight")
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("word", help="a word of the clue vocabulary")
    args = parser.parse_args()
    board = Board.standard()
    guesser = default_agent().guesser
    assert isinstance(guesser, EmbeddingGuesser)
    literal = EmbeddingGuesser(model=guesser.model).belief(board, [args.word])
    giver = [resolve_model(m) for m in ("default", "naming", "embedding")]
    log_l1 = log_pragmatic(speaker_reading(Readings.shared(), giver, board), args.word)
    if log_l1 is None:
        raise SystemExit(f"{args.word!r} is not a word the default clue giver would say")
    pragmatic = np.exp(log_l1).reshape(board.shape)

    board_panels(
        board,
        f"{args.word!r}: read literally, and as the default clue giver would have meant it",
        (
            (literal, "literal: where the word's colours are"),
            (pragmatic, "pragmatic: where the giver would say it"),
        ),
        OUT / f"pragmatic-{args.word}.png",
    )


if __name__ == "__main__":
    main()
