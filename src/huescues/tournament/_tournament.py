"""The tournament runner: a schedule fixed up front, games played in batches by local worker
processes or a Dask cluster, results streamed to disk and put in game order at the end."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib
import itertools
import json
import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from huescues.engine import Board

from ._entrants import Entrant, entrant
from ._play import ChunkTask, play_chunk, play_chunk_in_worker, rules_for
from ._results import ResultsFileError, TournamentResults, read_results_file, write_atomically
from ._schedule import GameSpec, Schedule, balanced_games, make_schedule
from ._shards import is_shard_directory, read_shards, write_final_shards, write_shard

__all__ = ["Tournament", "run_tournament"]

Progress = Callable[[int, int], None]

#: Games per task: big enough that a task's overhead is small, small enough to spread work.
_MAX_CHUNK = 100
#: Seconds between fsyncs of the results file while games stream in.
_FSYNC_EVERY = 1.0


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
        if type(games) is not int or games < 0:
            raise ValueError(f"games is a whole number >= 0, not {games!r}")
        self.games = games
        self.players: tuple[int, ...] = tuple(players)
        if not self.players:
            raise ValueError("a tournament needs at least one player count")
        if type(seed) is not int or seed < 0:
            raise ValueError(f"a tournament seed is a whole number >= 0, not {seed!r}")
        self.seed = seed
        self.rules: dict[str, Any] = dict(rules or {})
        for n in dict.fromkeys(self.players):
            rules_for(n, self.rules)  # refuse bad settings or counts before any game
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
        path = None if out is None else Path(out)
        done: dict[int, str] = {}
        shards = path is not None and is_shard_directory(path)
        next_shard = 0
        if path is not None and shards:
            done, next_shard = self._prepare_shards(path, specs, resume=resume)
        elif path is not None:
            done = self._prepare_file(path, specs, resume=resume)
        total = len(specs)
        if progress is not None:
            progress(len(done), total)
        n_workers = workers if workers is not None else (os.cpu_count() or 1)
        # Batches made as they are needed: a long schedule is never held in memory.
        todo = (s for s in specs if s.index not in done)
        n_tasks, chunks = _chunks(todo, total - len(done), n_workers)
        tasks = (
            ChunkTask(tuple(c), self.rules, self.board, self.decision_time_limit) for c in chunks
        )
        lines = dict(done)
        with contextlib.ExitStack() as stack:
            f = None
            if path is not None and not shards:
                f = stack.enter_context(open(path, "a", encoding="utf-8", newline="\n"))
            sink = _Sink(f)
            stack.callback(sink.sync)
            if scheduler is not None:
                stream = _run_dask(tasks, scheduler)
            elif n_workers == 1 or n_tasks <= 1:
                stream = (play_chunk(t, prepare=False) for t in tasks)
            else:
                stream = _run_processes(tasks, min(n_workers, n_tasks))
            for batch in stream:
                if shards and path is not None and batch:
                    write_shard(path, next_shard, batch)
                    next_shard += 1
                sink.write(line for _, line in batch)
                lines.update(batch)
                if progress is not None:
                    progress(len(lines), total)
        ordered = [lines[s.index] for s in specs]
        if path is not None and shards:
            write_final_shards(path, [(s.index, lines[s.index]) for s in specs])
        elif path is not None:
            write_atomically(path, ordered)
        return TournamentResults(ordered, entrants=[e.name for e in self.entrants], out=path)

    def _prepare_file(self, path: Path, specs: Schedule, *, resume: bool) -> dict[int, str]:
        """The games already in ``path`` (when resuming), checked against the schedule; the
        file is cut back to its complete lines."""
        exists = path.exists() and path.stat().st_size > 0
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")
            return {}
        if not resume:
            raise ResultsFileError(
                f"results file {path} already exists; pass resume=True to finish that run, "
                f"or choose another file"
            )
        done, end = read_results_file(path, board=self.board)
        for index, line in done.items():
            self._check(path, index, json.loads(line), specs)
        with open(path, "r+b") as f:
            f.truncate(end)
        return done

    def _prepare_shards(
        self, path: Path, specs: Schedule, *, resume: bool
    ) -> tuple[dict[int, str], int]:
        """The games already in the shard directory (when resuming), checked, and the next
        shard number."""
        done, next_shard = read_shards(path)
        if done and not resume:
            raise ResultsFileError(
                f"results directory {path} already holds games; pass resume=True to finish that "
                f"run, or choose another place"
            )
        path.mkdir(parents=True, exist_ok=True)
        for index, line in done.items():
            self._check(path, index, json.loads(line), specs)
        return done, next_shard

    def _check(self, path: Path, index: int, game: dict[str, Any], specs: Schedule) -> None:
        """Refuse to resume from a file of another tournament."""

        def refuse(why: str) -> None:
            raise ResultsFileError(
                f"cannot resume from {path}: it is not from this tournament's schedule "
                f"(game {index}: {why}); use another file, or the tournament that wrote it"
            )

        if index < 0 or index >= len(specs):
            refuse(f"this tournament has {len(specs)} games")
        spec = specs[index]
        if game.get("format") != 1:
            refuse(f"results format {game.get('format')!r}, not 1")
        if game.get("seed") != spec.seed:
            refuse(f"seed {game.get('seed')} in the file, {spec.seed} in the schedule")
        if game.get("n_players") != spec.n_players or game.get("seats") != list(spec.seats):
            refuse(f"seats {game.get('seats')} in the file, {list(spec.seats)} in the schedule")
        board_id = self.board.id
        if game.get("board_id") != board_id:
            refuse(f"board {game.get('board_id')!r} in the file, {board_id!r} in this tournament")
        record = game.get("record")
        if record is not None:
            rules = rules_for(spec.n_players, self.rules).to_dict()
            if record.get("rules") != rules:
                refuse("the file's games were played by other rules")


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


def _chunks(
    specs: Iterable[GameSpec], count: int, workers: int
) -> tuple[int, Iterator[list[GameSpec]]]:
    """How many batches, and the batches of the ``count`` games, made as they are asked for:
    about eight per worker, at most ``_MAX_CHUNK`` games each, but each worker's first batch is
    one game, so that the progress shows a rate (and an estimate) at once."""
    if count <= 0:
        return 0, iter(())
    size = max(1, min(_MAX_CHUNK, math.ceil(count / (8 * workers))))
    first = min(workers, count) if size > 1 else 0
    n_tasks = first + math.ceil((count - first) / size)

    def batches() -> Iterator[list[GameSpec]]:
        it = iter(specs)
        for _ in range(first):
            yield list(itertools.islice(it, 1))
        while batch := list(itertools.islice(it, size)):
            yield batch

    return n_tasks, batches()


class _Sink:
    """Appends lines to the results file as games finish: flushed at once, fsynced at most
    every ``_FSYNC_EVERY`` seconds and at the end."""

    def __init__(self, f: IO[str] | None) -> None:
        self._f = f
        self._synced = time.monotonic()

    def write(self, lines: Iterable[str]) -> None:
        f = self._f
        if f is None:
            return
        f.write("".join(f"{line}\n" for line in lines))
        f.flush()
        now = time.monotonic()
        if now - self._synced >= _FSYNC_EVERY:
            os.fsync(f.fileno())
            self._synced = now

    def sync(self) -> None:
        if self._f is not None:
            self._f.flush()
            os.fsync(self._f.fileno())


def _run_processes(tasks: Iterable[ChunkTask], workers: int) -> Iterator[list[tuple[int, str]]]:
    """The batches' results from local worker processes, in completion order. A few batches
    per worker are handed out at a time, so that the batches are made as they are needed."""
    context = multiprocessing.get_context("spawn")
    queue = iter(tasks)
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {
            pool.submit(play_chunk_in_worker, t) for t in itertools.islice(queue, 2 * workers)
        }
        try:
            while pending:
                finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    pending |= {
                        pool.submit(play_chunk_in_worker, t) for t in itertools.islice(queue, 1)
                    }
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()


def _run_dask(tasks: Iterable[ChunkTask], scheduler: str) -> Iterator[list[tuple[int, str]]]:
    """The batches' results from a Dask cluster, in completion order."""
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as e:
        raise ImportError(
            "running a tournament on a Dask cluster needs the dask extra: "
            "pip install 'huescues[dask]'"
        ) from e
    client = distributed.Client(scheduler, set_as_default=False)
    try:
        with client.as_current():
            futures = [client.submit(play_chunk_in_worker, t, pure=False) for t in tasks]
            for future in distributed.as_completed(futures):
                yield future.result()
    finally:
        client.close()
