"""How the guessers read people's colour names outside a game: each held-out name is a clue, the
square nearest its colour the target, and the guesser's best square (most expected R15 points)
earns the R15 points against it. Models are refitted without the fold's names (five folds, as
in ``scripts/evaluate_language.py``); so are the imagined clue givers of the pragmatic guesser.

    python scripts/evaluate_name_reading.py                # the XKCD names, about 30 s
    python scripts/evaluate_name_reading.py --second-set   # 1,000 color-name-list names
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np

from huescues.agents import EmbeddingGuesser, best_squares
from huescues.colour import delta_e_2000
from huescues.engine import Board, Rules, points_array
from huescues.language import (
    CombinedModel,
    ModelFactory,
    fold_of,
    normalise_name,
    standard_models,
    xkcd_names,
)
from huescues.research import second_test_set

LABELS = (
    "combined (EmbeddingGuesser())",
    "naming data",
    "default (outside a game: literal)",
    "default, in a game's first round (its prior)",
)


def name_reading(
    second_set: bool = False,
    factories: dict[str, ModelFactory] | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[int, str, dict[str, tuple[float, float, float]]]:
    """The names read, the Markdown table (docs/agents.md's): each guesser's mean points with a
    95 % bootstrap interval over names, and its difference from the default guesser's, and those
    differences by guesser (mean, low, high).
    ``factories`` is ``standard_models()`` by default (scripts/docs_figures.py passes one whose
    fits it shares with the other held-out evaluations)."""
    if second_set:
        names, lab = second_test_set()
    else:
        xkcd = xkcd_names()
        names, lab = list(xkcd.names), xkcd.lab
    board, rules = Board.standard(), Rules.standard(4)
    norm = [normalise_name(n) for n in names]
    cells = np.array([(c.row, c.col) for c in board.cells()])
    points = points_array(rules, cells[:, None, :], cells[None, :, :]).astype(float)
    squares = board.lab.reshape(-1, 3)
    nearest = np.argmin(delta_e_2000(np.asarray(lab)[:, None, :], squares[None, :, :]), axis=1)
    fold = np.array([fold_of(n) for n in norm])
    factories = standard_models() if factories is None else factories
    earned = {label: np.full(len(norm), np.nan) for label in LABELS}
    for k in range(5):
        held = np.flatnonzero(fold == k)
        out = frozenset(norm[i] for i in held)
        naming, embedding = factories["naming data"](out), factories["embedding"](out)
        combined = CombinedModel(naming, embedding)
        speakers = ((combined, naming, embedding), naming, combined, embedding)
        guessers = {
            LABELS[0]: EmbeddingGuesser(model=combined),
            LABELS[1]: EmbeddingGuesser(model=naming),
            LABELS[2]: EmbeddingGuesser(
                model=(combined, naming), pragmatic=True, speakers=speakers
            ),
        }
        first_round = guessers[LABELS[2]]
        for i in held:
            beliefs = {label: g.belief(board, [norm[i]]) for label, g in guessers.items()}
            beliefs[LABELS[3]] = first_round.belief(board, [norm[i]], weights=first_round.prior())
            for label, belief in beliefs.items():
                best = int(best_squares(points @ belief.ravel()))
                earned[label][i] = points[best, nearest[i]]
        if progress is not None:
            progress(f"fold {k + 1}/5")
    rng = np.random.default_rng(0)
    draws = rng.integers(0, len(norm), size=(2000, len(norm)))
    minus = {}
    lines = [
        "| guesser | points | minus the default guesser's (outside a game) |",
        "| --- | ---: | ---: |",
    ]
    for label in LABELS:
        v, d = earned[label], earned[label] - earned[LABELS[2]]
        lo, hi = np.quantile(v[draws].mean(axis=1), [0.025, 0.975])
        dlo, dhi = np.quantile(d[draws].mean(axis=1), [0.025, 0.975])
        minus[label] = (float(d.mean()), float(dlo), float(dhi))
        lines.append(f"| {label} | {v.mean():.3f} [{lo:.3f}, {hi:.3f}] | "
                     f"{d.mean():+.3f} [{dlo:+.3f}, {dhi:+.3f}] |")  # fmt: skip
    return len(norm), "\n".join(lines), minus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--second-set", action="store_true", help="the second held-out set")
    args = parser.parse_args()
    n, table, _ = name_reading(args.second_set, progress=lambda msg: print(msg, flush=True))
    print(f"\n{n} names; R15 points of the best square; 95% bootstrap intervals over names")
    print(table)


if __name__ == "__main__":
    main()
