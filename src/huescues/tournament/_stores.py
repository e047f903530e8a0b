"""Where a tournament's finished games go, behind one small protocol (:class:`ResultsStore`): a
JSON-lines file (appended to as games finish, fsynced every second, put in game order at the
end), a directory of Parquet shards, or memory. A store opened for a resume first finds and
checks the games already saved (:attr:`ResultsStore.saved`), so that none is played twice."""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board

from ._results import TournamentResults
from ._results_file import (
    FileLines,
    ResultsFileError,
    complete_length,
    first_copies,
    iter_array,
    scan_results_file,
    write_atomically,
)
from ._saved import SavedGameCheck
from ._schedule import Schedule
from ._shards import (
    is_shard_directory,
    next_shard_number,
    scan_shards,
    write_final_shards,
    write_shard,
)

__all__ = ["InMemory", "LinesFile", "ResultsStore", "ShardDirectory", "store_for", "zeros"]

#: Finished games: ``(game index, results line)`` pairs.
Batch = list[tuple[int, str]]

#: Games per shard written (or fewer, every few seconds).
_MAX_CHUNK = 100
#: Seconds between fsyncs of the results file while games stream in.
_FSYNC_EVERY = 1.0
#: Seconds at most between Parquet shards while games stream in (what a kill can cost).
_SHARD_EVERY = 5.0


class ResultsStore(Protocol):
    """Keeps a tournament's games as they finish."""

    @property
    def saved(self) -> NDArray[np.bool_] | None:
        """The games already kept when it was opened (a resume's), one flag a game, or
        ``None`` when there are none."""
        ...

    def write(self, batch: Batch) -> None:
        """Keep ``batch``'s games (in any order, each once)."""
        ...

    def close(self) -> None:
        """Make what is kept durable: at the end of a run, and when it stops early."""
        ...

    def results(self, entrants: Sequence[str]) -> TournamentResults:
        """Every game, in game order, once all are kept and the store is closed."""
        ...


class InMemory:
    """The games kept in memory (no results file): the caller asked for them there."""

    saved = None

    def __init__(self, total: int) -> None:
        self._total = total
        self._lines: dict[int, str] = {}

    def write(self, batch: Batch) -> None:
        self._lines.update(batch)

    def close(self) -> None:
        pass

    def results(self, entrants: Sequence[str]) -> TournamentResults:
        lines = self._lines
        return TournamentResults([lines[i] for i in range(self._total)], entrants=entrants)


class LinesFile:
    """A JSON-lines results file: games appended as they finish (where each line starts is kept,
    8 bytes a game), rewritten in game order at the end unless it already is (a resume of a
    finished run's file)."""

    def __init__(
        self, path: Path, specs: Schedule, *, check: SavedGameCheck, board: Board, resume: bool
    ) -> None:
        self.path = path
        # Where each game's line starts in the file, plus one (0: not there yet), 8 bytes a game
        # (zeros cost no memory until written); when resuming, which games are saved, 1 byte a
        # game. Nothing else grows with the number of games.
        self._where = zeros(len(specs), np.int64)
        self.saved, self._in_order = _prepare_file(
            path, specs, self._where, check=check, board=board, resume=resume
        )
        self._file = open(path, "ab")  # noqa: SIM115 - closed by close()
        self._sink = _Sink(self._file, self._where)

    def write(self, batch: Batch) -> None:
        self._sink.write(batch)

    def close(self) -> None:
        try:
            self._sink.sync()
        finally:
            self._file.close()

    def results(self, entrants: Sequence[str]) -> TournamentResults:
        path, where = self.path, self._where
        if self._in_order:
            # Resumed from a finished run's file: putting it in order would write it again, the
            # same bytes.
            return TournamentResults(FileLines(path, where - 1), entrants=entrants, out=path)
        return TournamentResults(_put_in_order(path, where), entrants=entrants, out=path)


