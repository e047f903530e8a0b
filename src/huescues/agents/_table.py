"""The one table: it holds a game, says whose decision is pending, takes a person's action and
runs a bot's decision under one guard (R8, R27).

A :class:`Table` is step-driven: :meth:`Table.pending` says which seat owes the next decision
and whether a person or a bot owes it, :meth:`Table.act` applies a person's action, and
:meth:`Table.step` asks the bot. Everything that plays games drives a table, synchronously
(``play_game``, the tournament, the checker, the terminal game, the RL environment) or from an
event loop (the web), and none asks an agent for a decision itself.

A guarded table (one given a :class:`Timer`) turns a bot's fault into a :class:`Fault` and the
random agent's move: a decision that raises, is not a legal action, or runs past the time
limit. A timer interrupts a decision with a signal (:class:`SignalTimer`, the main thread) or
runs it in a thread of its own (:class:`ThreadTimer`, for threads and event loops); a thread
cannot be stopped, so a bot whose thread stalls is not asked again, and its seat's moves from
then on use a generator of their own (the stalled thread may still hold the seat's).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any, NamedTuple, Protocol

import numpy as np

from huescues.engine import (
    Action,
    Board,
    ChooseTarget,
    GameState,
    GiveClue,
    IllegalAction,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    View,
    new_game,
    seat_generators,
)

from ._abilities import abilities, missing_decisions
from ._protocol import Agent
from ._random import RandomAgent

__all__ = [
    "FAULT_KINDS",
    "MESSAGE_LIMIT",
    "DecisionTimeout",
    "Fault",
    "Pending",
    "SignalTimer",
    "Table",
    "ThreadTimer",
    "Timer",
    "cut_message",
    "decide",
    "decision_generator",
    "error_text",
    "fallback_generator",
    "prepare",
    "sees_target",
]

_ACTIONS = (ChooseTarget, GiveClue, Pass, PlacePawn)
#: The move a faulty decision is replaced by: the random agent's.
_FALLBACK = RandomAgent()

#: The kinds of fault: the agent raised (or could not be built or prepared), answered with
#: something that is not a legal action, or gave no answer within the time limit.
FAULT_KINDS = ("exception", "illegal", "timeout")
#: The longest fault message, in characters; a longer one is cut once, ending in "...".
MESSAGE_LIMIT = 500

# Enum members are slow to look up on Python 3.11: fetch them once.
_CHOOSE_TARGET, _FIRST_CLUE, _SECOND_CLUE = Phase.CHOOSE_TARGET, Phase.FIRST_CLUE, Phase.SECOND_CLUE
_FIRST_GUESS, _SECOND_GUESS = Phase.FIRST_GUESS, Phase.SECOND_GUESS


def decide(agent: Agent, view: View, rng: np.random.Generator) -> Action:
    """Ask ``agent`` for the decision ``view.phase`` calls for: the target (R8), the first clue
    (R9), the second clue or a pass (R11), or a pawn (R10, R12)."""
    phase = view.phase
    if phase is _CHOOSE_TARGET:
        return agent.choose_target(view, rng)
    if phase is _FIRST_CLUE:
        return agent.give_clue(view, rng)
    if phase is _SECOND_CLUE:
        return agent.give_second_clue(view, rng)
    return agent.place_pawn(view, rng)


def prepare(agent: object, board: Board, rules: Rules) -> None:
    """Let ``agent`` do its one-time work for a game on ``board`` under ``rules`` (load models,
    read its vocabulary on the board) before its first decision, if it has a ``prepare``
    method (:func:`~huescues.agents.abilities`). Runners call it outside any decision time
    limit."""
    method = abilities(agent).prepare
    if method is not None:
        method(board, rules)


def sees_target(agent: object) -> bool:
    """Whether ``agent`` declares ``sees_target``: it is then shown the target in every view, as
    an oracle (an upper bound, never a fair player)."""
    return abilities(agent).sees_target


def cut_message(text: str) -> str:
    """``text``, cut to :data:`MESSAGE_LIMIT` characters (ending in "...") if longer."""
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 3] + "..."


def error_text(e: BaseException) -> str:
    """An exception as a fault's message: its type and text, cut (:func:`cut_message`)."""
    return cut_message(f"{type(e).__name__}: {e}")


