"""Can a model's picks be told apart from people's? For each clue, the model picks as many
squares as people did, drawn from its belief, and a two-sample Hotelling T² test on the picks'
CIELAB colours asks whether the two sets differ (Alabau-Bosque et al. 2025 report the share of
clues that pass, at alpha 0.05 and 0.003); beside it, the divergence between the model's belief
and people's histogram of picks. A simulation checks the test: when the model's belief *is*
the histogram the people's picks are drawn from, it rejects at the rate alpha."""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, Rules
from huescues.stats import Estimate

from ._agreement import _Bootstrap, check_bootstrap, checked_inputs
from ._calibration import Calibration
from ._hotelling import _special, hotelling
from ._measured import measure
from ._responses import HumanResponses, Response

__all__ = [
    "ClueTest",
    "HistogramGuesser",
    "Indistinguishability",
    "NullRate",
    "indistinguishable",
    "null_rejection_rate",
]

FloatArray = NDArray[np.float64]

#: The fewest picks of a clue that the test can compare (3 a side in three dimensions).
MIN_PICKS = 3


@dataclass(frozen=True, slots=True)
class ClueTest:
    """One clue: ``n`` people's picks against as many of the model's; Hotelling's ``t2``, its
    ``f`` and ``p_value`` (None with fewer than 3 picks: not tested), whether the clue
    ``passed`` (p at least alpha: the picks cannot be told apart; None when not tested); the
    Jensen-Shannon divergence between the belief and people's histogram of picks (bits, 0 to
    1) and the Kullback-Leibler divergence of the histogram from the belief (nats: the
    histogram's own log-likelihood per pick minus the belief's)."""

    clue: str
    n: int
    t2: float | None
    f: float | None
    p_value: float | None
    passed: bool | None
    js_divergence: float
    kl_divergence: float


@dataclass(frozen=True, slots=True)
class Indistinguishability:
    """The result of :func:`indistinguishable`."""

    player: str
    alpha: float
    #: One row per clue, in the order the clues first appear.
    per_clue: tuple[ClueTest, ...]
    #: Whether the model's picks were drawn from its calibrated belief.
    calibrated: bool
    seed: int
    #: The mean Jensen-Shannon divergence (bits) over the clues, with an interval over clues.
    divergence: Estimate
    calibration: Calibration | None

    @property
    def tested(self) -> int:
        """Clues with enough picks to test."""
        return sum(t.p_value is not None for t in self.per_clue)

    @property
    def passed(self) -> int:
        """Clues whose picks cannot be told apart from people's at :attr:`alpha`."""
        return sum(bool(t.passed) for t in self.per_clue)

    @property
    def share(self) -> float:
        """The share of the tested clues that pass (NaN when none could be tested)."""
        return self.passed / self.tested if self.tested else math.nan

    def share_at(self, alpha: float) -> float:
        """The share of the tested clues that pass at another ``alpha``."""
        _check_alpha(alpha)
        tested = [t.p_value for t in self.per_clue if t.p_value is not None]
        return sum(p >= alpha for p in tested) / len(tested) if tested else math.nan

    def summary_row(self) -> dict[str, object]:
        """One row for :func:`~huescues.research.markdown_table` and its LaTeX twin."""
        return {
            "clues tested": self.tested,
            f"pass at {self.alpha:g}": f"{self.share:.0%}",
            "pass at 0.003": f"{self.share_at(0.003):.0%}",
            "JS divergence (bits)": self.divergence,
        }

    def table(self, *, max_rows: int | None = None) -> str:
        """The summary and the per-clue table, as Markdown (the first ``max_rows`` clues)."""
        rows = self.per_clue if max_rows is None else self.per_clue[:max_rows]
        belief = "calibrated belief" if self.calibrated else "belief"
        lines = [
            f"**{self.player}**: {self.passed} of {self.tested} clues pass at alpha "
            f"{self.alpha:g} ({self.share:.0%}; {self.share_at(0.003):.0%} at 0.003), the "
            f"model's picks drawn from its {belief} (seed {self.seed}); mean JS divergence "
            f"{self.divergence.format('.3f')} bits",
            "",
            "| clue | picks | T² | p | passes | JS (bits) | KL (nats) |",
            "|---|---:|---:|---:|---|---:|---:|",
        ]
        for t in rows:
            if t.p_value is None:
                test = "| | | not tested"
            else:
                test = f"| {t.t2:.2f} | {t.p_value:.3f} | {'yes' if t.passed else 'no'}"
            lines.append(
                f"| {t.clue} | {t.n} {test} | {t.js_divergence:.3f} | {t.kl_divergence:.2f} |"
            )
        if len(rows) < len(self.per_clue):
            lines.append(f"| ... {len(self.per_clue) - len(rows)} more clues | | | | | | |")
        return "\n".join(lines)


