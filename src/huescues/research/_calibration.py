"""Calibration of a belief over squares against people's picks: a temperature (the belief
raised to a power and normalised) fitted to the picks' log-likelihood, held out by clue (each
clue's temperature fitted on the other clues, so the calibrated figure is not in-sample), and a
reliability table (how much belief falls on squares of each probability, against how many picks
land there). A belief surer than people are (the default model's) scores below a uniform one;
calibrated, it no longer can by much."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.stats import Estimate

__all__ = ["TEMPERATURES", "Calibration", "ReliabilityBin", "TemperedBeliefs", "temper"]

FloatArray = NDArray[np.float64]

#: The temperatures tried: 2^(i/8) from 1/256 to 4 (1 among them); a belief's log is multiplied
#: by one and normalised again. Below 1 it broadens, above 1 it sharpens.
TEMPERATURES: tuple[float, ...] = tuple(2.0 ** (i / 8) for i in range(-64, 17))
#: The reliability table's bins, as multiples of a uniform belief's probability (1 / squares).
RELIABILITY_EDGES: tuple[float, ...] = (0.0, 0.25, 1.0, 4.0, 16.0, 64.0, math.inf)


@dataclass(frozen=True, slots=True)
class ReliabilityBin:
    """The squares (of every clue) that a belief gives a probability between ``low`` and
    ``high`` times a uniform belief's: ``squares`` of them (clue and square pairs), ``belief``
    the share of the belief that falls on them and ``picks`` the share of people's picks that
    land on them (both weighted by each clue's picks). A calibrated belief has the two equal."""

    low: float
    high: float
    squares: int
    belief: float
    picks: float


@dataclass(frozen=True, slots=True)
class Calibration:
    """How well calibrated a player's belief is on people's picks (natural logs, per pick):
    ``raw_log_likelihood`` of the belief as it is, ``log_likelihood`` of the belief at each
    clue's temperature fitted on the other clues (held out), both against
    ``uniform_log_likelihood`` (a belief that knows nothing); ``temperature`` fitted on every
    clue (below 1: the belief is surer than people are), and the reliability of both beliefs.
    Intervals are bootstraps over clues."""

    player: str
    temperature: float
    log_likelihood: Estimate
    raw_log_likelihood: Estimate
    uniform_log_likelihood: float
    reliability: tuple[ReliabilityBin, ...]
    raw_reliability: tuple[ReliabilityBin, ...]

    def summary_row(self) -> dict[str, object]:
        """The log-likelihoods as one row (several players side by side)."""
        return {
            "log-likelihood": self.raw_log_likelihood,
            "calibrated": self.log_likelihood,
            "uniform": self.uniform_log_likelihood,
            "temperature": self.temperature,
        }

    def table_rows(self) -> dict[str, dict[str, object]]:
        """The reliability table: a row per band of probability (times a uniform belief's)."""
        return {
            _band(raw.low, raw.high): {
                "squares": raw.squares,
                "belief": raw.belief,
                "picks": raw.picks,
                "calibrated: squares": cal.squares,
                "calibrated: belief": cal.belief,
                "calibrated: picks": cal.picks,
            }
            for raw, cal in zip(self.raw_reliability, self.reliability, strict=True)
        }

    def table(self, spec: str = ".3f") -> str:
        """The log-likelihoods and the reliability table, as Markdown."""
        lines = [
            f"**{self.player}**: log-likelihood per pick {self.raw_log_likelihood.format(spec)} "
            f"as it is, {self.log_likelihood.format(spec)} calibrated (temperature fitted on "
            f"the other clues; {self.temperature:.3g} on all), uniform "
            f"{self.uniform_log_likelihood:{spec}}",
            "",
            "| probability (x uniform) | squares | belief | picks | calibrated: squares "
            "| belief | picks |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for raw, cal in zip(self.raw_reliability, self.reliability, strict=True):
            lines.append(
                f"| {_band(raw.low, raw.high)} | {raw.squares} | {raw.belief:.3f} | "
                f"{raw.picks:.3f} | {cal.squares} | {cal.belief:.3f} | {cal.picks:.3f} |"
            )
        return "\n".join(lines)


def _band(low: float, high: float) -> str:
    return f"{low:g} or more" if math.isinf(high) else f"{low:g}-{high:g}"


@dataclass(frozen=True, slots=True)
class TemperedBeliefs:
    """Beliefs (natural logs, one flat row per clue) at a temperature fitted on the other
    clues (:func:`temper`): ``log_beliefs[c]`` is clue ``c``'s at ``temperatures[c]``;
    ``temperature`` is the one fitted on every clue."""

    log_beliefs: tuple[FloatArray, ...]
    temperatures: tuple[float, ...]
    temperature: float


def _log_normalised(z: FloatArray) -> FloatArray:
    """``z`` minus the log of its exponentials' sum along the last axis (a log-softmax)."""
    top = z.max(axis=-1, keepdims=True)
    out: FloatArray = z - (top + np.log(np.exp(z - top).sum(axis=-1, keepdims=True)))
    return out


def _best(totals: FloatArray) -> int:
    """The temperature with the highest total (to rounding), the nearest to 1 among ties: a
    flat belief, which every temperature leaves flat, keeps 1."""
    top = float(totals.max())
    near = totals >= top - 1e-9 * max(1.0, abs(top))
    return int(min(np.flatnonzero(near), key=lambda g: abs(math.log(TEMPERATURES[int(g)]))))


def temper(log_beliefs: Sequence[FloatArray], picks: Sequence[NDArray[np.intp]]) -> TemperedBeliefs:
    """Each clue's belief (``log_beliefs[c]``: natural logs of a distribution, flat) at the
    temperature of :data:`TEMPERATURES` that gives the other clues' picks (``picks[c]``: flat
    square indices) the most log-likelihood; with one clue, nothing to fit on: temperature 1."""
    grid = np.array(TEMPERATURES)
    # ll[c, g]: clue c's picks' log-likelihood at temperature g.
    ll = np.zeros((len(log_beliefs), len(grid)))
    for c, (lb, at) in enumerate(zip(log_beliefs, picks, strict=True)):
        tempered = _log_normalised(grid[:, None] * lb[None, :])
        ll[c] = tempered[:, at].sum(axis=1)
    total = ll.sum(axis=0)
    overall = _best(total)
    one = TEMPERATURES.index(1.0)
    chosen = [_best(total - ll[c]) if len(log_beliefs) > 1 else one for c in range(len(ll))]
    out = tuple(
        _log_normalised(TEMPERATURES[g] * lb) for g, lb in zip(chosen, log_beliefs, strict=True)
    )
    return TemperedBeliefs(out, tuple(TEMPERATURES[g] for g in chosen), TEMPERATURES[overall])


def reliability(
    log_beliefs: Sequence[FloatArray], picks: Sequence[NDArray[np.intp]]
) -> tuple[ReliabilityBin, ...]:
    """The reliability table of the beliefs (natural logs, flat) against the picks (flat square
    indices), in the bins of :data:`RELIABILITY_EDGES`."""
    n_bins = len(RELIABILITY_EDGES) - 1
    squares = np.zeros(n_bins, dtype=np.int64)
    belief = np.zeros(n_bins)
    landed = np.zeros(n_bins)
    total = 0
    for lb, at in zip(log_beliefs, picks, strict=True):
        p = np.exp(lb)
        times_uniform = p * len(p)
        band = np.searchsorted(np.array(RELIABILITY_EDGES[1:-1]), times_uniform, side="right")
        m = len(at)
        total += m
        squares += np.bincount(band, minlength=n_bins)
        belief += m * np.bincount(band, weights=p, minlength=n_bins)
        landed += np.bincount(band[at], minlength=n_bins)
    total = max(total, 1)
    return tuple(
        ReliabilityBin(
            RELIABILITY_EDGES[i],
            RELIABILITY_EDGES[i + 1],
            int(squares[i]),
            float(belief[i] / total),
            float(landed[i] / total),
        )
        for i in range(n_bins)
    )
