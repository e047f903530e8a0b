"""The shared bootstrap behind every interval the library reports (players' evaluation,
tournament reports, agreement with human picks)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from huescues._bootstrap import ratio_interval, resample

units = st.lists(st.tuples(st.floats(-100, 100), st.floats(0.5, 20)), min_size=1, max_size=30)


@given(units, st.integers(0, 2**32 - 1))
def test_the_estimate_is_the_ratio_of_sums_inside_its_interval(data, seed) -> None:  # type: ignore[no-untyped-def]
    totals = np.array([t * w for t, w in data])
    weights = np.array([w for _, w in data])
    found = ratio_interval(totals, weights, resample(len(data), 200, np.random.default_rng(seed)))
    assert found is not None
    mean, low, high = found
    assert math.isclose(mean, totals.sum() / weights.sum(), rel_tol=1e-12, abs_tol=1e-12)
    assert low <= high
    per_unit = totals / weights
    assert per_unit.min() - 1e-9 <= low and high <= per_unit.max() + 1e-9


def test_equal_units_give_a_point_interval_and_no_weight_gives_none() -> None:
    draws = resample(5, 100, np.random.default_rng(0))
    assert ratio_interval(np.full(5, 2.0), np.ones(5), draws) == (2.0, 2.0, 2.0)
    assert ratio_interval(np.zeros(5), np.zeros(5), draws) is None
    mean, low, high = ratio_interval(np.ones(5), np.ones(5), draws[:0]) or (0, 0, 0)
    assert mean == 1.0 and math.isnan(low) and math.isnan(high)


def test_resamples_are_reproducible_from_the_generator() -> None:
    a = resample(7, 50, np.random.default_rng(3))
    b = resample(7, 50, np.random.default_rng(3))
    assert a.shape == (50, 7) and np.array_equal(a, b) and a.min() >= 0 and a.max() < 7
