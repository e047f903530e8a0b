"""The tournament report: what it holds, as small frozen records.

:meth:`Report.from_games` computes it from the games (``_report_stats``); its plain data, JSON
and CSV are in ``_report_files``; its terminal tables and picture in ``_report_render``. The
methods here that read, write or draw are thin doors to those modules, so that a user needs
only the :class:`Report`. See ``docs/reports.md`` for what each number means.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from huescues.stats import Estimate

__all__ = [
    "CrossPlay",
    "EntrantStats",
    "FaultCount",
    "PairedComparison",
    "Report",
    "UnfinishedGame",
]


@dataclass(frozen=True, slots=True)
class EntrantStats:
    """One entrant's line of the report (every seat it held counts on its own)."""

    entrant: str
    #: Seats held in finished games (an entrant in two seats of a game counts twice).
    games: int
    #: Seats held in unfinished games, left out of every score statistic.
    unfinished: int
    #: Final score per seat, over finished games.
    points_per_game: Estimate
    #: R16 points per regular round as clue giver (tie-breakers excluded: no giver points, R25).
    giver_points_per_round: Estimate
    #: R15 points per pawn placed as guesser, regular rounds only.
    guesser_points_per_pawn: Estimate
    #: Share of its pawns inside the frame (distance at most 1 from the target), regular rounds.
    frame_share: Estimate
    #: Wins per seat, a win shared by k seats counting 1/k for each.
    win_rate: Estimate
    #: Total wins, shared wins as fractions.
    wins: float
    #: Plackett-Luce rating from the final scores (openskill): mean, uncertainty and
    #: ``mu - 3 * sigma``, a conservative estimate to sort by.
    mu: float
    sigma: float
    ordinal: float
    #: Faults of every kind, in finished and unfinished games.
    faults: int


