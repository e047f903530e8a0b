"""A clue on the board: where a model reads it, as a heat map with the best squares marked."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from huescues.engine import Board, Cell

from ._protocol import ColourTermModel, FloatArray

__all__ = ["clue_probabilities", "render_clue", "top_squares"]


def clue_probabilities(model: ColourTermModel, text: str, board: Board) -> FloatArray:
    """The model's belief over the board's squares for ``text``: ``score`` on every square,
    normalised (a flat prior over squares). Shape ``(rows, cols)``, summing to 1."""
    scores = np.asarray(model.score(text, board.lab), dtype=np.float64)
    z = np.exp(scores - scores.max())
    out: FloatArray = z / z.sum()
    return out


def top_squares(
    model: ColourTermModel, text: str, board: Board, k: int = 5
) -> list[tuple[Cell, float]]:
    """The ``k`` squares the model finds most likely for ``text``, best first, with their
    probabilities."""
    p = clue_probabilities(model, text, board)
    order = np.argsort(-p, axis=None, kind="stable")[:k]
    cells = board.cells()
    return [(cells[int(i)], float(p.flat[int(i)])) for i in order]


def render_clue(
    model: ColourTermModel,
    text: str,
    board: Board,
    path: str | os.PathLike[str],
    *,
    k: int = 5,
    dpi: int = 120,
) -> Path:
    """Write a PNG: the board with the ``k`` best squares for ``text`` numbered, beside a heat map
    of the model's belief over the squares. Needs matplotlib (``huescues[plot]``)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError("drawing a clue needs matplotlib: pip install 'huescues[plot]'") from e

    p = clue_probabilities(model, text, board)
    best = top_squares(model, text, board, k)
    rows, cols = board.shape
    fig = Figure(figsize=(2 * cols * 0.3 + 1.6, rows * 0.3 + 1.3), dpi=dpi)
    FigureCanvasAgg(fig)
    fig.suptitle(f"{text!r}: where the model looks (best squares numbered)", fontsize=11)
    letters = [str(Cell(r, 0))[0] for r in range(rows)]
    for idx, (image, label) in enumerate(((board.srgb, "the board"), (p, "belief over squares"))):
        ax = fig.add_subplot(1, 2, idx + 1)
        if idx == 0:
            ax.imshow(image, interpolation="nearest")
        else:
            shown = ax.imshow(image, cmap="magma", interpolation="nearest")
            fig.colorbar(shown, ax=ax, fraction=0.025, pad=0.02)
        ax.set_title(label, fontsize=9)
        ax.set_xticks(range(0, cols, 2 if cols > 20 else 1))
        ax.set_xticklabels([str(c + 1) for c in range(0, cols, 2 if cols > 20 else 1)], fontsize=6)
        ax.set_yticks(range(rows))
        ax.set_yticklabels(letters, fontsize=6)
        for rank, (cell, _) in enumerate(best, start=1):
            if idx == 0:
                light = board.lab[cell.row, cell.col, 0] > 55
            else:
                light = p[cell.row, cell.col] > 0.6 * p.max()
            colour = "black" if light else "white"
            ax.text(cell.col, cell.row, str(rank), ha="center", va="center", color=colour,
                    fontsize=7, fontweight="bold")  # fmt: skip
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, format="png")
    return out