def _check_alpha(alpha: object) -> None:
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, not {alpha!r}")


def _clue_rng(seed: int, clue: str) -> np.random.Generator:
    """A clue's own draws: the same whichever other clues are measured with it."""
    return np.random.default_rng([seed, zlib.crc32(clue.encode("utf-8"))])


def _divergences(log_belief: FloatArray, picks: NDArray[np.intp]) -> tuple[float, float]:
    """Jensen-Shannon (bits) and KL(histogram || belief) (nats) of people's picks."""
    belief = np.exp(log_belief)
    hist = np.bincount(picks, minlength=len(belief)) / len(picks)
    mid = (hist + belief) / 2
    seen = hist > 0

    def kl_bits(p: FloatArray, q: FloatArray) -> float:
        on = p > 0
        return float((p[on] * np.log2(p[on] / q[on])).sum())

    js = 0.5 * kl_bits(hist, mid) + 0.5 * kl_bits(belief, mid)
    kl = float((hist[seen] * (np.log(hist[seen]) - log_belief[seen])).sum())
    return min(max(js, 0.0), 1.0), max(kl, 0.0)


def indistinguishable(
    player_or_model: object,
    responses: HumanResponses,
    *,
    alpha: float = 0.05,
    seed: int = 0,
    calibrated: bool = True,
    n_boot: int = 2000,
    level: float = 0.95,
    rules: Rules | None = None,
) -> Indistinguishability:
    """For each clue of ``responses``, whether ``player_or_model``'s picks can be told apart from
    people's: the model picks ``n`` squares (``n`` the people who answered the clue), drawn
    from its belief (calibrated by clue, as the likelihood measures use it, unless
    ``calibrated`` is false; a guesser, a seat or a colour-term model, read as
    :func:`human_agreement` reads them), and a two-sample Hotelling T² test on the two sets'
    CIELAB colours (pooled covariance, a small ridge where it is singular) gives a p-value; the
    clue passes when it is at least ``alpha``. Each clue's draws come from ``seed`` and the
    clue's text. Clues with fewer than 3 picks are not tested. Beside the test, the divergence
    between the belief and people's histogram (mean over clues, bootstrap interval from
    ``n_boot`` resamples of the clues)."""
    _check_alpha(alpha)
    check_bootstrap(n_boot, level, seed)
    groups, board, r15 = checked_inputs(responses, n_boot, level, rules, seed=seed)
    read = measure(player_or_model, groups, board, r15, 1)
    beliefs = read.log_beliefs(calibrated)
    lab = board.lab.reshape(-1, 3)
    rows = []
    for clue, lb, at in zip(read.clues, beliefs, read.picks, strict=True):
        js, kl = _divergences(lb, at)
        n = len(at)
        if n < MIN_PICKS:
            rows.append(ClueTest(clue, n, None, None, None, None, js, kl))
            continue
        p = np.exp(lb)
        drawn = _clue_rng(seed, clue).choice(len(p), size=n, p=p / p.sum())
        test = hotelling(lab[at], lab[drawn])
        passed = test.p_value >= alpha
        rows.append(ClueTest(clue, n, test.t2, test.f, test.p_value, passed, js, kl))
    boot = _Bootstrap(len(rows), n_boot, seed, level)
    js_all = np.array([r.js_divergence for r in rows])
    return Indistinguishability(
        player=read.player,
        alpha=alpha,
        per_clue=tuple(rows),
        calibrated=calibrated,
        seed=seed,
        divergence=boot.ratio(js_all, np.ones(len(rows))),
        calibration=read.calibration(boot.draws, level),
    )


