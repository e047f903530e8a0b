"""One tournament game with guarded agents: an agent that raises, answers illegally or too
slowly loses that decision to the random agent's move (its fault is recorded), and a game that
cannot go on is recorded as unfinished, never dropped."""

from __future__ import annotations

import importlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import FrameType
from typing import Any

import numpy as np

from huescues.agents import Agent, GameLoop, RandomAgent, decide, prepare
from huescues.engine import (
    Action,
    Board,
    ChooseTarget,
    GameRecord,
    GameState,
    GiveClue,
    IllegalAction,
    Pass,
    PlacePawn,
    Rules,
)

from ._entrants import build_agent
from ._schedule import GameSpec

__all__ = [
    "FORMAT",
    "ChunkTask",
    "init_worker",
    "iter_chunk",
    "play_chunk",
    "play_spec",
    "rules_for",
    "stream_chunk_in_worker",
]

#: The version of a results line; bumped when the line's meaning changes.
FORMAT = 1

_ACTIONS = (ChooseTarget, GiveClue, Pass, PlacePawn)
_FALLBACK = RandomAgent()


class DecisionTimeout(BaseException):
    """Raised inside a decision that runs past the time limit (a ``BaseException``, so that an
    agent's ``except Exception`` does not swallow it)."""


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """What a worker needs to play a batch of games: only plain values and strings."""

    specs: tuple[GameSpec, ...]
    rules: Mapping[str, Any]
    board: Board | None
    decision_time_limit: float


def rules_for(n_players: int, overrides: Mapping[str, Any]) -> Rules:
    """``Rules.standard(n_players, **overrides)``, with JSON lists read as tuples."""
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()}
    return Rules.standard(n_players, **values)


class _Timer:
    """Interrupts a decision with ``SIGALRM`` when it runs past the limit, where it can (the
    main thread of a process on a system with ``setitimer``); elsewhere the limit is checked
    once the decision returns.

    The alarm is not set and cleared around every decision (two system calls a decision, a
    tenth of a fast game's time): it is set once, and when it rings it interrupts the decision
    in play if that has run out of time, and otherwise is set again for when the decision in
    play would run out (or a whole limit later, between decisions). A decision is thus still
    interrupted when its time is up, to the same precision."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.armed = (
            limit > 0
            and np.isfinite(limit)
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
        )
        self._previous: Any = None
        #: When the decision in play started (``time.perf_counter``); None between decisions.
        self._started: float | None = None

    def __enter__(self) -> _Timer:
        if self.armed:
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.limit)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
            self._started = None

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        started = self._started
        now = time.perf_counter()
        if started is not None and now - started >= self.limit:
            self._started = None
            signal.setitimer(signal.ITIMER_REAL, self.limit)  # for the decisions after this one
            raise DecisionTimeout
        wait = self.limit if started is None else started + self.limit - now
        signal.setitimer(signal.ITIMER_REAL, max(wait, 1e-6))

    def call(
        self, fn: Callable[[GameState, int], Action], state: GameState, seat: int
    ) -> tuple[Action, float]:
        """``fn(state, seat)``, and the seconds it took."""
        start = time.perf_counter()
        if self.armed:
            self._started = start
            try:
                action = fn(state, seat)
            finally:
                self._started = None
            return action, time.perf_counter() - start
        action = fn(state, seat)
        return action, time.perf_counter() - start


class _GuardedGame(GameLoop):
    """The game loop with guarded agents: a decision that raises, is not a legal action or runs
    past the time limit is a fault, and the random agent's move is played instead (with the
    seat's own generator, so the game stays the seed's). Agents are built and prepared before
    the first decision, outside the clock: a failure there makes every decision of that seat a
    fault."""

    def __init__(self, spec: GameSpec, timer: _Timer) -> None:
        agents: list[Agent | None] = []
        self.broken: list[str] = []
        for factory in spec.factories:
            try:
                agents.append(build_agent(factory))
                self.broken.append("")
            except Exception as e:
                agents.append(None)
                self.broken.append(f"the agent could not be built: {_err(e)}")
        super().__init__(agents, seed=spec.seed)
        self.spec = spec
        self.timer = timer
        self.faults: list[dict[str, Any]] = []
        #: The last state reached: kept for the results line if the game cannot go on.
        self.state: GameState | None = None

    def prepare(self, state: GameState) -> None:
        for seat, agent in enumerate(self.agents):
            if agent is None:
                continue
            try:
                prepare(agent, state.board, state.rules)
            except Exception as e:
                self.agents[seat] = None
                self.broken[seat] = f"the agent could not be prepared: {_err(e)}"

    def turn(self, state: GameState, seat: int) -> GameState:
        self.state = state
        kind, message = self._attempt(state, seat)
        if kind is None:
            assert isinstance(message, GameState)
            after = message
        else:
            self.faults.append(_fault(self.spec, seat, state, kind, str(message)))
            # The penalty: the random agent's move for this decision, with the seat's generator.
            after = state.apply(decide(_FALLBACK, state.view(seat), self.rngs[seat]), seat=seat)
        self.state = after
        return after

    def _attempt(self, state: GameState, seat: int) -> tuple[str | None, GameState | str]:
        """The state after the agent's decision, or the kind of fault and its message."""
        if self.agents[seat] is None:
            return "exception", self.broken[seat]
        limit = self.timer.limit
        try:
            action, took = self.timer.call(self.decide, state, seat)
        except DecisionTimeout:
            return "timeout", f"no decision within {limit:g} s"
        except Exception as e:
            return "exception", _err(e)
        if took > limit:
            return "timeout", f"no decision within {limit:g} s"
        if not isinstance(action, _ACTIONS):
            return "illegal", f"not an action: {action!r}"[:500]
        try:
            return None, state.apply(action, seat=seat)
        except IllegalAction as e:
            return "illegal", str(e)
        except Exception as e:
            return "illegal", f"{action} refused: {_err(e)}"


