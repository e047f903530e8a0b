"""One row per pick: who picked which square for which clue, and what a player's reading makes
of that pick (its probability, the points of the player's square against it, whether it is
among the player's best squares), for mixed-effects analyses; and means over the picks with a
bootstrap over clues and participants at once."""

from __future__ import annotations

import csv
import importlib
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Cell, Rules, safe_cell
from huescues.stats import Estimate, crossed_weights, weighted_interval

from ._agreement import check_bootstrap, check_k, checked_inputs
from ._calibration import Calibration
from ._measured import Measured, measure
from ._responses import HumanResponses

__all__ = ["MEASURES", "Measure", "PickRow", "PickTable", "pick_table"]

Measure = Literal["points", "loglik", "topk"]
#: The measures of a pick: R15 points of the player's square, log-probability, top-k hit.
MEASURES: tuple[Measure, ...] = ("points", "loglik", "topk")

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class PickRow:
    """One person's pick and a player's reading of it: ``probability`` and
    ``log_probability`` of the square under the player's belief (calibrated unless the table
    says not; None for a ranking player), ``points`` the R15 points of the player's square
    against it (a tie: the mean of the tied squares), ``top_k`` its chance of being among the
    player's ``k`` best squares; ``category`` from the responses' category column (empty when
    none) and ``line`` of the file."""

    participant: str | None
    clue: str
    square: Cell
    category: str
    probability: float | None
    log_probability: float | None
    points: float
    top_k: float
    line: int


#: The columns of :meth:`PickTable.to_records` and :meth:`PickTable.to_csv`.
COLUMNS = (
    "participant",
    "clue",
    "square",
    "category",
    "probability",
    "log_probability",
    "points",
    "top_k",
    "line",
)


@dataclass(frozen=True, slots=True)
class PickTable:
    """Every pick of a set of responses read by one ``player`` (see :func:`pick_table`)."""

    player: str
    rows: tuple[PickRow, ...]
    k: int
    #: Whether the probabilities are of the calibrated belief.
    calibrated: bool
    #: The belief's calibration; None for a ranking player.
    calibration: Calibration | None

    def __len__(self) -> int:
        return len(self.rows)

    def values(self, measure: Measure = "points") -> FloatArray:
        """One number per pick: ``"points"``, ``"loglik"`` (its log-probability) or
        ``"topk"`` (its top-k hit)."""
        check_measure(measure)
        if measure == "points":
            return np.array([r.points for r in self.rows], dtype=np.float64)
        if measure == "topk":
            return np.array([r.top_k for r in self.rows], dtype=np.float64)
        if any(r.log_probability is None for r in self.rows):
            raise TypeError(f"{self.player} only ranks squares: it has no log-likelihood")
        return np.array([r.log_probability for r in self.rows], dtype=np.float64)

    def units(self, participants: bool | None = None) -> tuple[list[NDArray[np.intp]], str]:
        """The bootstrap's units of each pick (each clue numbered from 0, then each
        participant) and their name: clues and participants when ``participants`` is true, or
        when it is None and every pick names its participant; else clues alone."""
        clues = _numbered([r.clue for r in self.rows])
        named = all(r.participant for r in self.rows)
        if participants is None:
            participants = named and bool(self.rows)
        if not participants:
            return [clues], "clues"
        if not named:
            missing = next(r for r in self.rows if not r.participant)
            raise ValueError(
                f"line {missing.line}: a pick names no participant, so participants cannot be "
                "resampled (participants=False resamples the clues alone)"
            )
        return [clues, _numbered([str(r.participant) for r in self.rows])], "clues, participants"

    def estimate(
        self,
        measure: Measure = "points",
        *,
        participants: bool | None = None,
        n_boot: int = 2000,
        seed: int = 0,
        level: float = 0.95,
    ) -> Estimate:
        """The mean of ``measure`` over the picks with a ``level`` percentile interval from
        ``n_boot`` crossed resamples of the clues and (see :meth:`units`) the participants."""
        check_bootstrap(n_boot, level, seed)
        units, _ = self.units(participants)
        weights = crossed_weights(units, n_boot, np.random.default_rng(seed))
        return weighted_interval(self.values(measure), weights, level)

    def to_records(self) -> list[dict[str, Any]]:
        """The rows as dicts of :data:`COLUMNS` (the square as its name, ``"F12"``)."""
        return [
            {
                "participant": r.participant,
                "clue": r.clue,
                "square": str(r.square),
                "category": r.category,
                "probability": r.probability,
                "log_probability": r.log_probability,
                "points": r.points,
                "top_k": r.top_k,
                "line": r.line,
            }
            for r in self.rows
        ]

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write the rows as CSV, one pick a line (empty cells where a value is None; text
        quoted against spreadsheet formulas)."""
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(COLUMNS)
            for rec in self.to_records():
                w.writerow(_cell(rec[c]) for c in COLUMNS)

    def to_pandas(self) -> Any:
        """The rows as a ``pandas.DataFrame`` (needs the ``export`` extra: pandas)."""
        pd = _pandas()
        return pd.DataFrame.from_records(self.to_records(), columns=list(COLUMNS))


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)  # every digit, so the file reads back to the same numbers
    return safe_cell(value)


def _pandas() -> ModuleType:
    try:
        return importlib.import_module("pandas")
    except ImportError as e:
        raise ImportError(
            "a pick table as a DataFrame needs pandas: pip install 'huescues[export]'"
        ) from e


def check_measure(measure: object) -> None:
    """One of :data:`MEASURES`, else a ValueError naming it."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")


def _numbered(labels: Sequence[str]) -> NDArray[np.intp]:
    """Each label's number, in order of first appearance."""
    seen: dict[str, int] = {}
    return np.array([seen.setdefault(x, len(seen)) for x in labels], dtype=np.intp)


def rows_of(read: Measured, calibrated: bool, category_column: str) -> tuple[PickRow, ...]:
    """The pick rows of a player's readings."""
    lls = read.log_likelihoods(calibrated) if read.has_belief else None
    out = []
    for c, picks in enumerate(read.groups.values()):
        for j, p in enumerate(picks):
            log_p = None if lls is None else float(lls[c][j])
            out.append(
                PickRow(
                    participant=p.participant,
                    clue=p.clue,
                    square=p.square,
                    category=str(p.extra.get(category_column, "")).strip(),
                    probability=None if log_p is None else math.exp(log_p),
                    log_probability=log_p,
                    points=float(read.points[c][j]),
                    top_k=float(read.hits[c][j]),
                    line=p.line,
                )
            )
    return tuple(out)


def pick_table(
    player: object,
    responses: HumanResponses,
    *,
    k: int = 5,
    calibrated: bool = True,
    category_column: str = "category",
    rules: Rules | None = None,
) -> PickTable:
    """One row per pick of ``responses`` read by ``player`` (a guesser, a seat or a colour-term
    model, read as :func:`human_agreement` reads them), in the order the clues first appear:
    the participant, the clue, the square, the category, the pick's probability under the
    player's belief (calibrated by clue unless ``calibrated`` is false), the R15 points of the
    player's square against it and its top-``k`` hit. ``to_pandas()`` for a DataFrame,
    ``to_csv(path)`` for a file, ``estimate(measure)`` for a mean with a bootstrap interval over
    clues and participants."""
    check_k(k)
    groups, board, r15 = checked_inputs(responses, 0, 0.95, rules)
    read = measure(player, groups, board, r15, k)
    rows = rows_of(read, calibrated, category_column)
    draws = np.zeros((0, len(groups)), dtype=np.intp)
    return PickTable(read.player, rows, k, calibrated, read.calibration(draws, 0.95))
