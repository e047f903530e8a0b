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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import FrameType
from typing import Any

import numpy as np

from huescues.agents import Agent, RandomAgent
from huescues.engine import (
    Action,
    Board,
    ChooseTarget,
    GameRecord,
    GameState,
    GiveClue,
    IllegalAction,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    new_game,
    seat_generators,
)

from ._entrants import build_agent
from ._schedule import GameSpec

__all__ = ["FORMAT", "ChunkTask", "play_chunk", "play_spec", "rules_for"]

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
    once the decision returns."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.armed = (
            limit > 0
            and np.isfinite(limit)
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
        )
        self._previous: Any = None

    def __enter__(self) -> _Timer:
        if self.armed:
            self._previous = signal.signal(signal.SIGALRM, _on_alarm)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)

    def call(self, fn: Callable[[Any, np.random.Generator], Action], view: Any, rng: Any) -> Any:
        """``fn(view, rng)``, and the seconds it took."""
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, self.limit)
            start = time.perf_counter()
            try:
                action = fn(view, rng)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            return action, time.perf_counter() - start
        start = time.perf_counter()
        action = fn(view, rng)
        return action, time.perf_counter() - start


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise DecisionTimeout


def _method(agent: Agent, phase: Phase) -> Callable[[Any, np.random.Generator], Any]:
    if phase is Phase.CHOOSE_TARGET:
        return agent.choose_target
    if phase is Phase.FIRST_CLUE:
        return agent.give_clue
    if phase is Phase.SECOND_CLUE:
        return agent.give_second_clue
    return agent.place_pawn


def play_spec(
    spec: GameSpec, *, rules: Rules, board: Board | None, timer: _Timer
) -> dict[str, Any]:
    """Play one scheduled game and return its results line (a dict)."""
    n = spec.n_players
    faults: list[dict[str, Any]] = []
    state: GameState | None = None
    error: str | None = None
    try:
        state = new_game(n, seed=spec.seed, rules=rules, board=board)
        agents: list[Agent | None] = []
        broken: list[str] = []
        for factory in spec.factories:
            try:
                agents.append(build_agent(factory))
                broken.append("")
            except Exception as e:
                # A factory that fails: every decision of that seat is a fault.
                agents.append(None)
                broken.append(f"the agent could not be built: {_err(e)}")
        rngs = seat_generators(spec.seed, n)
        seers = [bool(getattr(a, "sees_target", False)) for a in agents]
        limit = timer.limit
        while True:
            seat = state.current_player
            if seat is None:
                break
            phase = state.phase
            view = state._view(seat)
            if seers[seat] and state.target is not None:
                view = view._replace(target=state.target)
            rng = rngs[seat]
            agent = agents[seat]
            kind: str | None = None
            message = ""
            action: Any = None
            if agent is None:
                kind, message = "exception", broken[seat]
            else:
                try:
                    action, took = timer.call(_method(agent, phase), view, rng)
                except DecisionTimeout:
                    kind, message = "timeout", f"no decision within {limit:g} s"
                except Exception as e:
                    kind, message = "exception", _err(e)
                else:
                    if took > limit:
                        kind, message = "timeout", f"no decision within {limit:g} s"
                    elif not isinstance(action, _ACTIONS):
                        kind, message = "illegal", f"not an action: {action!r}"[:500]
                    else:
                        try:
                            state = state.apply(action, seat=seat)
                        except IllegalAction as e:
                            kind, message = "illegal", str(e)
                        except Exception as e:
                            kind, message = "illegal", f"{action} refused: {_err(e)}"
                        else:
                            continue
            faults.append(_fault(spec, seat, state, kind, message))
            # The penalty: the random agent's move for this decision, with the seat's generator.
            fallback = _method(_FALLBACK, phase)(state._view(seat), rng)
            state = state.apply(fallback, seat=seat)
    except Exception as e:
        error = _err(e)
    return _line(spec, state, error, faults, board)


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


def play_chunk(task: ChunkTask, *, prepare: bool = True) -> list[tuple[int, str]]:
    """Play a batch of games; return ``(index, line)`` pairs. Runs in a worker process, in a
    Dask worker, or in the caller's process."""
    if prepare:
        _prepare_worker()
    rules_by_n: dict[int, Rules] = {}
    out: list[tuple[int, str]] = []
    with _Timer(task.decision_time_limit) as timer:
        for spec in task.specs:
            n = spec.n_players
            if n not in rules_by_n:
                rules_by_n[n] = rules_for(n, task.rules)
            line = play_spec(spec, rules=rules_by_n[n], board=task.board, timer=timer)
            out.append((spec.index, dumps(line)))
    return out


def play_chunk_in_worker(task: ChunkTask) -> list[tuple[int, str]]:
    """:func:`play_chunk` for a worker process or a Dask worker."""
    return play_chunk(task)
