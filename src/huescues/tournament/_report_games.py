"""A game of the results in the few numbers the report counts, worked out from its line or dict,
a chunk of games at a time (on worker processes, for the lines of a large file: ``_report_stats``
sends them the chunks, and gets back each chunk's numbers packed in a few arrays).

Per seat of a finished game: its final score, its share of the win, and over the regular rounds
its points as clue giver (R16) and the rounds it gave, its points as guesser (R15), its pawns and
those inside the frame; per pair of giver and guesser seats, the pawns, rounds, points and pawns
in the frame. The points are whole numbers in the results this library writes, so summing them
per game first gives the same totals as summing them one round at a time.
"""

from __future__ import annotations

import functools
import json
from array import array
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from huescues.engine import Cell

__all__ = [
    "GAME_FORMAT",
    "BlockKey",
    "Counted",
    "GameNumbers",
    "check_game",
    "count_games",
    "numbers",
    "strip_record",
]

#: The results-file format this report reads.
GAME_FORMAT = 1
#: Board size limits for parsing squares: any board of up to 26 rows (R1).
_ROWS, _COLS = 26, 999

#: A block: games of one seed and one lineup, rotated (seed, players, board, lineup).
BlockKey = tuple[int, int, str, tuple[str, ...]]


class GameNumbers(NamedTuple):
    """What the report counts of one game."""

    game: int
    seed: int
    block: BlockKey
    seats: tuple[str, ...]
    finished: bool
    faults: list[Any]
    error: str | None
    rounds: int
    scores: list[float]
    #: Per seat: score, share of the win, giver points, rounds given, guesser points, pawns,
    #: pawns in the frame (finished games; empty otherwise).
    seat_rows: list[list[Any]]
    #: (giver seat, guesser seat, pawns, rounds, points, in frame), regular rounds.
    cross: list[list[Any]]


def strip_record(line: str) -> str:
    """A results line without its ``record`` (half the line, which the report does not read):
    the keys are sorted, so ``"record"`` is followed by ``"rounds"``, and a quote inside a JSON
    string is escaped, so ``,"rounds":`` cannot occur inside the record."""
    start = line.find(',"record":{')
    if start >= 0:
        stop = line.find(',"rounds":', start)
        if stop > start:
            return line[:start] + line[stop:]
    return line


class Counted(NamedTuple):
    """The numbers of a chunk of games, packed (a few objects, not a few hundred per game, so
    that they travel back from a worker fast)."""

    #: The chunk's first game's place in the stream.
    first: int
    #: Per game: its block as JSON text, its seats, whether it finished.
    blocks: list[str]
    n_seats: bytes
    finished: bytes
    #: Per seat of every game: the entrant's number (-1: not one of the entrants)...
    entrants: array[int]
    #: ... and its seven numbers (see :class:`GameNumbers`; zeros in unfinished games).
    rows: array[float]
    #: (giver, guesser) entrant numbers -> [pawns, rounds, points, in frame], regular rounds.
    cross: dict[tuple[int, int], list[Any]]
    #: The rarer things, by the game's place in the chunk: faults, unfinished games (game,
    #: seed, rounds, error) and the seats of games with an entrant not in the list.
    faults: dict[int, tuple[int, list[Any]]]
    unfinished: dict[int, tuple[int, int, int, str | None]]
    seats: dict[int, tuple[str, ...]]


def count_games(task: tuple[int, Sequence[str], Sequence[str | Mapping[str, Any]]]) -> Counted:
    """The numbers of a chunk of games (results lines, stripped of their records or not, or
    dicts), ``task`` being (the first game's place in the stream, the entrants, the games)."""
    first, names, games = task
    ids = {e: i for i, e in enumerate(names)}
    blocks: list[str] = []
    n_seats = bytearray()
    finished = bytearray()
    entrants = array("i")
    rows = array("d")
    cross: dict[tuple[int, int], list[Any]] = {}
    faults: dict[int, tuple[int, list[Any]]] = {}
    unfinished: dict[int, tuple[int, int, int, str | None]] = {}
    seats_of: dict[int, tuple[str, ...]] = {}
    for j, line in enumerate(games):
        g = json.loads(strip_record(line)) if isinstance(line, str) else line
        check_game(first + j, g)
        n = numbers(g)
        blocks.append(_block_text(n.block))
        n_seats.append(len(n.seats))
        finished.append(n.finished)
        seat_ids = [ids.get(e, -1) for e in n.seats]
        entrants.extend(seat_ids)
        if -1 in seat_ids:
            seats_of[j] = n.seats
        if n.faults:
            faults[j] = (n.game, n.faults)
        if not n.finished:
            unfinished[j] = (n.game, n.seed, n.rounds, n.error)
            rows.frombytes(bytes(56 * len(n.seats)))
            continue
        for row in n.seat_rows:
            rows.extend(row)
        for giver, guesser, pawns, rounds, points, inside in n.cross:
            tally = cross.setdefault((seat_ids[giver], seat_ids[guesser]), [0, 0, 0.0, 0])
            tally[0] += pawns
            tally[1] += rounds
            tally[2] += points
            tally[3] += inside
    return Counted(
        first, blocks, bytes(n_seats), bytes(finished), entrants, rows, cross, faults,
        unfinished, seats_of,
    )  # fmt: skip


