"""The one estimate and the one bootstrap behind every interval the library reports (players'
evaluation, tournament reports, agreement with human picks)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import huescues.research
import huescues.tournament
from huescues.stats import Estimate, crossed_weights, ratio_interval, resample, weighted_interval

units = st.lists(st.tuples(st.floats(-100, 100), st.floats(0.5, 20)), min_size=1, max_size=30)


@given(units, st.integers(0, 2**32 - 1))
def test_the_estimate_is_the_ratio_of_sums_inside_its_interval(data, seed) -> None:  # type: ignore[no-untyped-def]
    totals = np.array([t * w for t, w in data])
    weights = np.array([w for _, w in data])
    found = ratio_interval(totals, weights, resample(len(data), 200, np.random.default_rng(seed)))
    assert found.mean is not None and found.low is not None and found.high is not None
    assert math.isclose(found.mean, totals.sum() / weights.sum(), rel_tol=1e-12, abs_tol=1e-12)
    assert found.low <= found.high
    per_unit = totals / weights
    assert per_unit.min() - 1e-9 <= found.low and found.high <= per_unit.max() + 1e-9


def test_equal_units_give_a_point_interval_and_no_weight_gives_no_data() -> None:
    draws = resample(5, 100, np.random.default_rng(0))
    assert ratio_interval(np.full(5, 2.0), np.ones(5), draws) == Estimate(2.0, 2.0, 2.0)
    assert ratio_interval(np.zeros(5), np.zeros(5), draws) == Estimate.no_data()
    bare = ratio_interval(np.ones(5), np.ones(5), draws[:0])
    assert bare == Estimate(1.0) and bare.low is None and bare.high is None


def test_resamples_with_no_weight_leave_no_interval_rather_than_nan() -> None:
    # Every resample draws unit 0 only, which has no weight: the mean stands, alone.
    draws = np.zeros((50, 2), dtype=np.intp)
    assert ratio_interval(np.array([0.0, 3.0]), np.array([0.0, 1.0]), draws) == Estimate(3.0)


def test_resamples_are_reproducible_from_the_generator() -> None:
    a = resample(7, 50, np.random.default_rng(3))
    b = resample(7, 50, np.random.default_rng(3))
    assert a.shape == (50, 7) and np.array_equal(a, b) and a.min() >= 0 and a.max() < 7


def test_formats() -> None:
    e = Estimate(0.25, 0.125, 0.5)
    assert str(e) == "0.25 [0.12, 0.50]"
    assert e.format(".3f") == "0.250 [0.125, 0.500]"
    assert e.format(".0%") == "25% [12%, 50%]"
    assert Estimate(0.04, -0.01, 0.07).signed() == "+0.04 [-0.01, +0.07]"
    assert Estimate(1.5).format() == "1.50"
    assert Estimate.no_data(n=0).format() == "-" and not Estimate.no_data().has_data


finite = st.floats(-1e9, 1e9, allow_nan=False)
counts = st.none() | st.integers(0, 10**6)
estimates = st.one_of(
    st.builds(Estimate.no_data, n=counts, blocks=counts),
    st.builds(Estimate, finite, n=counts, blocks=counts),
    st.builds(Estimate, finite, finite, finite, counts, counts),
)


@given(estimates)
def test_the_dict_round_trips_through_json_without_nan(e: Estimate) -> None:
    text = json.dumps(e.to_dict(), allow_nan=False)
    assert Estimate.from_dict(json.loads(text)) == e


def test_nan_and_half_intervals_are_refused() -> None:
    with pytest.raises(ValueError, match="finite"):
        Estimate(math.nan)
    with pytest.raises(ValueError, match="finite"):
        Estimate(1.0, -math.inf, 2.0)
    with pytest.raises(ValueError, match="both ends"):
        Estimate(1.0, 0.5)
    with pytest.raises(ValueError, match="no mean"):
        Estimate(None, 0.5, 1.0)


def test_every_package_reports_the_same_estimate() -> None:
    assert huescues.research.Estimate is Estimate
    assert huescues.tournament.Estimate is Estimate


def test_a_level_outside_0_1_is_refused_not_turned_into_an_upside_down_interval() -> None:
    draws = resample(3, 50, np.random.default_rng(0))
    totals, weights = np.arange(3.0), np.ones(3)
    for level in (-1.0, 0.0, 1.0, 1.5, math.nan, True):
        with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
            ratio_interval(totals, weights, draws, level)


def test_bad_units_are_named_not_left_to_numpy() -> None:
    draws = resample(3, 50, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"shapes \(3,\) and \(2,\)"):
        ratio_interval(np.ones(3), np.ones(2), draws)
    with pytest.raises(ValueError, match="draws name units beyond the 2 given"):
        ratio_interval(np.ones(2), np.ones(2), draws)
    with pytest.raises(ValueError, match="must be finite"):
        ratio_interval(np.array([1.0, math.nan, 2.0]), np.ones(3), draws)
    with pytest.raises(ValueError, match="must not be negative"):
        ratio_interval(np.ones(3), np.array([1.0, -1.0, 0.0]), draws)  # sums to 0: was no data
    assert ratio_interval([2.0, 2.0, 2.0], [1.0, 1.0, 1.0], draws) == Estimate(2.0, 2.0, 2.0)
    for n_units, n_boot in ((-1, 5), (3, -1), (3, 2.5), (2.5, 3), (True, 3)):
        with pytest.raises(ValueError, match="must be a whole number of at least 0"):
            resample(n_units, n_boot, np.random.default_rng(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="need mean, low, high"):
        Estimate.from_dict({})


@given(st.lists(st.integers(0, 6), min_size=1, max_size=40), st.integers(0, 2**32 - 1))
def test_crossed_weights_of_one_kind_are_the_plain_bootstrap(units, seed) -> None:  # type: ignore[no-untyped-def]
    # Units numbered in order of first appearance, as the measures number clues.
    kind = np.unique(units, return_inverse=True)[1].astype(np.intp)
    values = np.array(units, dtype=np.float64) ** 2
    weights = crossed_weights([kind], 100, np.random.default_rng(seed))
    crossed = weighted_interval(values, weights)
    n_units = int(kind.max()) + 1
    totals = np.bincount(kind, weights=values, minlength=n_units)
    picks = np.bincount(kind, minlength=n_units).astype(np.float64)
    plain = ratio_interval(totals, picks, resample(n_units, 100, np.random.default_rng(seed)))
    assert crossed.mean == pytest.approx(plain.mean)
    assert crossed.low == pytest.approx(plain.low) and crossed.high == pytest.approx(plain.high)
    assert crossed.n == len(values)


def test_crossed_weights_multiply_each_kinds_counts() -> None:
    # Four picks: clues 0 0 1 1, participants 0 1 0 1.
    clues, people = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
    weights = crossed_weights([clues, people], 500, np.random.default_rng(3))
    assert weights.shape == (500, 4)
    # The same draws by hand: the clues' resamples, then the participants'.
    rng = np.random.default_rng(3)
    clue_draws, people_draws = rng.integers(0, 2, (500, 2)), rng.integers(0, 2, (500, 2))
    for b in range(500):
        c, p = np.bincount(clue_draws[b], minlength=2), np.bincount(people_draws[b], minlength=2)
        assert list(weights[b]) == [c[0] * p[0], c[0] * p[1], c[1] * p[0], c[1] * p[1]]
    by_clue = crossed_weights([clues], 500, np.random.default_rng(3))
    # A constant has a point interval; values that differ only by participant spread more
    # when participants are resampled too.
    assert weighted_interval(np.full(4, 2.0), weights) == Estimate(2.0, 2.0, 2.0, n=4)
    spread = np.array([0.0, 1.0, 0.0, 1.0])
    both = weighted_interval(spread, weights)
    alone = weighted_interval(spread, by_clue)
    assert alone.low == alone.high == 0.5
    assert both.low is not None and both.high is not None and both.low < 0.5 < both.high


def test_crossed_weights_refuse_bad_units_and_settings() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="at least one kind of unit"):
        crossed_weights([], 10, rng)
    with pytest.raises(ValueError, match="one number of at least 0 per observation"):
        crossed_weights([np.array([0, 1]), np.array([0])], 10, rng)
    with pytest.raises(ValueError, match="n_boot must be a whole number"):
        crossed_weights([np.array([0, 1])], -1, rng)
    with pytest.raises(ValueError, match="one finite number per observation"):
        weighted_interval(np.array([np.nan]), np.ones((3, 1)))
    assert weighted_interval(np.array([]), np.ones((3, 0))) == Estimate.no_data(n=0)
