"""The results file: JSON lines, one game a line (:class:`~huescues.tournament.GameResult`'s
:meth:`~huescues.tournament.GameResult.to_line`), read a block at a time on every core and each
line checked against its record; the lines kept where they are (:class:`FileLines`)."""

from __future__ import annotations

import functools
import gc
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from huescues.engine import STANDARD_BOARD_ID, Action, Board, GameRecord

from ._chunks_pool import map_in_order
from ._line_cut import cut_line

__all__ = [
    "CHECK_BYTES",
    "INDEX_BYTES",
    "FileLines",
    "LazyLines",
    "ResultsFileError",
    "check_scores",
    "complete_length",
    "first_copies",
    "header",
    "in_game_order",
    "iter_array",
    "line_seats",
    "ordered_offsets",
    "read_results_file",
    "scan_results_file",
    "write_atomically",
]


class ResultsFileError(ValueError):
    """A results file that cannot be read, resumed or overwritten as asked."""


def check_scores(
    game: dict[str, Any],
    where: str,
    board: Board | None = None,
    actions: tuple[Action, ...] | None = None,
) -> None:
    """Refuse a results line whose ``scores`` or ``winners`` are not what its ``record``
    replays to: the record is the truth, and an edited score would change the report.
    ``board`` is the tournament's board when it is not the standard one (a record on a board
    that cannot be had is not replayed). ``actions``, if given, are the record's actions
    already read (its ``"actions"`` then empty: see :func:`cut_line`)."""
    record = game.get("record")
    if record is None:
        return
    index = game.get("game")
    try:
        rec = GameRecord.from_dict(record)
        if actions is not None:
            rec = GameRecord(
                rec.rules, rec.board_id, rec.deck_id, rec.seed, actions, rec.engine_version
            )
        if rec.board_id != STANDARD_BOARD_ID and (board is None or board.id != rec.board_id):
            return
        state = rec.replay(board=board if rec.board_id != STANDARD_BOARD_ID else None)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as e:
        what = f"missing {e}" if isinstance(e, KeyError) else str(e)
        raise ResultsFileError(f"{where}: game {index}'s record cannot be replayed ({what})") from e
    if game.get("scores") != list(state.scores):
        raise ResultsFileError(
            f"{where}: game {index}'s scores {game.get('scores')} are not what its record replays "
            f"to, {list(state.scores)}: the file was edited or damaged"
        )
    if state.result is not None and game.get("winners") != list(state.result.winners):
        raise ResultsFileError(
            f"{where}: game {index}'s winners {game.get('winners')} are not what its record "
            f"replays to, {list(state.result.winners)}: the file was edited or damaged"
        )


def scan_results_file(
    path: Path,
    *,
    board: Board | None = None,
    check: bool = True,
    expect: Callable[[int, dict[str, Any]], None] | None = None,
    blank: list[int] | None = None,
) -> Iterator[tuple[int, int, dict[str, Any] | None]]:
    """``(index, byte offset, game)`` for each complete line of a results file, in order, read
    a block at a time on every core (``_chunks_pool``: blocks of :data:`CHECK_BYTES`, or of
    :data:`INDEX_BYTES` without the check), so that a file of any size takes no more memory
    than a few blocks. A last line cut short (a run killed while writing it) is left out; any
    other line that is not a game, or whose scores are not what its record replays to (see
    :func:`check_scores`), is an error naming the line. With the check, each game must also
    pass ``expect(index, game)`` if given (it raises :class:`ResultsFileError` to refuse a
    game; it must pickle), and ``game`` is ``{"seats": [...]}`` (one dict for every line of a
    lineup in a block). ``check=False`` reads only the index and the seats (``game`` is then
    ``None`` where the seats cannot be read on their own), for a file this library wrote and
    has just checked. The caller finds where the complete lines end from the last offset and
    line (see :func:`complete_length`). ``blank``, if given, gets the number of blank lines
    skipped in each block."""
    sent: deque[tuple[int, int]] = deque()  # the blocks in flight, in order
    if not check:
        expect = None  # (a game not checked is not compared either)

    def blocks() -> Iterator[_Block]:
        # Reading only the index and the seats takes a fiftieth of the time of checking a line:
        # bigger blocks for it, so that a worker's block is worth sending.
        for block in _blocks(path, CHECK_BYTES if check else INDEX_BYTES):
            sent.append(block)
            yield (path, board, *block, expect, check)

    for done, error, skipped in map_in_order(_check_block, blocks()):
        start, length = sent.popleft()
        if error is not None:
            # The worker numbered the block's lines from 1; checked again here, numbered from
            # where the block starts (counted only now: most files have no error).
            done, error, skipped = _check_block(
                (path, board, start, length, expect, check), first=_line_at(path, start)
            )
        if blank is not None:
            blank.append(skipped)
        yield from done
        if error is not None:
            raise error


