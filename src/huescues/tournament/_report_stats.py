"""The report's statistics, computed from the games (one plain dict per game, as in the results
file's JSON lines): per entrant, points per game, per round as clue giver (R16), per pawn as
guesser (R15), the share of pawns in the frame and the win rate, each with a bootstrap 95%
confidence interval over blocks of games that share a seed; Plackett-Luce ratings from the final
scores (openskill's ``PlackettLuce``, in ``_ratings``); a cross-play table of every
giver with every guesser; paired comparisons of entrants over the blocks both played; faults by
entrant and kind; and the unfinished games."""

from __future__ import annotations

import dataclasses
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from huescues.stats import Estimate, ratio_interval, resample

from ._chunks_pool import map_in_order
from ._ratings import PlackettLuce
from ._report_games import Counted, check_game, count_games, strip_record
from ._report_rounds import count_lines
from ._report_tables import (
    CrossPlay,
    EntrantStats,
    FaultCount,
    PairedComparison,
    ReportTables,
    UnfinishedGame,
)

__all__ = ["LINES_CHUNK", "compute_report", "compute_report_lines", "compute_report_ordered"]

_FAULT_KINDS = ("exception", "illegal", "timeout")
_STATS = ("points", "giver", "guesser", "frame", "win")


def compute_report(
    games: Sequence[Mapping[str, Any]],
    *,
    entrants: Sequence[str] | None = None,
    seed: int = 0,
    n_boot: int = 2000,
) -> ReportTables:
    """The report of ``games`` (see :meth:`~huescues.tournament.Report.from_games`)."""
    _check_options(seed, n_boot)
    for i, g in enumerate(games):
        check_game(i, g)
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
) -> ReportTables:
    """The report of games that come in game order, in one pass that keeps no game: what
    grows is a few numbers per block (for the bootstrap) and the unfinished games' entries."""
    _check_options(seed, n_boot)
    names = tuple(dict.fromkeys(entrants))
    counted = (count_games((first, names, chunk)) for first, chunk in _chunks(games, None))
    return _report(counted, names, seed, n_boot)


#: Results lines worked on at a time by one worker process.
LINES_CHUNK = 500


def compute_report_lines(
    lines: Iterable[str],
    *,
    entrants: Sequence[str],
    seed: int = 0,
    n_boot: int = 2000,
    parts: Iterable[tuple[int, Sequence[str]]] | None = None,
) -> ReportTables:
    """:func:`compute_report_ordered` of results lines in game order, each parsed without its
    ``record``, in chunks of :data:`LINES_CHUNK` on every core (``_chunks_pool``). ``parts``,
    if given, are those chunks, ``(first game, lines)``, as small to send as the lines of a
    results file that a worker reads itself (then ``lines`` is not read)."""
    _check_options(seed, n_boot)
    names = tuple(dict.fromkeys(entrants))
    if parts is None:
        parts = _chunks(lines, strip_record)
    tasks = ((first, names, part) for first, part in parts)
    return _report(map_in_order(count_lines, tasks), names, seed, n_boot)


_T = TypeVar("_T")


def _chunks(
    items: Iterable[_T], prepare: Callable[[_T], _T] | None
) -> Iterator[tuple[int, list[_T]]]:
    chunk: list[_T] = []
    first = 0
    for item in items:
        chunk.append(item if prepare is None else prepare(item))
        if len(chunk) >= LINES_CHUNK:
            yield first, chunk
            first += len(chunk)
            chunk = []
    if chunk:
        yield first, chunk


def _report(
    chunks: Iterable[Counted], names: Sequence[str], seed: int, n_boot: int
) -> ReportTables:
    names = list(names)
    tally = _Tally(names)
    ratings = PlackettLuce(names)
    unknown: dict[str, None] = {}
    n_games = 0
    for chunk in chunks:
        n_games += tally.add_chunk(chunk, ratings, unknown)
    if unknown:
        raise ValueError(f"the games have entrants not in the list given: {', '.join(unknown)}")
    rank = {e: i for i, e in enumerate(names)}
    # Every interval at once, on every core when they are many draws (each is seeded by its
    # own key, so where it is drawn changes nothing).
    jobs = [(*tally.used(e, stat), seed, f"{stat}\0{e}", n_boot) for e in names for stat in _STATS]
    pairs = tally.pairs(names)
    jobs += [(v, np.ones(len(v)), seed, f"paired\0{a}\0{b}", n_boot) for a, b, v in pairs]
    draws = n_boot * sum(len(job[0]) for job in jobs)
    workers = None if draws >= _DRAWS_FOR_WORKERS else 1
    found = list(map_in_order(_estimate_job, jobs, workers=workers))
    estimates = dict(zip((job[3] for job in jobs), found, strict=True))
    return ReportTables(
        entrants=tuple(tally.entrant_stats(e, ratings.ratings[e], estimates) for e in names),
        crossplay=tally.crossplay(rank),
        paired=tuple(_paired(a, b, v, estimates) for a, b, v in pairs),
        faults=tally.fault_table(rank),
        unfinished=tuple(tally.unfinished),
        n_games=n_games,
        n_finished=n_games - len(tally.unfinished),
        n_blocks=len(tally.blocks),
        seed=seed,
        n_boot=n_boot,
    )


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


