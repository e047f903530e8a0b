"""One tournament game at a guarded table (:class:`~huescues.agents.Table`): an agent that
raises, answers illegally or too slowly loses that decision to the random agent's move (its
fault is recorded), and a game that cannot go on is recorded as unfinished, never dropped."""

from __future__ import annotations

import importlib
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

from huescues.agents import (
    Agent,
    RandomAgent,
    SignalTimer,
    Table,
    Timer,
    error_text,
    joins_batches,
    missing_decisions,
    run_together,
)
from huescues.engine import Board, InvalidRules, Rules

from ._entrants import build_agent
from ._game_result import EntrantFault, GameResult
from ._schedule import GameSpec

__all__ = [
    "ChunkTask",
    "init_worker",
    "iter_chunk",
    "play_chunk",
    "play_spec",
    "play_specs",
    "rules_for",
    "stream_chunk_in_worker",
]

#: What a seat whose agent could not be built holds: never asked (the seat is retired).
_STAND_IN = RandomAgent()


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """What a worker needs to play a batch of games: only plain values and strings."""

    specs: tuple[GameSpec, ...]
    rules: Mapping[str, Any]
    board: Board | None
    decision_time_limit: float


def rules_for(n_players: int, overrides: Mapping[str, Any]) -> Rules:
    """``Rules.standard(n_players, **overrides)``, with JSON lists read as tuples."""
    unknown = [k for k in overrides if k not in _SETTINGS]
    if unknown:  # (not a TypeError about Rules.standard's keywords)
        raise InvalidRules(
            f"unknown rules settings: {unknown!r} (the settings: {', '.join(sorted(_SETTINGS))}; "
            "players= gives the player counts)"
        )
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()}
    return Rules.standard(n_players, **values)


#: The settings a tournament's rules may change.
_SETTINGS = frozenset(f.name for f in fields(Rules)) - {"n_players"}


class _GuardedGame(Table):
    """A guarded table of the game's entrants (:class:`~huescues.agents.Table`): a decision
    that raises, is not a legal action or runs past the time limit is a fault, and the random
    agent's move is played instead (with the seat's own generator, so the game stays the
    seed's). Agents are built and prepared before the first decision, outside the clock: a
    failure there makes every decision of that seat a fault."""

    def __init__(self, spec: GameSpec, timer: Timer, language: str) -> None:
        agents: list[Agent] = []
        broken: dict[int, str] = {}
        for seat, factory in enumerate(spec.factories):
            try:
                agent = build_agent(factory, language)
                # (None would be a person's seat, waited for; anything else that lacks a
                # decision would end the game unfinished, with no fault.)
                missing = missing_decisions(agent)
                if agent is None or missing:
                    raise TypeError(
                        f"{factory} returned {agent!r:.60}, not an agent (it lacks "
                        f"{', '.join(missing)})"
                    )
                agents.append(agent)
            except Exception as e:
                # A stand-in that is never asked: the seat is retired below.
                agents.append(_STAND_IN)
                broken[seat] = f"the agent could not be built: {error_text(e)}"
        super().__init__(agents, seed=spec.seed, guard=timer)
        for seat, message in broken.items():
            self.retire(seat, message)
        self.spec = spec


def play_spec(spec: GameSpec, *, rules: Rules, board: Board | None, timer: Timer) -> GameResult:
    """Play one scheduled game and return its result."""
    return next(play_specs([spec], rules=lambda n: rules, board=board, timer=timer))[1]