#: The bytes of a results file checked at a time by one worker (about 300 games of four
#: players): whole lines, read by the worker itself, so that only where they are travels.
CHECK_BYTES = 1 << 20
#: The same for reading only each game's index and seats (``check=False``).
INDEX_BYTES = 8 << 20


def _blocks(path: Path, size: int) -> Iterator[tuple[int, int]]:
    """``(byte offset, length)`` of blocks of whole lines of about ``size`` bytes (a line
    longer than that is a block of its own); a last line cut short is left out. Only the bytes
    around each block's end are read."""
    with open(path, "rb") as f:
        total = os.fstat(f.fileno()).st_size
        start = 0
        while start < total:
            # The end of the line holding the block's last byte, if that line is complete.
            at, end = start + size - 1, -1
            f.seek(at)
            while piece := f.read(1 << 16):
                k = piece.find(b"\n")
                if k >= 0:
                    end = at + k + 1
                    break
                at += len(piece)
            if end < 0:  # no newline from there on: the block ends with the last one before
                f.seek(start)
                end = start + f.read(size).rfind(b"\n") + 1
                if end == start:
                    return
            yield start, end - start
            start = end


def _line_at(path: Path, offset: int) -> int:
    """The number of the line that starts at byte ``offset``."""
    count = 1
    with open(path, "rb") as f:
        while offset > 0 and (block := f.read(min(offset, 1 << 22))):
            count += block.count(b"\n")
            offset -= len(block)
    return count


#: A block of lines to read: the file, its board, where the block starts, its length, what
#: else each game must pass, and whether its lines are checked.
_Block = tuple[Path, Board | None, int, int, Callable[[int, dict[str, Any]], None] | None, bool]


def _check_block(
    task: _Block, *, first: int = 1
) -> tuple[list[tuple[int, int, dict[str, Any] | None]], ResultsFileError | None, int]:
    """Each line of a block read (and checked, unless the task says not), up to the first that
    fails (and its error), and the blank lines skipped; the lines are numbered from ``first``
    in the error."""
    path, board, start, length, expect, check = task
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(length)
    # Reading and replaying lines makes no reference cycles, but the cycle collector would run
    # every few hundred of a replay's states all the same: about 6 % of a check. A block is a
    # few megabytes at most, so what is left to collect waits no longer than that.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _check_lines(path, board, data, start, expect, check, first)
    finally:
        if collecting:
            gc.enable()


def _check_lines(
    path: Path,
    board: Board | None,
    data: bytes,
    start: int,
    expect: Callable[[int, dict[str, Any]], None] | None,
    check: bool,
    first: int,
) -> tuple[list[tuple[int, int, dict[str, Any] | None]], ResultsFileError | None, int]:
    """:func:`_check_block` once its bytes are read."""
    done: list[tuple[int, int, dict[str, Any] | None]] = []
    # One {"seats": [...]} per lineup, so that it travels once a block (pickle shares it).
    lineups: dict[tuple[Any, ...], dict[str, Any]] = {}
    offset = start
    skipped = 0
    # Split at newlines only, as reading the file line by line does (not at a lone CR).
    for number, raw in enumerate(data.split(b"\n")[:-1], start=first):
        at = offset
        offset += len(raw) + 1
        if not raw.strip():
            skipped += 1
            continue
        try:
            index, at, game = _read_line(path, number, raw, at, board, check)
            if expect is not None and game is not None:
                expect(index, game)
        except ResultsFileError as e:
            return done, e, skipped
        if game is None or not check:
            done.append((index, at, game))
            continue
        seats = game["seats"]
        key = tuple(seats)
        seated = lineups.get(key)
        if seated is None:
            seated = lineups[key] = {"seats": seats}
        done.append((index, at, seated))
    return done, None, skipped


