"""The clue-choice measure of colour-term models on people's picks (the 39 dev clues by default):
for every square people picked, the model's giver picks the clue of the file its belief says
brings a pawn nearest; people's own picks for that clue score it (R15). Prints a Markdown table,
with a random clue and the best clue in hindsight (docs/knowledge.md).

Run: ``python scripts/evaluate_givers.py [--knowledge PATH [--weight W]]`` (and
``--responses F --board F`` for another file);
``--knowledge`` adds ``default_model()``'s blend read with another build of the knowledge
(``scripts/build_object_colours.py --out PATH``, e.g. one built with ``--drop-ratings``), at the
blend weight ``--weight`` (default :data:`OBJECT_BLEND_WEIGHT`). Issue 11's default, for
instance: ``git show 3ddbf5d:src/huescues/data/objects/object_colours.npz > old.npz`` and
``--knowledge old.npz --weight 2``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from huescues.engine import Board
from huescues.language import (
    OBJECT_BLEND_WEIGHT,
    BlendedModel,
    ColourTermModel,
    NamingModel,
    ObjectColourModel,
    combined_model,
    default_model,
)
from huescues.research import HumanResponses, clue_choice_agreement, dev_picks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--knowledge", type=Path, default=None)
    ap.add_argument("--weight", type=float, default=OBJECT_BLEND_WEIGHT)
    ap.add_argument("--responses", type=Path, default=None)
    ap.add_argument("--board", type=Path, default=None)
    args = ap.parse_args()
    if args.responses is not None:
        if args.board is None:
            raise SystemExit("--responses needs --board (a board CSV)")
        responses = HumanResponses.from_csv(args.responses, Board.from_csv(args.board))
    else:
        responses, _ = dev_picks()
    models: dict[str, ColourTermModel] = {
        "`combined_model()`": combined_model(),
        "`NamingModel.default()`": NamingModel.default(),
        "`default_model()`": default_model(),
    }
    if args.knowledge is not None:
        knowledge = ObjectColourModel.load(args.knowledge)
        models[f"blend with {args.knowledge.name}, weight {args.weight:g}"] = BlendedModel(
            combined_model(), knowledge, args.weight
        )
    print("| the giver's beliefs | points |")
    print("| --- | ---: |")
    last = None
    for name, model in models.items():
        last = clue_choice_agreement(responses, model)
        print(f"| {name} | {last.chosen.format('.3f')} |")
    assert last is not None
    print(f"| a random clue | {last.random.format('.3f')} |")
    print(f"| the best clue in hindsight | {last.best.format('.3f')} |")


if __name__ == "__main__":
    main()
