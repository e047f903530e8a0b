"""The report's numbers of a chunk of results lines, the rounds of all its games counted at once in
array operations rather than a few Python steps per pawn (which took half of a large report's
CPU). Only plain rounds are counted so: whole points below 2**31 (summed in any order, the same
exact floats), givers and seats that are ints of the game, squares named by text. A chunk with
anything else is left to ``count_games``, which then gives the same numbers, or raises the same
error at the same game; the tests compare the two.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Sequence
from itertools import chain
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._report_games import (
    Counted,
    _block_text,
    _square,
    check_game,
    count_games,
    numbers,
    strip_record,
)

__all__ = ["count_lines"]

_PARTS = itemgetter("giver", "points", "target", "pawns")
#: A square's row times 1,000 plus its column (columns are fewer than 1,000), by name.
_SQUARES: dict[str, int] = {}
_SQUARES_KEPT = 1 << 16
_POINTS_BELOW = 2.0**31


def count_lines(task: tuple[int, Sequence[str], Sequence[str]]) -> Counted:
    """``count_games`` of a chunk of results lines (stripped of their records or not), its
    rounds counted at once when they are plain."""
    first, names, lines = task
    try:
        found = _count_at_once(first, names, lines)
    except Exception:  # an error is the general reading's to raise, at its game's turn
        found = None
    return count_games(task) if found is None else found


def _count_at_once(first: int, names: Sequence[str], lines: Sequence[str]) -> Counted | None:
    ids = {e: i for i, e in enumerate(names)}
    blocks: list[str] = []
    n_seats = bytearray()
    finished = bytearray()
    entrants = array("i")
    rows: list[float] = []
    faults: dict[int, tuple[int, list[Any]]] = {}
    unfinished: dict[int, tuple[int, int, int, str | None]] = {}
    seats_of: dict[int, tuple[str, ...]] = {}
    # The regular rounds of the finished games in flat lists of numbers and text (no objects
    # that the garbage collector would look through again and again): per round, its game's
    # first row, its seats, giver, target, points and pawns; per pawn, its length (2), seat
    # and square, one after the other.
    r = _Rounds([], [], [], [], [], [], [], [], [])
    for j, line in enumerate(lines):
        g = json.loads(strip_record(line))
        check_game(first + j, g)
        done = g["status"] == "finished"
        rounds = g.get("rounds") or ()
        if done:  # the rest of the game is read as ever; its rounds are counted below
            g["rounds"] = ()
        n = numbers(g)
        blocks.append(_block_text(n.block))
        size = len(n.seats)
        n_seats.append(size)
        finished.append(n.finished)
        seat_ids = [ids.get(e, -1) for e in n.seats]
        at = len(entrants)
        entrants.extend(seat_ids)
        if -1 in seat_ids:
            seats_of[j] = n.seats
        if n.faults:
            faults[j] = (n.game, n.faults)
        if not done:
            unfinished[j] = (n.game, n.seed, n.rounds, n.error)
            rows.extend([0.0] * (7 * size))
            continue
        for row in n.seat_rows:
            rows.extend(row)
        regular = [_PARTS(rnd) for rnd in rounds if not rnd.get("tiebreak")]
        if regular:
            givers, points, targets, pawns = zip(*regular, strict=True)
            r.where.extend([at] * len(regular))
            r.sizes.extend([size] * len(regular))
            r.givers.extend(givers)
            r.targets.extend(targets)
            r.n_points.extend(map(len, points))
            r.points.extend(chain.from_iterable(points))
            r.n_pawns.extend(map(len, pawns))
            each = list(chain.from_iterable(pawns))
            r.pawn_sizes.extend(map(len, each))
            r.pawns.extend(chain.from_iterable(each))
    table = np.array(rows, dtype=np.float64).reshape(-1, 7)
    cross = _count_rounds(r, entrants, table) if r.where else {}
    if cross is None:
        return None
    return Counted(
        first, blocks, bytes(n_seats), bytes(finished), entrants, array("d", table.tobytes()),
        cross, faults, unfinished, seats_of,
    )  # fmt: skip


class _Rounds(NamedTuple):
    where: list[int]
    sizes: list[int]
    givers: list[Any]
    targets: list[Any]
    n_points: list[int]
    points: list[Any]
    n_pawns: list[int]
    pawn_sizes: list[int]
    pawns: list[Any]


def _count_rounds(
    r: _Rounds, entrants: array[int], table: NDArray[np.float64]
) -> dict[tuple[int, int], list[Any]] | None:
    """The cross-play tallies of the chunk's regular rounds, their numbers per seat put in the
    seats' rows (columns 2-6: giver points, rounds given, guesser points, pawns, in frame);
    ``None`` when a round is not plain."""
    size = np.array(r.sizes, dtype=np.int64)
    base = np.array(r.where, dtype=np.int64)
    # array() takes ints (and bools) only, and floats for "d", as int() and float() read them
    # (a str raises TypeError, and the general reading says what is wrong).
    giver = np.frombuffer(array("q", r.givers), dtype=np.int64)
    n_points = np.frombuffer(array("q", r.n_points), dtype=np.int64)
    points = np.frombuffer(array("d", r.points), dtype=np.float64)
    if (n_points != size).any():
        return None
    if not ((points == np.floor(points)) & (np.abs(points) < _POINTS_BELOW)).all():
        return None
    if (giver < 0).any() or (giver >= size).any() or r.pawn_sizes.count(2) != len(r.pawn_sizes):
        return None
    seat = np.frombuffer(array("q", r.pawns[0::2]), dtype=np.int64)
    squares = _square_numbers(r.pawns[1::2])
    target = _square_numbers(r.targets)
    if squares is None or target is None:
        return None
    n_rounds = len(r.where)
    round_of = np.repeat(np.arange(n_rounds), r.n_pawns)
    if (seat < 0).any() or (seat >= size[round_of]).any():
        return None
    starts = np.cumsum(n_points) - n_points  # each round's first point
    row = base[round_of] + seat
    there = target[round_of]
    inside = (np.abs(squares // 1000 - there // 1000) <= 1) & (
        np.abs(squares % 1000 - there % 1000) <= 1
    )  # Chebyshev distance <= 1 (R5)
    n_rows = len(table)
    giver_row = base + giver
    table[:, 2] = np.bincount(giver_row, weights=points[starts + giver], minlength=n_rows)
    table[:, 3] = np.bincount(giver_row, minlength=n_rows)
    table[:, 5] = np.bincount(row, minlength=n_rows)
    table[:, 6] = np.bincount(row, weights=inside, minlength=n_rows)
    # A seat's points as guesser count once per round it placed a pawn in.
    placed = np.zeros((n_rounds, int(size.max())), dtype=bool)
    placed[round_of, seat] = True
    placed_round, placed_seat = np.nonzero(placed)
    placed_row = base[placed_round] + placed_seat
    placed_points = points[starts[placed_round] + placed_seat]
    table[:, 4] = np.bincount(placed_row, weights=placed_points, minlength=n_rows)
    # Cross-play by (giver, guesser) entrant numbers, -1 for one not in the list.
    who = np.frombuffer(entrants, dtype=np.int32).astype(np.int64) + 1
    span = int(who.max()) + 1
    giver_who = who[giver_row]
    pairs, pawn_pair = np.unique(giver_who[round_of] * span + who[row], return_inverse=True)
    placed_pair = np.searchsorted(pairs, giver_who[placed_round] * span + who[placed_row])
    k = len(pairs)
    return {
        (a - 1, b - 1): [p, r, s, i]
        for a, b, p, r, s, i in zip(
            (pairs // span).tolist(),
            (pairs % span).tolist(),
            np.bincount(pawn_pair, minlength=k).tolist(),
            np.bincount(placed_pair, minlength=k).tolist(),
            np.bincount(placed_pair, weights=placed_points, minlength=k).tolist(),
            np.bincount(pawn_pair, weights=inside, minlength=k).astype(np.int64).tolist(),
            strict=True,
        )
    }


def _square_numbers(names: Sequence[Any]) -> NDArray[np.int64] | None:
    """Each square's row times 1,000 plus its column, or ``None`` if one is not a square's name
    (text)."""
    try:
        return np.frombuffer(array("q", map(_SQUARES.__getitem__, names)), dtype=np.int64)
    except KeyError:
        pass
    for q in names:
        if q not in _SQUARES:
            if type(q) is not str:
                return None
            try:
                r, c = _square(q)
            except ValueError:
                return None
            if len(_SQUARES) >= _SQUARES_KEPT:  # names spelt many ways (spaces, case)
                _SQUARES.clear()
            _SQUARES[q] = r * 1000 + c
    return np.frombuffer(array("q", map(_SQUARES.__getitem__, names)), dtype=np.int64)
