"""Two players or models on the same picks: the difference of a measure, a - b, with an interval
from resamples shared by both (paired), over clues and, where every pick names its
participant, over participants as well."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from huescues.engine import Rules
from huescues.stats import Estimate, crossed_weights, weighted_interval

from ._agreement import check_k, checked_inputs
from ._measured import measure as read_all  # compare's keyword is named measure
from ._picks import Measure, PickTable, check_measure, rows_of
from ._responses import HumanResponses

__all__ = ["Comparison", "compare"]

#: How each measure is named in tables.
MEASURE_NAMES = {"points": "points (R15)", "loglik": "log-likelihood", "topk": "top-k hit rate"}


@dataclass(frozen=True, slots=True)
class Comparison:
    """The result of :func:`compare`: the mean ``measure`` per pick of each player (``a`` and
    ``b``, named ``names``) and their ``difference`` a - b, each with an interval from the same
    resamples of ``units`` (``"clues"`` or ``"clues, participants"``)."""

    names: tuple[str, str]
    measure: Measure
    a: Estimate
    b: Estimate
    difference: Estimate
    units: str
    picks: int
    clues: int
    participants: int
    k: int
    calibrated: bool
    level: float
    n_boot: int

    @property
    def verdict(self) -> str:
        """``"a ahead"``, ``"b ahead"`` (the interval of the difference excludes 0) or
        ``"not settled"``."""
        d = self.difference
        if d.low is not None and d.low > 0:
            return f"{self.names[0]} ahead"
        if d.high is not None and d.high < 0:
            return f"{self.names[1]} ahead"
        return "not settled"

    def summary_row(self) -> dict[str, object]:
        """One row for :func:`~huescues.research.markdown_table` and its LaTeX twin."""
        return {
            self.names[0]: self.a,
            self.names[1]: self.b,
            "difference": self.difference,
        }

    def table(self, spec: str = ".3f") -> str:
        """The comparison as a small Markdown table."""
        what = MEASURE_NAMES[self.measure] + (f" (top {self.k})" if self.measure == "topk" else "")
        return "\n".join(
            [
                f"**{self.names[0]} - {self.names[1]}**, {what} per pick: {self.picks} picks "
                f"of {self.clues} clues (mean [{self.level:.0%} bootstrap interval over "
                f"{self.units}, paired])",
                "",
                "| | mean |",
                "|---|---|",
                f"| {self.names[0]} | {self.a.format(spec)} |",
                f"| {self.names[1]} | {self.b.format(spec)} |",
                f"| difference | {self.difference.signed(spec)} |",
            ]
        )


def compare(
    a: object,
    b: object,
    responses: HumanResponses,
    *,
    measure: Measure = "points",
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    k: int = 5,
    calibrated: bool = True,
    participants: bool | None = None,
    names: tuple[str, str] | None = None,
    rules: Rules | None = None,
) -> Comparison:
    """Compare ``a`` and ``b`` (guessers, seats or colour-term models, read as
    :func:`human_agreement` reads them) on the picks of ``responses``: ``measure`` per pick is
    ``"points"`` (R15 points of the player's square against the pick; a tie scored as its
    squares' mean), ``"loglik"`` (the pick's log-probability under the belief, calibrated by
    clue unless ``calibrated`` is false) or ``"topk"`` (the pick among the ``k`` best squares).

    The difference a - b is paired: both are measured on the same picks and every resample
    weighs both alike. ``n_boot`` resamples (from ``seed``) of the clues and, when
    ``participants`` is true (or None and every pick names its participant), of the
    participants too, crossed (a pick counts as often as its clue times its participant)."""
    check_measure(measure)
    check_k(k)
    groups, board, r15 = checked_inputs(responses, n_boot, level, rules, seed=seed)
    tables = []
    for player in (a, b):
        read = read_all(player, groups, board, r15, k)
        tables.append(PickTable(read.player, rows_of(read, calibrated, ""), k, calibrated, None))
    first, second = tables
    units, unit_names = first.units(participants)
    weights = crossed_weights(units, n_boot, np.random.default_rng(seed))
    x, y = first.values(measure), second.values(measure)
    label = names or (first.player, second.player)
    if label[0] == label[1]:
        label = (f"{label[0]} (a)", f"{label[1]} (b)")
    return Comparison(
        names=label,
        measure=measure,
        a=weighted_interval(x, weights, level),
        b=weighted_interval(y, weights, level),
        difference=weighted_interval(x - y, weights, level),
        units=unit_names,
        picks=len(x),
        clues=len(groups),
        participants=len(responses.participants()),
        k=k,
        calibrated=calibrated,
        level=level,
        n_boot=n_boot,
    )
