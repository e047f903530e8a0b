"""Model against human: how well a player or a colour-term model agrees with human picks, in
the game's own points (R15), in likelihood (of a calibrated belief by default) and in top-k
hits, with bootstrap intervals over clues, and the belief's calibration beside them."""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, Cell, Rules, safe_cell
from huescues.stats import Estimate, ratio_interval, resample

from ._calibration import Calibration
from ._measured import measure
from ._responses import HumanResponses, Response

__all__ = ["Agreement", "ClueAgreement", "calibration", "human_agreement"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ClueAgreement:
    """The measures for one clue: ``n`` human picks; the square the model chose and the mean
    R15 points against the picks of a square drawn among the ``tied`` squares with the most
    expected points (the model's square alone when nothing ties with it); the humans'
    leave-one-out points (None with fewer than two picks); the mean log-probability of the
    picks under the model's belief (calibrated unless asked otherwise; None when it gives no
    belief); the share of picks among the model's k best squares (ties at the k-th shared out);
    the belief's temperature for this clue, fitted on the other clues (None: not calibrated)."""

    clue: str
    n: int
    model_square: Cell
    model_points: float
    human_points: float | None
    log_likelihood: float | None
    top_k: float
    tied: int = 1
    temperature: float | None = None


@dataclass(frozen=True, slots=True)
class Agreement:
    """How a player agrees with human picks (see :func:`human_agreement`)."""

    #: A short name of the player measured.
    player: str
    #: Mean R15 points of the model's square against each human pick.
    model_points: Estimate
    #: Mean R15 points of the other humans' picks against each human pick (leave-one-out),
    #: over clues with at least two picks: the human reference.
    human_points: Estimate
    #: The model's points minus ``human_points``, both over the clues with at least two picks
    #: (paired; unlike :attr:`model_points`, a clue with one pick is left out).
    gap: Estimate
    #: Mean log p(human square | clue) under the model's belief over squares (natural log),
    #: calibrated by clue unless ``calibrated`` is false; None for a player that only ranks.
    log_likelihood: Estimate | None
    #: Share of human picks among the model's ``k`` best squares.
    top_k: Estimate
    k: int
    #: One row per clue, in the order the clues first appear.
    per_clue: tuple[ClueAgreement, ...]
    n_picks: int
    #: ``log(1 / squares)``: the log-likelihood of a model that knows nothing.
    uniform_log_likelihood: float
    #: The belief's calibration (log-likelihoods as it is and calibrated, the reliability
    #: table); None for a player that only ranks squares.
    calibration: Calibration | None = None
    #: Whether ``log_likelihood`` is of the calibrated belief.
    calibrated: bool = True

    @property
    def n_clues(self) -> int:
        """Number of distinct clues measured."""
        return len(self.per_clue)

    def summary_row(self) -> dict[str, object]:
        """The overall measures as one row, for :func:`~huescues.research.markdown_table` and
        its LaTeX twin (several players side by side)."""
        return {
            "points (R15)": self.model_points,
            "model - human": self.gap,
            "log-likelihood": self.log_likelihood,
            f"top-{self.k}": self.top_k,
        }

    def summary(self) -> str:
        """The overall measures as a small Markdown table."""
        ll = "n/a" if self.log_likelihood is None else self.log_likelihood.format(".3f")
        other = ""
        if self.calibration is not None:
            raw, cal = self.calibration.raw_log_likelihood, self.calibration.log_likelihood
            other = (
                f"; as it is: {raw.format('.3f')}"
                if self.calibrated
                else f"; calibrated: {cal.format('.3f')}"
            )
        which = " (calibrated)" if self.calibrated and self.calibration is not None else ""
        human, gap = self.human_points.format(".3f"), self.gap.format(".3f")
        if not self.human_points.has_data:
            human = gap = "n/a (no clue has two picks)"
        return "\n".join(
            [
                f"**{self.player}**: {self.n_picks} picks of {self.n_clues} clues "
                "(mean [95% bootstrap interval over clues])",
                "",
                "| measure | value |",
                "|---|---|",
                f"| model points (R15) | {self.model_points.format('.3f')} |",
                f"| human points, leave-one-out (R15) | {human} |",
                f"| model - human | {gap} |",
                f"| log-likelihood per pick{which} | {ll} (uniform: "
                f"{self.uniform_log_likelihood:.3f}{other}) |",
                f"| top-{self.k} hit rate | {self.top_k.format('.3f')} |",
            ]
        )

    def table(self, *, max_rows: int | None = None) -> str:
        """The summary and the per-clue table, as Markdown (the first ``max_rows`` clues)."""
        rows = self.per_clue if max_rows is None else self.per_clue[:max_rows]
        lines = [
            self.summary(),
            "",
            "| clue | picks | model square | model points | human points | log-lik "
            f"| top-{self.k} |",
            "|---|---:|---|---:|---:|---:|---:|",
        ]
        for r in rows:
            lines.append(
                f"| {r.clue} | {r.n} | {r.model_square} | {r.model_points:.2f} | "
                f"{_fmt(r.human_points)} | {_fmt(r.log_likelihood)} | {r.top_k:.2f} |"
            )
        if len(rows) < len(self.per_clue):
            lines.append(f"| ... {len(self.per_clue) - len(rows)} more clues | | | | | | |")
        return "\n".join(lines)

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write the per-clue table as CSV (empty cells where a measure is not defined)."""
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(
                [
                    "clue",
                    "n",
                    "model_square",
                    "model_points",
                    "human_points",
                    "log_likelihood",
                    f"top_{self.k}",
                ]
            )
            for r in self.per_clue:
                w.writerow(
                    [
                        safe_cell(r.clue),
                        r.n,
                        str(r.model_square),
                        repr(r.model_points),
                        "" if r.human_points is None else repr(r.human_points),
                        "" if r.log_likelihood is None else repr(r.log_likelihood),
                        repr(r.top_k),
                    ]
                )


def _fmt(x: float | None) -> str:
    return "" if x is None else f"{x:.2f}"


def _points(rules: Rules, pawn: Cell, target: Cell) -> int:
    return rules.points_at(pawn.distance(target))


def _whole(value: object, least: int) -> bool:
    """Whether ``value`` is a whole number (numpy's too, not a bool) of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        return False
    return bool(value >= least)


def check_k(k: object) -> None:
    """The top-k hit rate's k: a whole number of at least 1, else a ValueError naming it."""
    if not _whole(k, 1):
        raise ValueError(
            f"k must be at least 1: the top-k hit rate's k is a whole number, not {k!r}"
        )


def check_bootstrap(n_boot: object, level: object, seed: object) -> None:
    """The bootstrap's settings: whole numbers of resamples and seed, a level in (0, 1)."""
    if not _whole(n_boot, 0):
        raise ValueError(f"n_boot must be a whole number of at least 0, not {n_boot!r}")
    if not _whole(seed, 0):
        raise ValueError(f"the bootstrap's seed must be a whole number of at least 0, not {seed!r}")
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, not {level!r}")


def checked_inputs(
    responses: HumanResponses, n_boot: int, level: float, rules: Rules | None, *, seed: int = 0
) -> tuple[dict[str, tuple[Response, ...]], Board, Rules]:
    """The responses by clue, their board and the scoring rules (standard for 4 players when
    ``rules`` is None), after checking the bootstrap's settings; shared by the measures."""
    check_bootstrap(n_boot, level, seed)
    groups = responses.by_clue()
    if not groups:
        raise ValueError(f"{responses.source or 'the responses'}: no responses to measure")
    return groups, responses.board, rules if rules is not None else Rules.standard(4)


def human_agreement(
    player: object,
    responses: HumanResponses,
    *,
    k: int = 5,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    rules: Rules | None = None,
    name: str | None = None,
    calibrated: bool = True,
) -> Agreement:
    """Measure how ``player`` agrees with the human picks in ``responses``.

    ``player`` is a guesser (an object with ``belief(board, clues)``, such as
    :class:`~huescues.agents.EmbeddingGuesser`, or only ``rank(board, clues)``; a seat such as
    :func:`~huescues.agents.default_agent` is measured by its guesser) or a
    :class:`~huescues.language.ColourTermModel`, whose scores over the board's squares are
    normalised into a belief. For each clue the model chooses the square with the most expected
    R15 points under its belief (a ranking player: its best square); squares tied for the most
    are scored by their mean, as a square drawn among them would score (a flat belief then
    scores a random interior square, not whichever square comes first).

    Measures, each a mean over human picks with a percentile bootstrap interval at ``level``
    from ``n_boot`` resamples of the clues (``seed`` fixes them): the R15 points of the model's
    square against each pick; the humans' own leave-one-out points (for a pick, the mean R15
    points of every other pick of the same clue against it; clues with one pick are left out);
    their difference, paired by clue; the log-likelihood of the picks; the top-``k`` hit rate.

    The log-likelihood is of the belief calibrated by clue (raised to the temperature that
    suits the *other* clues' picks best, so it is held out), unless ``calibrated`` is false;
    :attr:`Agreement.calibration` reports both, against a uniform belief, with a reliability
    table. The points and top-k are of the player's own belief: its moves are not changed.

    ``rules`` score the picks (R15's points by distance and the frame; default
    ``Rules.standard(4)``). ``name`` is the player's name in the result and its tables
    (:attr:`Agreement.player`; default: the player's own short name, such as its class's).
    """
    check_k(k)
    groups, board, r15 = checked_inputs(responses, n_boot, level, rules, seed=seed)
    read = measure(player, groups, board, r15, k)
    lls = read.log_likelihoods(calibrated) if read.has_belief else None
    temperatures = read.tempered.temperatures if read.tempered and calibrated else None

    per_clue: list[ClueAgreement] = []
    # Per clue: picks, and the sums of each measure over them (for ratio bootstraps).
    n = np.array([len(picks) for picks in groups.values()], dtype=np.float64)
    model_sum = np.array([float(p.sum()) for p in read.points])
    hit_sum = np.array([float(h.sum()) for h in read.hits])
    ll_sum = np.zeros(len(groups)) if lls is None else np.array([float(v.sum()) for v in lls])
    human_n = np.zeros(len(groups))
    human_sum = np.zeros(len(groups))
    for c, (clue, picks) in enumerate(groups.items()):
        m = len(picks)
        loo = _leave_one_out(r15, picks)
        if loo is not None:
            human_n[c] = m
            human_sum[c] = loo * m
        best = read.readings[c].best
        per_clue.append(
            ClueAgreement(
                clue,
                m,
                best[0],
                model_sum[c] / m,
                loo,
                None if lls is None else ll_sum[c] / m,
                hit_sum[c] / m,
                len(best),
                None if temperatures is None else temperatures[c],
            )
        )

    boot = _Bootstrap(len(groups), n_boot, seed, level)
    paired_model_sum = np.where(human_n > 0, model_sum, 0.0)
    return Agreement(
        player=name or read.player,
        model_points=boot.ratio(model_sum, n),
        human_points=boot.ratio(human_sum, human_n),
        gap=boot.ratio(paired_model_sum - human_sum, human_n),
        log_likelihood=None if lls is None else boot.ratio(ll_sum, n),
        top_k=boot.ratio(hit_sum, n),
        k=k,
        per_clue=tuple(per_clue),
        n_picks=int(n.sum()),
        uniform_log_likelihood=-math.log(board.size),
        calibration=read.calibration(boot.draws, level),
        calibrated=calibrated,
    )


def calibration(
    player: object,
    responses: HumanResponses,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    rules: Rules | None = None,
) -> Calibration:
    """How well calibrated ``player``'s belief is on the picks in ``responses``: the
    log-likelihood of the picks as it is and at a temperature held out by clue, against a
    uniform belief, and the reliability table (see :class:`Calibration`); intervals from
    ``n_boot`` resamples of the clues. A player that only ranks squares is a TypeError."""
    groups, board, r15 = checked_inputs(responses, n_boot, level, rules, seed=seed)
    read = measure(player, groups, board, r15, 1)
    found = read.calibration(_Bootstrap(len(groups), n_boot, seed, level).draws, level)
    if found is None:
        raise TypeError(f"{read.player} only ranks squares: it has no belief to calibrate")
    return found


def _leave_one_out(rules: Rules, picks: Sequence[Response]) -> float | None:
    """Mean over ordered pairs (i, j), i != j, of the R15 points of pick j against target
    pick i; None with fewer than two picks."""
    m = len(picks)
    if m < 2:
        return None
    total = sum(
        _points(rules, b.square, a.square)
        for i, a in enumerate(picks)
        for j, b in enumerate(picks)
        if i != j
    )
    return total / (m * (m - 1))


class _Bootstrap:
    """Resamples of the clues, drawn once and shared by every measure (so differences are
    paired)."""

    def __init__(self, n_clues: int, n_boot: int, seed: int, level: float) -> None:
        self.draws = resample(n_clues, n_boot, np.random.default_rng(seed))
        self.level = level

    def ratio(self, total: FloatArray, weight: FloatArray) -> Estimate:
        """sum(total) / sum(weight), with its interval over the resamples."""
        return ratio_interval(total, weight, self.draws, self.level)