def play_specs(
    specs: Iterable[GameSpec],
    *,
    rules: Callable[[int], Rules],
    board: Board | None,
    timer: Timer,
) -> Iterator[tuple[int, GameResult]]:
    """Play scheduled games and yield each ``(index, result)`` as its game ends: one by
    one, except the games with a bot that decides for many games at once
    (:func:`~huescues.agents.joins_batches`), played together at the end
    (:func:`~huescues.agents.run_together`: the same games as one by one). ``rules``: the
    rules for a player count."""
    started: list[_GuardedGame] = []
    for spec in specs:
        try:
            game_rules = rules(spec.n_players)
            table = _GuardedGame(spec, timer, game_rules.language)
        except Exception as e:  # an agent whose attributes cannot even be read
            yield spec.index, GameResult.of(spec, None, error_text(e), [], board)
            continue
        together = joins_batches(table)
        try:
            state = table.start(rules=game_rules, board=board)
            if not together:
                table.run(state)
        except Exception as e:
            yield spec.index, _finished(table, error_text(e), board)
            continue
        if together:
            started.append(table)
        else:
            yield spec.index, _finished(table, None, board)
    for i, error in run_together(started):
        table = started[i]
        text = None if error is None else error_text(error)
        yield table.spec.index, _finished(table, text, board)


def _finished(table: _GuardedGame, error: str | None, board: Board | None) -> GameResult:
    spec = table.spec
    faults = [EntrantFault(spec.seats[f.seat], f) for f in table.faults]
    return GameResult.of(spec, table.state, error, faults, board)


_WORKER_READY = False


def _prepare_worker() -> None:
    """One thread for numpy's linear algebra in each worker (two workers on two cores would
    otherwise fight over them)."""
    global _WORKER_READY
    if _WORKER_READY:
        return
    _WORKER_READY = True
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    try:
        threadpoolctl: Any = importlib.import_module("threadpoolctl")
        threadpoolctl.threadpool_limits(limits=1)
    except Exception:  # threadpoolctl is optional: without it the variables above still help
        pass


def iter_chunk(task: ChunkTask, *, prepare: bool = True) -> Iterator[tuple[int, str]]:
    """Play a batch of games, yielding each ``(index, line)`` as soon as its game ends, so
    that the caller can save it at once."""
    if prepare:
        _prepare_worker()
    rules_by_n: dict[int, Rules] = {}

    def rules(n: int) -> Rules:
        if n not in rules_by_n:
            rules_by_n[n] = rules_for(n, task.rules)
        return rules_by_n[n]

    with SignalTimer(task.decision_time_limit) as timer:
        for index, result in play_specs(task.specs, rules=rules, board=task.board, timer=timer):
            yield index, result.to_line()


def play_chunk(task: ChunkTask, *, prepare: bool = True) -> list[tuple[int, str]]:
    """Play a batch of games; return ``(index, line)`` pairs. Runs in a worker process, in a
    Dask worker, or in the caller's process."""
    return list(iter_chunk(task, prepare=prepare))


def play_chunk_in_worker(task: ChunkTask) -> list[tuple[int, str]]:
    """:func:`play_chunk` for a worker process or a Dask worker."""
    return play_chunk(task)


#: The queue a local worker process sends each finished game through, and the event that
#: asks it to stop (see ``init_worker``).
_GAMES_QUEUE: Any = None
_STOP: Any = None


def init_worker(games: Any, stop: Any) -> None:
    """Set up a local worker process: finished games go to ``games`` one by one, and it stops
    after its current game once ``stop`` is set. Ctrl-C is left to the parent (which stops the
    run and says what is saved), so the workers print no tracebacks of their own."""
    global _GAMES_QUEUE, _STOP
    _GAMES_QUEUE, _STOP = games, stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A stopped run's parent no longer reads the queue: exit without waiting to flush it (a
    # finished run's parent has read every game before the workers exit).
    games.cancel_join_thread()


def stream_chunk_in_worker(task: ChunkTask) -> int:
    """Play a batch in a local worker process, sending each game to the parent as it ends
    (a kill then loses only the games being played); return how many were sent."""
    sent = 0
    if _STOP.is_set():
        return sent
    for pair in iter_chunk(task):
        _GAMES_QUEUE.put(pair)
        sent += 1
        if _STOP.is_set():
            break
    return sent
