"""How far people agree with each other on a clue: the mean R15 points of a person's pick against
each other person's pick, taken as the target (leave-one-out), per clue, with a bootstrap
interval over the clue's picks; what a study report puts beside every clue."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from huescues.engine import Rules
from huescues.stats import Estimate, ratio_interval, resample

from ._responses import HumanResponses

__all__ = ["ClueConsensus", "people_agreement"]


@dataclass(frozen=True, slots=True)
class ClueConsensus:
    """One clue: its picks' number and people's agreement (R15 points a pick, leave-one-out;
    no data with fewer than two picks)."""

    clue: str
    n: int
    points: Estimate


def people_agreement(
    responses: HumanResponses,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    rules: Rules | None = None,
) -> tuple[ClueConsensus, ...]:
    """Each clue's agreement among the people who answered it, in the order the clues first
    appear: for each pick, the mean R15 points of the clue's other picks against it (as if it
    were the target); their mean, with a percentile bootstrap interval at ``level`` from
    ``n_boot`` resamples of the picks (``seed`` and the clue fix them, so a clue's interval does
    not depend on which other clues the study had)."""
    r15 = rules or Rules.standard(4)
    out = []
    for clue, picks in responses.by_clue().items():
        rng = np.random.default_rng([seed, zlib.crc32(clue.encode("utf-8"))])
        m = len(picks)
        if m < 2:
            out.append(ClueConsensus(clue, m, Estimate.no_data(n=m)))
            continue
        rows = np.array([p.square.row for p in picks])
        cols = np.array([p.square.col for p in picks])
        distance = np.maximum(
            np.abs(rows[:, None] - rows[None, :]), np.abs(cols[:, None] - cols[None, :])
        )
        table = np.array([r15.points_at(d) for d in range(int(distance.max()) + 1)], float)
        points = table[distance]
        np.fill_diagonal(points, 0.0)
        each = points.sum(axis=1) / (m - 1)
        estimate = ratio_interval(each, np.ones(m), resample(m, n_boot, rng), level)
        out.append(ClueConsensus(clue, m, Estimate(estimate.mean, estimate.low, estimate.high, m)))
    return tuple(out)
