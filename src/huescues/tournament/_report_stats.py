"""The report's statistics, computed from the games (one plain dict per game, as in the results
file's JSON lines): per entrant, points per game, per round as clue giver (R16), per pawn as
guesser (R15), the share of pawns in the frame and the win rate, each with a bootstrap 95%
confidence interval over blocks of games that share a seed; Plackett-Luce ratings from the final
scores (openskill's ``PlackettLuce``, in ``_ratings``); a cross-play table of every
giver with every guesser; paired comparisons of entrants over the blocks both played; faults by
entrant and kind; and the unfinished games."""

from __future__ import annotations

import dataclasses
import functools
import json
import zlib
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Cell
from huescues.stats import Estimate, ratio_interval, resample

from ._ratings import PlackettLuce
from ._report import (
    CrossPlay,
    EntrantStats,
    FaultCount,
    PairedComparison,
    Report,
    UnfinishedGame,
)

__all__ = ["GAME_FORMAT", "compute_report", "compute_report_ordered", "report_view"]

#: The results-file format this report reads.
GAME_FORMAT = 1
#: Board size limits for parsing squares: any board of up to 26 rows (R1).
_ROWS, _COLS = 26, 999
_FAULT_KINDS = ("exception", "illegal", "timeout")
_STATS = ("points", "giver", "guesser", "frame", "win")

# A block: games of one seed and one lineup, rotated (seed, players, board, lineup).
_BlockKey = tuple[int, int, str, tuple[str, ...]]


def compute_report(
    games: Sequence[Mapping[str, Any]],
    *,
    entrants: Sequence[str] | None = None,
    seed: int = 0,
    n_boot: int = 2000,
) -> Report:
    """The report of ``games`` (see :meth:`Report.from_games`)."""
    _check_options(seed, n_boot)
    _check(games)
    ordered = sorted(games, key=lambda g: int(g["game"]))
    names = list(dict.fromkeys(str(s) for g in ordered for s in g["seats"]))
    if entrants is not None:
        names = _given(entrants, names)
    return compute_report_ordered(ordered, entrants=names, seed=seed, n_boot=n_boot)


def compute_report_ordered(
    games: Iterable[Mapping[str, Any]],
    *,
    entrants: Sequence[str],
    seed: int = 0,
    n_boot: int = 2000,
) -> Report:
    """The report of games that come in game order, in one pass that keeps no game: what
    grows is a few numbers per block (for the bootstrap) and the unfinished games' entries."""
    _check_options(seed, n_boot)
    names = list(dict.fromkeys(entrants))
    tally = _Tally(names)
    ratings = PlackettLuce(names)
    unknown: dict[str, None] = {}
    n_games = 0
    for i, g in enumerate(games):
        _check_game(i, g)
        for e in g["seats"]:
            if e not in tally.seats_played:
                unknown.setdefault(str(e))
        if unknown:
            continue
        n_games += 1
        tally.add(g)
        if g["status"] == "finished":
            ratings.add([str(e) for e in g["seats"]], [float(x) for x in g["scores"]])
    if unknown:
        raise ValueError(f"the games have entrants not in the list given: {', '.join(unknown)}")
    rank = {e: i for i, e in enumerate(names)}
    return Report(
        entrants=tuple(tally.entrant_stats(e, ratings.ratings[e], seed, n_boot) for e in names),
        crossplay=tally.crossplay(rank),
        paired=tally.paired(names, seed, n_boot),
        faults=tally.fault_table(rank),
        unfinished=tuple(tally.unfinished),
        n_games=n_games,
        n_finished=n_games - len(tally.unfinished),
        n_blocks=len(tally.blocks),
        seed=seed,
        n_boot=n_boot,
    )


