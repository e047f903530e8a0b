"""Measure the object-colour model on people's Hues and Cues picks (the 39 dev clues).

For each clue, a model's square is the one with the most expected R15 points under its belief
over the board, scored against every person's pick (:func:`huescues.research.human_agreement`).
Compared: today's ``default_model()``, :class:`ObjectColourModel` alone, and the blend
``default.score + weight * objects.score`` (:class:`BlendedModel`). The blend's two settings
(``weight`` and the object model's ``focus``) are chosen by leave-one-clue-out
cross-validation: for each clue, the settings that score best on the other 38, then measured
on that clue. The figures printed for the blend are these held-out ones.

Run: ``python scripts/evaluate_object_colours.py [--picks PATH --board PATH] [--csv OUT]``.
"""

from __future__ import annotations

import argparse
import csv
import itertools
from pathlib import Path

import numpy as np

from huescues.engine import Board
from huescues.language import BlendedModel, ObjectColourModel, default_model
from huescues.research import HumanResponses, human_agreement

DATA = Path("/work/shared/data/hues-and-cues-people")
WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 8.0, 16.0)
FOCUSES = (0.5, 1.0, 2.0, 4.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--picks", type=Path, default=DATA / "picks-dev.csv")
    ap.add_argument("--board", type=Path, default=DATA / "retail-board.csv")
    ap.add_argument("--csv", type=Path, default=None, help="write the per-clue table here")
    args = ap.parse_args()
    board = Board.from_csv(args.board)
    responses = HumanResponses.from_csv(
        args.picks, board, clue_column="clue", square_column="square"
    )
    base = default_model()
    shipped = ObjectColourModel.default()
    models = {f: shipped.with_focus(f) for f in FOCUSES}

    def per_clue(model: object) -> tuple[list[str], np.ndarray, np.ndarray]:
        a = human_agreement(model, responses, n_boot=0)
        clues = [r.clue for r in a.per_clue]
        pts = np.array([r.model_points for r in a.per_clue])
        n = np.array([r.n for r in a.per_clue], dtype=float)
        return clues, pts, n

    clues, today, n = per_clue(base)
    alone = {f: per_clue(m)[1] for f, m in models.items()}
    grid = list(itertools.product(FOCUSES, WEIGHTS))
    table = np.stack(
        [today if w == 0.0 else per_clue(BlendedModel(base, models[f], w))[1] for f, w in grid]
    )  # (settings, clues)

    def mean(pts: np.ndarray, mask: np.ndarray | None = None) -> float:
        m = np.ones_like(n, dtype=bool) if mask is None else mask
        return float((pts[m] * n[m]).sum() / n[m].sum())

    held = np.zeros(len(clues))
    chosen: list[tuple[float, float]] = []
    for c in range(len(clues)):
        others = np.arange(len(clues)) != c
        best = int(np.argmax([mean(row, others) for row in table]))
        held[c] = table[best, c]
        chosen.append(grid[best])
    best_all = int(np.argmax([mean(row) for row in table]))
    # Objects alone: focus chosen the same way.
    alone_rows = np.stack([alone[f] for f in FOCUSES])
    alone_held = np.array(
        [
            alone_rows[int(np.argmax([mean(r, np.arange(len(clues)) != c) for r in alone_rows])), c]
            for c in range(len(clues))
        ]
    )
    print(f"{len(clues)} clues, {int(n.sum())} picks (mean R15 points per pick)")
    print(f"  default_model()                      {mean(today):.3f}")
    for f in FOCUSES:
        print(f"  ObjectColourModel(focus={f:g}) alone     {mean(alone[f]):.3f}")
    print(f"  ObjectColourModel alone, focus by LOO-CV  {mean(alone_held):.3f} (held out)")
    print(f"  blend, settings by LOO-CV              {mean(held):.3f} (held out)")
    f_all, w_all = grid[best_all]
    print(
        f"  blend settings chosen on all 39: focus={f_all:g} weight={w_all:g} "
        f"({mean(table[best_all]):.3f}, in-sample)"
    )
    counts: dict[tuple[float, float], int] = {}
    for s in chosen:
        counts[s] = counts.get(s, 0) + 1
    print(
        "  settings chosen across the 39 folds:",
        {f"focus={f:g} w={w:g}": k for (f, w), k in counts.items()},
    )
    print()
    print("| clue | picks | default | objects (focus by CV) | blend (held out) | chosen |")
    print("|---|---:|---:|---:|---:|---|")
    rows = []
    for c, clue in enumerate(clues):
        f, w = chosen[c]
        print(
            f"| {clue} | {int(n[c])} | {today[c]:.2f} | {alone_held[c]:.2f} | {held[c]:.2f} | "
            f"focus {f:g}, w {w:g} |"
        )
        rows.append([clue, int(n[c]), today[c], alone_held[c], held[c], f, w])
    if args.csv is not None:
        with args.csv.open("w", newline="") as fh:
            wr = csv.writer(fh)
            wr.writerow(["clue", "n", "default", "objects", "blend_held_out", "focus", "weight"])
            wr.writerows(rows)


if __name__ == "__main__":
    main()