@dataclass(frozen=True, slots=True)
class CrossPlay:
    """How the guessers of one entrant fared on the clues of another, over regular rounds."""

    giver: str
    guesser: str
    #: Pawns the guesser placed on this giver's clues.
    pawns: int
    #: Rounds in which this giver gave clues and this guesser guessed (one per guessing seat).
    rounds: int
    #: R15 points per pawn.
    points_per_pawn: float
    #: Share of the pawns inside the frame (distance at most 1 from the target).
    frame_share: float


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Entrant ``a`` against entrant ``b`` over the blocks (same seed, rotated lineup) both played.

    Per block, the difference is ``a``'s mean final score over its seats in the block minus
    ``b``'s; ``difference`` averages it over blocks, with a bootstrap CI over blocks.
    """

    a: str
    b: str
    blocks: int
    difference: Estimate
    #: Share of the blocks in which ``a`` scored more than ``b`` per seat, and in which they tied.
    a_better: float
    ties: float


@dataclass(frozen=True, slots=True)
class FaultCount:
    """How many faults of one kind an entrant made (in finished and unfinished games)."""

    entrant: str
    #: ``exception``, ``illegal`` or ``timeout``.
    kind: str
    count: int
    #: How many of them were in games that could not finish.
    in_unfinished: int


@dataclass(frozen=True, slots=True)
class UnfinishedGame:
    """A game that could not finish: listed, never dropped silently."""

    game: int
    seed: int
    seats: tuple[str, ...]
    #: Rounds completed before it stopped.
    rounds: int
    error: str | None


@dataclass(frozen=True, slots=True)
class Report:
    """A tournament's report; make one with :meth:`from_games`.

    Every table is a tuple of small frozen records in a fixed order, so the same games, seed and
    ``n_boot`` give the same report, to the last digit of its JSON.
    """

    #: Entrants in the order given (or of first appearance); :meth:`ranking` sorts by rating.
    entrants: tuple[EntrantStats, ...]
    crossplay: tuple[CrossPlay, ...]
    paired: tuple[PairedComparison, ...]
    faults: tuple[FaultCount, ...]
    unfinished: tuple[UnfinishedGame, ...]
    #: Games read, finished games and blocks (a seed and a lineup, rotated).
    n_games: int
    n_finished: int
    n_blocks: int
    seed: int
    n_boot: int

    # -- making one ----------------------------------------------------------------------------
    @classmethod
    def from_games(
        cls,
        games: Sequence[Mapping[str, Any]],
        *,
        entrants: Sequence[str] | None = None,
        seed: int = 0,
        n_boot: int = 2000,
    ) -> Report:
        """Compute the report from the games, one plain dict per game (a results-file line).

        ``entrants`` fixes the entrants and their order (an entrant that finished no game still
        gets a line); by default, the order in which they first appear. ``seed`` (at least 0)
        seeds the bootstrap, which draws ``n_boot`` resamples of the blocks per interval.
        """
        from ._report_stats import compute_report

        return compute_report(games, entrants=entrants, seed=seed, n_boot=n_boot)

    @classmethod
    def from_jsonl(cls, path: str | os.PathLike[str], **options: Any) -> Report:
        """Read a results file (one game as JSON per line) and compute its report."""
        from ._report_files import read_games

        return cls.from_games(read_games(path), **options)

    # -- views ---------------------------------------------------------------------------------
    def ranking(self) -> tuple[EntrantStats, ...]:
        """The entrants by rating ordinal, best first (ties by mean rating, then name)."""
        return tuple(sorted(self.entrants, key=lambda s: (-s.ordinal, -s.mu, s.entrant)))

    def entrant(self, name: str) -> EntrantStats:
        """One entrant's line."""
        for row in self.entrants:
            if row.entrant == name:
                return row
        raise KeyError(f"no entrant {name!r} in the report")

    @property
    def timeouts(self) -> int:
        """Decisions that timed out, in finished and unfinished games. When there are any, the
        results depend on the speed of the machine that played them (see :attr:`speed_note`)."""
        return sum(f.count for f in self.faults if f.kind == "timeout")

    @property
    def speed_note(self) -> str | None:
        """What the timeouts mean for these results, or ``None`` when no decision timed out."""
        n = self.timeouts
        if n == 0:
            return None
        decisions = "decision" if n == 1 else "decisions"
        return (
            f"{n} {decisions} timed out: results with timeout faults depend on the speed of the "
            "machine that played them, so a rerun on another machine (or under another load) "
            "can differ."
        )

    # -- plain data and files (``_report_files``) -----------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (``None`` where a statistic has no data)."""
        from ._report_files import report_to_dict

        return report_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """The inverse of :meth:`to_dict`."""
        from ._report_files import report_from_dict

        return report_from_dict(data)

    def to_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """The report as JSON text (indented, keys in a fixed order); also written to ``path``."""
        from ._report_files import write_json

        return write_json(self, path)

    def to_csv(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write one CSV per table into ``directory`` (made if missing); return the paths.

        ``entrants.csv``, ``crossplay.csv``, ``paired.csv``, ``faults.csv`` and
        ``unfinished.csv``; an estimate takes three columns (``x``, ``x_low``, ``x_high``) and
        a missing value is an empty cell.
        """
        from ._report_files import write_csv

        return write_csv(self, directory)

    # -- the terminal and the picture (``_report_render``) -------------------------------------
    def verdict(self) -> str:
        """The report in one line: who beats every other entrant, by how much and with what
        interval, or "No clear winner: ..." and which comparison leaves it open."""
        from ._report_words import verdict

        return verdict(self)

    def print(self, console: Any = None) -> None:
        """Print the report as tables with ``rich`` (to ``console``, or a new one on stdout)."""
        from ._report_render import print_report

        print_report(self, console)

    def plot(self, path: str | os.PathLike[str], *, dpi: int = 120) -> None:
        """Draw points per game with their CIs, and the cross-play heat map, to a PNG file.

        Needs matplotlib: ``pip install 'huescues[plot]'``.
        """
        from ._report_render import plot_report

        plot_report(self, path, dpi=dpi)
