"""The tournament runner: a schedule fixed up front, games played in batches by local worker
processes or a Dask cluster, results streamed to disk and put in game order at the end."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib
import itertools
import math
import multiprocessing
import os
import queue
import signal
import socket
import sys
import threading
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board

from ._entrants import Entrant, entrant, in_language
from ._play import (
    ChunkTask,
    init_worker,
    iter_chunk,
    play_chunk_in_worker,
    rules_for,
    stream_chunk_in_worker,
)
from ._results import (
    FileLines,
    ResultsFileError,
    TournamentResults,
    complete_length,
    first_copies,
    iter_array,
    scan_results_file,
    write_atomically,
)
from ._saved import SavedGameCheck
from ._schedule import GameSpec, Schedule, balanced_games, make_schedule
from ._shards import (
    is_shard_directory,
    next_shard_number,
    scan_shards,
    write_final_shards,
    write_shard,
)

__all__ = ["Tournament", "run_tournament"]

Progress = Callable[[int, int], None]

#: Games per shard written (or fewer, every few seconds).
_MAX_CHUNK = 100
#: Games per task: big enough that a task's overhead is small and that the built-in players,
#: deciding for a task's games together, do so in large batches; small enough to spread work
#: and for their caches (ROUND_BELIEFS, SCREEN_TOTALS) to hold a batch's games at one moment.
#: (10,000 default-vs-naming games on 2 workers: 92 s of CPU with 100, 80 s with 200, 82 s
#: with 400.)
_MAX_BATCH = 200
#: Seconds between fsyncs of the results file while games stream in.
_FSYNC_EVERY = 1.0
#: Seconds at most between Parquet shards while games stream in (what a kill can cost).
_SHARD_EVERY = 5.0


class Tournament:
    """Many games between entrants, seat-balanced and seeded up front (``docs/tournaments.md``).

    ``entrants``: :class:`Entrant` values or specs for :func:`entrant` (``"random"``,
    ``"module:callable"``, ``"name=module:callable"``); names must differ. ``players``: the
    player counts, taken in turn by blocks of games. ``rules``: settings changed from
    ``Rules.standard(n)`` for every count. ``board``: a board CSV (default: the standard
    board). ``decision_time_limit``: seconds an agent may take for one decision.
    """

    def __init__(
        self,
        entrants: Sequence[Entrant | str],
        *,
        games: int,
        players: Sequence[int] = (4,),
        seed: int = 0,
        rules: Mapping[str, Any] | None = None,
        board: str | os.PathLike[str] | None = None,
        decision_time_limit: float = 10.0,
    ) -> None:
        if isinstance(entrants, str):
            raise TypeError("entrants is a list of entrants, not one string")
        self.entrants: tuple[Entrant, ...] = tuple(
            e if isinstance(e, Entrant) else entrant(e) for e in entrants
        )
        names = [e.name for e in self.entrants]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"entrant names must differ; repeated: {dupes}")
        if type(games) is not int or not 0 <= games <= sys.maxsize:
            raise ValueError(f"games is a whole number from 0 to {sys.maxsize}, not {games!r}")
        self.games = games
        counts = tuple(players)
        if not counts:
            raise ValueError("a tournament needs at least one player count")
        if type(seed) is not int or seed < 0:
            raise ValueError(f"a tournament seed is a whole number >= 0, not {seed!r}")
        self.seed = seed
        self.rules: dict[str, Any] = dict(rules or {})
        # Bad settings or counts refused before any game; each count as the rules read it (a
        # numpy integer as an int, which the results lines' JSON can hold).
        made = {n: rules_for(n, self.rules) for n in dict.fromkeys(counts)}
        self.players: tuple[int, ...] = tuple(made[n].n_players for n in counts)
        #: The language of the clues (``rules={"language": "es"}``): a built-in entrant that
        #: speaks it plays in it, the others give English clues (checked by its rules).
        self.language: str = made[counts[0]].language
        self.entrants = tuple(in_language(e, self.language) for e in self.entrants)
        self.board_path = None if board is None else Path(board)
        # Loaded here and sent to the workers, which then need not read (or convert) it.
        self.board: Board = Board.standard() if board is None else Board.from_csv(board)
        limit = float(decision_time_limit)
        if not limit > 0:
            raise ValueError(f"decision_time_limit is a number of seconds > 0, not {limit!r}")
        self.decision_time_limit = limit
        self._schedule: Schedule | None = None

    def __repr__(self) -> str:
        return (
            f"Tournament({[e.name for e in self.entrants]}, games={self.games}, "
            f"players={self.players}, seed={self.seed})"
        )

    @property
    def balanced_games(self) -> int:
        """The number of games after which every entrant has played every seat equally often
        (a multiple of it keeps the balance exact)."""
        return balanced_games(len(self.entrants), self.players)

    def schedule(self) -> Schedule:
        """Every game, in order: seeds, player counts and seats, from the seed alone (a
        sequence that works each game out when asked for, so it takes no memory)."""
        if self._schedule is None:
            self._schedule = make_schedule(
                self.entrants, games=self.games, players=self.players, seed=self.seed
            )
        return self._schedule

    def run(
        self,
        *,
        workers: int | None = None,
        scheduler: str | None = None,
        out: str | os.PathLike[str] | None = None,
        resume: bool = False,
        progress: Progress | None = None,
    ) -> TournamentResults:
        """Play the games and return the results.

        ``workers``: local worker processes (``None``: one per core; 1 plays in this process).
        ``scheduler``: a Dask scheduler's address; the games then run on that cluster (extra
        ``huescues[dask]``). ``out``: the results file, written as games finish and put in
        game order at the end. ``resume``: continue the run that wrote ``out``. ``progress``:
        called with (games done, games in all) as batches finish.
        """
        if workers is not None and (type(workers) is not int or workers < 1):
            raise ValueError(f"workers is a whole number >= 1 or None, not {workers!r}")
        specs = self.schedule()
        total = len(specs)
        path = None if out is None else Path(out)
        shards = path is not None and is_shard_directory(path)
        # Where each game's line starts in a results file, plus one (0: not there yet), 8
        # bytes a game (zeros cost no memory until written); and, when resuming, which games
        # are saved, 1 byte a game. Nothing else grows with the number of games.
        where = _zeros(total if path is not None and not shards else 0, np.int64)
        have: NDArray[np.bool_] | None = None
        in_order = False  # the file holds every game, in order, and nothing else
        next_shard = 0
        if path is not None and shards:
            have, next_shard = self._prepare_shards(path, specs, resume=resume)
        elif path is not None:
            have, in_order = self._prepare_file(path, specs, where, resume=resume)
        n_done = 0 if have is None else int(have.sum())
        if progress is not None:
            progress(n_done, total)
        n_workers = workers if workers is not None else (os.cpu_count() or 1)
        # Batches made as they are needed: a long schedule is never held in memory.
        todo = iter(specs) if have is None else (s for s in specs if not have[s.index])
        n_tasks, chunks = _chunks(todo, total - n_done, n_workers)
        tasks = (
            ChunkTask(tuple(c), self.rules, self.board, self.decision_time_limit) for c in chunks
        )
        # Without a file the lines are kept here: the caller asked for them in memory.
        kept: dict[int, str] | None = {} if path is None else None
        with contextlib.ExitStack() as stack:
            f = None
            if path is not None and not shards:
                f = stack.enter_context(open(path, "ab"))
            sink = _Sink(f, where)
            stack.callback(sink.sync)
            shard_sink = _ShardSink(path if shards else None, next_shard)
            stack.callback(shard_sink.flush)
            if scheduler is not None:
                stream = _run_dask(tasks, scheduler)
            elif n_workers == 1 or n_tasks <= 1:
                # One game a batch, so that each is saved as soon as it ends.
                stream = ([pair] for t in tasks for pair in iter_chunk(t, prepare=False))
            else:
                stream = _run_processes(tasks, min(n_workers, n_tasks))
            for batch in stream:
                shard_sink.write(batch)
                sink.write(batch)
                if kept is not None:
                    kept.update(batch)
                n_done += len(batch)
                if progress is not None:
                    progress(n_done, total)
        names = [e.name for e in self.entrants]
        if path is not None and shards:
            return TournamentResults(write_final_shards(path, total), entrants=names, out=path)
        if path is not None and in_order:
            # Resumed from a finished run's file: putting it in order would write it again, the
            # same bytes.
            return TournamentResults(FileLines(path, where - 1), entrants=names, out=path)
        if path is not None:
            return TournamentResults(_put_in_order(path, where), entrants=names, out=path)
        assert kept is not None
        return TournamentResults([kept[i] for i in range(total)], entrants=names, out=path)

    def _prepare_file(
        self, path: Path, specs: Schedule, where: NDArray[np.int64], *, resume: bool
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
        check = self._saved_check(path)
        blank: list[int] = []
        index, offsets = array("q"), array("q")
        for i, offset, _ in scan_results_file(path, board=self.board, expect=check, blank=blank):
            index.append(i)
            offsets.append(offset)
        games = np.frombuffer(index, dtype=np.int64)
        found, first = first_copies(games)  # as when reading the file
        have = _zeros(len(specs), np.bool_)
        have[found] = True
        where[found] = np.frombuffer(offsets, dtype=np.int64)[first] + 1
        if end != path.stat().st_size:  # a last line cut short: cut off, for good
            with open(path, "r+b") as f:
                f.truncate(end)
                os.fsync(f.fileno())
        in_order = np.array_equal(games, np.arange(len(specs))) and not any(blank)
        return have, in_order

    def _prepare_shards(
        self, path: Path, specs: Schedule, *, resume: bool
    ) -> tuple[NDArray[np.bool_], int]:
        """The games already in the shard directory (when resuming), each checked as it is
        read, and the next shard number."""
        have = _zeros(len(specs), np.bool_)
        check = self._saved_check(path)
        for index, _, _, game in scan_shards(path, board=self.board):
            if not resume:
                raise ResultsFileError(
                    f"results directory {path} already holds games; pass resume=True to finish "
                    f"that run, or choose another place"
                )
            check(index, game)
            have[index] = True
        path.mkdir(parents=True, exist_ok=True)
        return have, next_shard_number(path)

    def _saved_check(self, path: Path) -> SavedGameCheck:
        """What refuses to resume from a file (or directory) of another tournament."""
        return SavedGameCheck(
            path,
            self.entrants,
            games=self.games,
            players=self.players,
            seed=self.seed,
            board_id=self.board.id,
            rules=self.rules,
        )


def run_tournament(
    entrants: Sequence[Entrant | str],
    *,
    games: int,
    players: Sequence[int] = (4,),
    seed: int = 0,
    rules: Mapping[str, Any] | None = None,
    board: str | os.PathLike[str] | None = None,
    decision_time_limit: float = 10.0,
    workers: int | None = None,
    scheduler: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: Progress | None = None,
) -> TournamentResults:
    """Make a :class:`Tournament` and run it."""
    tournament = Tournament(
        entrants,
        games=games,
        players=players,
        seed=seed,
        rules=rules,
        board=board,
        decision_time_limit=decision_time_limit,
    )
    return tournament.run(
        workers=workers, scheduler=scheduler, out=out, resume=resume, progress=progress
    )


def _zeros(n: int, dtype: type[np.generic]) -> NDArray[Any]:
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


def _chunks(
    specs: Iterable[GameSpec], count: int, workers: int
) -> tuple[int, Iterator[list[GameSpec]]]:
    """How many batches, and the batches of the ``count`` games, made as they are asked for
    (sizes from :func:`batch_sizes`)."""
    sizes = batch_sizes(count, workers)

    def batches() -> Iterator[list[GameSpec]]:
        it = iter(specs)
        for size in sizes:
            yield list(itertools.islice(it, size))

    return len(sizes), batches()


def batch_sizes(count: int, workers: int) -> list[int]:
    """The sizes of the batches of ``count`` games on ``workers`` workers: each worker's first
    batch is one game, so that the progress shows a rate (and an estimate) at once; then about
    eight batches per worker, at most ``_MAX_BATCH`` games each, each at most the games left
    over twice the workers, so that the last batches are small and the workers finish
    together rather than one waiting on the other's last large batch."""
    if count <= 0:
        return []
    size = max(1, min(_MAX_BATCH, math.ceil(count / (8 * workers))))
    first = min(workers, count) if size > 1 else 0
    least = max(1, size // 8)
    sizes = [1] * first
    left = count - first
    while left > 0:
        take = min(left, size, max(least, math.ceil(left / (2 * workers))))
        sizes.append(take)
        left -= take
    return sizes


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


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT for a while (in the main thread only), so that processes started then
    inherit its being ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_processes(tasks: Iterable[ChunkTask], workers: int) -> Iterator[list[tuple[int, str]]]:
    """The games' results from local worker processes, one game a batch, as each game ends (the
    workers send them through a queue, so a kill loses only the games in play). A few batches
    per worker are handed out at a time, so that the batches are made as they are needed."""
    context = multiprocessing.get_context("spawn")
    games = context.Queue()
    stop = context.Event()
    todo = iter(tasks)
    with cf.ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=init_worker, initargs=(games, stop)
    ) as pool:
        pending: set[cf.Future[int]] = set()

        def submit(n: int) -> None:
            with _sigint_ignored():  # workers start with it ignored: Ctrl-C is the parent's
                pending.update(
                    pool.submit(stream_chunk_in_worker, t) for t in itertools.islice(todo, n)
                )

        submit(2 * workers)
        sent = received = 0
        try:
            while True:
                finished = {f for f in pending if f.done()}
                for future in finished:
                    sent += future.result()  # a worker that failed raises its error here
                pending -= finished
                if finished:
                    submit(len(finished))
                if not pending and received >= sent:
                    return
                try:
                    pair = games.get(timeout=0.2)
                except queue.Empty:
                    continue
                received += 1
                yield [pair]
        finally:
            # Stopped early (Ctrl-C, an error): the workers end after their current game
            # (killing them could leave the pool's locks held); those games are not saved.
            stop.set()
            for future in pending:
                future.cancel()
            games.cancel_join_thread()