class ShardDirectory:
    """A directory of Parquet shards: a shard every few seconds or hundred games, rewritten in
    game order at the end."""

    def __init__(
        self, path: Path, specs: Schedule, *, check: SavedGameCheck, board: Board, resume: bool
    ) -> None:
        self.path = path
        self._total = len(specs)
        self.saved, number = _prepare_shards(path, specs, check=check, board=board, resume=resume)
        self._sink = _ShardSink(path, number)

    def write(self, batch: Batch) -> None:
        self._sink.write(batch)

    def close(self) -> None:
        self._sink.flush()

    def results(self, entrants: Sequence[str]) -> TournamentResults:
        lines = write_final_shards(self.path, self._total)
        return TournamentResults(lines, entrants=entrants, out=self.path)


def store_for(
    out: Path | None, specs: Schedule, *, check: SavedGameCheck | None, board: Board, resume: bool
) -> ResultsStore:
    """The store for a run's ``out``: memory (``None``), Parquet shards (a path ending in
    ``.parquet``) or a JSON-lines file; ``check`` refuses saved games of another tournament."""
    if out is None:
        return InMemory(len(specs))
    assert check is not None
    if is_shard_directory(out):
        return ShardDirectory(out, specs, check=check, board=board, resume=resume)
    return LinesFile(out, specs, check=check, board=board, resume=resume)


def _prepare_file(
    path: Path,
    specs: Schedule,
    where: NDArray[np.int64],
    *,
    check: SavedGameCheck,
    board: Board,
    resume: bool,
) -> tuple[NDArray[np.bool_] | None, bool]:
    """The games already in ``path`` (when resuming), each checked against the schedule
    as it is read, and where their lines are; the file is cut back to its complete
    lines. Also whether it holds every game of the schedule in order and nothing else
    (no other line, not even a blank one), as a finished run leaves it."""
    exists = path.exists() and path.stat().st_size > 0
    if not exists:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
        return None, False
    if not resume:
        raise ResultsFileError(
            f"results file {path} already exists; pass resume=True to finish that run, "
            f"or choose another file"
        )
    end = complete_length(path)
    _check_cut_line(path, end)
    # Each saved game is checked against the schedule where its line is checked; the
    # games and offsets gathered as numbers, then placed at once.
    blank: list[int] = []
    index, offsets = array("q"), array("q")
    for i, offset, _ in scan_results_file(path, board=board, expect=check, blank=blank):
        index.append(i)
        offsets.append(offset)
    games = np.frombuffer(index, dtype=np.int64)
    found, first = first_copies(games)  # as when reading the file
    have = zeros(len(specs), np.bool_)
    have[found] = True
    where[found] = np.frombuffer(offsets, dtype=np.int64)[first] + 1
    if end != path.stat().st_size:  # a last line cut short: cut off, for good
        with open(path, "r+b") as f:
            f.truncate(end)
            os.fsync(f.fileno())
    in_order = np.array_equal(games, np.arange(len(specs))) and not any(blank)
    return have, in_order


def _prepare_shards(
    path: Path, specs: Schedule, *, check: SavedGameCheck, board: Board, resume: bool
) -> tuple[NDArray[np.bool_], int]:
    """The games already in the shard directory (when resuming), each checked as it is
    read, and the next shard number."""
    have = zeros(len(specs), np.bool_)
    for index, _, _, game in scan_shards(path, board=board):
        if not resume:
            raise ResultsFileError(
                f"results directory {path} already holds games; pass resume=True to finish "
                f"that run, or choose another place"
            )
        check(index, game)
        have[index] = True
    path.mkdir(parents=True, exist_ok=True)
    return have, next_shard_number(path)


