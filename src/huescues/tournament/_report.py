"""The tournament report: statistics, confidence intervals and ratings from the results file.

:meth:`Report.from_games` reads the games (one plain dict per game, as in the results file's JSON
lines) and computes, per entrant, points per game, per round as clue giver (R16), per pawn as
guesser (R15), the share of pawns in the frame and the win rate, each with a bootstrap 95%
confidence interval over blocks of games that share a seed; Plackett-Luce ratings from the final
scores (``openskill``); a cross-play table of every giver with every guesser; paired comparisons
of entrants over the blocks both played; faults by entrant and kind; and the unfinished games.
See ``docs/reports.md`` for what each number means.

``rich`` (the terminal tables), ``openskill`` (the ratings) and matplotlib (the PNG) are imported
only when needed.
"""

from __future__ import annotations

import csv
import dataclasses
import importlib
import json
import math
import os
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import numpy as np

from huescues._bootstrap import ratio_interval, resample
from huescues.engine import Cell

__all__ = [
    "CrossPlay",
    "EntrantStats",
    "Estimate",
    "FaultCount",
    "PairedComparison",
    "Report",
    "UnfinishedGame",
]

REPORT_FORMAT = 1
#: The results-file format this report reads.
GAME_FORMAT = 1
#: openskill's defaults; an entrant with no finished game keeps them.
_MU, _SIGMA = 25.0, 25.0 / 3.0
#: Board size limits for parsing squares: any board of up to 26 rows (R1).
_ROWS, _COLS = 26, 999
_FAULT_KINDS = ("exception", "illegal", "timeout")

# A block: games of one seed and one lineup, rotated (seed, players, board, lineup).
_BlockKey = tuple[int, int, str, tuple[str, ...]]


def _import(module: str, *, what: str, extra: str) -> Any:
    """Import an optional dependency by name, with an error that says how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"{what} needs {extra}: pip install '{extra}'") from e


# -- the numbers -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its bootstrap 95% confidence interval.

    ``n`` is the number of observations averaged (seats, rounds, pawns or blocks) and
    ``blocks`` the number of blocks they came from, the unit that the bootstrap resamples.
    ``mean``, ``low`` and ``high`` are ``None`` when there is nothing to average.
    """

    mean: float | None
    low: float | None
    high: float | None
    n: int
    blocks: int

    def format(self, spec: str = ".2f") -> str:
        """``"12.30 [11.10, 13.50]"``, or ``"-"`` when there is no data."""
        if self.mean is None or self.low is None or self.high is None:
            return "-"
        return f"{self.mean:{spec}} [{self.low:{spec}}, {self.high:{spec}}]"

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`."""
        return cls(
            _opt_float(data["mean"]),
            _opt_float(data["low"]),
            _opt_float(data["high"]),
            int(data["n"]),
            int(data["blocks"]),
        )


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

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            f.name: (v.to_dict() if isinstance(v, Estimate) else v)
            for f in dataclasses.fields(self)
            for v in (getattr(self, f.name),)
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`."""
        return cls(
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

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`."""
        return cls(
            str(data["giver"]),
            str(data["guesser"]),
            int(data["pawns"]),
            int(data["rounds"]),
            float(data["points_per_pawn"]),
            float(data["frame_share"]),
        )


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

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "a": self.a,
            "b": self.b,
            "blocks": self.blocks,
            "difference": self.difference.to_dict(),
            "a_better": self.a_better,
            "ties": self.ties,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`."""
        return cls(
            str(data["a"]),
            str(data["b"]),
            int(data["blocks"]),
            Estimate.from_dict(data["difference"]),
            float(data["a_better"]),
            float(data["ties"]),
        )


@dataclass(frozen=True, slots=True)
class FaultCount:
    """How many faults of one kind an entrant made (in finished and unfinished games)."""

    entrant: str
    kind: str
    count: int
    #: How many of them were in games that could not finish.
    in_unfinished: int

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`."""
        return cls(
            str(data["entrant"]), str(data["kind"]), int(data["count"]), int(data["in_unfinished"])
        )


@dataclass(frozen=True, slots=True)
class UnfinishedGame:
    """A game that could not finish: listed, never dropped silently."""

    game: int
    seed: int
    seats: tuple[str, ...]
    #: Rounds completed before it stopped.
    rounds: int
    error: str | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "game": self.game,
            "seed": self.seed,
            "seats": list(self.seats),
            "rounds": self.rounds,
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`."""
        error = data["error"]
        return cls(
            int(data["game"]),
            int(data["seed"]),
            tuple(str(s) for s in data["seats"]),
            int(data["rounds"]),
            None if error is None else str(error),
        )


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


