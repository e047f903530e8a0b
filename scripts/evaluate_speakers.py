"""The default guesser imagining the default clue giver as it listens (issue 34): since the giver
pools its three listener models geometrically (``DEFAULT_GIVER_POOL``), would the guesser do
better imagining that pool, ``Pooled(DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL)``, than the
average of the three it imagines? On people's picks for the 39 dev clues (R15 points a pick and
the calibrated log-likelihood, 95% bootstrap intervals over the clues) as the guessers read a
clue outside a game (literally: the same for both) and with the prior weights of a game's first
round (the imagined givers' readings weighing 0.8); and in self-play, two ways:

- the default tournament (``huescues tournament``: 240 games, seed 0) with that player in the
  default player's seat, against the naming baseline and random;
- head to head: 960 games each of seeds 5 and 6, the default player, that player and the naming
  baseline at every table of four (rotated), paired by block.

Run from the source tree (about a minute on 2 cores):

PYTHONPATH=src python scripts/evaluate_speakers.py [--workers 2]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from huescues.agents import (
    DEFAULT_GIVER_POOL,
    ModelClueGiver,
    ModelGuesser,
    Player,
    Pooled,
    default_agent,
)
from huescues.engine import Board
from huescues.research import dev_picks, human_agreement
from huescues.tournament import run_tournament

#: The entrant: this module's factory, importable by the tournament's workers.
POOLED = "pooled=evaluate_speakers:pooled_speaker"


def pooled_speaker(language: str = "en") -> Player:
    """The default player whose guesser imagines the default giver as the giver's pool."""
    player = default_agent(language)
    giver, guesser = player.giver, player.guesser
    assert isinstance(giver, ModelClueGiver) and isinstance(guesser, ModelGuesser)
    if giver.pool is None:  # (a language whose giver averages: the default player itself)
        return player
    speakers = (Pooled(giver.model, giver.pool), *guesser.speakers[1:])
    return Player(giver, dataclasses.replace(guesser, speakers=speakers))


@dataclasses.dataclass(frozen=True)
class _FirstRound:
    """A guesser's belief with the prior weights of a game's first round."""

    guesser: ModelGuesser

    def belief(self, board: Board, clues: tuple[str, ...]) -> object:
        return self.guesser.belief(board, clues, weights=self.guesser.prior())


#: Plays a tournament: (entrants, games, seed) -> its report (``run_tournament``'s, seed's).
Play = Callable[[tuple[str, ...], int, int], Any]


def _people() -> list[tuple[str, str, str]]:
    """People's picks: each reading's (measure, default, pooled) rows."""
    responses = dev_picks()[0]
    cells: dict[tuple[str, str, str], str] = {}
    for name, factory in (("default", default_agent), ("pooled", pooled_speaker)):
        guesser = factory().guesser
        assert isinstance(guesser, ModelGuesser)
        for how, player in (("outside a game", guesser), ("first round", _FirstRound(guesser))):
            a = human_agreement(player, responses)
            assert a.log_likelihood is not None
            cells[how, "points", name] = a.model_points.format(".3f")
            cells[how, "loglik", name] = a.log_likelihood.format(".3f")
    rows = []
    for how in ("outside a game", "first round"):
        for measure, said in (
            ("points", "points a pick"),
            ("loglik", "log-likelihood (calibrated)"),
        ):
            rows.append(
                (
                    f"people's picks, {how}: {said}",
                    cells[how, measure, "default"],
                    cells[how, measure, "pooled"],
                )
            )
    return rows


def _guessing(report: Any) -> dict[tuple[str, str], str]:
    """The guessers' R15 points a pawn on each giver's clues (the two defaults' givers are the
    same giver: taken together), regular rounds: by (giver, guesser)."""
    sums: dict[tuple[str, str], list[float]] = {}
    for c in report.crossplay:
        giver = "naming" if c.giver == "naming" else "default"
        kept = sums.setdefault((giver, c.guesser), [0.0, 0.0])
        kept[0] += c.points_per_pawn * c.pawns
        kept[1] += c.pawns
    return {key: f"{points / pawns:.3f}" for key, (points, pawns) in sums.items()}


def table(play: Play) -> str:
    """The measures as a Markdown table: the default guesser (imagining the average) and the
    pooled speaker, side by side."""
    rows = _people()
    default = play(("default", "naming", "random"), 240, 0)
    pooled = play((POOLED, "naming", "random"), 240, 0)
    rows.append(
        (
            "the default tournament (240 games, seed 0), minus naming",
            default.difference("default", "naming").format("+.2f"),
            pooled.difference("pooled", "naming").format("+.2f"),
        )
    )
    for seed in (5, 6):
        report = play(("default", POOLED, "naming"), 960, seed)
        said = f"head to head, seed {seed} (960 games)"
        rows.append(
            (
                f"{said}: points a game, default minus pooled",
                report.difference("default", "pooled").format("+.2f"),
                "",
            )
        )
        pawns = _guessing(report)
        for giver in ("default", "naming"):
            rows.append(
                (
                    f"{said}: points a pawn on the {giver} giver's clues",
                    pawns[giver, "default"],
                    pawns[giver, "pooled"],
                )
            )
    lines = [
        "| measure | default (imagines the average) | pooled speaker |",
        "| --- | ---: | ---: |",
    ]
    lines += [f"| {measure} | {a} | {b} |" for measure, a, b in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args()
    if DEFAULT_GIVER_POOL is None:
        raise SystemExit("the default giver pools nothing: nothing to measure")
    here = str(Path(__file__).resolve().parent)
    sys.path.insert(0, here)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (here, os.environ.get("PYTHONPATH", "")) if p
    )

    def play(entrants: tuple[str, ...], games: int, seed: int) -> Any:
        results = run_tournament(list(entrants), games=games, seed=seed, workers=args.workers)
        return results.report()

    print(table(play))


if __name__ == "__main__":
    main()