#: Bootstrap draws (blocks times resamples, over every interval) from which the intervals are
#: drawn on worker processes: 100,000 games make about 25,000 blocks and 11 intervals, 550
#: million draws with the default 2,000 resamples.
_DRAWS_FOR_WORKERS = 50_000_000


def _estimate_job(job: tuple[NDArray[np.float64], NDArray[np.float64], int, str, int]) -> Estimate:
    s, c, seed, key, n_boot = job
    return _estimate(s, c, seed=seed, key=key, n_boot=n_boot)


def _paired(
    a: str, b: str, values: NDArray[np.float64], estimates: Mapping[str, Estimate]
) -> PairedComparison:
    return PairedComparison(
        a,
        b,
        len(values),
        estimates[f"paired\0{a}\0{b}"],
        int((values > 0).sum()) / len(values),
        int((values == 0).sum()) / len(values),
    )


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
    n = len(s)
    # Counts that are one whole number in every block (every block's games complete, or the
    # paired differences' ones) sum to that number times the blocks, exactly, in any draw.
    same = float(c[0]) if (c == c[0]).all() and c[0] == np.floor(c[0]) else None
    if same is not None and same * n >= _EXACT_BELOW:
        same = None
    values = []
    for start in range(0, n_boot, rows):
        draws = resample(n, min(rows, n_boot - start), rng)
        if same is not None:
            if same > 0:
                values.append(s[draws].sum(axis=1) / (same * n))
            continue
        tw = c[draws].sum(axis=1)
        keep = tw > 0
        if keep.all():  # the usual case (blocks without weight are left out): no copy
            values.append(s[draws].sum(axis=1) / tw)
        else:
            values.append(s[draws[keep]].sum(axis=1) / tw[keep])
    ratios = np.concatenate(values) if values else np.zeros(0)
    if len(ratios) == 0:
        return Estimate(mean)
    tail = 100.0 * (1.0 - 0.95) / 2.0
    low, high = np.percentile(ratios, [tail, 100.0 - tail])
    return Estimate(mean, float(low), float(high))


#: Whole numbers below this are floats, and so are their sums.
_EXACT_BELOW = 2.0**53


