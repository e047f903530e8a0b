"""A player's reading of every clue of a set of responses, and what each pick earns under it:
the ground the measures share (the agreement with people, the per-pick table, the paired
comparison, the calibration, the indistinguishability test), so that they read a clue once and
agree with each other to the last digit."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, Rules
from huescues.stats import Estimate, ratio_interval

from ._calibration import Calibration, TemperedBeliefs, reliability, temper
from ._reading import Reading, reader, tie_points
from ._responses import Response

__all__ = ["Measured", "measure"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Measured:
    """One player on every clue (in the order the clues first appear): the readings, and for
    each clue's picks the R15 points of the player's square (a tie: its squares' mean), the
    chance that the pick is among its ``k`` best squares, and the flat square index of each
    pick. ``tempered`` holds the beliefs calibrated by clue (None for a ranking player)."""

    player: str
    board: Board
    groups: dict[str, tuple[Response, ...]]
    readings: tuple[Reading, ...]
    points: tuple[FloatArray, ...]
    hits: tuple[FloatArray, ...]
    picks: tuple[NDArray[np.intp], ...]
    tempered: TemperedBeliefs | None
    k: int

    @property
    def clues(self) -> tuple[str, ...]:
        return tuple(self.groups)

    @property
    def has_belief(self) -> bool:
        return self.tempered is not None

    def raw_log_beliefs(self) -> tuple[FloatArray, ...]:
        """Each clue's belief as the player gives it (natural logs, flat)."""
        return tuple(r.log_belief.ravel() for r in self.readings if r.log_belief is not None)

    def log_beliefs(self, calibrated: bool) -> tuple[FloatArray, ...]:
        """Each clue's belief (natural logs, flat): calibrated by clue, or as it is."""
        if self.tempered is None:
            raise TypeError(f"{self.player} only ranks squares: it gives no belief over them")
        return self.tempered.log_beliefs if calibrated else self.raw_log_beliefs()

    def log_likelihoods(self, calibrated: bool) -> tuple[FloatArray, ...]:
        """Each clue's picks' log-probabilities under the belief (calibrated or as it is)."""
        return tuple(
            lb[at] for lb, at in zip(self.log_beliefs(calibrated), self.picks, strict=True)
        )

    def calibration(self, draws: NDArray[np.intp], level: float) -> Calibration | None:
        """The calibration of the belief, with intervals over the clue resamples ``draws``;
        None for a ranking player."""
        if self.tempered is None:
            return None
        n = np.array([len(at) for at in self.picks], dtype=np.float64)

        def mean(calibrated: bool) -> Estimate:
            sums = np.array([float(v.sum()) for v in self.log_likelihoods(calibrated)])
            return ratio_interval(sums, n, draws, level)

        return Calibration(
            player=self.player,
            temperature=self.tempered.temperature,
            log_likelihood=mean(True),
            raw_log_likelihood=mean(False),
            uniform_log_likelihood=-math.log(self.board.size),
            reliability=reliability(self.tempered.log_beliefs, self.picks),
            raw_reliability=reliability(self.raw_log_beliefs(), self.picks),
        )


def measure(
    player: object, groups: dict[str, tuple[Response, ...]], board: Board, rules: Rules, k: int
) -> Measured:
    """Read every clue of ``groups`` (the responses by clue) with ``player`` on ``board``."""
    label, read = reader(player, board, rules)
    readings, points, hits, picks = [], [], [], []
    for clue, rows in groups.items():
        reading = read(clue)
        squares = [r.square for r in rows]
        top = reading.top_k(k)
        readings.append(reading)
        points.append(tie_points(rules, reading.best, squares))
        hits.append(np.array([top[s.row, s.col] for s in squares], dtype=np.float64))
        picks.append(np.array([s.row * board.cols + s.col for s in squares], dtype=np.intp))
    tempered = None
    if all(r.log_belief is not None for r in readings):
        raw = [r.log_belief.ravel() for r in readings if r.log_belief is not None]
        tempered = temper(raw, picks)
    return Measured(
        label, board, groups, tuple(readings), tuple(points), tuple(hits), tuple(picks),
        tempered, k,
    )  # fmt: skip
