"""Percentile bootstrap intervals for a ratio of sums over units (games, blocks of games or
clues), shared by the players' evaluation, the tournament report and the human-agreement
measures. Each keeps its own ``Estimate`` type; the resampling is done once, here."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["ratio_interval", "resample"]

FloatArray = NDArray[np.float64]


def resample(n_units: int, n_boot: int, rng: np.random.Generator) -> NDArray[np.intp]:
    """``n_boot`` resamples of ``n_units`` units drawn with replacement, as unit indices, shape
    ``(n_boot, n_units)``. Draw once and reuse them for several measures to pair their
    intervals."""
    out: NDArray[np.intp] = rng.integers(0, n_units, size=(n_boot, n_units))
    return out


def ratio_interval(
    totals: FloatArray, weights: FloatArray, draws: NDArray[np.intp], level: float = 0.95
) -> tuple[float, float, float] | None:
    """``sum(totals) / sum(weights)`` and the central ``level`` interval of the same ratio over
    the resamples ``draws`` (resamples with no weight are skipped), or ``None`` when there is no
    weight at all. With no resamples the interval is NaN."""
    w = float(weights.sum())
    if w == 0.0:
        return None
    mean = float(totals.sum()) / w
    if len(draws) == 0:
        return mean, float("nan"), float("nan")
    tw = weights[draws].sum(axis=1)
    keep = tw > 0
    values = totals[draws[keep]].sum(axis=1) / tw[keep]
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return mean, float(low), float(high)