def _block_text(block: BlockKey) -> str:
    """``json.dumps`` of the block as a list: the same text, with the board's and the lineup's
    parts made once each (every game of a report has a block; a report has a few lineups)."""
    seed, n_players, board, lineup = block
    return f"[{seed}, {n_players}, {_json_of(board)}, {_json_of(lineup)}]"


@functools.lru_cache(maxsize=1024)
def _json_of(value: str | tuple[str, ...]) -> str:
    """A board id's or a lineup's JSON text (a lineup, a tuple, as a list)."""
    return json.dumps(value)


def check_game(i: int, game: Mapping[str, Any]) -> None:
    """Refuse a game that the report cannot read (``i``: its place in the stream)."""
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


def numbers(g: Mapping[str, Any]) -> GameNumbers:
    """The numbers of one game (checked by :func:`check_game`)."""
    seats = tuple(map(str, g["seats"]))
    lineup = _lineup(seats)
    block = (int(g["seed"]), int(g["n_players"]), str(g["board_id"]), lineup)
    finished = g["status"] == "finished"
    error = g.get("error")
    rounds = g.get("rounds") or ()
    faults = list(g.get("faults") or ())
    if not finished:
        return GameNumbers(
            int(g["game"]), int(g["seed"]), block, seats, False, faults,
            None if error is None else str(error), len(rounds), [], [], [],
        )  # fmt: skip
    n = len(seats)
    scores = list(map(float, g["scores"]))
    winners = set(map(int, g.get("winners") or ()))
    given = [0.0] * n
    gave = [0] * n
    guessed = [0.0] * n
    pawns = [0] * n
    inside = [0] * n
    cross: dict[tuple[int, int], list[Any]] = {}
    for rnd in rounds:
        if rnd.get("tiebreak"):
            continue
        giver = int(rnd["giver"])
        points = [float(p) for p in rnd["points"]]
        given[giver] += points[giver]
        gave[giver] += 1
        t_row, t_col = _square(str(rnd["target"]))
        per_seat: dict[int, list[int]] = {}  # seat -> [pawns, in frame]
        for seat, square in rnd["pawns"]:
            # (Every pawn of every game of a report: no calls that are not needed.)
            r, c = _square(square if type(square) is str else str(square))
            tally = per_seat.get(seat if type(seat) is int else int(seat))
            if tally is None:
                tally = per_seat[int(seat)] = [0, 0]
            tally[0] += 1
            if -1 <= r - t_row <= 1 and -1 <= c - t_col <= 1:  # Chebyshev distance <= 1 (R5)
                tally[1] += 1
        for seat, (n_pawns, in_frame) in per_seat.items():
            guessed[seat] += points[seat]
            pawns[seat] += n_pawns
            inside[seat] += in_frame
            row = cross.setdefault((giver, seat), [0, 0, 0.0, 0])
            row[0] += n_pawns
            row[1] += 1
            row[2] += points[seat]
            row[3] += in_frame
    share = 1.0 / len(winners) if winners else 0.0
    # Lists, not tuples: a report makes millions of these, and CPython keeps up to 2,000 freed
    # tuples of each size for reuse, which would stay allocated after the report.
    seat_rows = [
        [scores[s], share if s in winners else 0.0, given[s], gave[s], guessed[s], pawns[s],
         inside[s]]
        for s in range(n)
    ]  # fmt: skip
    return GameNumbers(
        int(g["game"]), int(g["seed"]), block, seats, True, faults,
        None if error is None else str(error), len(rounds), scores, seat_rows,
        [[a, b, *v] for (a, b), v in cross.items()],
    )  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _lineup(seats: tuple[str, ...]) -> tuple[str, ...]:
    """The seats rotated to come first in order: the block's lineup, worked out once per seats
    (a report has a few)."""
    return min((seats[i:] + seats[:i] for i in range(len(seats))), default=())


@functools.lru_cache(maxsize=4096)
def _square(text: str) -> tuple[int, int]:
    """A square's row and column from its name, parsed once per name (a report reads each of
    a board's few hundred names many thousand times)."""
    cell = Cell.parse(text, rows=_ROWS, cols=_COLS)
    return cell.row, cell.col
