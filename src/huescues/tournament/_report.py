"""The tournament report a user meets: :class:`Report`, its tables (``_report_tables``) with
the doors to the rest: :meth:`Report.from_games` computes it (``_report_stats``); its plain data,
JSON and CSV are in ``_report_files``; its terminal tables and picture in ``_report_render``; its
verdict in ``_report_words``. See ``docs/reports.md`` for what each number means.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ._report_files import read_games, report_from_dict, report_to_dict, write_csv, write_json
from ._report_render import plot_report, print_report
from ._report_stats import compute_report
from ._report_tables import (
    CrossPlay,
    EntrantStats,
    FaultCount,
    PairedComparison,
    ReportTables,
    UnfinishedGame,
)
from ._report_words import verdict

__all__ = [
    "CrossPlay",
    "EntrantStats",
    "FaultCount",
    "PairedComparison",
    "Report",
    "UnfinishedGame",
]


@dataclass(frozen=True, slots=True)
class Report(ReportTables):
    """A tournament's report; make one with :meth:`from_games`.

    Every table is a tuple of small frozen records in a fixed order, so the same games, seed and
    ``n_boot`` give the same report, to the last digit of its JSON.
    """

    # -- making one ----------------------------------------------------------------------------
    @classmethod
    def of(cls, tables: ReportTables) -> Report:
        """The report of ``tables`` (what the modules that compute and read reports make)."""
        if type(tables) is cls:
            return tables
        return cls(*(getattr(tables, f.name) for f in fields(ReportTables)))

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
        return cls.of(compute_report(games, entrants=entrants, seed=seed, n_boot=n_boot))

    @classmethod
    def from_jsonl(cls, path: str | os.PathLike[str], **options: Any) -> Report:
        """Read a results file (one game as JSON per line) and compute its report."""
        return cls.from_games(read_games(path), **options)

    # -- plain data and files (``_report_files``) -----------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (``None`` where a statistic has no data)."""

        return report_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """The inverse of :meth:`to_dict`."""

        return cls.of(report_from_dict(data))

    def to_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """The report as JSON text (indented, keys in a fixed order); also written to ``path``."""

        return write_json(self, path)

    def to_csv(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write one CSV per table into ``directory`` (made if missing); return the paths.

        ``entrants.csv``, ``crossplay.csv``, ``paired.csv``, ``faults.csv`` and
        ``unfinished.csv``; an estimate takes three columns (``x``, ``x_low``, ``x_high``) and
        a missing value is an empty cell.
        """

        return write_csv(self, directory)

    # -- the terminal and the picture (``_report_render``) -------------------------------------
    def verdict(self) -> str:
        """The report in one line: who beats every other entrant, by how much and with what
        interval, or "No clear winner: ..." and which comparison leaves it open."""

        return verdict(self)

    def print(self, console: Any = None) -> None:
        """Print the report as tables with ``rich`` (to ``console``, or a new one on stdout)."""

        print_report(self, console)

    def plot(self, path: str | os.PathLike[str], *, dpi: int = 120) -> None:
        """Draw points per game with their CIs, and the cross-play heat map, to a PNG file.

        Needs matplotlib: ``pip install 'huescues[plot]'``.
        """

        plot_report(self, path, dpi=dpi)