def play_spec(
    spec: GameSpec, *, rules: Rules, board: Board | None, timer: _Timer
) -> dict[str, Any]:
    """Play one scheduled game and return its results line (a dict)."""
    error: str | None = None
    try:
        loop = _GuardedGame(spec, timer)
    except Exception as e:  # an agent whose attributes cannot even be read
        return _line(spec, None, _err(e), [], board)
    try:
        loop.state = loop.start(rules=rules, board=board)
        loop.run(loop.state)
    except Exception as e:
        error = _err(e)
    return _line(spec, loop.state, error, loop.faults, board)


def _err(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) <= 500 else text[:497] + "..."


def _fault(spec: GameSpec, seat: int, state: GameState, kind: str, message: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "entrant": spec.seats[seat],
        "kind": kind,
        "round": state.round,
        "phase": state.phase.value,
        "message": message,
    }


def _line(
    spec: GameSpec,
    state: GameState | None,
    error: str | None,
    faults: list[dict[str, Any]],
    board: Board | None,
) -> dict[str, Any]:
    n = spec.n_players
    finished = error is None and state is not None and state.result is not None
    if state is None:
        scores: list[int] = [0] * n
        winners: list[int] = []
        tiebreaks = 0
        rounds: list[dict[str, Any]] = []
        record: dict[str, Any] | None = None
        board_id = board.id if board is not None else Board.standard().id
    else:
        scores = list(state.scores)
        winners = list(state.result.winners) if state.result is not None else []
        tiebreaks = state.tiebreak_rounds
        rounds = [r.to_dict() for r in state.history]
        record = GameRecord.of(state).to_dict()
        board_id = state.board.id
    return {
        "format": FORMAT,
        "game": spec.index,
        "seed": spec.seed,
        "n_players": n,
        "board_id": board_id,
        "seats": list(spec.seats),
        "status": "finished" if finished else "unfinished",
        "error": None if finished else (error or "the game did not end"),
        "scores": scores,
        "winners": winners,
        "tiebreak_rounds": tiebreaks,
        "rounds": rounds,
        "faults": faults,
        "record": record,
    }


def dumps(line: Mapping[str, Any]) -> str:
    """A results line as the file holds it (sorted keys, no spaces, so that equal results are
    equal bytes)."""
    return json.dumps(line, sort_keys=True, separators=(",", ":"))


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
    with _Timer(task.decision_time_limit) as timer:
        for spec in task.specs:
            n = spec.n_players
            if n not in rules_by_n:
                rules_by_n[n] = rules_for(n, task.rules)
            line = play_spec(spec, rules=rules_by_n[n], board=task.board, timer=timer)
            yield spec.index, dumps(line)


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