class HistogramGuesser:
    """A guesser whose belief for a clue is people's histogram of picks for it (in
    ``responses``): the model that reads clues exactly as people do."""

    def __init__(self, responses: HumanResponses) -> None:
        board = responses.board
        self.histograms: dict[str, FloatArray] = {}
        for clue, picks in responses.by_clue().items():
            h = np.zeros(board.shape)
            for p in picks:
                h[p.square.row, p.square.col] += 1.0
            self.histograms[clue] = h / h.sum()

    def belief(self, board: Board, clues: Sequence[str]) -> FloatArray:
        """People's histogram for the last clue."""
        return self.histograms[clues[-1]]


@dataclass(frozen=True, slots=True)
class NullRate:
    """How often the test rejects at ``alpha`` when the model's belief is the distribution
    people's picks are drawn from: ``rejected`` of ``tests``, and the central ``level``
    binomial interval of the rejections expected at rate ``alpha`` (``expected``)."""

    alpha: float
    tests: int
    rejected: int
    expected: tuple[int, int]
    level: float

    @property
    def rate(self) -> float:
        return self.rejected / self.tests

    @property
    def within(self) -> bool:
        """Whether the rejections fall in the binomial interval."""
        return self.expected[0] <= self.rejected <= self.expected[1]


def _binomial_interval(n: int, p: float, level: float) -> tuple[int, int]:
    """The central ``level`` interval of a binomial count of ``n`` trials at rate ``p``."""
    cdf: Any = _special().bdtr(np.arange(n + 1), n, p)
    tail = (1.0 - level) / 2
    low = int(np.searchsorted(cdf, tail, side="left"))
    high = int(np.searchsorted(cdf, 1.0 - tail, side="left"))
    return low, high


def _simulated(
    truth: HistogramGuesser, responses: HumanResponses, rng: np.random.Generator
) -> HumanResponses:
    """Picks drawn from people's histogram, as many a clue as people made."""
    cells = responses.board.cells()
    rows = []
    for clue, picks in responses.by_clue().items():
        h = truth.histograms[clue].ravel()
        rows += [Response(clue, cells[int(i)]) for i in rng.choice(len(h), len(picks), p=h)]
    return HumanResponses(responses.board, tuple(rows), source="simulated")


def null_rejection_rate(
    responses: HumanResponses,
    *,
    alpha: float = 0.05,
    repeats: int = 20,
    seed: int = 0,
    level: float = 0.99,
) -> NullRate:
    """The test's rejection rate when it should reject at ``alpha``: ``repeats`` times, people's
    picks are simulated from their histogram in ``responses`` (as many a clue as there are) and
    :func:`indistinguishable` is asked whether the histogram itself (its belief as it is, not
    calibrated) can be told apart from them."""
    _check_alpha(alpha)
    check_bootstrap(repeats, 0.5, seed)
    truth = HistogramGuesser(responses)
    tests = rejected = 0
    for r in range(repeats):
        simulated = _simulated(truth, responses, np.random.default_rng([1, seed, r]))
        found = indistinguishable(
            truth, simulated, alpha=alpha, seed=seed * repeats + r, calibrated=False, n_boot=0
        )
        tests += found.tested
        rejected += found.tested - found.passed
    return NullRate(alpha, tests, rejected, _binomial_interval(tests, alpha, level), level)
