"""The report as plain data, JSON and CSV, and the results file it is read from.

The plain data (:func:`report_to_dict`) is what the JSON holds: every number finite or
``None`` (JSON ``null``), never NaN, and :func:`report_from_dict` gives the same report back.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from huescues.engine import safe_row
from huescues.stats import Estimate

from ._report_tables import (
    CrossPlay,
    EntrantStats,
    FaultCount,
    PairedComparison,
    ReportTables,
    UnfinishedGame,
)

__all__ = [
    "REPORT_FORMAT",
    "read_games",
    "report_from_dict",
    "report_to_dict",
    "write_csv",
    "write_json",
]

#: The version of the report's plain data; bumped only when a reader of the old one would fail.
REPORT_FORMAT = 1

_ENTRANT_ESTIMATES = (
    "points_per_game",
    "giver_points_per_round",
    "guesser_points_per_pawn",
    "frame_share",
    "win_rate",
)


def read_games(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The games of a results file, one JSON object per line (blank lines skipped)."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# -- plain data --------------------------------------------------------------------------------


def report_to_dict(report: ReportTables) -> dict[str, Any]:
    """Plain JSON-ready data (``None`` where a statistic has no data).

    ``timeouts`` and ``depends_on_machine_speed`` are there for the reader; they follow from
    the faults, so :func:`report_from_dict` does not need them.
    """
    from huescues import __version__  # the package's top imports this layer

    return {
        "format": REPORT_FORMAT,
        # Which library made the report (issue 35): a reader can cite it, and knows what to
        # install to make it again.
        "huescues_version": __version__,
        "seed": report.seed,
        "n_boot": report.n_boot,
        "n_games": report.n_games,
        "n_finished": report.n_finished,
        "n_blocks": report.n_blocks,
        "timeouts": report.timeouts,
        "depends_on_machine_speed": report.timeouts > 0,
        "entrants": [_entrant_to_dict(r) for r in report.entrants],
        "crossplay": [dataclasses.asdict(r) for r in report.crossplay],
        "paired": [_paired_to_dict(r) for r in report.paired],
        "faults": [dataclasses.asdict(r) for r in report.faults],
        "unfinished": [_unfinished_to_dict(r) for r in report.unfinished],
    }


def report_from_dict(data: Mapping[str, Any]) -> ReportTables:
    """The inverse of :func:`report_to_dict`."""
    if data.get("format") != REPORT_FORMAT:
        raise ValueError(f"report format {data.get('format')!r} is not {REPORT_FORMAT}")
    return ReportTables(
        entrants=tuple(_entrant_from_dict(r) for r in data["entrants"]),
        crossplay=tuple(_crossplay_from_dict(r) for r in data["crossplay"]),
        paired=tuple(_paired_from_dict(r) for r in data["paired"]),
        faults=tuple(_fault_from_dict(r) for r in data["faults"]),
        unfinished=tuple(_unfinished_from_dict(r) for r in data["unfinished"]),
        n_games=int(data["n_games"]),
        n_finished=int(data["n_finished"]),
        n_blocks=int(data["n_blocks"]),
        seed=int(data["seed"]),
        n_boot=int(data["n_boot"]),
    )


def _entrant_to_dict(r: EntrantStats) -> dict[str, Any]:
    return {
        f.name: (v.to_dict() if isinstance(v, Estimate) else v)
        for f in dataclasses.fields(r)
        for v in (getattr(r, f.name),)
    }


def _entrant_from_dict(data: Mapping[str, Any]) -> EntrantStats:
    return EntrantStats(
        entrant=str(data["entrant"]),
        games=int(data["games"]),
        unfinished=int(data["unfinished"]),
        points_per_game=Estimate.from_dict(data["points_per_game"]),
        giver_points_per_round=Estimate.from_dict(data["giver_points_per_round"]),
        guesser_points_per_pawn=Estimate.from_dict(data["guesser_points_per_pawn"]),
        frame_share=Estimate.from_dict(data["frame_share"]),
        win_rate=Estimate.from_dict(data["win_rate"]),
        wins=float(data["wins"]),
        mu=float(data["mu"]),
        sigma=float(data["sigma"]),
        ordinal=float(data["ordinal"]),
        faults=int(data["faults"]),
    )


def _crossplay_from_dict(data: Mapping[str, Any]) -> CrossPlay:
    return CrossPlay(
        str(data["giver"]),
        str(data["guesser"]),
        int(data["pawns"]),
        int(data["rounds"]),
        float(data["points_per_pawn"]),
        float(data["frame_share"]),
    )


def _paired_to_dict(r: PairedComparison) -> dict[str, Any]:
    return {
        "a": r.a,
        "b": r.b,
        "blocks": r.blocks,
        "difference": r.difference.to_dict(),
        "a_better": r.a_better,
        "ties": r.ties,
    }


def _paired_from_dict(data: Mapping[str, Any]) -> PairedComparison:
    return PairedComparison(
        str(data["a"]),
        str(data["b"]),
        int(data["blocks"]),
        Estimate.from_dict(data["difference"]),
        float(data["a_better"]),
        float(data["ties"]),
    )


def _fault_from_dict(data: Mapping[str, Any]) -> FaultCount:
    return FaultCount(
        str(data["entrant"]), str(data["kind"]), int(data["count"]), int(data["in_unfinished"])
    )


def _unfinished_to_dict(r: UnfinishedGame) -> dict[str, Any]:
    return {
        "game": r.game,
        "seed": r.seed,
        "seats": list(r.seats),
        "rounds": r.rounds,
        "error": r.error,
    }


def _unfinished_from_dict(data: Mapping[str, Any]) -> UnfinishedGame:
    error = data["error"]
    return UnfinishedGame(
        int(data["game"]),
        int(data["seed"]),
        tuple(str(s) for s in data["seats"]),
        int(data["rounds"]),
        None if error is None else str(error),
    )


# -- files -------------------------------------------------------------------------------------


def write_json(report: ReportTables, path: str | os.PathLike[str] | None = None) -> str:
    """The report as JSON text (indented, keys in a fixed order); also written to ``path``."""
    text = json.dumps(report_to_dict(report), indent=2, allow_nan=False) + "\n"
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def write_csv(report: ReportTables, directory: str | os.PathLike[str]) -> list[Path]:
    """Write one CSV per table into ``directory`` (made if missing); return the paths.

    ``entrants.csv``, ``crossplay.csv``, ``paired.csv``, ``faults.csv`` and ``unfinished.csv``;
    an estimate takes three columns (``x``, ``x_low``, ``x_high``) and a missing value is an
    empty cell.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    tables: dict[str, tuple[list[str], list[list[object]]]] = {
        "entrants.csv": _entrant_table(report.entrants),
        "crossplay.csv": (
            [f.name for f in dataclasses.fields(CrossPlay)],
            [list(dataclasses.astuple(r)) for r in report.crossplay],
        ),
        "paired.csv": (
            ["a", "b", "blocks", *_estimate_header("difference"), "a_better", "ties"],
            [
                [r.a, r.b, r.blocks, *_estimate_cells(r.difference), r.a_better, r.ties]
                for r in report.paired
            ],
        ),
        "faults.csv": (
            [f.name for f in dataclasses.fields(FaultCount)],
            [list(dataclasses.astuple(r)) for r in report.faults],
        ),
        "unfinished.csv": (
            ["game", "seed", "seats", "rounds", "error"],
            [[r.game, r.seed, " ".join(r.seats), r.rounds, r.error] for r in report.unfinished],
        ),
    }
    paths = []
    for name, (header, rows) in tables.items():
        path = out / name
        with path.open("w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(header)
            writer.writerows([safe_row("" if v is None else v for v in row) for row in rows])
        paths.append(path)
    return paths


def _estimate_header(name: str) -> list[str]:
    return [name, f"{name}_low", f"{name}_high"]


def _estimate_cells(e: Estimate) -> list[object]:
    return [e.mean, e.low, e.high]


def _entrant_table(rows: Sequence[EntrantStats]) -> tuple[list[str], list[list[object]]]:
    header = ["entrant", "games", "unfinished", "mu", "sigma", "ordinal"]
    for name in _ENTRANT_ESTIMATES:
        header += _estimate_header(name)
    header += ["giver_rounds", "guesser_pawns", "wins", "faults"]
    out: list[list[object]] = []
    for r in rows:
        line: list[object] = [r.entrant, r.games, r.unfinished, r.mu, r.sigma, r.ordinal]
        for name in _ENTRANT_ESTIMATES:
            line += _estimate_cells(getattr(r, name))
        line += [r.giver_points_per_round.n, r.guesser_points_per_pawn.n, r.wins, r.faults]
        out.append(line)
    return header, out
