"""Heat maps of the hardest dev clues (the pictures of docs/people.md): for each clue, the board
with people's picks, where the picks gather, and a colour-term model's reading of the clue with
the square it would choose, so that "before" and "after" pictures can be made when a model lands.

    python scripts/draw_hard_clues.py --tag before            # the 6 hardest, default model
    python scripts/draw_hard_clues.py --model naming --clues smurf,autumn --tag naming
    python scripts/draw_hard_clues.py --model mypackage.models:my_model --tag after

``--model`` names a shipped model (``default``, ``naming``, ``embedding``: see
``huescues.agents.resolve_model``) or ``module:function`` returning a ``ColourTermModel``. The
hardest clues are those where ``EmbeddingGuesser()`` scores least today; pass ``--clues`` to
draw the same clues again after a change. Needs matplotlib (``huescues[plot]``).
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections import Counter
from pathlib import Path

import numpy as np

from huescues.agents import EmbeddingGuesser, clue_probabilities, expected_points, resolve_model
from huescues.engine import ROW_LETTERS, Board, Rules
from huescues.language import ColourTermModel
from huescues.research import HumanResponses, Response, dev_picks, human_agreement

RULES = Rules.standard(4)


def load_model(spec: str) -> ColourTermModel:
    """A shipped model by name, or ``module:function`` called with no arguments."""
    if ":" not in spec:
        return resolve_model(spec)
    module, _, attr = spec.partition(":")
    model = getattr(importlib.import_module(module), attr)()
    if not isinstance(model, ColourTermModel):
        raise SystemExit(f"{spec} gave a {type(model).__name__}, not a ColourTermModel")
    return model


def hardest(responses: HumanResponses, n: int) -> list[str]:
    """The ``n`` clues where ``EmbeddingGuesser()`` earns the fewest points (ties: a person's
    points, highest first, so the clearest misses come first)."""
    per_clue = human_agreement(EmbeddingGuesser(), responses, n_boot=0).per_clue
    ranked = sorted(per_clue, key=lambda c: (c.model_points, -(c.human_points or 0.0)))
    return [c.clue for c in ranked[:n]]


def draw(
    model: ColourTermModel,
    model_name: str,
    clue: str,
    picks: tuple[Response, ...],
    board: Board,
    path: Path,
) -> float:
    """Write one clue's picture; return the model's mean points against the picks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, cols = board.shape
    counts = np.zeros(board.shape)
    for square, k in Counter(p.square for p in picks).items():
        counts[square.row, square.col] = k
    belief = clue_probabilities(model, clue, board)
    points = expected_points(belief, RULES)
    best = board.cells()[int(np.argmax(points))]
    score = sum(RULES.points_at(best.distance(p.square)) for p in picks) / len(picks)
    category = picks[0].extra.get("category", "")
    flat = float(belief.max()) < 1.01 * float(belief.min())  # the model knows nothing of it

    fig, axes = plt.subplots(3, 1, figsize=(cols * 0.28 + 1.4, 3 * rows * 0.28 + 1.8), dpi=100)
    fig.suptitle(
        f"{clue!r} ({category.lower() or 'no category'}): {len(picks)} people; "
        f"{model_name} chooses {best}, {score:.2f} points a pick",
        fontsize=11,
    )
    panels = [
        (board.srgb, None, "the board: people's picks (circle area = number of people)"),
        (counts / counts.sum(), "viridis", "where people clicked (share of picks)"),
        (
            belief,
            "magma",
            f"{model_name}'s reading (belief over squares; x = its square)"
            + (": flat, the model knows nothing of this word" if flat else ""),
        ),
    ]
    for ax, (image, cmap, title) in zip(axes, panels, strict=True):
        shown = ax.imshow(image, cmap=cmap, interpolation="nearest")
        if cmap is not None:
            fig.colorbar(shown, ax=ax, fraction=0.02, pad=0.01)
        ax.set_title(title, fontsize=9)
        ax.set_xticks(range(0, cols, 2))
        ax.set_xticklabels([str(c + 1) for c in range(0, cols, 2)], fontsize=6)
        ax.set_yticks(range(rows))
        ax.set_yticklabels(list(ROW_LETTERS[:rows]), fontsize=6)
        ax.plot(best.col, best.row, marker="x", markersize=9, mew=2.5, color="white")
        ax.plot(best.col, best.row, marker="x", markersize=7, mew=1.2, color="black")
    rr, cc = np.nonzero(counts)
    axes[0].scatter(cc, rr, s=35 * counts[rr, cc], facecolors="none", edgecolors="white", lw=1.6)
    axes[0].scatter(cc, rr, s=35 * counts[rr, cc], facecolors="none", edgecolors="black", lw=0.7)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
    return score


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="default", help="a shipped model or module:function")
    parser.add_argument("--clues", help="comma-separated clues (default: the hardest)")
    parser.add_argument("--hardest", type=int, default=6, help="how many hardest clues (6)")
    parser.add_argument("--responses", help="a CSV of picks (default: the 39 shipped dev clues)")
    parser.add_argument("--board", help="the board's CSV (needed with --responses)")
    parser.add_argument("--out", default="docs/images", help="folder (default docs/images)")
    parser.add_argument("--tag", default=None, help="file name tag (default: the model's name)")
    args = parser.parse_args(argv)

    if args.responses is None:
        responses, board = dev_picks()
    else:
        if args.board is None:
            parser.error("--responses needs --board (the board the picks were made on)")
        board = Board.from_csv(args.board)
        responses = HumanResponses.from_csv(args.responses, board)
    groups = responses.by_clue()
    clues = (
        [c.strip().lower() for c in args.clues.split(",") if c.strip()]
        if args.clues
        else hardest(responses, args.hardest)
    )
    unknown = [c for c in clues if c not in groups]
    if unknown:
        parser.error(f"no picks for {unknown}; the clues are {sorted(groups)}")
    model = load_model(args.model)
    tag = slug(args.tag or args.model)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for clue in clues:
        path = out / f"people-{tag}-{slug(clue)}.png"
        score = draw(model, args.model, clue, groups[clue], board, path)
        print(f"{path}: {clue}, {args.model} {score:.2f} points a pick")


if __name__ == "__main__":
    main()
