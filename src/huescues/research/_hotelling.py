"""Hotelling's two-sample T² test: whether two sets of points (here, the CIELAB colours of two
sets of picks) can be told apart by their means, with the pooled covariance, and its p-value
from the F distribution.

The F distribution's tail comes from scipy (``scipy.special.fdtrc``): scipy is installed with
scikit-learn, a dependency already, and is imported only when a test is run."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["RIDGE", "TwoSampleTest", "hotelling"]

FloatArray = NDArray[np.float64]

#: Added to the pooled covariance's diagonal, times its mean variance (and at least 1e-9), so
#: that a singular covariance (every pick on one square, or on a line) can be inverted; far
#: too small to move the statistic otherwise.
RIDGE = 1e-6


@dataclass(frozen=True, slots=True)
class TwoSampleTest:
    """Hotelling's T² of two samples of sizes ``n1`` and ``n2`` in ``dims`` dimensions, its F
    statistic on (``dims``, ``n1 + n2 - dims - 1``) degrees of freedom, and the p-value."""

    t2: float
    f: float
    p_value: float
    n1: int
    n2: int
    dims: int


@cache
def _special() -> Any:
    return importlib.import_module("scipy.special")


def hotelling(x: FloatArray, y: FloatArray) -> TwoSampleTest:
    """Hotelling's two-sample T² test of the means of ``x`` and ``y`` (rows are points), with
    the pooled covariance and a small ridge (:data:`RIDGE`). Each sample needs at least one
    point and together more than ``dims + 1``; else a ValueError naming the sizes."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[1]:
        raise ValueError(f"two samples of points of one dimension, not shapes {x.shape}, {y.shape}")
    (n1, p), n2 = x.shape, len(y)
    if n1 < 1 or n2 < 1 or n1 + n2 < p + 2:
        raise ValueError(
            f"Hotelling's test in {p} dimensions needs more than {p + 1} points in all, at least "
            f"one a sample, not {n1} and {n2}"
        )
    dx, dy = x - x.mean(axis=0), y - y.mean(axis=0)
    pooled = (dx.T @ dx + dy.T @ dy) / max(n1 + n2 - 2, 1)
    ridge = RIDGE * max(float(np.trace(pooled)) / p, 1e-3)
    pooled = pooled + ridge * np.eye(p)
    d = x.mean(axis=0) - y.mean(axis=0)
    t2 = float(n1 * n2 / (n1 + n2) * d @ np.linalg.solve(pooled, d))
    dof = n1 + n2 - p - 1
    f = t2 * dof / (p * (n1 + n2 - 2))
    return TwoSampleTest(t2, f, float(_special().fdtrc(p, dof, f)), n1, n2, p)
