"""The one table (:class:`huescues.agents.Table`): tournaments give the same bytes as before it,
and a whole table plays through it without a web server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from huescues.agents import RandomAgent
from huescues.engine import ChooseTarget, GiveClue, Pass, PlacePawn, View
from huescues.tournament import Entrant, run_tournament

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
MODULE = Path(__file__).stem  # importable by workers: pytest puts tests/ on sys.path


class _Base:
    """Plays like the random agent unless a method is overridden."""

    def __init__(self) -> None:
        self.random = RandomAgent()

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        return self.random.choose_target(view, rng)

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        return self.random.give_clue(view, rng)

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        return self.random.give_second_clue(view, rng)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        return self.random.place_pawn(view, rng)


class Raising(_Base):
    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        raise RuntimeError("boom")


class Illegal(_Base):
    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        return ChooseTarget(7)  # a card has four squares (R8)

    def give_clue(self, view: View, rng: np.random.Generator) -> Any:
        return "not an action"


class FailsToPrepare(_Base):
    def prepare(self, board: object, rules: object) -> None:
        raise OSError("model file missing")


FAULTY = [
    Entrant("random", "random"),
    Entrant("raising", f"{MODULE}:Raising"),
    Entrant("illegal", f"{MODULE}:Illegal"),
    Entrant("broken", f"{MODULE}:FailsToPrepare"),
    Entrant("unbuilt", f"{MODULE}:_no_such_agent"),
]


def test_a_tournament_gives_the_golden_bytes(tmp_path: Path) -> None:
    # Made before the table existed: `huescues tournament --games 60 --entrants default naming
    # random --seed 19 --workers 1`.
    out = tmp_path / "r.jsonl"
    run_tournament(["default", "naming", "random"], games=60, seed=19, workers=1, out=out)
    assert out.read_bytes() == (GOLDEN / "table-60.jsonl").read_bytes()


def test_a_tournament_with_faults_gives_the_golden_bytes(tmp_path: Path) -> None:
    # Made before the table existed, as below: every kind of fault but a timeout (which
    # depends on the machine's speed).
    out = tmp_path / "r.jsonl"
    run_tournament(FAULTY, games=20, players=(3, 4), seed=19, workers=1, out=out)
    assert out.read_bytes() == (GOLDEN / "table-faults-20.jsonl").read_bytes()
