"""Where a tournament's games are played, behind one small protocol (:class:`Executor`): in this
process, on local worker processes (each game sent back as it ends, so a kill loses only the
games in play), or on a Dask cluster. Each yields the games' ``(index, line)`` pairs in batches
as they finish; the runner saves them (:mod:`._stores`)."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib
import itertools
import multiprocessing
import queue
import signal
import socket
import threading
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from ._play import (
    ChunkTask,
    init_worker,
    iter_chunk,
    play_chunk_in_worker,
    stream_chunk_in_worker,
)

__all__ = ["DaskCluster", "Executor", "InProcess", "LocalProcesses", "executor_for"]

#: Finished games: ``(game index, results line)`` pairs.
Batch = list[tuple[int, str]]


class Executor(Protocol):
    """Plays batches of games and yields their lines as they finish, in any order."""

    def run(self, tasks: Iterable[ChunkTask]) -> Iterator[Batch]:
        """The lines of ``tasks``' games, in batches as they finish."""
        ...


class InProcess:
    """Plays in this process, one game a batch, so that each is saved as soon as it ends."""

    def run(self, tasks: Iterable[ChunkTask]) -> Iterator[Batch]:
        return ([pair] for t in tasks for pair in iter_chunk(t, prepare=False))


class LocalProcesses:
    """Plays on ``workers`` local worker processes (:func:`_run_processes`)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(self, tasks: Iterable[ChunkTask]) -> Iterator[Batch]:
        return _run_processes(tasks, self.workers)


class DaskCluster:
    """Plays on the Dask cluster whose scheduler is at ``address`` (:func:`_run_dask`)."""

    def __init__(self, address: str) -> None:
        self.address = address

    def run(self, tasks: Iterable[ChunkTask]) -> Iterator[Batch]:
        return _run_dask(tasks, self.address)


def executor_for(*, workers: int, scheduler: str | None, tasks: int) -> Executor:
    """Where ``tasks`` batches of games are played: on the cluster at ``scheduler`` if one is
    given, in this process with one worker or one batch, else on local worker processes (no
    more than there are batches)."""
    if scheduler is not None:
        return DaskCluster(scheduler)
    if workers == 1 or tasks <= 1:
        return InProcess()
    return LocalProcesses(min(workers, tasks))


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
