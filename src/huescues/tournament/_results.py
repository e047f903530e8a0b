"""The results object: a tournament's games in game order, as its results file (or shards, or
memory) holds them, read when used, and the report made from them."""

from __future__ import annotations

import functools
import json
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ._game_result import GameResult
from ._report import Report
from ._report_stats import LINES_CHUNK, compute_report_lines
from ._results_file import FileLines, LazyLines, in_game_order, line_seats, scan_results_file
from ._shards import ShardLines

__all__ = ["TournamentResults"]


class TournamentResults:
    """A tournament's games, in game order, as the results file holds them. Results read from
    or written to a file are read from it when used (``lines`` holds only where each line is),
    so a run of any size takes no memory; :meth:`report` streams through them."""

    def __init__(
        self, lines: Sequence[str], *, entrants: Sequence[str], out: Path | None = None
    ) -> None:
        #: Every game's line of the results file, in game order (a sequence read from the file
        #: when the results are in one).
        self.lines: Sequence[str] = lines if isinstance(lines, LazyLines) else tuple(lines)
        #: The entrants' names.
        self.entrants: tuple[str, ...] = tuple(entrants)
        #: The results file, if the run wrote one.
        self.out = out

    def __repr__(self) -> str:
        return (
            f"<TournamentResults {len(self.lines)} games, entrants {list(self.entrants)}, "
            f"out={str(self.out) if self.out else None!r}>"
        )

    def __len__(self) -> int:
        return len(self.lines)

    @functools.cached_property
    def games(self) -> list[dict[str, Any]]:
        """Every game as a dict (the results file's lines, parsed), in game order. This holds
        every game in memory: for a large tournament use :meth:`iter_games` or :meth:`report`."""
        return list(self.iter_games())

    def iter_games(self) -> Iterator[dict[str, Any]]:
        """Every game as a dict, in game order, parsed one at a time."""
        return (json.loads(line) for line in self.lines)

    def iter_results(self) -> Iterator[GameResult]:
        """Every game as a :class:`GameResult`, in game order, read one at a time."""
        return (GameResult.from_line(line) for line in self.lines)

    @property
    def unfinished(self) -> list[dict[str, Any]]:
        """The games that could not finish."""
        return [g for g in self.iter_games() if g["status"] != "finished"]

    def fault_counts(self) -> dict[str, Counter[str]]:
        """Faults by entrant, then by kind (``exception``, ``illegal``, ``timeout``)."""
        out: dict[str, Counter[str]] = {name: Counter() for name in self.entrants}
        for g in self.iter_games():
            for f in g["faults"]:
                out.setdefault(f["entrant"], Counter())[f["kind"]] += 1
        return out

    def report(self, **kw: Any) -> Report:
        """The tournament's report (points by role with confidence intervals, win rates,
        ratings, faults): ``Report.from_games`` over these games, computed in one pass that
        keeps no game (each line is read without its ``record``, which the report does not
        use), the lines parsed and counted on every core."""
        lines = self.lines
        # The lines of a results file go to the workers as offsets: they read them.
        parts = lines.parts(LINES_CHUNK) if isinstance(lines, FileLines) else None
        return Report.of(
            compute_report_lines(lines, entrants=list(self.entrants), parts=parts, **kw)
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, check: bool = True) -> TournamentResults:
        """The results in a results file (a last line cut short is left out), or in a directory
        of Parquet shards (a path ending in ``.parquet``). Every line is checked as it is read
        (see :func:`check_scores`: its record is replayed, about 0.2 ms of CPU a game, in
        chunks on every core); ``check=False`` skips that for results that need no checking
        (written by this library). The lines themselves stay in the file until used."""
        p = Path(path)
        lines: Sequence[str]
        if p.suffix == ".parquet":
            lines = ShardLines.read(p, check=check)
        else:
            index: list[int] = []
            offsets: list[int] = []
            # The names as the games come, when they come in game order (as in a finished
            # run's file); otherwise, from the lines once they are in order.
            names: dict[str, None] | None = {}
            for i, offset, game in scan_results_file(p, check=check):
                if names is not None:
                    if game is None or (index and i <= index[-1]):
                        names = None
                    else:
                        for name in game["seats"]:
                            names.setdefault(name)
                index.append(i)
                offsets.append(offset)
            lines = FileLines(
                p, in_game_order(np.array(index, dtype=np.int64), np.array(offsets, dtype=np.int64))
            )
            if names is not None:
                return cls(lines, entrants=list(names), out=p)
        names = {}
        for line in lines:
            for name in line_seats(line):
                names.setdefault(name)
        return cls(lines, entrants=list(names), out=p)
