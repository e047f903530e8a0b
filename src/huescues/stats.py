"""Estimates with percentile bootstrap intervals: the one :class:`Estimate` that every measure
of the library reports (the players' evaluation, the tournament report, the agreement with human
picks), and the one bootstrap behind them, a ratio of sums over resampled units (games, blocks
of games or clues); and its crossed form, for observations that belong to two kinds of unit at
once (a pick belongs to a clue and to a participant), each kind resampled on its own.

The bottom layer: it needs numpy only, so every other package may use it.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

import numpy as np
from numpy.typing import NDArray

__all__ = ["Estimate", "crossed_weights", "ratio_interval", "resample", "weighted_interval"]

_FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its bootstrap confidence interval ``[low, high]``.

    ``mean`` is ``None`` when there was nothing to average (:meth:`no_data`); ``low`` and
    ``high`` are ``None`` with it, or when no interval was drawn (no resamples). ``n`` is the
    number of observations averaged and ``blocks`` the number of units the bootstrap resampled,
    where the measure counts them (``None`` otherwise). The numbers are finite or ``None``,
    never NaN, so that :meth:`to_dict` is valid JSON.
    """

    mean: float | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    blocks: int | None = None

    def __post_init__(self) -> None:
        for name in ("mean", "low", "high"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ValueError(f"an estimate's {name} must be finite or None, not {value}")
        if (self.low is None) != (self.high is None):
            raise ValueError("an estimate has both ends of its interval or neither")
        if self.mean is None and self.low is not None:
            raise ValueError("an estimate with no mean has no interval")

    @classmethod
    def no_data(cls, *, n: int | None = None, blocks: int | None = None) -> Self:
        """The estimate of a measure with nothing to average (``n`` is usually 0)."""
        return cls(None, None, None, n, blocks)

    @property
    def has_data(self) -> bool:
        """Whether there is a mean."""
        return self.mean is not None

    def format(self, spec: str = ".2f") -> str:
        """``"12.30 [11.10, 13.50]"`` with the format ``spec`` for each number (``".0%"`` for
        shares, ``"+.2f"`` for differences); the mean alone when there is no interval, and
        ``"-"`` when there is no data."""
        if self.mean is None:
            return "-"
        if self.low is None or self.high is None:
            return f"{self.mean:{spec}}"
        return f"{self.mean:{spec}} [{self.low:{spec}}, {self.high:{spec}}]"

    def signed(self, spec: str = ".2f") -> str:
        """The estimate with signs, for differences: ``+0.04 [+0.01, +0.07]``."""
        return self.format("+" + spec.lstrip("+"))

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, ``None`` (JSON ``null``) where a number is missing."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict` (``n`` and ``blocks`` may be left out)."""
        missing = [k for k in ("mean", "low", "high") if k not in data]
        if missing:
            raise ValueError(f"an estimate's data need {', '.join(missing)}, not only {list(data)}")
        return cls(
            _opt_float(data["mean"]),
            _opt_float(data["low"]),
            _opt_float(data["high"]),
            _opt_int(data.get("n")),
            _opt_int(data.get("blocks")),
        )


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def resample(n_units: int, n_boot: int, rng: np.random.Generator) -> NDArray[np.intp]:
    """``n_boot`` resamples of ``n_units`` units drawn with replacement, as unit indices, shape
    ``(n_boot, n_units)``. Draw once and reuse them for several measures to pair their
    intervals."""
    for name, value in (("n_units", n_units), ("n_boot", n_boot)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
            raise ValueError(
                f"resample: {name} must be a whole number of at least 0, not {value!r}"
            )
    out: NDArray[np.intp] = rng.integers(0, n_units, size=(n_boot, n_units))
    return out


def ratio_interval(
    totals: _FloatArray, weights: _FloatArray, draws: NDArray[np.intp], level: float = 0.95
) -> Estimate:
    """``sum(totals) / sum(weights)`` over the units, with the central ``level`` percentile
    interval of the same ratio over the resamples ``draws`` (resamples with no weight are
    skipped). :meth:`Estimate.no_data` when there is no weight at all; no interval when no
    resample has weight (or there are none).

    ``totals`` and ``weights`` are finite, one number per unit, the weights at least 0, and
    ``level`` lies strictly between 0 and 1; else a :class:`ValueError` naming the rule."""
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, not {level!r}")
    totals = np.asarray(totals, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    if totals.ndim != 1 or totals.shape != weights.shape:
        raise ValueError(
            f"totals and weights need one number per unit, not shapes {totals.shape} and "
            f"{weights.shape}"
        )
    w = float(weights.sum())
    if not math.isfinite(w) or not math.isfinite(float(totals.sum())):
        raise ValueError("totals and weights must be finite (found NaN or infinity)")
    if len(weights) and float(weights.min()) < 0.0:
        raise ValueError(f"weights must not be negative, not {float(weights.min())}")
    if w == 0.0:
        return Estimate.no_data()
    mean = float(totals.sum()) / w
    if len(draws) == 0:
        return Estimate(mean)
    try:
        tw = weights[draws].sum(axis=1)
    except IndexError:
        raise ValueError(
            f"draws name units beyond the {len(weights)} given (resample them with "
            f"resample({len(weights)}, ...))"
        ) from None
    keep = tw > 0
    if not keep.any():
        return Estimate(mean)
    values = totals[draws[keep]].sum(axis=1) / tw[keep]
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return Estimate(mean, float(low), float(high))


def crossed_weights(
    units: Sequence[NDArray[np.intp]], n_boot: int, rng: np.random.Generator
) -> _FloatArray:
    """The weights of ``n_boot`` crossed resamples (Owen's pigeonhole bootstrap), shape
    ``(n_boot, observations)``: each kind of unit (``units[i][j]`` is observation ``j``'s unit
    of kind ``i``, numbered from 0) is resampled with replacement on its own, and an
    observation counts as often as the product of its units' counts. Resampling clues and
    participants at once gives an interval that holds for other clues *and* other people."""
    if not units:
        raise ValueError("crossed_weights needs at least one kind of unit")
    resample(0, n_boot, rng)  # the same check of n_boot
    n_obs = len(units[0])
    weights = np.ones((n_boot, n_obs))
    for kind in units:
        kind = np.asarray(kind)
        if kind.shape != (n_obs,) or (n_obs and int(kind.min()) < 0):
            raise ValueError(
                f"each kind of unit needs one number of at least 0 per observation ({n_obs}), "
                f"not shape {kind.shape}"
            )
        n_units = int(kind.max()) + 1 if n_obs else 0
        counts = np.zeros((n_boot, n_units))
        if n_units:
            draws = rng.integers(0, n_units, size=(n_boot, n_units))
            rows = np.repeat(np.arange(n_boot), n_units)
            np.add.at(counts, (rows, draws.ravel()), 1.0)
        weights *= counts[:, kind]
    return weights


def weighted_interval(
    values: _FloatArray, boot_weights: _FloatArray, level: float = 0.95
) -> Estimate:
    """The mean of ``values`` with the central ``level`` percentile interval of their weighted
    means over the resamples ``boot_weights`` (shape ``(resamples, len(values))``, as
    :func:`crossed_weights` gives; resamples with no weight are skipped). The numbers must be
    finite; :meth:`Estimate.no_data` when there are none."""
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, not {level!r}")
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or not np.all(np.isfinite(values)):
        raise ValueError("values must be one finite number per observation")
    if len(values) == 0:
        return Estimate.no_data(n=0)
    mean = float(values.mean())
    if len(boot_weights) == 0:
        return Estimate(mean, n=len(values))
    if boot_weights.shape[1:] != values.shape:
        raise ValueError(
            f"boot_weights need one column per value ({len(values)}), not {boot_weights.shape}"
        )
    total = boot_weights.sum(axis=1)
    keep = total > 0
    if not keep.any():
        return Estimate(mean, n=len(values))
    means = (boot_weights[keep] @ values) / total[keep]
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(means, [tail, 100.0 - tail])
    return Estimate(mean, float(low), float(high), n=len(values))
