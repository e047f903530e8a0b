"""The tournament runner: a schedule fixed up front, games played in batches where an executor
plays them (:mod:`._executors`: this process, local worker processes, a Dask cluster), results
kept as they finish by a store (:mod:`._stores`: a JSON-lines file, Parquet shards, memory) and
put in game order at the end."""

from __future__ import annotations

import itertools
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from huescues.engine import Board

from ._entrants import Entrant, entrant
from ._executors import executor_for
from ._play import ChunkTask, rules_for
from ._results import TournamentResults
from ._saved import SavedGameCheck
from ._schedule import GameSpec, Schedule, balanced_games, make_schedule
from ._stores import store_for

__all__ = ["Tournament", "run_tournament"]

Progress = Callable[[int, int], None]

#: Games per task: big enough that a task's overhead is small and that the built-in players,
#: deciding for a task's games together, do so in large batches; small enough to spread work
#: and for their caches (ROUND_BELIEFS, SCREEN_TOTALS) to hold a batch's games at one moment.
#: (10,000 default-vs-naming games on 2 workers: 92 s of CPU with 100, 80 s with 200, 82 s
#: with 400.)
_MAX_BATCH = 200


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
        #: speaks it is built for it by each worker, the others give English clues (checked by
        #: its rules).
        self.language: str = made[counts[0]].language
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
        check = None if path is None else self._saved_check(path)
        # Where the games go; a resume's store first finds the games it has (each checked).
        store = store_for(path, specs, check=check, board=self.board, resume=resume)
        saved = store.saved
        n_done = 0 if saved is None else int(saved.sum())
        if progress is not None:
            progress(n_done, total)
        n_workers = workers if workers is not None else (os.cpu_count() or 1)
        # Batches made as they are needed: a long schedule is never held in memory.
        todo = iter(specs) if saved is None else (s for s in specs if not saved[s.index])
        n_tasks, chunks = _chunks(todo, total - n_done, n_workers)
        tasks = (
            ChunkTask(tuple(c), self.rules, self.board, self.decision_time_limit) for c in chunks
        )
        try:
            executor = executor_for(workers=n_workers, scheduler=scheduler, tasks=n_tasks)
            for batch in executor.run(tasks):
                store.write(batch)
                n_done += len(batch)
                if progress is not None:
                    progress(n_done, total)
        finally:
            store.close()
        return store.results([e.name for e in self.entrants])

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