def decision_generator(seed: int, seat: int, actions: int) -> np.random.Generator:
    """The generator of one decision at a table with ``decision_streams``: from the game's
    ``seed``, the seat and the number of actions played before it, so that a game rebuilt from
    its actions asks its next decision with the generator it would have had (R27)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, seat, actions, 1])))


def fallback_generator(seed: int, seat: int, decisions: int) -> np.random.Generator:
    """The generator a stalled bot's seat plays on with, from the game's ``seed``, the seat and
    how many decisions the game had seen (so it is the seed's, and never the stalled one's)."""
    return np.random.default_rng([seed, seat, decisions])


@dataclass(frozen=True, slots=True)
class Fault:
    """A bot's decision that was replaced by the random agent's move: the seat, the kind (one
    of :data:`FAULT_KINDS`), the message (at most :data:`MESSAGE_LIMIT` characters), and the
    round and phase it happened in."""

    seat: int
    kind: str
    message: str
    round: int
    phase: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "round": self.round,
            "phase": self.phase,
            "message": self.message,
        }


class Pending(NamedTuple):
    """The decision a table waits for: the seat that owes it, and whether a person owes it
    (:meth:`Table.act`) or a bot (:meth:`Table.step`)."""

    seat: int
    person: bool


class DecisionTimeout(BaseException):
    """Raised when a decision runs past the time limit (a ``BaseException``, so that an agent's
    ``except Exception`` does not swallow it when it is raised inside the decision)."""


class Timer(Protocol):
    """Runs one decision within a time limit; raises :class:`DecisionTimeout` when it does not
    end in time. ``abandons``: whether such a decision may still be running afterwards (then
    its seat's generator is not to be used again)."""

    limit: float
    abandons: bool

    def call(
        self, fn: Callable[[GameState, int], Action], state: GameState, seat: int
    ) -> tuple[Action, float]:
        """``fn(state, seat)``, and the seconds it took."""
        ...


#: How often the alarm rings again once it has been set for the end of the decision in play.
_RING_AGAIN = 0.01
#: The alarm's period between decisions is at least this (a limit of a microsecond would ring
#: again before the handler returned, over and over) ...
_RING_LEAST = 1e-3
#: ... and a limit above this is timed after the decision returns (``setitimer`` takes no
#: time past 2**31 seconds; this is over three years).
_RING_MOST = 1e8


class SignalTimer:
    """Interrupts a decision with ``SIGALRM`` when it runs past the limit, where it can (the
    main thread of a process on a system with ``setitimer``, between ``with`` and its end);
    elsewhere the limit is checked once the decision returns.

    The alarm is not set and cleared around every decision (two system calls a decision, a
    tenth of a fast game's time): it is set once, and when it rings it interrupts the decision
    in play if that has run out of time, and otherwise is set again for when the decision in
    play would run out, ringing again every :data:`_RING_AGAIN` until it ends (or a whole
    limit later, between decisions). A decision is thus still interrupted when its time is up,
    to the same precision."""

    abandons = False

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.armed = (
            limit > 0
            and limit <= _RING_MOST
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
        )
        #: How often the alarm rings between decisions.
        self._every = max(limit, _RING_LEAST)
        self._previous: Any = None
        #: When the decision in play started (``time.perf_counter``); None between decisions.
        self._started: float | None = None
        #: Between ``with`` and its end: a ring handled after that must not set the alarm again.
        self._open = False

    def __enter__(self) -> SignalTimer:
        if self.armed:
            self._open = True
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self._every)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            # Closed first: a ring that came just before the alarm is cleared is handled at the
            # next bytecode, perhaps inside ``signal.signal`` below, and setting the alarm again
            # then would ring under the previous handler (by default, the end of the process).
            self._open = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
            self._started = None

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if not self._open:
            return
        started = self._started
        now = time.perf_counter()
        if started is not None and now - started >= self.limit:
            self._started = None
            signal.setitimer(signal.ITIMER_REAL, self._every)  # for the decisions after this one
            raise DecisionTimeout
        if started is None:
            signal.setitimer(signal.ITIMER_REAL, self._every)
            return
        # The decision in play has a little time left: ring when it runs out, and again every
        # _RING_AGAIN until it ends. A ring that comes before this handler has returned to an
        # interrupted call (sleep, a read) is only seen once that call ends, which may be never:
        # the next one interrupts it.
        wait = started + self.limit - now
        signal.setitimer(signal.ITIMER_REAL, max(wait, 1e-6), _RING_AGAIN)

    def call(
        self, fn: Callable[[GameState, int], Action], state: GameState, seat: int
    ) -> tuple[Action, float]:
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


