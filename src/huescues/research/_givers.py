"""How well people understand a clue giver: in a giver study (``huescues serve --giver``) each
person clicks a square for a clue the giver chose for a hidden target; the points of the click
against the target (R15) say how well the clue carried, next to the points the library's own
guessers earn from the same clues and targets."""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from huescues.agents import catalogue_entry
from huescues.engine import Cell, Rules, pawn_points, safe_cell
from huescues.stats import Estimate

from ._agreement import _Bootstrap
from ._reading import reader, tie_points
from ._responses import HumanResponses

__all__ = ["DEFAULT_GUESSERS", "GiverReport", "GiverRow", "points_by_giver"]

#: The players of the catalogue (:data:`huescues.agents.CATALOGUE`) whose guessers a giver
#: report compares people with by default: the library's best and the naming-only baseline.
DEFAULT_GUESSERS: tuple[str, ...] = ("default", "naming")


@dataclass(frozen=True, slots=True)
class GiverRow:
    """One clue giver's clues: ``clues`` distinct (clue, target) pairs shown, ``picks`` clicks;
    ``people`` the mean R15 points of people's clicks against the target; ``guessers`` the mean
    points of each guesser's square for the same clue against the same target (weighted as the
    clicks are, so the two are paired); ``random`` the expected points of a square drawn
    uniformly from the board. Intervals are percentile bootstraps over the (clue, target)
    pairs."""

    giver: str
    clues: int
    picks: int
    people: Estimate
    guessers: tuple[tuple[str, Estimate], ...]
    random: Estimate

    def guesser(self, name: str) -> Estimate:
        """The estimate of the guesser called ``name``."""
        for n, e in self.guessers:
            if n == name:
                return e
        names = [n for n, _ in self.guessers]
        raise KeyError(f"no guesser named {name!r}; the guessers are {names}")


@dataclass(frozen=True, slots=True)
class GiverReport:
    """The rows of :func:`points_by_giver`, one per giver in the order they first appear."""

    rows: tuple[GiverRow, ...]
    guessers: tuple[str, ...]
    level: float
    n_boot: int

    def row(self, giver: str) -> GiverRow:
        """The row of ``giver``."""
        for r in self.rows:
            if r.giver == giver:
                return r
        raise KeyError(f"no giver {giver!r}; the givers are {[r.giver for r in self.rows]}")

    def table(self, spec: str = ".2f") -> str:
        """The rows as a Markdown table (mean [interval] of R15 points in each cell)."""
        head = ["giver", "clues", "picks", "people", *self.guessers, "random square"]
        lines = ["| " + " | ".join(head) + " |", "|---|---:|---:|" + "---:|" * (len(head) - 3)]
        for r in self.rows:
            cells = [r.giver, str(r.clues), str(r.picks), r.people.format(spec)]
            cells += [e.format(spec) for _, e in r.guessers]
            cells.append(r.random.format(spec))
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write one row per giver and measure: giver, measure, mean, low, high, clues, picks."""
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["giver", "measure", "mean", "low", "high", "clues", "picks"])
            for r in self.rows:
                measures = [("people", r.people), *r.guessers, ("random square", r.random)]
                for name, e in measures:
                    w.writerow(
                        [
                            safe_cell(r.giver),
                            safe_cell(name),
                            *("" if v is None else repr(v) for v in (e.mean, e.low, e.high)),
                            r.clues,
                            r.picks,
                        ]
                    )


def points_by_giver(
    responses: HumanResponses,
    guessers: Mapping[str, object] | None = None,
    *,
    giver_column: str = "giver",
    target_column: str = "target",
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    rules: Rules | None = None,
) -> GiverReport:
    """Per clue giver (the ``giver_column`` of the responses, as ``huescues responses export``
    writes it for a ``--giver`` study), the mean R15 points people earn from the giver's clues
    (each click scored against the hidden target of its ``target_column``, with the engine's
    :func:`~huescues.engine.pawn_points`) next to the points each guesser in ``guessers``
    earns from the same clues and targets (a name to a guesser, a seat or a colour-term model,
    read as :func:`human_agreement` reads them: the square with the most expected points; by
    default the library's ``default`` and ``naming`` players) and a random square.

    Intervals are ``level`` percentile bootstraps from ``n_boot`` resamples (``seed``) of the
    giver's (clue, target) pairs, shared by the measures of a row. ``rules`` give the points
    (standard for 4 players when None). Responses without a giver or a target are left out;
    none with both is an error, as is a target that is not a square of the board.
    """
    if n_boot < 0:
        raise ValueError(f"n_boot must not be negative, not {n_boot}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, not {level}")
    board = responses.board
    r15 = rules if rules is not None else Rules.standard(4)
    chosen = (
        {name: catalogue_entry(name).build() for name in DEFAULT_GUESSERS}
        if guessers is None
        else dict(guessers)
    )
    if not chosen:
        raise ValueError("no guessers to compare: give at least one")
    readers = [(name, reader(p, board, r15)[1]) for name, p in chosen.items()]

    # Per giver, per (clue, target): the clicks' squares.
    groups: dict[str, dict[tuple[str, Cell], list[Cell]]] = {}
    for r in responses.rows:
        giver = str(r.extra.get(giver_column, "")).strip()
        target_text = str(r.extra.get(target_column, "")).strip()
        if not giver or not target_text:
            continue
        try:
            target = board.cell(target_text)
        except ValueError:
            raise ValueError(
                f"{responses.source or 'responses'}, line {r.line}: target {target_text!r} is "
                f"not a square of the {board.rows} x {board.cols} board {board.id} (R1)"
            ) from None
        groups.setdefault(giver, {}).setdefault((r.clue, target), []).append(r.square)
    if not groups:
        raise ValueError(
            f"{responses.source or 'the responses'}: no response names a clue giver and a "
            f"target (columns {giver_column!r} and {target_column!r}, written by "
            "huescues responses export for a study run with --giver)"
        )

    cells = board.cells()
    random_at = {t: sum(pawn_points(r15, t, c) for c in cells) / len(cells) for t in cells}
    squares: dict[tuple[int, str], tuple[Cell, ...]] = {}

    def points_of(j: int, clue: str, target: Cell) -> float:
        """The guesser's points for the clue against the target (a tie: its squares' mean)."""
        if (j, clue) not in squares:
            squares[j, clue] = readers[j][1](clue).best
        return float(tie_points(r15, squares[j, clue], [target])[0])

    rows = []
    for giver, items in groups.items():
        n = len(items)
        weight = np.zeros(n)
        people = np.zeros(n)
        random = np.zeros(n)
        by_guesser = np.zeros((len(readers), n))
        for i, ((clue, target), clicks) in enumerate(items.items()):
            weight[i] = len(clicks)
            people[i] = sum(pawn_points(r15, target, c) for c in clicks)
            random[i] = random_at[target] * len(clicks)
            for j in range(len(readers)):
                by_guesser[j, i] = points_of(j, clue, target) * len(clicks)
        boot = _Bootstrap(n, n_boot, seed, level)
        rows.append(
            GiverRow(
                giver=giver,
                clues=n,
                picks=int(weight.sum()),
                people=boot.ratio(people, weight),
                guessers=tuple(
                    (name, boot.ratio(by_guesser[j], weight)) for j, (name, _) in enumerate(readers)
                ),
                random=boot.ratio(random, weight),
            )
        )
    return GiverReport(tuple(rows), tuple(chosen), level, n_boot)