@dataclass
class _Tally:
    """Everything the report counts, gathered in one pass over the games in game order."""

    names: list[str]
    blocks: dict[str, int] = field(default_factory=dict)
    unfinished_blocks: set[int] = field(default_factory=set)
    # Per statistic, the sums and counts of each block and entrant, at ``block * E + entrant``
    # (16 bytes a block, statistic and entrant).
    sums: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    counts: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    # Per entrant (by number): seats in finished and unfinished games, and wins.
    seats_played: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    seats_unfinished: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    wins: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    # (giver, guesser) -> [pawns, rounds, points, in frame]
    cross: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    # (entrant, kind) -> [count, in unfinished games]
    fault_counts: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    unfinished: list[UnfinishedGame] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sums = {s: np.zeros(0) for s in _STATS}
        self.counts = {s: np.zeros(0) for s in _STATS}
        self.ids = {e: i for i, e in enumerate(self.names)}
        n = len(self.names)
        self.seats_played = np.zeros(n, dtype=np.int64)
        self.seats_unfinished = np.zeros(n, dtype=np.int64)
        self.wins = np.zeros(n)

    def add_chunk(self, c: Counted, ratings: PlackettLuce, unknown: dict[str, None]) -> int:
        """Count a chunk of games (chunks must come in game order); return the games counted.
        The seats of entrants not in the list are gathered in ``unknown``: from the first
        such game on, nothing more is counted (the report is then refused)."""
        names, n_names = self.names, len(self.names)
        ids = c.entrants.tolist()
        rows = np.frombuffer(c.rows, dtype=np.float64).reshape(-1, 7)
        scores = rows[:, 0].tolist()
        blocks = self.blocks
        n_seats = c.n_seats
        seat_blocks = array("q")
        counted = 0
        at = 0
        for j, key in enumerate(c.blocks):
            k = n_seats[j]
            if j in c.seats:
                for e in c.seats[j]:
                    if e not in self.ids:
                        unknown.setdefault(e)
            if unknown:
                break
            seats = [names[i] for i in ids[at : at + k]]
            block = blocks.setdefault(key, len(blocks))
            seat_blocks.extend([block] * k)
            counted += 1
            finished = c.finished[j]
            if j in c.faults:
                self._faults(c.faults[j], seats, finished)
            if finished:
                ratings.add(seats, scores[at : at + k])
            else:
                game, seed, rounds, error = c.unfinished[j]
                self.unfinished_blocks.add(block)
                self.unfinished.append(UnfinishedGame(game, seed, tuple(seats), rounds, error))
            at += k
        if unknown:
            return counted
        self._grow(len(blocks))
        who = np.frombuffer(c.entrants, dtype=np.int32)[:at].astype(np.int64)
        done = np.frombuffer(c.finished, dtype=np.uint8)[: len(c.blocks)]
        done = np.repeat(done, np.frombuffer(n_seats, dtype=np.uint8)) == 1
        self.seats_unfinished += np.bincount(who[~done], minlength=n_names)
        who, rows = who[done], rows[:at][done]
        place = np.frombuffer(seat_blocks, dtype=np.int64)[done] * n_names + who
        self.seats_played += np.bincount(who, minlength=n_names)
        # np.add.at adds one row after another, in the order given: the same sums, to the last
        # bit, as adding each seat's numbers in turn.
        np.add.at(self.wins, who, rows[:, 1])
        ones = np.ones(len(who))
        for stat, value, count in (
            ("points", rows[:, 0], ones),
            ("win", rows[:, 1], ones),
            ("giver", rows[:, 2], rows[:, 3]),
            ("guesser", rows[:, 4], rows[:, 5]),
            ("frame", rows[:, 6], rows[:, 5]),
        ):
            np.add.at(self.sums[stat], place, value)
            np.add.at(self.counts[stat], place, count)
        for (giver, guesser), v in c.cross.items():
            row = self.cross.setdefault((names[giver], names[guesser]), [0, 0, 0.0, 0])
            row[0] += v[0]
            row[1] += v[1]
            row[2] += v[2]
            row[3] += v[3]
        return counted

    def _faults(self, faults: tuple[int, list[Any]], seats: list[str], finished: int) -> None:
        game, listed = faults
        for fault in listed:
            try:
                who = str(fault.get("entrant") or seats[int(fault["seat"])])
                kind = str(fault["kind"])
            except (AttributeError, KeyError, TypeError, ValueError, IndexError):
                raise ValueError(
                    f"game {game} has a fault the report cannot read (not an object with a "
                    f"kind and an entrant or seat): {fault!r:.80}"
                ) from None
            if who not in self.ids:
                raise ValueError(f"game {game} has a fault by unknown entrant {who!r}")
            counts = self.fault_counts.setdefault((who, kind), [0, 0])
            counts[0] += 1
            counts[1] += not finished

    def _grow(self, n_blocks: int) -> None:
        size = n_blocks * len(self.names)
        have = len(self.sums["points"])
        if size <= have:
            return
        room = max(size, 2 * have, 1024)
        for table in (self.sums, self.counts):
            for stat, column in table.items():
                table[stat] = np.concatenate([column, np.zeros(room - have)])

    def columns(self, e: str, stat: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The sums and counts of one statistic of one entrant, by block."""
        step, at = len(self.names), self.ids[e]
        size = len(self.blocks) * step
        return self.sums[stat][:size][at::step], self.counts[stat][:size][at::step]

    def used(self, e: str, stat: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The sums and counts of the blocks in which the entrant has a count of ``stat``."""
        sums, counts = self.columns(e, stat)
        used = counts > 0
        return sums[used], counts[used]

    # -- the tables ----------------------------------------------------------------------------
    def entrant_stats(
        self, e: str, rating: tuple[float, float], estimates: Mapping[str, Estimate]
    ) -> EntrantStats:
        def estimate(stat: str) -> Estimate:
            return estimates[f"{stat}\0{e}"]

        return EntrantStats(
            entrant=e,
            games=int(self.seats_played[self.ids[e]]),
            unfinished=int(self.seats_unfinished[self.ids[e]]),
            points_per_game=estimate("points"),
            giver_points_per_round=estimate("giver"),
            guesser_points_per_pawn=estimate("guesser"),
            frame_share=estimate("frame"),
            win_rate=estimate("win"),
            wins=float(self.wins[self.ids[e]]),
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

    def pairs(self, names: Sequence[str]) -> list[tuple[str, str, NDArray[np.float64]]]:
        """Per pair of entrants that finished a block together, the difference of their mean
        scores per seat in each such block."""
        out = []
        n = len(self.blocks)
        unfinished = np.zeros(n, dtype=bool)
        unfinished[list(self.unfinished_blocks)] = True
        # Score sums and seats per block.
        per_seat = {e: self.columns(e, "points") for e in names}
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                (sa, na), (sb, nb) = per_seat[a], per_seat[b]
                both = (na > 0) & (nb > 0) & ~unfinished
                if both.any():
                    out.append((a, b, sa[both] / na[both] - sb[both] / nb[both]))
        return out

    def fault_table(self, rank: Mapping[str, int]) -> tuple[FaultCount, ...]:
        def kind_order(kind: str) -> tuple[int, str]:
            return (_FAULT_KINDS.index(kind) if kind in _FAULT_KINDS else len(_FAULT_KINDS), kind)

        return tuple(
            FaultCount(e, kind, counts[0], counts[1])
            for (e, kind), counts in sorted(
                self.fault_counts.items(), key=lambda kv: (rank[kv[0][0]], kind_order(kv[0][1]))
            )
        )
