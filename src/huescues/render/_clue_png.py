"""A clue on the board: where a model reads it, as a heat map with the best squares numbered."""

from __future__ import annotations

import os
from pathlib import Path

from huescues.agents import clue_probabilities, top_squares
from huescues.engine import ROW_LETTERS, Board
from huescues.language import ColourTermModel

from ._figure import new_figure
from ._marks import ink

__all__ = ["render_clue"]


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
    of the model's belief over the squares (:func:`~huescues.agents.clue_probabilities`). Needs
    matplotlib (``huescues[plot]``)."""
    rows, cols = board.shape
    fig = new_figure("drawing a clue", figsize=(2 * cols * 0.3 + 1.6, rows * 0.3 + 1.3), dpi=dpi)
    p = clue_probabilities(model, text, board)
    best = top_squares(model, text, board, k)
    fig.suptitle(f"{text!r}: where the model looks (best squares numbered)", fontsize=11)
    step = 2 if cols > 20 else 1
    for idx, (image, label) in enumerate(((board.srgb, "the board"), (p, "belief over squares"))):
        ax = fig.add_subplot(1, 2, idx + 1)
        if idx == 0:
            ax.imshow(image, interpolation="nearest")
        else:
            shown = ax.imshow(image, cmap="magma", interpolation="nearest")
            fig.colorbar(shown, ax=ax, fraction=0.025, pad=0.02)
        ax.set_title(label, fontsize=9)
        ax.set_xticks(range(0, cols, step))
        ax.set_xticklabels([str(c + 1) for c in range(0, cols, step)], fontsize=6)
        ax.set_yticks(range(rows))
        ax.set_yticklabels(list(ROW_LETTERS[:rows]), fontsize=6)
        for rank, (cell, _) in enumerate(best, start=1):
            if idx == 0:
                colour = ink(board.lab[cell.row, cell.col, 0])
            else:  # the heat map is light (magma's yellow) where the belief is high
                colour = "black" if p[cell.row, cell.col] > 0.6 * p.max() else "white"
            ax.text(cell.col, cell.row, str(rank), ha="center", va="center", color=colour,
                    fontsize=7, fontweight="bold")  # fmt: skip
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, format="png")
    return out