def report_view(line: str) -> dict[str, Any]:
    """A results line parsed without its ``record`` (half the line, which the report does not
    read): the keys are sorted, so ``"record"`` is followed by ``"rounds"``, and a quote inside
    a JSON string is escaped, so ``,"rounds":`` cannot occur inside the record."""
    start = line.find(',"record":{')
    if start >= 0:
        stop = line.find(',"rounds":', start)
        if stop > start:
            view: dict[str, Any] = json.loads(line[:start] + line[stop:])
            return view
    whole: dict[str, Any] = json.loads(line)
    return whole


def _check_options(seed: int, n_boot: int) -> None:
    if seed < 0:
        raise ValueError(f"the bootstrap seed must be at least 0, not {seed}")
    if n_boot < 1:
        raise ValueError(f"n_boot must be at least 1, not {n_boot}")


def _given(entrants: Sequence[str], seen: Sequence[str]) -> list[str]:
    names = list(dict.fromkeys(entrants))
    unknown = [e for e in seen if e not in names]
    if unknown:
        raise ValueError(f"the games have entrants not in the list given: {', '.join(unknown)}")
    return names


# -- gathering ---------------------------------------------------------------------------------

#: Resamples drawn at a time: the bootstrap of many blocks is done in pieces of about this
#: many draws, so its memory does not grow with the number of blocks times ``n_boot``.
_DRAWS_AT_ONCE = 1 << 20