# -- gathering ---------------------------------------------------------------------------------


class _Sums:
    """Per-block sums and counts of one statistic of one entrant."""

    __slots__ = ("counts", "sums")

    def __init__(self) -> None:
        self.sums: dict[int, float] = {}
        self.counts: dict[int, float] = {}

    def add(self, block: int, value: float, count: float = 1.0) -> None:
        self.sums[block] = self.sums.get(block, 0.0) + value
        self.counts[block] = self.counts.get(block, 0.0) + count


def _bootstrap(sums: _Sums, *, seed: int, key: str, n_boot: int) -> Estimate:
    """The ratio of sums over blocks, with a percentile bootstrap CI resampling whole blocks.

    The generator is seeded from ``seed`` and ``key`` (the statistic and entrant), so each
    interval is reproducible and does not depend on the order the others were computed in.
    """
    blocks = sorted(b for b, c in sums.counts.items() if c > 0)
    if not blocks:
        return Estimate(None, None, None, 0, 0)
    s = np.array([sums.sums[b] for b in blocks], dtype=np.float64)
    c = np.array([sums.counts[b] for b in blocks], dtype=np.float64)
    rng = np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])
    found = ratio_interval(s, c, resample(len(blocks), n_boot, rng))
    assert found is not None, "only blocks with a count are kept"
    return Estimate(*found, round(float(c.sum())), len(blocks))


def _block_key(game: Mapping[str, Any]) -> _BlockKey:
    seats = tuple(str(s) for s in game["seats"])
    lineup = min((seats[i:] + seats[:i] for i in range(len(seats))), default=())
    return (int(game["seed"]), int(game["n_players"]), str(game["board_id"]), lineup)


def _check(games: Sequence[Mapping[str, Any]]) -> None:
    needed = ("format", "game", "seed", "n_players", "board_id", "seats", "status", "scores")
    for i, game in enumerate(games):
        missing = [k for k in needed if k not in game]
        if missing:
            raise ValueError(f"game {i} of the results lacks {', '.join(missing)}")
        if game["format"] != GAME_FORMAT:
            raise ValueError(
                f"game {game['game']} is in results format {game['format']!r}; "
                f"this report reads format {GAME_FORMAT}"
            )
        if game["status"] not in ("finished", "unfinished"):
            raise ValueError(
                f"game {game['game']} has status {game['status']!r}, not 'finished' or 'unfinished'"
            )
        if len(game["seats"]) != game["n_players"]:
            raise ValueError(
                f"game {game['game']} has {len(game['seats'])} seats for "
                f"{game['n_players']} players"
            )


def _ratings(
    games: Iterable[Mapping[str, Any]], entrants: Sequence[str]
) -> dict[str, tuple[float, float]]:
    """Plackett-Luce ``(mu, sigma)`` per entrant from the final scores of finished games.

    Games are processed in order. Every seat is a team of one carrying its entrant's current
    rating; ranks come from the scores (equal scores share a rank). An entrant in several seats
    of a game takes the mean of its seats' new ratings, so it is rated once per game.
    """
    ratings = dict.fromkeys(entrants, (_MU, _SIGMA))
    games = list(games)
    if not games:
        return ratings
    models = _import("openskill.models", what="Plackett-Luce ratings", extra="openskill")
    model: Any = models.PlackettLuce()
    for game in games:
        seats = [str(s) for s in game["seats"]]
        if len(seats) < 2:
            continue
        scores = [float(x) for x in game["scores"]]
        ranks = [1 + sum(o > x for o in scores) for x in scores]
        teams = [[model.rating(mu=ratings[e][0], sigma=ratings[e][1], name=e)] for e in seats]
        new: Any = model.rate(teams, ranks=ranks)
        updates: dict[str, list[tuple[float, float]]] = {}
        for e, team in zip(seats, new, strict=True):
            updates.setdefault(e, []).append((float(team[0].mu), float(team[0].sigma)))
        for e, values in updates.items():
            ratings[e] = (
                math.fsum(v[0] for v in values) / len(values),
                math.fsum(v[1] for v in values) / len(values),
            )
    return ratings


