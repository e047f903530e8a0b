"""Measure the knowledge model (``ObjectColourModel``) on people's Hues and Cues picks (the 39
dev clues), and choose how ``default_model()`` reads it.

For each clue, a model's square is the one with the most expected R15 points under its belief
over the board, scored against every person's pick (:func:`huescues.research.human_agreement`).
Compared: ``combined_model()`` alone, the knowledge model alone, and the blend
``combined.score + weight * knowledge.score`` (:class:`BlendedModel`, what ``default_model()``
is). The blend's settings (``weight``, and the knowledge model's ``focus``, ``tone_weight`` and
``temper``) are chosen by leave-one-clue-out cross-validation: for each clue, the settings that
score best on the other 38, then measured on that clue. The figures printed for the blend are
these held-out ones. The giver measure (:func:`huescues.research.clue_choice_agreement`) is
printed for the settings chosen most often.

``--model PATH`` reads another build of the knowledge (``scripts/build_object_colours.py
--out PATH``), e.g. one built with ``--drop-ratings`` of the dev clues' words, to see what the
authors' ratings of exactly these words add.

Run: ``python scripts/evaluate_object_colours.py [--model PATH] [--csv OUT]``.
"""

from __future__ import annotations

import argparse
import csv
import itertools
from pathlib import Path

import numpy as np

from huescues.language import BlendedModel, ObjectColourModel, combined_model
from huescues.research import clue_choice_agreement, dev_picks, human_agreement

# The grid, fixed by what the reading must do (issue 18): readings are tempered by evidence
# (a word known only from its vector reads broadly) and use the tone (lightness and chroma);
# how much, with the focus and the blend's weight, is chosen by leave-one-clue-out.
WEIGHTS = (1.0, 2.0, 4.0, 8.0)
FOCUSES = (1.0, 2.0)
TONE_WEIGHTS = (0.25, 0.5, 1.0)
TEMPERS = (True,)
#: The scales (temperatures) of the blend tried for calibration, by log-likelihood.
SCALES = (0.125, 0.25, 0.5, 1.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=None, help="a knowledge build (npz)")
    ap.add_argument("--csv", type=Path, default=None, help="write the per-clue table here")
    args = ap.parse_args()
    responses, _ = dev_picks()
    base = combined_model()
    knowledge = (
        ObjectColourModel.default() if args.model is None else ObjectColourModel.load(args.model)
    )

    def per_clue(model: object) -> tuple[list[str], np.ndarray, np.ndarray]:
        a = human_agreement(model, responses, n_boot=0)
        clues = [r.clue for r in a.per_clue]
        pts = np.array([r.model_points for r in a.per_clue])
        n = np.array([r.n for r in a.per_clue], dtype=float)
        return clues, pts, n

    clues, combined, n = per_clue(base)
    readings = list(itertools.product(FOCUSES, TONE_WEIGHTS, TEMPERS))
    variants = {
        s: knowledge.with_reading(focus=s[0], tone_weight=s[1], temper=s[2]) for s in readings
    }
    alone = np.stack([per_clue(variants[s])[1] for s in readings])
    grid = [(*s, w) for s in readings for w in WEIGHTS]
    table = np.stack([per_clue(BlendedModel(base, variants[g[:3]], g[3]))[1] for g in grid])

    def mean(pts: np.ndarray, mask: np.ndarray | None = None) -> float:
        m = np.ones_like(n, dtype=bool) if mask is None else mask
        return float((pts[m] * n[m]).sum() / n[m].sum())

    def held_out(rows: np.ndarray) -> tuple[np.ndarray, list[int]]:
        out = np.zeros(len(clues))
        picks = []
        for c in range(len(clues)):
            others = np.arange(len(clues)) != c
            best = int(np.argmax([mean(row, others) for row in rows]))
            out[c] = rows[best, c]
            picks.append(best)
        return out, picks

    held, chosen = held_out(table)
    alone_held, _ = held_out(alone)
    counts: dict[int, int] = {}
    for k in chosen:
        counts[k] = counts.get(k, 0) + 1
    majority = max(counts, key=lambda k: counts[k])
    best_all = int(np.argmax([mean(row) for row in table]))

    def label(g: tuple[float, float, bool, float]) -> str:
        return f"focus={g[0]:g} tone_weight={g[1]:g} temper={g[2]} weight={g[3]:g}"

    print(f"{len(clues)} clues, {int(n.sum())} picks (mean R15 points per pick)")
    print(f"  combined_model() alone                     {mean(combined):.3f}")
    print(f"  knowledge alone, reading by LOO-CV         {mean(alone_held):.3f} (held out)")
    print(f"  blend, settings by LOO-CV                  {mean(held):.3f} (held out, scale 1)")
    print(f"  best on all 39: {label(grid[best_all])} ({mean(table[best_all]):.3f}, in-sample)")
    print("  settings chosen across the 39 folds:")
    for k, c in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"    {c:2d} x {label(grid[k])}")
    g = grid[majority]
    # The scale: the blend's beliefs calibrated to people's picks, by the log-likelihood of
    # the picks, held out by clue (for each clue the scale best on the other 38).
    lls = []
    pts = []
    for k in SCALES:
        blend = BlendedModel(base, variants[g[:3]], g[3], scale=k)
        # The scale is this calibration: the belief as it is, not calibrated again.
        a = human_agreement(blend, responses, n_boot=0, calibrated=False)
        lls.append(np.array([r.log_likelihood for r in a.per_clue], dtype=float))
        pts.append(np.array([r.model_points for r in a.per_clue]))
    ll_rows, pt_rows = np.stack(lls), np.stack(pts)
    ll_held = np.zeros(len(clues))
    pt_held = np.zeros(len(clues))
    scale_counts: dict[float, int] = {}
    for c in range(len(clues)):
        others = np.arange(len(clues)) != c
        best = int(np.argmax([mean(row, others) for row in ll_rows]))
        ll_held[c], pt_held[c] = ll_rows[best, c], pt_rows[best, c]
        scale_counts[SCALES[best]] = scale_counts.get(SCALES[best], 0) + 1
    scale = max(scale_counts, key=lambda k: scale_counts[k])
    print(
        f"  scale by LOO-CV of the picks' log-likelihood: chosen {scale_counts}; held out: "
        f"log-likelihood {mean(ll_held):.3f} a pick (scale 1: {mean(ll_rows[-1]):.3f}; "
        f"uniform {-np.log(480):.3f}), points {mean(pt_held):.3f}"
    )
    chosen_model = BlendedModel(base, variants[g[:3]], g[3], scale=scale)
    giver = clue_choice_agreement(responses, chosen_model, name=f"blend, {label(g)}, scale {scale}")
    print()
    print(giver.table())
    print()
    print("| clue | picks | combined | knowledge alone (held out) | blend (held out) |")
    print("|---|---:|---:|---:|---:|")
    rows = []
    for c, clue in enumerate(clues):
        print(f"| {clue} | {int(n[c])} | {combined[c]:.2f} | {alone_held[c]:.2f} | {held[c]:.2f} |")
        rows.append([clue, int(n[c]), combined[c], alone_held[c], held[c], label(grid[chosen[c]])])
    if args.csv is not None:
        with args.csv.open("w", newline="") as fh:
            wr = csv.writer(fh)
            wr.writerow(["clue", "n", "combined", "knowledge", "blend_held_out", "settings"])
            wr.writerows(rows)


if __name__ == "__main__":
    main()