#: Seconds to wait for a Dask scheduler to answer before giving up.
_CONNECT_TIMEOUT = 5.0


def _check_scheduler(address: str) -> None:
    """Refuse a scheduler address that is malformed or does not answer, quickly and in one
    line, before ``distributed.Client`` is made (a Client that fails to connect hangs at exit
    and prints a traceback)."""
    rest = address.split("://", 1)[1] if "://" in address else address
    protocol = address.split("://", 1)[0] if "://" in address else "tcp"
    if protocol not in ("tcp", "tls"):
        return  # other transports (inproc, ucx): left to Dask
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(
            f"scheduler address {address!r} is not host:port (e.g. tcp://10.0.0.5:8786)"
        )
    try:
        socket.create_connection((host, int(port)), timeout=_CONNECT_TIMEOUT).close()
    except OSError as e:
        why = "no answer" if isinstance(e, TimeoutError) else (e.strerror or str(e))
        raise OSError(
            f"cannot reach the Dask scheduler at {address} ({why} within "
            f"{_CONNECT_TIMEOUT:g} s); is it running, and is the address right?"
        ) from None


def _run_dask(tasks: Iterable[ChunkTask], scheduler: str) -> Iterator[list[tuple[int, str]]]:
    """The batches' results from a Dask cluster, in completion order."""
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as e:
        raise ImportError(
            "running a tournament on a Dask cluster needs the dask extra: "
            "pip install 'huescues[dask]'"
        ) from e
    _check_scheduler(scheduler)
    try:
        client = distributed.Client(scheduler, set_as_default=False, timeout=_CONNECT_TIMEOUT)
    except Exception as e:  # something answers there, but not as a Dask scheduler
        raise OSError(
            f"the Dask scheduler at {scheduler} did not answer as one: {type(e).__name__}"
        ) from None
    try:
        with client.as_current():
            # A few batches per worker thread in flight, more submitted as they finish: the
            # batches are made as they are needed, and each result is let go once read.
            window = max(2, 2 * sum(client.nthreads().values()))
            todo = iter(tasks)

            def submit(n: int) -> list[Any]:
                return [
                    client.submit(play_chunk_in_worker, t, pure=False)
                    for t in itertools.islice(todo, n)
                ]

            running = distributed.as_completed(submit(window))
            for future in running:
                batch: list[tuple[int, str]] = future.result()
                future.release()
                for more in submit(1):
                    running.add(more)
                yield batch
    finally:
        client.close()