#: What a checked read of Parquet shards sends back of each game from a worker: what a resume
#: compares with its schedule (the seats also name the entrants), and no more.
_HEADER_KEYS = ("format", "game", "seed", "n_players", "seats", "board_id")


def header(game: dict[str, Any], rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's :data:`_HEADER_KEYS`, and the rules of its record (``rules`` instead, the
    same object for every game of a chunk, when they are equal: a chunk's games then send
    their rules once)."""
    out = {k: game[k] for k in _HEADER_KEYS if k in game}
    record = game.get("record")
    if record is not None:
        if "rules" in record:
            mine = record["rules"]
            out["record"] = {"rules": rules if rules is not None and mine == rules else mine}
        else:
            out["record"] = {}
    return out


def _seats(raw: bytes) -> dict[str, Any] | None:
    """``{"seats": [...]}`` read from a compact line alone, or ``None``."""
    at = raw.find(b',"seats":[')
    if at < 0:
        return None
    return _seats_of(raw[at + 9 : raw.find(b"]", at) + 1])


@functools.lru_cache(maxsize=1024)
def _seats_of(text: bytes) -> dict[str, Any] | None:
    """The seats of a line from their JSON text: read once per lineup (a file has a few, over
    and over), the one dict shared by every line that has them (it is only read)."""
    try:
        seats = _DECODER.raw_decode(text.decode("utf-8"))[0]
    except (ValueError, UnicodeDecodeError):
        return None
    return {"seats": seats} if isinstance(seats, list) else None


#: Games are numbered below this (a tournament's count is an int64, as its arrays are).
_MAX_GAME = 2**63 - 1
#: Digits of a number that may be at least _MAX_GAME: read by the full reading, which says so.
_GAME_DIGITS = len(str(_MAX_GAME))


def _read_line(
    path: Path, lineno: int, raw: bytes, offset: int, board: Board | None, check: bool
) -> tuple[int, int, dict[str, Any] | None]:
    if not check:
        # The line's index, without parsing the rest: '"game":N,' comes right after "format";
        # and its seats, where they can be read on their own.
        at = raw.find(b',"game":')
        if at >= 0:
            digits = raw[at + 8 : raw.find(b",", at + 8)]
            if digits.isdigit() and len(digits) < _GAME_DIGITS:
                return int(digits), offset, _seats(raw)
    try:
        text = raw.decode("utf-8")
        read = cut_line(text)
        game, actions = (json.loads(text), None) if read is None else read
        index = game["game"]
    except UnicodeDecodeError as e:
        raise ResultsFileError(f"{path}, line {lineno}: not UTF-8 text ({e.reason})") from e
    except (ValueError, KeyError, TypeError, IndexError) as e:
        raise ResultsFileError(f"{path}, line {lineno}: not a tournament game ({e})") from e
    if type(index) is not int or not 0 <= index < _MAX_GAME:
        raise ResultsFileError(
            f"{path}, line {lineno}: not a tournament game (its number is {index!r:.40}; a "
            f"tournament's games are numbered 0 to {_MAX_GAME - 1})"
        )
    seats = game.get("seats")
    if not isinstance(seats, list) or not all(isinstance(n, str) for n in seats):
        raise ResultsFileError(
            f"{path}, line {lineno}: not a tournament game (seats {seats!r}, not a list of "
            "entrant names)"
        )
    check_scores(game, f"{path}, line {lineno}", board, actions)
    return index, offset, game


def complete_length(path: Path) -> int:
    """The length in bytes of the part of a results file that holds complete lines."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        block = 1 << 16
        pos = size
        while pos > 0:
            start = max(0, pos - block)
            f.seek(start)
            chunk = f.read(pos - start)
            at = chunk.rfind(b"\n")
            if at >= 0:
                return start + at + 1
            pos = start
    return 0


