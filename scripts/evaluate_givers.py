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

``--listener`` measures the default clue giver instead (``default_agent().giver``), first as it is
(choosing only clues it would say, ``alike_from``), then its listener alone (its three models
pooled geometrically, choosing among every clue), as it is and in variants not adopted
(docs/knowledge.md):
its belief at a temperature (a pool's weights times the temperature), each model at its own
temperature fitted to people's picks (``calibration``) before the pool, and a frequency floor
(only clues whose words are all common words, R19 (c)'s list; the others read as knowing nothing).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues.agents import ModelClueGiver, default_agent, pooled_model, resolve_model
from huescues.engine import Board, common_words
from huescues.language import (
    OBJECT_BLEND_WEIGHT,
    BlendedModel,
    ColourTermModel,
    ColourTermModelBase,
    NamingModel,
    ObjectColourModel,
    Prediction,
    combined_model,
    default_model,
    in_view,
)
from huescues.research import HumanResponses, calibration, clue_choice_agreement, dev_picks

#: The temperatures the listener is tried at (its pool's weights times each).
TEMPERATURES = (0.7, 0.5, 0.35, 0.25)


@dataclasses.dataclass(frozen=True)
class Floored(ColourTermModelBase):
    """``model`` on texts whose words are all in ``words`` (words of one or two letters aside);
    any other text is read as knowing nothing (a flat score)."""

    model: ColourTermModel
    words: frozenset[str]

    def allows(self, text: str) -> bool:
        return all(w in self.words for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2)

    def score(self, text: str, lab: ArrayLike) -> NDArray[np.float64]:
        if self.allows(text):
            return self.model.score(text, lab)
        return np.zeros(np.asarray(lab).shape[:-1])

    def predict(self, text: str) -> Prediction:
        return self.model.predict(text)

    def in_view(self, lab: ArrayLike) -> Floored:
        """The same words, the model read against the colours in view (as the players read)."""
        return dataclasses.replace(self, model=in_view(self.model, lab))


def listener_table(responses: HumanResponses) -> str:
    """The default giver's listener and its variants, a Markdown table (``--listener``)."""
    ruled = default_agent().giver
    assert isinstance(ruled, ModelClueGiver) and ruled.pool is not None
    # The listener alone: choosing among every clue, as without the words it leaves unsaid.
    giver = dataclasses.replace(ruled, alike_from=None)
    pool, specs = ruled.pool, ruled.model
    assert isinstance(specs, tuple)
    own = [calibration(resolve_model(m), responses).temperature for m in specs]
    rows: list[tuple[str, object]] = [
        (f"the giver, leaving unsaid the clues below its cut ({ruled.alike_from:g})", ruled),
        ("its listener as it is, pooled " + _weights(pool), giver),
    ]
    for t in TEMPERATURES:
        rows.append((f"at temperature {t:g}", _scaled(giver, [t] * len(pool))))
    fitted = ", ".join(f"{m} {t:.2f}" for m, t in zip(specs, own, strict=True))
    rows.append((f"each model at its fitted temperature ({fitted})", _scaled(giver, own)))
    floored = Floored(pooled_model(specs, pool), common_words("en"))
    dropped = sorted({r.clue for r in responses.rows if not floored.allows(r.clue)})
    rows.append((f"common words only (not: {', '.join(dropped)})", floored))
    lines = ["| the default giver's listener | points |", "| --- | ---: |"]
    for name, player in rows:
        lines.append(
            f"| {name} | {clue_choice_agreement(responses, player).chosen.format('.3f')} |"
        )
    return "\n".join(lines)


def people_on_floored(responses: HumanResponses) -> str:
    """How people read the clues the floor drops, against all: a person's R15 points a pick
    against the others (``human_agreement``'s), on those clues and on every clue."""
    from huescues.research import human_agreement

    floored = Floored(default_model(), common_words("en"))
    per_clue = human_agreement(default_model(), responses, n_boot=0).per_clue
    dropped = [c for c in per_clue if not floored.allows(c.clue)]

    def mean(clues: list[Any]) -> float:
        return sum(c.human_points * c.n for c in clues) / sum(c.n for c in clues)

    return (
        f"a person {mean(dropped):.2f} points a pick on them against the others, "
        f"{mean(per_clue):.2f} on all {len(per_clue)}"
    )


def _scaled(giver: ModelClueGiver, temperatures: list[float]) -> ModelClueGiver:
    """``giver`` with each pooled model's weight times its temperature."""
    assert giver.pool is not None
    pool = tuple(w * t for w, t in zip(giver.pool, temperatures, strict=True))
    return dataclasses.replace(giver, pool=pool)


def _weights(pool: tuple[float, ...]) -> str:
    return ", ".join(f"{w:g}" for w in pool)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--knowledge", type=Path, default=None)
    ap.add_argument("--weight", type=float, default=OBJECT_BLEND_WEIGHT)
    ap.add_argument("--responses", type=Path, default=None)
    ap.add_argument("--board", type=Path, default=None)
    ap.add_argument("--listener", action="store_true", help="the default giver's listener")
    args = ap.parse_args()
    if args.responses is not None:
        if args.board is None:
            raise SystemExit("--responses needs --board (a board CSV)")
        responses = HumanResponses.from_csv(args.responses, Board.from_csv(args.board))
    else:
        responses, _ = dev_picks()
    if args.listener:
        print(listener_table(responses))
        print(f"\nThe clues the floor drops: {people_on_floored(responses)}.")
        return
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
