"""How a table of the server plays: its task steps the bots off the event loop, waits for the
people (and on a waiting room, a reveal), has a stand-in play for a person who is away or whose
turn timer ran out, and stores every action before anyone is told of it.

A write that fails (a full disk, another process's lock held past the wait) changes nothing: a
person is told and may try again; a bot's or a stand-in's move is tried again with a growing
pause until it is kept, the table's ``storage`` saying ``retrying`` meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Coroutine
from typing import Any

from huescues.agents import Agent, cut_message, prepare
from huescues.engine import (
    Action,
    GameRecord,
    GameState,
    GiveClue,
    IllegalAction,
    Pass,
    PlacePawn,
)

from ._bots import STAND_IN, build_bot
from ._db import Database
from ._inbound import Clue, Next, PassClue, Pawn, Target, to_action
from ._logs import log_failure
from ._messages import error, send, store_failure, view_message
from ._store import TableStore
from ._table import Reveal, Socket, WebTable

__all__ = ["MAX_RETRY_PAUSE", "TablePlay", "spectator_state", "stand_in_move"]

#: Held while a stand-in is made (two tables, or a table's warming and its first stand-in's
#: move, do not load the same models at once).
_STAND_INS = threading.Lock()

#: The longest pause between two tries of a move that could not be stored, in seconds.
MAX_RETRY_PAUSE = 5.0


class TablePlay:
    """The playing part of the server's tables (a base of ``_Tables``): one task a table."""

    db: Database
    store: TableStore

    def _in_background(self, job: Coroutine[Any, Any, None]) -> None:
        raise NotImplementedError

    # -- the table's task ----------------------------------------------------------------------
    async def _run(self, table: WebTable) -> None:
        """Prepare the bots, wait for the start, then step the table whenever a bot's decision
        is pending (or a stand-in's is due), until the game is over; store the game. A bot's
        decision runs off the event loop, guarded by the table, and is stored before anyone is
        told of it; persons' actions arrive through :meth:`act` meanwhile."""
        game = table.game
        try:
            # A bot that cannot be prepared is retired: its decisions are the random agent's.
            await asyncio.to_thread(game.prepare, table.state)
            table.ready = True
            await self.broadcast(table)
            while not table.started:
                table.changed.clear()
                await table.changed.wait()
            while (pending := game.pending()) is not None:
                if table.reveal is not None:
                    await self._wait_for_reveal(table)
                    continue
                state = table.state
                if table.turn[0] != len(state.actions):
                    table.turn = (len(state.actions), time.monotonic())
                if pending.person:
                    if not await self._wait_for_person(table, pending.seat, state):
                        return
                    continue
                if table.settings.bot_delay > 0:
                    await asyncio.sleep(table.settings.bot_delay)
                # Only this task steps the bots, and a person's action is refused while a
                # bot's decision is pending (not their turn): the step has the table to itself.
                if not await self._move(table, state, pending.seat):
                    return
            if await self.finish(table):
                await self.broadcast(table)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bug: say so at the table, and log it once
            ident = log_failure(f"table {table.id}", e)
            table.errors.append(
                cut_message(f"the table stopped: {type(e).__name__}: {e} (failure {ident})")
            )
            await self.broadcast(table)

    async def _wait_for_person(self, table: WebTable, seat: int, state: GameState) -> bool:
        """Until the person at ``seat`` acts, or a stand-in's move for them is due and made
        (their turn timer ran out, or they have been away ``away_seconds``, while another
        person is here). False if the table expired meanwhile."""
        warming = False
        while table.state is state:
            now = time.monotonic()
            due = table.stand_in_at(seat, now)
            if (
                due is not None
                and not warming
                and table.seats[seat].stand_in is None
                and self._stand_ins_play(table, now)
            ):
                # A stand-in may play this turn: made meanwhile, so that its move is not held
                # up by loading its models when the time comes (not at a table nobody is at:
                # no stand-in plays there).
                warming = True
                self._in_background(self._warm_stand_in(table, seat))
            if due is not None and now >= due[0] and self._stand_ins_play(table, now):
                return await self._move(table, state, seat, stand_in=True)
            # Woken by an action, a join or a leave; a person who goes away silently, and a
            # timer's end, are noticed within a second.
            table.changed.clear()
            wait = 1.0 if due is None else min(1.0, max(0.02, due[0] - now))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.changed.wait(), wait)
        return not table.expired

    def _stand_ins_play(self, table: WebTable, now: float) -> bool:
        """Whether a stand-in may move now: while at least one person is here (a table everyone
        left waits, and the idle sweep ends it); at a game study's table always (a game whose
        participant dropped out still ends)."""
        return table.options.study or table.anyone_here(now)

    @staticmethod
    def _stand_in(table: WebTable, seat: int) -> Agent:
        """The bot that plays ``seat`` while its person is away: the table language's default
        player, made once for the seat and prepared for the table's board and rules. Off the
        event loop (its models load for seconds the first time), one at a time."""
        with _STAND_INS:
            chosen = table.seats[seat]
            if chosen.stand_in is None:
                agent = build_bot(STAND_IN, table.state.rules.language)
                prepare(agent, table.state.board, table.state.rules)
                chosen.stand_in = agent
            return chosen.stand_in

    async def _warm_stand_in(self, table: WebTable, seat: int) -> None:
        with contextlib.suppress(Exception):  # (a bot that fails is the move's to report)
            await asyncio.to_thread(self._stand_in, table, seat)

    async def _move(
        self, table: WebTable, state: GameState, seat: int, stand_in: bool = False
    ) -> bool:
        """Make the pending decision of a bot (``stand_in`` None) or of a stand-in for an away
        person, off the event loop, and store it (trying again while it cannot be) before
        anyone is told of it. False if the table expired or stopped meanwhile."""
        game = table.game
        faults = len(game.faults)
        # The thread keeps the decision in game.state as soon as it is made: until it is
        # stored, every page and action sees the state before it (else a page may see a
        # bot's move unstored, and a person's move be judged, or stored, against it).
        table.deciding = state
        try:
            if not stand_in:
                after = await asyncio.to_thread(game.step)
            else:
                after = await asyncio.to_thread(self._decide_for, table, seat)
        finally:
            game.state = state  # played once stored
            table.deciding = None
        if table.expired:
            return False
        fault = game.faults[-1] if len(game.faults) > faults else None
        by = f"stand-in:{STAND_IN}" if stand_in else None
        took = round((time.monotonic() - table.turn[1]) * 1000)
        if not await self._keep(
            table, self.store.action, table.id, len(state.actions), seat, after.actions[-1],
            fault, by, took,
        ):  # fmt: skip
            return False
        game.state = after
        if stand_in:
            table.stand_in_moves.append(stand_in_move(state, seat, after.actions[-1]))
            if not table.here(seat):
                table.stood_in[seat] = time.monotonic()
        self._after(table, state, after)
        if after.is_terminal and not await self.finish(table):
            return False
        await self.broadcast(table)
        return True

    @classmethod
    def _decide_for(cls, table: WebTable, seat: int) -> GameState:
        return table.game.play_for(seat, cls._stand_in(table, seat))

    async def _keep(self, table: WebTable, write: Any, *args: Any) -> bool:
        """Store a move (or the finished game), trying again with a growing pause while the
        database cannot take it; the table's ``storage`` says ``retrying`` meanwhile, so its
        people see why nothing moves. False if the table expired meanwhile, or the write is one
        the database will never take (then the table stops and says why)."""
        pause = 0.1
        while True:
            try:
                await self.db.write(write, *args)
            except sqlite3.IntegrityError as e:
                # Not the storage's state but a conflict: retrying would not mend it.
                table.errors.append(store_failure(e))
                await self.broadcast(table)
                return False
            except sqlite3.Error:
                if table.expired:
                    return False
                if table.storage != "retrying":
                    table.storage = "retrying"
                    await self.broadcast(table)
                await asyncio.sleep(pause)
                pause = min(MAX_RETRY_PAUSE, pause * 2)
                continue
            if table.storage != "ok":
                table.storage = "ok"  # told with the state that follows
            return not table.expired

    def _reveal(self, table: WebTable) -> None:
        """Wait on the reveal of the round just played, if the table gives reveals time."""
        if table.reveal_seconds > 0 and table.state.history:
            table.reveal = Reveal(table.state.history[-1].round)

    def _after(self, table: WebTable, before: GameState, after: GameState) -> None:
        """What the table does once ``after`` is played: a round that ended and a game that
        goes on wait on the reveal (the end screen shows the last one)."""
        if len(after.history) > len(before.history) and not after.is_terminal:
            self._reveal(table)

    async def _wait_for_reveal(self, table: WebTable) -> None:
        """Until every person here has dismissed the reveal, or its time is up; then the next
        round starts."""
        reveal = table.reveal
        assert reveal is not None
        end = reveal.since + table.reveal_seconds
        while True:
            table.changed.clear()
            left = end - time.monotonic()
            if not table.waiting_for() or left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                # Woken by a dismissal or a leave; a person who goes away silently is noticed
                # within a second.
                await asyncio.wait_for(table.changed.wait(), min(left, 1.0))
        table.reveal = None
        await self.broadcast(table)

    async def finish(self, table: WebTable) -> bool:
        """Keep the finished game's record (the JSON ``huescues replay`` reads); False if the
        table expired before it could be kept. The person's last move and the table's task may
        both ask: it is kept once."""
        if table.stored:
            return True
        if table.finishing is None:
            table.finishing = asyncio.ensure_future(self._keep_record(table))
        return await asyncio.shield(table.finishing)

    async def _keep_record(self, table: WebTable) -> bool:
        record = GameRecord.of(table.state).to_json()
        if not await self._keep(table, self.store.finish, table.id, record):
            return False
        table.stored = True
        table.finished_at = time.time()
        return True

    async def broadcast(self, table: WebTable, skip: Socket | None = None) -> None:
        """Send every connection (but ``skip``) its own seat's view (a spectator a
        guesser's)."""
        sends: list[Coroutine[Any, Any, None]] = []
        for seat, sockets in table.conns.items():
            if not sockets:
                continue
            text = json.dumps(view_message(table, table.state.view(seat)))
            sends.extend(send(s.ws, text) for s in list(sockets) if s is not skip)
        if table.watchers:
            text = json.dumps(spectator_state(table))
            sends.extend(send(s.ws, text) for s in list(table.watchers) if s is not skip)
        if sends:
            await asyncio.gather(*sends)

    # -- a person's action ---------------------------------------------------------------------
    async def act(
        self, table: WebTable, seat: int, msg: Target | Clue | PassClue | Pawn | Next
    ) -> dict[str, Any] | None:
        """Apply a person's action and store it; an error message if it is refused or cannot be
        stored (then nothing changes)."""
        async with table.lock:
            state = table.state
            if not table.started:
                return error("the game has not started: the table's creator starts it")
            if isinstance(msg, Next):
                # A late or repeated dismissal changes nothing, and tells nobody.
                if table.reveal is None or seat in table.reveal.dismissed:
                    return None
                table.reveal.dismissed.add(seat)
                table.changed.set()
            elif table.reveal is not None:
                return error(
                    f"the reveal of round {table.reveal.round + 1} is showing: the next round "
                    "starts once everyone pressed Next round (R14)"
                )
            else:
                reply = await self._play(table, seat, msg, state)
                if reply is not None:
                    return reply
        await self.broadcast(table)
        return None

    async def _play(
        self, table: WebTable, seat: int, msg: Target | Clue | PassClue | Pawn, state: GameState
    ) -> dict[str, Any] | None:
        """Apply a person's action (under the table's lock); an error if refused."""
        if table.deciding is not None:
            # A bot's decision, or a stand-in's for this seat, is being made: refused as the
            # state before it refuses it, or as the stand-in's move to come.
            try:
                state.apply(to_action(msg, state), seat=seat)
            except IllegalAction as e:
                return error(str(e), getattr(e, "rule", None))
            return error("a stand-in is making this move for you: it shows in a moment")
        try:
            after = table.game.act(seat, to_action(msg, state))
        except IllegalAction as e:
            return error(str(e), getattr(e, "rule", None))
        except ValueError as e:  # the seat is a bot's now (given to one)
            return error(str(e))
        # Played once stored: until then every page, and a page that joins, sees the state
        # before it (the store's write waits for the disk, off the event loop).
        table.game.state = state
        took = round((time.monotonic() - table.turn[1]) * 1000) if table.turn[0] >= 0 else None
        try:
            await self.db.write(
                self.store.action, table.id, len(state.actions), seat, after.actions[-1], None,
                None, took,
            )  # fmt: skip
        except sqlite3.Error as e:
            if table.storage != "retrying":
                table.storage = "retrying"
                self._in_background(self._recover(table))
                await self.broadcast(table)
            return error(store_failure(e))
        table.game.state = after
        table.storage = "ok"
        self._after(table, state, after)
        if after.is_terminal:
            # Kept before anyone is told the game is over.
            await self.finish(table)
        table.changed.set()
        return None

    async def _recover(self, table: WebTable) -> None:
        """After a person's move could not be stored: probe the database with a growing pause
        until it takes writes again, then tell the table (the person may then play again)."""
        pause = 0.2
        while table.storage == "retrying" and not table.expired:
            await asyncio.sleep(pause)
            pause = min(MAX_RETRY_PAUSE, pause * 2)
            if await self.db.read(self.db.write_problem) is None:
                table.storage = "ok"
                await self.broadcast(table)


def stand_in_move(state: GameState, seat: int, action: Action) -> dict[str, Any]:
    """A stand-in's move as the pages mark it: its round, seat, kind and public value (a
    clue's text, a pawn's square; a target stays the giver's until the reveal, R8)."""
    value: str | None = None
    if isinstance(action, GiveClue):
        kind, value = "clue", action.text
    elif isinstance(action, PlacePawn):
        kind, value = "pawn", str(action.cell)
    else:
        kind = "pass" if isinstance(action, Pass) else "target"
    return {"round": state.round, "seat": seat, "action": kind, "value": value}


def spectator_state(table: WebTable) -> dict[str, Any]:
    """The ``state`` message a spectator is sent: a guesser's view (never the card or the
    target before the reveal), of no seat."""
    state = table.state
    giver = state.giver
    guesser = next(i for i in range(len(table.seats)) if i != giver)
    return view_message(table, state.view(guesser), spectator=True)