class _Sums:
    """Per-block sums and counts of one statistic of one entrant, as arrays indexed by block
    (16 bytes a block)."""

    __slots__ = ("counts", "sums")

    def __init__(self) -> None:
        self.sums = array("d")
        self.counts = array("d")

    def add(self, block: int, value: float, count: float = 1.0) -> None:
        if block >= len(self.sums):
            zeros = bytes(8 * (block + 1 - len(self.sums)))
            self.sums.frombytes(zeros)
            self.counts.frombytes(zeros)
        self.sums[block] += value
        self.counts[block] += count

    def arrays(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return np.frombuffer(self.sums, dtype=np.float64), np.frombuffer(
            self.counts, dtype=np.float64
        )

    def estimate(self, *, seed: int, key: str, n_boot: int) -> Estimate:
        """The ratio of sums over blocks, with a percentile bootstrap CI resampling whole blocks.

        The generator is seeded from ``seed`` and ``key`` (the statistic and entrant), so each
        interval is reproducible and does not depend on the order the others were computed in.
        """
        sums, counts = self.arrays()
        used = counts > 0
        return _estimate(sums[used], counts[used], seed=seed, key=key, n_boot=n_boot)


def _estimate(
    s: NDArray[np.float64], c: NDArray[np.float64], *, seed: int, key: str, n_boot: int
) -> Estimate:
    """:func:`ratio_interval` over ``resample(len(s), n_boot, rng)``, with the resamples drawn
    a piece at a time (the same draws, in the same order, so the same interval)."""
    n = len(s)
    if n == 0:
        return Estimate.no_data(n=0, blocks=0)
    rng = np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])
    rows = max(1, _DRAWS_AT_ONCE // n)
    if rows >= n_boot:
        found = ratio_interval(s, c, resample(n, n_boot, rng))
    else:
        found = _ratio_interval_in_pieces(s, c, rng, n_boot, rows)
    return dataclasses.replace(found, n=round(float(c.sum())), blocks=n)


def _ratio_interval_in_pieces(
    s: NDArray[np.float64], c: NDArray[np.float64], rng: np.random.Generator, n_boot: int, rows: int
) -> Estimate:
    w = float(c.sum())
    if w == 0.0:
        return Estimate.no_data()
    mean = float(s.sum()) / w
    values = []
    for start in range(0, n_boot, rows):
        draws = resample(len(s), min(rows, n_boot - start), rng)
        tw = c[draws].sum(axis=1)
        keep = tw > 0
        if keep.all():  # the usual case (blocks without weight are left out): no copy
            values.append(s[draws].sum(axis=1) / tw)
        else:
            values.append(s[draws[keep]].sum(axis=1) / tw[keep])
    ratios = np.concatenate(values)
    if len(ratios) == 0:
        return Estimate(mean)
    tail = 100.0 * (1.0 - 0.95) / 2.0
    low, high = np.percentile(ratios, [tail, 100.0 - tail])
    return Estimate(mean, float(low), float(high))


@dataclass
class _Tally:
    """Everything the report counts, gathered in one pass over the games in game order."""

    names: list[str]
    blocks: dict[_BlockKey, int] = field(default_factory=dict)
    unfinished_blocks: set[int] = field(default_factory=set)
    sums: dict[tuple[str, str], _Sums] = field(default_factory=dict)
    seats_played: dict[str, int] = field(default_factory=dict)
    seats_unfinished: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    # (giver, guesser) -> [pawns, rounds, points, in frame]
    cross: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    # entrant -> per block: [score sum, seats] in finished games
    by_block: dict[str, _Sums] = field(default_factory=dict)
    # (entrant, kind) -> [count, in unfinished games]
    fault_counts: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    unfinished: list[UnfinishedGame] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sums = {(e, s): _Sums() for e in self.names for s in _STATS}
        self.seats_played = dict.fromkeys(self.names, 0)
        self.seats_unfinished = dict.fromkeys(self.names, 0)
        self.wins = dict.fromkeys(self.names, 0.0)
        self.by_block = {e: _Sums() for e in self.names}

    def add(self, g: Mapping[str, Any]) -> None:
        """Count one game (games must come in game order)."""
        block = self.blocks.setdefault(_block_key(g), len(self.blocks))
        seats = [str(s) for s in g["seats"]]
        finished = g["status"] == "finished"
        for fault in g.get("faults") or ():
            who = str(fault.get("entrant") or seats[int(fault["seat"])])
            if who not in self.seats_played:
                raise ValueError(f"game {g['game']} has a fault by unknown entrant {who!r}")
            counts = self.fault_counts.setdefault((who, str(fault["kind"])), [0, 0])
            counts[0] += 1
            counts[1] += not finished
        if not finished:
            self.unfinished_blocks.add(block)
            for e in seats:
                self.seats_unfinished[e] += 1
            error = g.get("error")
            self.unfinished.append(
                UnfinishedGame(
                    int(g["game"]),
                    int(g["seed"]),
                    tuple(seats),
                    len(g.get("rounds") or ()),
                    None if error is None else str(error),
                )
            )
            return

        scores = [float(x) for x in g["scores"]]
        winners = {int(w) for w in g.get("winners") or ()}
        for seat, e in enumerate(seats):
            self.seats_played[e] += 1
            self.sums[e, "points"].add(block, scores[seat])
            share = 1.0 / len(winners) if seat in winners else 0.0
            self.wins[e] += share
            self.sums[e, "win"].add(block, share)
            self.by_block[e].add(block, scores[seat])

        for rnd in g.get("rounds") or ():
            if not rnd.get("tiebreak"):
                self._add_round(rnd, seats, block)

    def _add_round(self, rnd: Mapping[str, Any], seats: list[str], block: int) -> None:
        giver = int(rnd["giver"])
        points = [float(p) for p in rnd["points"]]
        self.sums[seats[giver], "giver"].add(block, points[giver])
        t_row, t_col = _square(str(rnd["target"]))
        per_seat: dict[int, list[int]] = {}  # seat -> [pawns, in frame]
        for seat, square in rnd["pawns"]:
            r, c = _square(str(square))
            tally = per_seat.setdefault(int(seat), [0, 0])
            tally[0] += 1
            tally[1] += abs(r - t_row) <= 1 and abs(c - t_col) <= 1  # Chebyshev distance <= 1 (R5)
        for seat, (n_pawns, inside) in sorted(per_seat.items()):
            e = seats[seat]
            self.sums[e, "guesser"].add(block, points[seat], n_pawns)
            self.sums[e, "frame"].add(block, inside, n_pawns)
            row = self.cross.setdefault((seats[giver], e), [0, 0, 0.0, 0])
            row[0] += n_pawns
            row[1] += 1
            row[2] += points[seat]
            row[3] += inside

    # -- the tables ----------------------------------------------------------------------------
    def entrant_stats(
        self, e: str, rating: tuple[float, float], seed: int, n_boot: int
    ) -> EntrantStats:
        def estimate(stat: str) -> Estimate:
            return self.sums[e, stat].estimate(seed=seed, key=f"{stat}\0{e}", n_boot=n_boot)

        return EntrantStats(
            entrant=e,
            games=self.seats_played[e],
            unfinished=self.seats_unfinished[e],
            points_per_game=estimate("points"),
            giver_points_per_round=estimate("giver"),
            guesser_points_per_pawn=estimate("guesser"),
            frame_share=estimate("frame"),
            win_rate=estimate("win"),
            wins=self.wins[e],
            mu=rating[0],
            sigma=rating[1],
            ordinal=rating[0] - 3.0 * rating[1],
            faults=sum(c[0] for (who, _), c in self.fault_counts.items() if who == e),
        )

    def crossplay(self, rank: Mapping[str, int]) -> tuple[CrossPlay, ...]:
        return tuple(
            CrossPlay(giver, guesser, int(v[0]), int(v[1]), v[2] / v[0], v[3] / v[0])
            for (giver, guesser), v in sorted(
                self.cross.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])
            )
        )

    def paired(self, names: Sequence[str], seed: int, n_boot: int) -> tuple[PairedComparison, ...]:
        out: list[PairedComparison] = []
        n = len(self.blocks)
        unfinished = np.zeros(n, dtype=bool)
        unfinished[list(self.unfinished_blocks)] = True
        per_seat: dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]] = {}
        for e in names:
            sums, seats = self.by_block[e].arrays()
            per_seat[e] = (np.pad(sums, (0, n - len(sums))), np.pad(seats, (0, n - len(seats))))
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                (sa, na), (sb, nb) = per_seat[a], per_seat[b]
                both = (na > 0) & (nb > 0) & ~unfinished
                if not both.any():
                    continue
                values = sa[both] / na[both] - sb[both] / nb[both]
                ones = np.ones(len(values))
                out.append(
                    PairedComparison(
                        a,
                        b,
                        len(values),
                        _estimate(values, ones, seed=seed, key=f"paired\0{a}\0{b}", n_boot=n_boot),
                        int((values > 0).sum()) / len(values),
                        int((values == 0).sum()) / len(values),
                    )
                )
        return tuple(out)

    def fault_table(self, rank: Mapping[str, int]) -> tuple[FaultCount, ...]:
        def kind_order(kind: str) -> tuple[int, str]:
            return (_FAULT_KINDS.index(kind) if kind in _FAULT_KINDS else len(_FAULT_KINDS), kind)

        return tuple(
            FaultCount(e, kind, counts[0], counts[1])
            for (e, kind), counts in sorted(
                self.fault_counts.items(), key=lambda kv: (rank[kv[0][0]], kind_order(kv[0][1]))
            )
        )


@functools.lru_cache(maxsize=4096)
def _square(text: str) -> tuple[int, int]:
    """A square's row and column from its name, parsed once per name (a report reads each of
    a board's few hundred names many thousand times)."""
    cell = Cell.parse(text, rows=_ROWS, cols=_COLS)
    return cell.row, cell.col


def _block_key(game: Mapping[str, Any]) -> _BlockKey:
    seats = tuple(str(s) for s in game["seats"])
    lineup = min((seats[i:] + seats[:i] for i in range(len(seats))), default=())
    return (int(game["seed"]), int(game["n_players"]), str(game["board_id"]), lineup)


def _check(games: Sequence[Mapping[str, Any]]) -> None:
    for i, game in enumerate(games):
        _check_game(i, game)


def _check_game(i: int, game: Mapping[str, Any]) -> None:
    needed = ("format", "game", "seed", "n_players", "board_id", "seats", "status", "scores")
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
            f"game {game['game']} has {len(game['seats'])} seats for {game['n_players']} players"
        )
