"""How far people agree with each other on a clue: the mean R15 points of a person's pick against
each other person's pick, taken as the target (leave-one-out), per clue, with a bootstrap
interval over the clue's picks (the statistic recomputed on each resample, over the pairs of
distinct picks it drew); what a study report puts beside every clue."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from huescues.engine import Rules
from huescues.stats import Estimate, resample

from ._agreement import check_bootstrap
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
    were the target); their mean (the mean over ordered pairs of distinct picks), with a
    percentile bootstrap interval at ``level`` from ``n_boot`` resamples of the picks (``seed``
    and the clue fix them, so a clue's interval does not depend on which other clues the study
    had). Each resample's figure is the same mean over the pairs of distinct picks it drew (a
    pick drawn twice is not paired with itself): every pick is a guess and, for the others, a
    target, so resampling the picks' own means as if they were independent would give an
    interval about half as wide as the figure's spread."""
    check_bootstrap(n_boot, level, seed)
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
        draws = resample(m, n_boot, rng)
        out.append(ClueConsensus(clue, m, _pairs_interval(points, draws, level)))
    return tuple(out)


def _pairs_interval(points: np.ndarray, draws: np.ndarray, level: float) -> Estimate:
    """The mean of ``points`` (a pick against each other pick, zero on the diagonal) over the
    ordered pairs of distinct picks, with the percentile interval of the same mean over the
    resamples ``draws`` (pick indices, one row a resample): a resample's pairs are those of
    two different picks it drew, each counted as often as the two were drawn."""
    m = len(points)
    mean = float(points.sum()) / (m * (m - 1))
    if len(draws) == 0:
        return Estimate(mean, n=m)
    counts = np.zeros((len(draws), m))
    np.add.at(counts, (np.repeat(np.arange(len(draws)), m), draws.ravel()), 1.0)
    pairs = float(m * m) - (counts**2).sum(axis=1)
    keep = pairs > 0
    if not keep.any():
        return Estimate(mean, n=m)
    values = ((counts[keep] @ points) * counts[keep]).sum(axis=1) / pairs[keep]
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return Estimate(mean, float(low), float(high), m)
