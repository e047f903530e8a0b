"""Measure huescues.language.listen on reference games built from the naming data: a described
colour among two distractors, far / split / close by CIEDE2000, targets held out by name from the
model in five folds. Prints a Markdown table (the one in docs/language.md, "Words in context").

    python scripts/evaluate_listen.py            # XKCD names and a second set (about a minute)
    python scripts/evaluate_listen.py --xkcd-only
    python scripts/evaluate_listen.py --descriptions knowledge/work/descriptions-1.tsv \
        knowledge/work/descriptions-2.tsv

``--descriptions``: lists of written descriptions instead (a target among three colours, the
message a helper session wrote for it from the hex codes, as a Colors in Context speaker would
type it), read by ``listen`` and by ``default_model().score`` alone: the share of messages whose
target is the most probable colour (ties a fair draw), by condition. The default model was
fitted on the XKCD names, whose colours these are: a message that is a target's XKCD name is
read by a model that knows it, whatever reads it in context.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from huescues.language import default_model, listen
from huescues.research import listen_evaluation
from huescues.research._model_evaluation import _fair_win

CONDITIONS = ("far", "split", "close")


def descriptions(path: Path) -> str:
    """A Markdown table: each condition's messages, the share ``listen`` and the model alone
    read as meant."""
    rows = [
        line.split("\t")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line and line[0] != "#"
    ][1:]
    model = default_model()
    got: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        condition, target, message = row[1], int(row[2]) - 1, row[9]
        lab = np.array([[float(x) for x in cell.split(",")] for cell in row[6:9]])
        in_context = np.asarray(listen(message, lab, model=model))
        alone = np.asarray(model.score(message, lab), dtype=np.float64)
        first = [target, *(i for i in range(len(lab)) if i != target)]  # the target first
        got.setdefault(condition, []).append(
            (_fair_win(in_context[first]), _fair_win(alone[first]))
        )
    lines = [
        f"| {path.name} | messages | `score` argmax | `listen` |",
        "| --- | ---: | ---: | ---: |",
    ]
    for condition in (*CONDITIONS, "all"):
        chosen = [w for c in CONDITIONS for w in got[c]] if condition == "all" else got[condition]
        wins = np.array(chosen)
        lines.append(
            f"| {condition} | {len(wins)} | {wins[:, 1].mean():.3f} | {wins[:, 0].mean():.3f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xkcd-only", action="store_true", help="skip the color-name-list set")
    parser.add_argument("--seed", type=int, default=0, help="seed for drawing the distractors")
    parser.add_argument(
        "--descriptions", type=Path, nargs="+", help="lists of written descriptions instead"
    )
    args = parser.parse_args(argv)
    if args.descriptions:
        print("\n\n".join(descriptions(path) for path in args.descriptions))
        return 0
    start = time.perf_counter()
    result = listen_evaluation(
        second_set=not args.xkcd_only,
        seed=args.seed,
        progress=lambda msg: print(msg, file=sys.stderr, flush=True),
    )
    print(result.table())
    print(f"\n({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
