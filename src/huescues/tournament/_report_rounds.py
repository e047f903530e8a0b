"""The report's numbers of a chunk of results lines, the rounds of all its games counted at once in
array operations rather than a few Python steps per pawn (which took half of a large report's
CPU). A line as this library writes it has its rounds matched as text (``_ROUND``), the rest
decoded as JSON; a chunk with another line is decoded as JSON, and its rounds counted so when
they are plain: whole points below 2**31 (summed in any order, the same exact floats), givers
and seats that are ints of the game, squares named by text. A chunk with anything else is left
to ``count_games``, which then gives the same numbers, or raises the same error at the same
game; the tests compare them.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._json_text import ROUND as _ROUND
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

# (A round is matched as text by ``_json_text.ROUND``: its pawns' characters are checked in
# ``_text_arrays`` to be pawns with seats of one digit, up to 10 players, on squares as the
# library names them.)
_ROUNDS_KEY = ',"rounds":['

#: A line read: the game (its rounds to be replaced), its rounds, and whether they are text.
_Read = tuple[dict[str, Any], Sequence[Any], bool]
_Reader = Callable[[str], _Read | None]


def _split_json(line: str) -> _Read:
    g = json.loads(line)
    return g, g.get("rounds") or (), False


def _split_text(line: str) -> _Read | None:
    """The line's game without its rounds, and its rounds' parts as text; ``None`` when they
    are not as this library writes them. The rounds are the ones matched from their key on when
    they are the text that follows it, one after another (what the pattern matched is then
    JSON wherever it was found); the key is the line's own when the text before it, closed, is
    an object, and so is the text after the rounds, opened."""
    start = line.find(_ROUNDS_KEY)
    if start < 0:
        return None
    at = start + len(_ROUNDS_KEY) - 1
    rounds = _ROUND.findall(line, at)
    text = "[" + ",".join([parts[0] for parts in rounds]) + "]"
    if not line.startswith(text, at):
        return None
    rest = line[at + len(text) :]
    try:
        head = json.loads(line[:start] + "}")
        tail = json.loads("{" + rest[1:]) if rest[:1] == "," else {} if rest == "}" else None
    except ValueError:
        return None
    if type(head) is not dict or type(tail) is not dict or "rounds" in head or "rounds" in tail:
        return None
    head.update(tail)
    return head, rounds, True


#: A square's row times 1,000 plus its column (columns are fewer than 1,000), by name.
_SQUARES: dict[str, int] = {}
_SQUARES_KEPT = 1 << 16
_POINTS_BELOW = 2.0**31


def count_lines(task: tuple[int, Sequence[str], Sequence[str]]) -> Counted:
    """``count_games`` of a chunk of results lines (stripped of their records or not), its
    rounds counted at once when they are plain."""
    first, names, lines = task
    for read in (_split_text, _split_json):
        try:
            found = _count_at_once(first, names, lines, read)
        except Exception:  # an error is the general reading's to raise, at its game's turn
            found = None
        if found is not None:
            return found
    return count_games(task)


def _count_at_once(
    first: int, names: Sequence[str], lines: Sequence[str], read: _Reader
) -> Counted | None:
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
    # (Bound once: a few hundred games a chunk, a dozen calls a game.)
    where, sizes, givers, targets = (
        r.where.extend,
        r.sizes.extend,
        r.givers.extend,
        r.targets.extend,
    )
    n_points, points, n_pawns = r.n_points.extend, r.points.extend, r.n_pawns.extend
    pawn_sizes, pawns, add_rows = r.pawn_sizes.extend, r.pawns.extend, rows.extend
    texts: list[tuple[str, ...]] = []  # the regular rounds' parts as text, when read so
    uncounted: list[str] = []  # the other rounds' pawns as text, checked all the same
    for j, line in enumerate(lines):
        split = read(strip_record(line))
        if split is None:
            return None
        g, rounds, as_text = split
        check_game(first + j, g)
        done = g["status"] == "finished"
        # The rest of the game is read as ever (an unfinished game's rounds only counted); a
        # finished game's rounds are counted below.
        g["rounds"] = () if done else rounds
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
            add_rows([0.0] * (7 * size))
            if as_text:
                uncounted.extend(parts[2] for parts in rounds)
            continue
        add_rows(chain.from_iterable(n.seat_rows))
        if as_text:
            regular = [parts for parts in rounds if parts[5] == "false"]
            where([at] * len(regular))
            sizes([size] * len(regular))
            texts.extend(regular)
            if len(regular) < len(rounds):
                uncounted.extend(parts[2] for parts in rounds if parts[5] != "false")
            continue
        regular = [_PARTS(rnd) for rnd in rounds if not rnd.get("tiebreak")]
        if regular:
            giver_of, points_of, target_of, pawns_of = zip(*regular, strict=True)
            k = len(regular)
            where([at] * k)
            sizes([size] * k)
            givers(giver_of)
            targets(target_of)
            n_points(map(len, points_of))
            points(chain.from_iterable(points_of))
            n_pawns(map(len, pawns_of))
            each = list(chain.from_iterable(pawns_of))
            pawn_sizes(map(len, each))
            pawns(chain.from_iterable(each))
    if uncounted and _pawns("|".join(uncounted)) is None:
        return None  # not JSON: the general reading says where
    table = np.array(rows, dtype=np.float64).reshape(-1, 7)
    if r.where:
        found = _text_arrays(r, texts) if texts else _arrays(r)
        if found is None:
            return None
        cross = _count_rounds(found, entrants, table)
    else:
        cross = {}
    return Counted(
        first, blocks, bytes(n_seats), bytes(finished), entrants, array("d", table.tobytes()),
        cross, faults, unfinished, seats_of,
    )  # fmt: skip


class _Rounds(NamedTuple):
    """The regular rounds of the finished games of a chunk, in flat lists (see the loop)."""

    where: list[int]
    sizes: list[int]
    givers: list[Any]
    targets: list[Any]
    n_points: list[int]
    points: list[Any]
    n_pawns: list[int]
    pawn_sizes: list[int]
    pawns: list[Any]


class _Arrays(NamedTuple):
    """The regular rounds as arrays: per round, its game's first row, its seats, giver, points
    (how many, and where they start among all) and target; per pawn, its round, seat and
    square; all the points."""

    base: NDArray[np.int64]
    size: NDArray[np.int64]
    giver: NDArray[np.int64]
    n_points: NDArray[np.int64]
    target: NDArray[np.int64]
    round_of: NDArray[np.int64]
    seat: NDArray[np.int64]
    squares: NDArray[np.int64]
    points: NDArray[np.float64]


def _arrays(r: _Rounds) -> _Arrays | None:
    """The arrays of rounds read from JSON, or ``None`` when a round is not plain."""
    size = np.array(r.sizes, dtype=np.int64)
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
    round_of = np.repeat(np.arange(len(r.where)), r.n_pawns)
    if (seat < 0).any() or (seat >= size[round_of]).any():
        return None
    base = np.array(r.where, dtype=np.int64)
    return _Arrays(base, size, giver, n_points, target, round_of, seat, squares, points)


def _text_arrays(r: _Rounds, texts: list[tuple[str, ...]]) -> _Arrays | None:
    """The arrays of rounds matched as text (``_ROUND``), or ``None`` when a round's pawns are
    not pawns as this library writes them."""
    _, givers, pawns, points, targets, _ = zip(*texts, strict=True)
    size = np.array(r.sizes, dtype=np.int64)
    giver = np.frombuffer(array("q", map(int, givers)), dtype=np.int64)
    n_points = np.array([p.count(",") + 1 for p in points], dtype=np.int64)
    joined = ",".join(points)
    if len(joined) == 2 * int(n_points.sum()) - 1:  # every point one digit (the usual case)
        digits = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)[0::2]
        points_of = (digits - ord("0")).astype(np.float64)
    else:
        points_of = np.frombuffer(array("d", map(int, joined.split(","))), dtype=np.float64)
    found = _pawns("|".join(pawns))
    target = _square_numbers(targets)
    if found is None or target is None or (giver >= size).any() or (n_points != size).any():
        return None
    round_of, seat, squares = found
    if (seat >= size[round_of]).any():
        return None
    base = np.array(r.where, dtype=np.int64)
    return _Arrays(base, size, giver, n_points, target, round_of, seat, squares, points_of)


def _pawns(
    text: str,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None:
    """Each pawn's round, seat and square (row times 1,000 plus column) in the rounds' pawns
    joined by ``|``, or ``None`` unless every round's pawns are ``[seat,"square"]`` (a seat of
    one digit, a row letter and a column of one to three digits, the first not 0) joined by
    commas: every ``[`` must start such a pawn, followed by a comma and the next pawn or by the
    round's end, and every round must start with a pawn or be empty."""
    n = len(text)
    b = np.frombuffer((text + " " * 12).encode("ascii"), dtype=np.uint8).astype(np.int32)
    at = np.flatnonzero(b == ord("["))
    bars = np.flatnonzero(b == ord("|"))

    def digit(k: NDArray[np.int64]) -> NDArray[np.bool_]:
        return (b[k] >= ord("0")) & (b[k] <= ord("9"))

    two = digit(at + 6)
    three = two & digit(at + 7)
    close = at + 6 + two + three  # the name's closing quote
    end = close + 1
    ok = digit(at + 1) & (b[at + 2] == ord(",")) & (b[at + 3] == ord('"'))
    ok &= (b[at + 4] >= ord("A")) & (b[at + 4] <= ord("Z"))
    ok &= (b[at + 5] >= ord("1")) & (b[at + 5] <= ord("9"))
    ok &= (b[close] == ord('"')) & (b[end] == ord("]"))
    after = b[end + 1]
    ok &= ((after == ord(",")) & (b[end + 2] == ord("["))) | (after == ord("|")) | (end + 1 == n)
    starts = np.concatenate([[0], bars + 1])
    first = b[starts]
    if not ok.all() or not ((first == ord("[")) | (first == ord("|")) | (starts == n)).all():
        return None
    column = b[at + 5] - ord("0")
    column = np.where(two, column * 10 + b[at + 6] - ord("0"), column)
    column = np.where(three, column * 10 + b[at + 7] - ord("0"), column)
    squares = (b[at + 4] - ord("A")).astype(np.int64) * 1000 + column - 1
    seat = (b[at + 1] - ord("0")).astype(np.int64)
    return np.searchsorted(bars, at).astype(np.int64), seat, squares


def _count_rounds(
    found: _Arrays, entrants: array[int], table: NDArray[np.float64]
) -> dict[tuple[int, int], list[Any]]:
    """The cross-play tallies of the chunk's regular rounds, their numbers per seat put in the
    seats' rows (columns 2-6: giver points, rounds given, guesser points, pawns, in frame)."""
    base, size, giver, n_points, target, round_of, seat, squares, points = found
    n_rounds = len(base)
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