class ThreadTimer:
    """Runs each decision in a thread of its own and waits at most the limit for it: for a
    table driven from a thread or an event loop, where no signal can interrupt a decision. A
    thread cannot be stopped: a decision past the limit runs on, abandoned."""

    abandons = True

    def __init__(self, limit: float) -> None:
        self.limit = limit

    def call(
        self, fn: Callable[[GameState, int], Action], state: GameState, seat: int
    ) -> tuple[Action, float]:
        box: list[Any] = []
        done = threading.Event()

        def run() -> None:
            try:
                box.append((True, fn(state, seat)))
            except BaseException as e:  # handed to the caller's thread
                box.append((False, e))
            finally:
                done.set()

        start = time.perf_counter()
        threading.Thread(target=run, name=f"huescues-seat-{seat}", daemon=True).start()
        wait = self.limit if np.isfinite(self.limit) else None
        if not done.wait(wait):
            raise DecisionTimeout
        took = time.perf_counter() - start
        ok, value = box[0]
        if not ok:
            raise value
        return value, took


class Table:
    """A game between ``agents``, one per seat (``None`` for a person's seat), each seat with
    its own generator from ``seed`` (R27).

    :meth:`pending` says whose decision the game waits for; :meth:`act` applies a person's
    action and :meth:`step` a bot's decision; :meth:`run` steps the bots until a person's
    decision is pending or the game is over. Without a ``guard`` a bot's illegal action raises
    the engine's :class:`~huescues.IllegalAction` (and its exception propagates); with one (a
    :class:`Timer`), its faults are recorded in :attr:`faults` and the random agent's move is
    played instead, with the seat's own generator, so the game stays the seed's.

    A runner that needs more (checks, a person asked in place, announcements) overrides one of
    :meth:`view`, :meth:`decide` and :meth:`turn`; :meth:`run` stays the same. A runner that
    overrides :meth:`decide` decides persons' seats itself: :meth:`run` then asks it for them.
    """

    def __init__(
        self,
        agents: Sequence[Agent | None],
        *,
        seed: int,
        guard: Timer | None = None,
        persons_guess: bool = False,
        decision_streams: bool = False,
    ) -> None:
        if isinstance(agents, str | bytes) or not isinstance(agents, Iterable):
            raise TypeError(f"agents are a list with one agent per seat, not {agents!r:.60}")
        self.agents: list[Agent | None] = list(agents)
        for seat, agent in enumerate(self.agents):
            # Checked once here, so that a wrong object is named now, not deep in a game.
            missing = missing_decisions(agent)
            if agent is not None and missing:
                raise TypeError(
                    f"seat {seat} has no agent: {agent!r:.60} lacks {', '.join(missing)} "
                    "(see huescues.agents.Agent)"
                )
        self.seed = seed
        self.guard = guard
        #: Every guess (R10, R12) is a person's decision, whoever the seat's bot is: the bots
        #: only give clues (a learning environment, a guessing study).
        self.persons_guess = persons_guess
        #: Each decision draws from a generator of its own (:func:`decision_generator`), not
        #: from the seat's one stream: a game rebuilt from its stored actions (a server's, after
        #: a restart) then goes on exactly as it would have. The seat's stream is the default,
        #: as tournaments and their golden files use it.
        self.decision_streams = decision_streams
        self.rngs = seat_generators(seed, len(self.agents))
        #: The game as it stands (``None`` until :meth:`start`, or the first :meth:`run`).
        self.state: GameState | None = None
        #: Every bot's decision replaced by the random agent's move, in order.
        self.faults: list[Fault] = []
        #: When a decision was last applied (``time.monotonic``).
        self.last_active = time.monotonic()
        #: Seats whose bot is no longer asked: (kind, message) of the fault each decision is.
        self.retired: dict[int, tuple[str, str]] = {}
        #: What each seat's bot can do besides its decisions (read once: a table per game).
        self._abilities = [abilities(a) for a in self.agents]
        self._sees_target = [found.sees_target for found in self._abilities]
        # Most games show every agent its own view as it is: then decide() skips the view hook.
        self._plain_views = not any(self._sees_target) and type(self).view is Table.view
        self._asks_persons = type(self).decide is not Table.decide
        cls = type(self)
        #: Whether this table asks its bots its own way (a runner that overrides
        #: :meth:`view`, :meth:`decide` or :meth:`turn`): then it is not played in batches.
        self.overrides_decisions = not (
            cls.view is Table.view and cls.decide is Table.decide and cls.turn is Table.turn
        )

    # -- setting up ------------------------------------------------------------------------
    def start(self, *, rules: Rules | None = None, board: Board | None = None) -> GameState:
        """The game of ``seed`` (R27) with every bot prepared for it (:meth:`prepare`)."""
        state = new_game(len(self.agents), seed=self.seed, rules=rules, board=board)
        self.prepare(state)
        self.state = state
        return state

    def prepare(self, state: GameState) -> None:
        """Prepare every bot for the game of ``state`` (before any decision). At a guarded
        table a bot that fails to prepare is retired: each of its decisions is a fault."""
        board, rules = state.board, state.rules
        for seat, found in enumerate(self._abilities):
            prepare_bot = found.prepare
            if prepare_bot is None or seat in self.retired:
                continue
            if self.guard is None:
                prepare_bot(board, rules)
                continue
            try:
                prepare_bot(board, rules)
            except Exception as e:
                self.retire(seat, f"the agent could not be prepared: {error_text(e)}")

    def retire(self, seat: int, message: str, kind: str = "exception") -> None:
        """Ask ``seat``'s bot no more: each of its decisions is then a fault of ``kind`` with
        ``message``, and the random agent's move."""
        self.retired[seat] = (kind, cut_message(message))

    # -- whose decision --------------------------------------------------------------------
    def pending(self) -> Pending | None:
        """The decision the game waits for, or ``None`` once it is over."""
        state = self._require_state()
        seat = state.current_player
        if seat is None:
            return None
        return Pending(seat, self._persons(state, seat))

    def _persons(self, state: GameState, seat: int) -> bool:
        """Whether ``seat``'s decision in ``state`` is a person's."""
        return self.agents[seat] is None or (
            self.persons_guess and state.phase in (_FIRST_GUESS, _SECOND_GUESS)
        )

    def act(self, seat: int, action: Action) -> GameState:
        """Apply a person's ``action`` for ``seat``. The engine refuses an illegal one with its
        :class:`~huescues.IllegalAction` (not the seat's turn, against a rule), and the state
        is then unchanged."""
        state = self._require_state()
        if not 0 <= seat < len(self.agents) or not (
            self.agents[seat] is None
            or (self.persons_guess and state.current_player == seat and self._persons(state, seat))
        ):
            raise ValueError(f"seat {seat} is not a person's seat, or its bot owes this decision")
        self.state = state.apply(action, seat=seat)
        self.last_active = time.monotonic()
        return self.state

    def play_for(self, seat: int, agent: Agent) -> GameState:
        """Make ``seat``'s pending decision, a person's, with ``agent`` (a stand-in for a person
        who is away), as a bot's decision is made: guarded if the table has a guard, with the
        decision's own generator; the state after it. The seat stays the person's."""
        pending = self.pending()
        if pending is None or pending.seat != seat or not pending.person:
            raise ValueError(f"seat {seat} owes no person's decision now")
        assert self.state is not None
        person = self.agents[seat]
        self.agents[seat] = agent
        try:
            return self.turn(self.state, seat)
        finally:
            self.agents[seat] = person

    def give_to_bot(self, seat: int, agent: Agent) -> None:
        """Seat ``agent`` at a person's ``seat`` for the rest of the game (prepared by the
        caller): its decisions are then a bot's."""
        if not 0 <= seat < len(self.agents) or self.agents[seat] is not None:
            raise ValueError(f"seat {seat} is not a person's seat")
        self.agents[seat] = agent
        self._sees_target[seat] = sees_target(agent)
        self._plain_views = not any(self._sees_target) and type(self).view is Table.view

    def step(self) -> GameState:
        """Run the pending bot's decision (guarded if the table has a guard) and return the
        state after it."""
        pending = self.pending()
        if pending is None:
            raise ValueError("the game is over: no decision is pending")
        if pending.person:
            raise ValueError(f"seat {pending.seat} is a person's: their action is pending")
        assert self.state is not None
        return self.turn(self.state, pending.seat)

    def step_with(self, action: Action) -> GameState:
        """Apply ``action`` as the pending bot's decision, made elsewhere (a batch decision for
        many games at once, :func:`~huescues.agents.run_together`), as :meth:`step` applies
        the one it asks for: guarded, an action that is not a legal one is a fault and the
        random agent's move is played instead; unguarded, it raises the engine's
        :class:`~huescues.IllegalAction`."""
        pending = self.pending()
        if pending is None:
            raise ValueError("the game is over: no decision is pending")
        if pending.person:
            raise ValueError(f"seat {pending.seat} is a person's: their action is pending")
        state, seat = self.state, pending.seat
        assert state is not None
        if self.guard is None:
            after = self._applied(state, seat, action)
        elif seat in self.retired:
            after = self._faulted(state, seat, self._fault(state, seat, *self.retired[seat]))
        else:
            after = self._settled(state, seat, self._checked(state, seat, action, 0.0))
        return self._moved(after)

    # -- the hooks -------------------------------------------------------------------------
    def view(self, state: GameState, seat: int) -> View:
        """What ``seat``'s agent is shown: its view (R8), with the target for an agent that
        declares ``sees_target``."""
        view = state.view(seat)
        if self._sees_target[seat] and state.target is not None:
            view = view._replace(target=state.target)
        return view

    def decide(self, state: GameState, seat: int) -> Action:
        """The action ``seat``'s agent chooses (:func:`decide`), unguarded."""
        agent = self.agents[seat]
        if agent is None:
            raise ValueError(f"seat {seat} has no agent to ask")
        view = state.view(seat) if self._plain_views else self.view(state, seat)
        return decide(agent, view, self.generator(state, seat))

    def generator(self, state: GameState, seat: int, fallback: bool = False) -> np.random.Generator:
        """The generator of ``seat``'s decision in ``state``: the seat's stream, or with
        :attr:`decision_streams` the decision's own (another one for the random move that
        replaces a faulty decision, whatever the fault drew)."""
        if not self.decision_streams:
            return self.rngs[seat]
        return decision_generator(self.seed, seat, len(state.actions) * 2 + fallback)

    def turn(self, state: GameState, seat: int) -> GameState:
        """One decision of ``seat`` in ``state``, applied (and kept as :attr:`state`).
        Unguarded, an illegal action raises the engine's :class:`~huescues.IllegalAction`,
        with the seat and agent named; guarded, a fault is recorded and the random agent's
        move played instead."""
        self.state = state
        if self.guard is None:
            after = self._applied(state, seat, self.decide(state, seat))
        else:
            after = self._settled(state, seat, self._attempt(state, seat))
        return self._moved(after)

    def _moved(self, after: GameState) -> GameState:
        """``after`` kept as the table's state, the decision just applied."""
        self.state = after
        self.last_active = time.monotonic()
        return after

    def _settled(
        self, state: GameState, seat: int, attempt: tuple[Fault | None, GameState | None]
    ) -> GameState:
        """The state after a guarded decision's ``attempt``: its own, or (a fault) the random
        agent's move's, the fault recorded."""
        fault, after = attempt
        if fault is None:
            assert after is not None
            return after
        return self._faulted(state, seat, fault)

    def _applied(self, state: GameState, seat: int, action: Action) -> GameState:
        """``action`` applied unguarded: an illegal one raises, with the seat and agent named."""
        try:
            return state.apply(action, seat=seat)
        except IllegalAction as e:
            agent = type(self.agents[seat]).__name__
            e.add_note(f"played by seat {seat} ({agent}) in phase {state.phase.value}")
            raise

    def _faulted(self, state: GameState, seat: int, fault: Fault) -> GameState:
        """``fault`` recorded, and the random agent's move played in its place."""
        self.faults.append(fault)
        move = decide(_FALLBACK, state.view(seat), self.generator(state, seat, True))
        return state.apply(move, seat=seat)

    @staticmethod
    def _fault(state: GameState, seat: int, kind: str, message: str) -> Fault:
        return Fault(seat, kind, cut_message(message), state.round, state.phase.value)

    def _attempt(self, state: GameState, seat: int) -> tuple[Fault | None, GameState | None]:
        """The state after the bot's guarded decision, or the fault it made."""
        guard = self.guard
        assert guard is not None
        if seat in self.retired:
            return self._fault(state, seat, *self.retired[seat]), None
        limit = guard.limit
        try:
            action, took = guard.call(self.decide, state, seat)
        except DecisionTimeout:
            message = f"no decision within {limit:g} s"
            if guard.abandons:
                # The decision's thread runs on with the seat's generator: the seat plays on
                # with one of its own, and its bot is not asked again.
                self.rngs[seat] = fallback_generator(self.seed, seat, len(state.actions))
                self.retire(seat, f"{message} earlier: not asked again", "timeout")
            return self._fault(state, seat, "timeout", message), None
        except Exception as e:
            return self._fault(state, seat, "exception", error_text(e)), None
        return self._checked(state, seat, action, took)

    def _checked(
        self, state: GameState, seat: int, action: object, took: float
    ) -> tuple[Fault | None, GameState | None]:
        """The state after a bot's ``action`` that took ``took`` seconds, or the fault it is:
        past the guard's limit, not an action, or one the rules refuse."""
        assert self.guard is not None
        limit = self.guard.limit
        if took > limit:
            return self._fault(state, seat, "timeout", f"no decision within {limit:g} s"), None
        if not isinstance(action, _ACTIONS):
            return self._fault(state, seat, "illegal", f"not an action: {action!r}"), None
        try:
            return None, state.apply(action, seat=seat)
        except IllegalAction as e:
            return self._fault(state, seat, "illegal", str(e)), None
        except Exception as e:
            message = f"{action} refused: {type(e).__name__}: {e}"
            return self._fault(state, seat, "illegal", message), None

    # -- playing ---------------------------------------------------------------------------
    def run(
        self,
        state: GameState | None = None,
        *,
        until: Callable[[GameState], bool] | None = None,
    ) -> GameState:
        """Play from ``state`` (or the table's state) until the game is over, a person's
        decision is pending (unless :meth:`decide` is overridden to make it), or ``until``
        holds; return that state."""
        if state is None:
            state = self._require_state()
        self.state = state
        cls = type(self)
        if (
            self.guard is None
            and cls.turn is Table.turn
            and cls.decide is Table.decide
            and self._plain_views
            and not self.persons_guess
            and not self.decision_streams
        ):
            return self._run_plain(state, until)
        turn, asks_persons = self.turn, self._asks_persons
        while True:
            seat = state.current_player
            if seat is None or (until is not None and until(state)):
                return state
            if not asks_persons and self._persons(state, seat):
                return state
            state = turn(state, seat)

    def _run_plain(self, state: GameState, until: Callable[[GameState], bool] | None) -> GameState:
        """:meth:`run` when no hook is overridden and no guard is set: :meth:`turn`,
        :meth:`decide` and :func:`decide` inlined, as they cost a third of a random game's
        time."""
        agents, rngs = self.agents, self.rngs
        try:
            while True:
                seat = state.current_player
                if seat is None or (until is not None and until(state)):
                    return state
                agent = agents[seat]
                if agent is None:
                    return state
                view = state.view(seat)
                phase = view.phase
                if phase is _FIRST_GUESS or phase is _SECOND_GUESS:
                    action: Action = agent.place_pawn(view, rngs[seat])
                elif phase is _CHOOSE_TARGET:
                    action = agent.choose_target(view, rngs[seat])
                elif phase is _FIRST_CLUE:
                    action = agent.give_clue(view, rngs[seat])
                else:
                    action = agent.give_second_clue(view, rngs[seat])
                try:
                    # The seat is the current player's: apply's turn check would always pass.
                    state = state.apply(action)
                except IllegalAction as e:
                    e.add_note(
                        f"played by seat {seat} ({type(agent).__name__}) in phase {phase.value}"
                    )
                    raise
        finally:
            self.state = state
            self.last_active = time.monotonic()

    def _require_state(self) -> GameState:
        if self.state is None:
            raise ValueError("the table has no game yet: call start() first")
        return self.state