def read_results_file(path: Path, *, board: Board | None = None) -> tuple[dict[int, str], int]:
    """The complete lines of a results file by game index, and the length in bytes of the part
    that holds them (all in memory: for small files and tests; the runner streams with
    :func:`scan_results_file`)."""
    lines: dict[int, str] = {}
    with open(path, "rb") as f:
        for index, offset, _ in scan_results_file(path, board=board):
            if index not in lines:
                f.seek(offset)
                lines[index] = f.readline().decode("utf-8").rstrip("\n")
    return lines, complete_length(path)


class LazyLines(Sequence[str]):
    """Results lines kept where they are and read when used (equal to any sequence of the
    same lines)."""

    def _line(self, index: int) -> str:
        """The line of game ``index`` (0 <= index < len(self))."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self._line(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        if not -n <= index < n:
            raise IndexError(f"game {index} of {n} results lines")
        return self._line(index % n)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]


class FileLines(LazyLines):
    """Lines of a results file by game order, read from the file when asked for: only the
    offsets are held (8 bytes a game), so results of any size take no memory."""

    def __init__(self, path: Path, offsets: NDArray[np.int64]) -> None:
        self._path = path
        self._offsets = offsets

    def __len__(self) -> int:
        return len(self._offsets)

    def _line(self, index: int) -> str:
        offset = int(self._offsets[index])
        with open(self._path, "rb") as f:
            f.seek(offset)
            return f.readline().decode("utf-8").rstrip("\n")

    def __iter__(self) -> Iterator[str]:
        with open(self._path, "rb") as f:
            at = 0
            for offset in iter_array(self._offsets):
                if offset != at:
                    f.seek(offset)
                raw = f.readline()
                at = offset + len(raw)
                yield raw.decode("utf-8").rstrip("\n")

    def parts(self, size: int) -> Iterator[tuple[int, FileLines]]:
        """``(first game, its lines)`` of every ``size`` games in order: the same file, a
        slice of the offsets (a worker reads them itself)."""
        for first in range(0, len(self), size):
            yield first, FileLines(self._path, self._offsets[first : first + size])

    def __repr__(self) -> str:
        return f"<{len(self)} results lines in {self._path}>"


def iter_array(values: NDArray[np.int64]) -> Iterator[int]:
    """The array's values as Python ints, a piece at a time (a list of them all would take
    36 bytes a value)."""
    for start in range(0, len(values), 1 << 16):
        yield from values[start : start + (1 << 16)].tolist()


def ordered_offsets(path: Path) -> NDArray[np.int64]:
    """The offsets of a results file's games in game order (the first line of each game)."""
    index: list[int] = []
    offsets: list[int] = []
    for i, offset, _ in scan_results_file(path, check=False):
        index.append(i)
        offsets.append(offset)
    return in_game_order(np.array(index, dtype=np.int64), np.array(offsets, dtype=np.int64))


def first_copies(index: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.intp]]:
    """The games in ``index`` (the game of each line, in file order), ascending, and the line of
    each one's first copy: a game saved twice counts once, as its first copy."""
    found, first = np.unique(index, return_index=True)
    return found, first


def in_game_order(index: NDArray[np.int64], values: NDArray[np.int64]) -> NDArray[np.int64]:
    """``values`` sorted by ``index``, the first of each repeated index kept."""
    out: NDArray[np.int64] = values[first_copies(index)[1]]
    return out


def write_atomically(path: Path, lines: Iterable[str]) -> None:
    """Write the lines to a temporary file beside ``path``, then put it in place at once."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line)
            f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - directories cannot be opened on some systems
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


_DECODER = json.JSONDecoder()


def line_seats(line: str) -> list[str]:
    """The seats of a results line: read without parsing the whole line where it is compact."""
    at = line.find(',"seats":[')
    seats: list[str] = (
        _DECODER.raw_decode(line, at + 9)[0] if at >= 0 else json.loads(line)["seats"]
    )
    return seats