def zeros(n: int, dtype: type[np.generic]) -> NDArray[Any]:
    """``np.zeros(n, dtype)``, or a clear error when the games are too many for the memory
    it takes (a results file keeps 8 bytes a game, a resume one more)."""
    try:
        return np.zeros(n, dtype=dtype)
    except (MemoryError, ValueError):
        size = np.dtype(dtype).itemsize
        raise ValueError(
            f"{n:,} games are too many to keep a results file of on this machine (it takes "
            f"{size} byte{'s' if size > 1 else ''} of memory a game): play fewer games"
        ) from None


def _check_cut_line(path: Path, end: int) -> None:
    """Refuse to drop a last line without a newline unless it is the start of a results line
    (the run was killed while writing it): a file of something else is never overwritten."""
    with open(path, "rb") as f:
        f.seek(end)
        tail = f.read()
    if not tail.strip():
        return
    # A results line is JSON with sorted keys: it starts with its first key, "board_id".
    start = b'{"board_id":'
    if tail.startswith(start) or start.startswith(tail):
        return
    raise ResultsFileError(
        f"cannot resume from {path}: its last line (from byte {end}) is not the start of a "
        f"tournament's results line, so this is not a results file cut short; nothing was "
        f"changed. Choose another results file"
    )


class _Sink:
    """Appends lines to the results file as games finish, noting where each line starts (plus
    one, in ``where``):
    flushed at once, fsynced at most every ``_FSYNC_EVERY`` seconds and at the end (when it
    wrote any)."""

    def __init__(self, f: IO[bytes] | None, where: NDArray[np.int64]) -> None:
        self._f = f
        self._where = where
        self._at = 0 if f is None else f.seek(0, os.SEEK_END)
        self._synced = time.monotonic()
        self._written = False

    def write(self, batch: list[tuple[int, str]]) -> None:
        f = self._f
        if f is None:
            return
        chunks = []
        for index, line in batch:
            data = f"{line}\n".encode()
            if not self._where[index]:
                self._where[index] = self._at + 1
            self._at += len(data)
            chunks.append(data)
        f.write(b"".join(chunks))
        f.flush()
        self._written = True
        now = time.monotonic()
        if now - self._synced >= _FSYNC_EVERY:
            os.fsync(f.fileno())
            self._synced = now

    def sync(self) -> None:
        # (A resume that found every game saved wrote nothing: nothing to make durable.)
        if self._f is not None and self._written:
            self._f.flush()
            os.fsync(self._f.fileno())


def _put_in_order(path: Path, where: NDArray[np.int64]) -> FileLines:
    """Rewrite the results file in game order (reading each line from where it was written,
    one at a time) and put it in place at once; return its lines."""
    if not where.all():
        raise ResultsFileError(f"{path}: games {np.flatnonzero(where == 0)[:5].tolist()} missing")
    offsets = np.empty(len(where), dtype=np.int64)

    def ordered() -> Iterator[str]:
        at = 0
        with open(path, "rb") as f:
            for i, place in enumerate(iter_array(where)):
                f.seek(place - 1)
                line = f.readline().decode("utf-8").rstrip("\n")
                offsets[i] = at
                at += len(line.encode()) + 1
                yield line

    write_atomically(path, ordered())
    return FileLines(path, offsets)


class _ShardSink:
    """Gathers finished games into Parquet shards: one shard every ``_SHARD_EVERY`` seconds
    or ``_MAX_CHUNK`` games (not one a game: that would make many tiny files), and the rest
    when the run stops."""

    def __init__(self, directory: Path | None, number: int) -> None:
        self._directory = directory
        self._number = number
        self._games: list[tuple[int, str]] = []
        self._written = time.monotonic()

    def write(self, batch: list[tuple[int, str]]) -> None:
        if self._directory is None:
            return
        self._games.extend(batch)
        if len(self._games) >= _MAX_CHUNK or time.monotonic() - self._written >= _SHARD_EVERY:
            self.flush()

    def flush(self) -> None:
        if self._directory is None or not self._games:
            return
        write_shard(self._directory, self._number, self._games)
        self._number += 1
        self._games = []
        self._written = time.monotonic()
