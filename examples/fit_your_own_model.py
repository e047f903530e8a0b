"""Fit the embedding colour-term model on your own naming data (here a few hand-made names),
save it as data (npz, no pickle), load it back and read a clue on the board."""

from __future__ import annotations

import tempfile
from pathlib import Path

from huescues import Board
from huescues.agents import top_squares
from huescues.colour import srgb_to_lab
from huescues.language import EmbeddingModel, xkcd_names


def main() -> None:
    # Your own names and colours: here the XKCD names that contain "green" or "blue",
    # plus two invented ones.
    xkcd = xkcd_names()
    keep = [i for i, n in enumerate(xkcd.names) if "green" in n or "blue" in n]
    names = [xkcd.names[i] for i in keep] + ["pond scum", "swimming pool"]
    lab = list(xkcd.lab[keep]) + list(srgb_to_lab([[0.35, 0.45, 0.15], [0.3, 0.8, 0.95]]))
    model = EmbeddingModel.fit(names, lab, description="greens and blues")
    path = Path(tempfile.mkdtemp()) / "my-model.npz"
    model.save(path)
    again = EmbeddingModel.load(path)
    board = Board.standard()
    for clue in ("pond", "swimming", "lagoon"):
        best = ", ".join(str(c) for c, _ in top_squares(again, clue, board, 3))
        print(f"{clue!r}: {again.predict(clue).lab.round(0)} -> {best}")


if __name__ == "__main__":
    main()