# -- the report --------------------------------------------------------------------------------


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

    @classmethod
    def from_games(
        cls,
        games: Sequence[Mapping[str, Any]],
        *,
        entrants: Sequence[str] | None = None,
        seed: int = 0,
        n_boot: int = 2000,
    ) -> Self:
        """Compute the report from the games, one plain dict per game (a results-file line).

        ``entrants`` fixes the entrants and their order (an entrant that finished no game still
        gets a line); by default, the order in which they first appear. ``seed`` (at least 0)
        seeds the bootstrap, which draws ``n_boot`` resamples of the blocks per interval.
        """
        if seed < 0:
            raise ValueError(f"the bootstrap seed must be at least 0, not {seed}")
        if n_boot < 1:
            raise ValueError(f"n_boot must be at least 1, not {n_boot}")
        _check(games)
        ordered = sorted(games, key=lambda g: int(g["game"]))
        seen = list(dict.fromkeys(str(s) for g in ordered for s in g["seats"]))
        if entrants is None:
            names = seen
        else:
            names = list(dict.fromkeys(entrants))
            unknown = [e for e in seen if e not in names]
            if unknown:
                raise ValueError(
                    f"the games have entrants not in the list given: {', '.join(unknown)}"
                )

        blocks: dict[_BlockKey, int] = {}
        block_of: list[int] = []
        for g in ordered:
            block_of.append(blocks.setdefault(_block_key(g), len(blocks)))
        unfinished_blocks = {
            b for g, b in zip(ordered, block_of, strict=True) if g["status"] != "finished"
        }

        stats = ("points", "giver", "guesser", "frame", "win")
        sums = {(e, s): _Sums() for e in names for s in stats}
        seats_played = dict.fromkeys(names, 0)
        seats_unfinished = dict.fromkeys(names, 0)
        wins = dict.fromkeys(names, 0.0)
        # (giver, guesser) -> [pawns, rounds, points, in frame]
        cross: dict[tuple[str, str], list[float]] = {}
        # block -> entrant -> [score sum, seats]
        by_block: dict[int, dict[str, list[float]]] = {}
        fault_counts: dict[tuple[str, str], list[int]] = {}
        unfinished: list[UnfinishedGame] = []

        for g, block in zip(ordered, block_of, strict=True):
            seats = [str(s) for s in g["seats"]]
            finished = g["status"] == "finished"
            for fault in g.get("faults") or ():
                who = str(fault.get("entrant") or seats[int(fault["seat"])])
                if who not in seats_played:
                    raise ValueError(f"game {g['game']} has a fault by unknown entrant {who!r}")
                counts = fault_counts.setdefault((who, str(fault["kind"])), [0, 0])
                counts[0] += 1
                counts[1] += not finished
            if not finished:
                for e in seats:
                    seats_unfinished[e] += 1
                error = g.get("error")
                unfinished.append(
                    UnfinishedGame(
                        int(g["game"]),
                        int(g["seed"]),
                        tuple(seats),
                        len(g.get("rounds") or ()),
                        None if error is None else str(error),
                    )
                )
                continue

            scores = [float(x) for x in g["scores"]]
            winners = {int(w) for w in g.get("winners") or ()}
            for seat, e in enumerate(seats):
                seats_played[e] += 1
                sums[e, "points"].add(block, scores[seat])
                share = 1.0 / len(winners) if seat in winners else 0.0
                wins[e] += share
                sums[e, "win"].add(block, share)
                totals = by_block.setdefault(block, {}).setdefault(e, [0.0, 0.0])
                totals[0] += scores[seat]
                totals[1] += 1

            for rnd in g.get("rounds") or ():
                if rnd.get("tiebreak"):
                    continue
                giver = int(rnd["giver"])
                points = [float(p) for p in rnd["points"]]
                sums[seats[giver], "giver"].add(block, points[giver])
                target = Cell.parse(str(rnd["target"]), rows=_ROWS, cols=_COLS)
                per_seat: dict[int, list[int]] = {}  # seat -> [pawns, in frame]
                for seat, square in rnd["pawns"]:
                    cell = Cell.parse(str(square), rows=_ROWS, cols=_COLS)
                    tally = per_seat.setdefault(int(seat), [0, 0])
                    tally[0] += 1
                    tally[1] += cell.distance(target) <= 1
                for seat, (n_pawns, inside) in sorted(per_seat.items()):
                    e = seats[seat]
                    sums[e, "guesser"].add(block, points[seat], n_pawns)
                    sums[e, "frame"].add(block, inside, n_pawns)
                    row = cross.setdefault((seats[giver], e), [0, 0, 0.0, 0])
                    row[0] += n_pawns
                    row[1] += 1
                    row[2] += points[seat]
                    row[3] += inside

        ratings = _ratings((g for g in ordered if g["status"] == "finished"), names)

        def estimate(e: str, stat: str) -> Estimate:
            return _bootstrap(sums[e, stat], seed=seed, key=f"{stat}\0{e}", n_boot=n_boot)

        entrant_faults = dict.fromkeys(names, 0)
        for (e, _), counts in fault_counts.items():
            entrant_faults[e] += counts[0]
        rows = tuple(
            EntrantStats(
                entrant=e,
                games=seats_played[e],
                unfinished=seats_unfinished[e],
                points_per_game=estimate(e, "points"),
                giver_points_per_round=estimate(e, "giver"),
                guesser_points_per_pawn=estimate(e, "guesser"),
                frame_share=estimate(e, "frame"),
                win_rate=estimate(e, "win"),
                wins=wins[e],
                mu=ratings[e][0],
                sigma=ratings[e][1],
                ordinal=ratings[e][0] - 3.0 * ratings[e][1],
                faults=entrant_faults[e],
            )
            for e in names
        )

        rank = {e: i for i, e in enumerate(names)}
        crossplay = tuple(
            CrossPlay(giver, guesser, int(v[0]), int(v[1]), v[2] / v[0], v[3] / v[0])
            for (giver, guesser), v in sorted(
                cross.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])
            )
        )

        paired: list[PairedComparison] = []
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                diffs = _Sums()
                for block, lineup in sorted(by_block.items()):
                    if block in unfinished_blocks or a not in lineup or b not in lineup:
                        continue
                    ta, tb = lineup[a], lineup[b]
                    diffs.add(block, ta[0] / ta[1] - tb[0] / tb[1])
                if not diffs.sums:
                    continue
                values = list(diffs.sums.values())
                paired.append(
                    PairedComparison(
                        a,
                        b,
                        len(values),
                        _bootstrap(diffs, seed=seed, key=f"paired\0{a}\0{b}", n_boot=n_boot),
                        sum(v > 0 for v in values) / len(values),
                        sum(v == 0 for v in values) / len(values),
                    )
                )

        def kind_order(kind: str) -> tuple[int, str]:
            return (_FAULT_KINDS.index(kind) if kind in _FAULT_KINDS else len(_FAULT_KINDS), kind)

        faults = tuple(
            FaultCount(e, kind, counts[0], counts[1])
            for (e, kind), counts in sorted(
                fault_counts.items(), key=lambda kv: (rank[kv[0][0]], kind_order(kv[0][1]))
            )
        )
        return cls(
            entrants=rows,
            crossplay=crossplay,
            paired=tuple(paired),
            faults=faults,
            unfinished=tuple(unfinished),
            n_games=len(ordered),
            n_finished=len(ordered) - len(unfinished),
            n_blocks=len(blocks),
            seed=seed,
            n_boot=n_boot,
        )

    @classmethod
    def from_jsonl(cls, path: str | os.PathLike[str], **options: Any) -> Self:
        """Read a results file (one game as JSON per line) and compute its report."""
        with open(path, encoding="utf-8") as f:
            games = [json.loads(line) for line in f if line.strip()]
        return cls.from_games(games, **options)

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

    # -- plain data ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (``None`` where a statistic has no data)."""
        return {
            "format": REPORT_FORMAT,
            "seed": self.seed,
            "n_boot": self.n_boot,
            "n_games": self.n_games,
            "n_finished": self.n_finished,
            "n_blocks": self.n_blocks,
            "entrants": [r.to_dict() for r in self.entrants],
            "crossplay": [r.to_dict() for r in self.crossplay],
            "paired": [r.to_dict() for r in self.paired],
            "faults": [r.to_dict() for r in self.faults],
            "unfinished": [r.to_dict() for r in self.unfinished],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`."""
        if data.get("format") != REPORT_FORMAT:
            raise ValueError(f"report format {data.get('format')!r} is not {REPORT_FORMAT}")
        return cls(
            entrants=tuple(EntrantStats.from_dict(r) for r in data["entrants"]),
            crossplay=tuple(CrossPlay.from_dict(r) for r in data["crossplay"]),
            paired=tuple(PairedComparison.from_dict(r) for r in data["paired"]),
            faults=tuple(FaultCount.from_dict(r) for r in data["faults"]),
            unfinished=tuple(UnfinishedGame.from_dict(r) for r in data["unfinished"]),
            n_games=int(data["n_games"]),
            n_finished=int(data["n_finished"]),
            n_blocks=int(data["n_blocks"]),
            seed=int(data["seed"]),
            n_boot=int(data["n_boot"]),
        )

    def to_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """The report as JSON text (indented, keys in a fixed order); also written to ``path``."""
        text = json.dumps(self.to_dict(), indent=2, allow_nan=False) + "\n"
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_csv(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write one CSV per table into ``directory`` (made if missing); return the paths.

        ``entrants.csv``, ``crossplay.csv``, ``paired.csv``, ``faults.csv`` and
        ``unfinished.csv``; an estimate takes three columns (``x``, ``x_low``, ``x_high``) and
        a missing value is an empty cell.
        """
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        tables: dict[str, tuple[list[str], list[list[object]]]] = {
            "entrants.csv": _entrant_table(self.entrants),
            "crossplay.csv": (
                [f.name for f in dataclasses.fields(CrossPlay)],
                [list(dataclasses.astuple(r)) for r in self.crossplay],
            ),
            "paired.csv": (
                ["a", "b", "blocks", *_estimate_header("difference"), "a_better", "ties"],
                [
                    [r.a, r.b, r.blocks, *_estimate_cells(r.difference), r.a_better, r.ties]
                    for r in self.paired
                ],
            ),
            "faults.csv": (
                [f.name for f in dataclasses.fields(FaultCount)],
                [list(dataclasses.astuple(r)) for r in self.faults],
            ),
            "unfinished.csv": (
                ["game", "seed", "seats", "rounds", "error"],
                [[r.game, r.seed, " ".join(r.seats), r.rounds, r.error] for r in self.unfinished],
            ),
        }
        paths = []
        for name, (header, rows) in tables.items():
            path = out / name
            with path.open("w", encoding="utf-8", newline="") as f:
                writer = csv.writer(f, lineterminator="\n")
                writer.writerow(header)
                writer.writerows([["" if v is None else v for v in row] for row in rows])
            paths.append(path)
        return paths

    # -- the terminal --------------------------------------------------------------------------
    def print(self, console: Any = None) -> None:
        """Print the report as tables with ``rich`` (to ``console``, or a new one on stdout)."""
        rich_console = _import("rich.console", what="printing the report", extra="rich")
        rich_table = _import("rich.table", what="printing the report", extra="rich")
        if console is None:
            console = rich_console.Console()
        table_cls: Any = rich_table.Table

        console.print(
            f"[bold]{self.n_games} games[/bold], {self.n_finished} finished, "
            f"{self.n_blocks} blocks; 95% bootstrap intervals over blocks "
            f"({self.n_boot} resamples, seed {self.seed})"
        )
        ranking = self.ranking()
        t = table_cls(title="Entrants, by rating ordinal")
        t.add_column("Entrant", no_wrap=True)
        for name in (
            "Seats",
            "Rating",
            "Ordinal",
            "Points/game",
            "Win rate",
            "Faults",
            "Unfinished",
        ):
            t.add_column(name, justify="right")
        for r in ranking:
            t.add_row(
                r.entrant,
                str(r.games),
                f"{r.mu:.1f} ± {r.sigma:.1f}",
                f"{r.ordinal:.1f}",
                r.points_per_game.format(".1f"),
                _percent(r.win_rate),
                str(r.faults),
                str(r.unfinished),
            )
        console.print(t)

        t = table_cls(title="Points by role (regular rounds), by rating ordinal")
        t.add_column("Entrant", no_wrap=True)
        for name in ("Giver rounds", "Giver pts/round", "Pawns", "Guesser pts/pawn", "In frame"):
            t.add_column(name, justify="right")
        for r in ranking:
            t.add_row(
                r.entrant,
                str(r.giver_points_per_round.n),
                r.giver_points_per_round.format(".2f"),
                str(r.guesser_points_per_pawn.n),
                r.guesser_points_per_pawn.format(".2f"),
                _percent(r.frame_share),
            )
        console.print(t)

        if self.crossplay:
            t = table_cls(title="Cross-play (regular rounds)")
            for name in ("Giver", "Guesser", "Pawns", "Points/pawn", "In frame"):
                t.add_column(name, justify="left" if name in ("Giver", "Guesser") else "right")
            for c in self.crossplay:
                t.add_row(
                    c.giver,
                    c.guesser,
                    str(c.pawns),
                    f"{c.points_per_pawn:.2f}",
                    f"{c.frame_share:.0%}",
                )
            console.print(t)

        if self.paired:
            t = table_cls(title="Paired comparisons (A minus B)")
            for name in ("A", "B", "Blocks", "Difference", "A better", "Ties"):
                t.add_column(name, justify="left" if name in ("A", "B") else "right")
            for p in self.paired:
                t.add_row(
                    p.a,
                    p.b,
                    str(p.blocks),
                    p.difference.format("+.2f"),
                    f"{p.a_better:.0%}",
                    f"{p.ties:.0%}",
                )
            console.print(t)

        if self.faults:
            t = table_cls(title="Faults")
            for name in ("Entrant", "Kind", "Count", "In unfinished games"):
                t.add_column(name, justify="left" if name in ("Entrant", "Kind") else "right")
            for f in self.faults:
                t.add_row(f.entrant, f.kind, str(f.count), str(f.in_unfinished))
            console.print(t)
        else:
            console.print("No faults.")

        if self.unfinished:
            t = table_cls(title="Unfinished games (left out of the score statistics)")
            for name in ("Game", "Seed", "Seats", "Rounds", "Error"):
                t.add_column(name)
            for u in self.unfinished:
                t.add_row(
                    str(u.game), str(u.seed), ", ".join(u.seats), str(u.rounds), u.error or ""
                )
            console.print(t)
        else:
            console.print("Every game finished.")

    # -- the picture ---------------------------------------------------------------------------
    def plot(self, path: str | os.PathLike[str], *, dpi: int = 120) -> None:
        """Draw points per game with their CIs, and the cross-play heat map, to a PNG file.

        Needs matplotlib: ``pip install 'huescues[plot]'``.
        """
        try:
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.figure import Figure
        except ImportError as e:
            raise ImportError(
                "plotting the report needs matplotlib: pip install 'huescues[plot]'"
            ) from e

        ranking = [r for r in self.ranking() if r.points_per_game.mean is not None][::-1]
        names = [r.entrant for r in self.entrants]
        givers = [e for e in names if any(c.giver == e for c in self.crossplay)]
        guessers = [e for e in names if any(c.guesser == e for c in self.crossplay)]
        height = max(3.5, 0.45 * max(len(ranking), len(givers)) + 1.5)
        fig = Figure(figsize=(12.0, height))
        FigureCanvasAgg(fig)
        left: Any = fig.add_subplot(1, 2, 1)
        right: Any = fig.add_subplot(1, 2, 2)

        if ranking:
            ys = np.arange(len(ranking))
            means = np.array([r.points_per_game.mean for r in ranking], dtype=np.float64)
            lows = np.array([r.points_per_game.low for r in ranking], dtype=np.float64)
            highs = np.array([r.points_per_game.high for r in ranking], dtype=np.float64)
            left.errorbar(
                means, ys, xerr=[means - lows, highs - means], fmt="o", capsize=4, color="C0"
            )
            left.set_yticks(ys, [r.entrant for r in ranking])
        else:
            left.text(0.5, 0.5, "no finished games", ha="center", va="center")
        left.set_xlabel("points per game (95% bootstrap CI)")
        left.set_title("Entrants, best rated at the top")
        left.grid(axis="x", alpha=0.3)

        if self.crossplay:
            grid = np.full((len(givers), len(guessers)), np.nan)
            for c in self.crossplay:
                grid[givers.index(c.giver), guessers.index(c.guesser)] = c.points_per_pawn
            image = right.imshow(grid, cmap="viridis", aspect="auto")
            fig.colorbar(image, ax=right, label="guesser points per pawn")
            right.set_xticks(np.arange(len(guessers)), guessers, rotation=30, ha="right")
            right.set_yticks(np.arange(len(givers)), givers)
            low, top = float(np.nanmin(grid)), float(np.nanmax(grid))
            for c in self.crossplay:
                i, j = givers.index(c.giver), guessers.index(c.guesser)
                # viridis is dark at the low end and light at the high end.
                light = top > low and (c.points_per_pawn - low) / (top - low) > 0.5
                ink = "black" if light else "white"
                right.text(j, i, f"{c.points_per_pawn:.2f}", ha="center", va="center", color=ink)
            right.set_xlabel("guesser")
            right.set_ylabel("clue giver")
        else:
            right.text(0.5, 0.5, "no regular rounds", ha="center", va="center")
        right.set_title("Cross-play (regular rounds)")
        fig.tight_layout()
        fig.savefig(os.fspath(path), format="png", dpi=dpi)


# -- helpers for the tables --------------------------------------------------------------------


def _percent(e: Estimate) -> str:
    if e.mean is None or e.low is None or e.high is None:
        return "-"
    return f"{e.mean:.0%} [{e.low:.0%}, {e.high:.0%}]"


def _estimate_header(name: str) -> list[str]:
    return [name, f"{name}_low", f"{name}_high"]


def _estimate_cells(e: Estimate) -> list[object]:
    return [e.mean, e.low, e.high]


def _entrant_table(rows: Sequence[EntrantStats]) -> tuple[list[str], list[list[object]]]:
    header = ["entrant", "games", "unfinished", "mu", "sigma", "ordinal"]
    for name in (
        "points_per_game",
        "giver_points_per_round",
        "guesser_points_per_pawn",
        "frame_share",
        "win_rate",
    ):
        header += _estimate_header(name)
    header += ["giver_rounds", "guesser_pawns", "wins", "faults"]
    out: list[list[object]] = []
    for r in rows:
        line: list[object] = [r.entrant, r.games, r.unfinished, r.mu, r.sigma, r.ordinal]
        for e in (
            r.points_per_game,
            r.giver_points_per_round,
            r.guesser_points_per_pawn,
            r.frame_share,
            r.win_rate,
        ):
            line += _estimate_cells(e)
        line += [r.giver_points_per_round.n, r.guesser_points_per_pawn.n, r.wins, r.faults]
        out.append(line)
    return header, out
