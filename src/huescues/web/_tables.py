"""The game tables of one server (the protocol is :mod:`huescues.web._messages`'s docstring):
creating them, playing them (bots off the event loop, every action stored as it is played),
their WebSockets, expiring the idle ones, and rebuilding the games in play after a restart.

No database call runs on the event loop: every read and write is awaited on the database's own
threads (:meth:`Database.write`). A write that fails (a full disk, another process's lock held
past the wait) changes nothing: a person is told and may try again; a bot's move is tried again
with a growing pause until it is kept, the table's ``storage`` saying ``retrying`` meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sqlite3
import time
from collections.abc import Coroutine
from typing import Any, assert_never

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from huescues.agents import Fault, Table, ThreadTimer, cut_message
from huescues.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    GameRecord,
    GameState,
    IllegalAction,
    Phase,
    available_languages,
    new_game,
)

from ._bots import BOT_KINDS, bot_choices, build_bot
from ._db import Database
from ._house import MAX_REVEAL_SECONDS, MAX_ROUNDS_PER_GIVER, HouseRules, check_language
from ._inbound import (
    Again,
    BadMessage,
    Check,
    Clue,
    Inbound,
    Join,
    Next,
    PassClue,
    Pawn,
    Pong,
    Target,
    parse_message,
    to_action,
)
from ._limits import ClientLimiter, TokenBucket, client_key
from ._links import Links
from ._logs import log_failure, warn
from ._memory import release_memory
from ._messages import (
    PING,
    again_message,
    check_clue,
    error,
    seat_request,
    seats_json,
    send,
    store_failure,
    view_message,
    welcome,
)
from ._requests import Refused, read_json
from ._store import GAME_SCHEMA, StoredGame, TableStore, Unreadable, token_hash
from ._table import GONE_CLOSE_CODE, PAWN_COLOURS, Reveal, Seat, Socket, TableSettings, WebTable

__all__ = [
    "GAME_SCHEMA",
    "GONE_CLOSE_CODE",
    "PAWN_COLOURS",
    "TableService",
    "TableSettings",
    "table_routes",
]

#: The longest pause between two tries of a bot's move that could not be stored, in seconds.
_MAX_RETRY_PAUSE = 5.0


class _Tables:
    """Every table of this server, by id and by seat token (its hash)."""

    def __init__(self, db: Database, settings: TableSettings, links: Links) -> None:
        self.db = db
        self.store = TableStore(db)
        self.settings = settings
        self.links = links
        self.tables: dict[str, WebTable] = {}
        self.tokens: dict[str, tuple[WebTable, int]] = {}
        self.connects = ClientLimiter(settings.connect_burst, settings.connect_rate)
        #: Open WebSockets by client address (:func:`client_key`).
        self.open: dict[str, int] = {}
        #: Tables expired and connections closed since memory was last given back.
        self.freed = 0
        self._tasks: list[asyncio.Task[None]] = []
        #: Writes that may fail without harm (marking an expired game abandoned), under way.
        self._background: set[asyncio.Task[Any]] = set()

    # -- the server's life ---------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild the games in play from the database (after a restart), setting aside those
        that cannot be read; start expiring idle tables and pinging the joined sockets."""
        for stored in await self.db.read(self.store.in_play):
            if isinstance(stored, Unreadable):
                await self._set_aside(stored.id, stored.reason)
                continue
            try:
                self._rebuild(stored)
            except (ValueError, TypeError, KeyError, IllegalAction) as e:
                reason = cut_message(f"it cannot be rebuilt ({type(e).__name__}: {e})")
                await self._set_aside(stored.id, reason)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._sweep_forever()),
            loop.create_task(self._ping_forever()),
        ]

    async def _set_aside(self, game: str, reason: str) -> None:
        warn(f"game {game} set aside, not rebuilt: {reason}; its rows are kept")
        try:
            await self.db.write(self.store.set_aside, game, reason)
        except sqlite3.Error as e:  # then it is reported again at the next start
            warn(f"game {game} could not be marked set aside ({e})")

    async def stop(self) -> None:
        loop = asyncio.get_running_loop()
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        tasks += self._tasks
        # A test client without a lifespan runs each request in a loop of its own: only this
        # loop's tasks can be waited for.
        tasks = [t for t in tasks if t.get_loop() is loop]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        background = [t for t in self._background if t.get_loop() is loop]
        await asyncio.gather(*background, return_exceptions=True)

    async def _sweep_forever(self) -> None:
        shortest = min(self.settings.idle_timeout, self.settings.unjoined_timeout)
        every = min(60.0, max(0.05, shortest / 4))
        while True:
            await asyncio.sleep(every)
            self.sweep()
            if self.freed:
                # Expired tables and closed connections leave their pages in the allocator's
                # arenas: hand them back, so that a burst of abuse does not stay in the RSS.
                self.freed = 0
                await asyncio.to_thread(release_memory)

    async def _ping_forever(self) -> None:
        """Ping every joined socket every third of ``away_after``: a page answers, so a seat
        whose sockets stop answering (a silent script, a phone asleep) is away."""
        every = self.settings.away_after / 3
        while True:
            await asyncio.sleep(every)
            sends = [
                send(s.ws, PING)
                for table in list(self.tables.values())
                for sockets in table.conns.values()
                for s in list(sockets)
            ]
            if sends:
                await asyncio.gather(*sends)

    def sweep(self) -> None:
        """Expire the tables whose people have been away for :attr:`TableSettings.idle_timeout`
        seconds (no person ever joined: ``unjoined_timeout``, if shorter), and forget finished
        ones an hour after the end."""
        now, wall = time.monotonic(), time.time()
        expired = []
        for table in list(self.tables.values()):
            if table.finished_at is not None:
                old = wall - table.finished_at >= 3600
            else:
                old = table.idle_for(now) >= self._timeout(table)
            if old:
                expired.append(table)
        self._expire(*expired)

    def _timeout(self, table: WebTable) -> float:
        if table.joined:
            return self.settings.idle_timeout
        return min(self.settings.idle_timeout, self.settings.unjoined_timeout)

    def _expire(self, *tables: WebTable) -> None:
        unfinished = []
        for table in tables:
            table.expired = True
            self.freed += 1
            if table.task is not None:
                table.task.cancel()
            self.tables.pop(table.id, None)
            for key in table.keys:
                self.tokens.pop(key, None)
            if not table.stored:
                unfinished.append(table.id)
        if unfinished:
            # If this write fails, the games are rebuilt at the next start, and expire again.
            self._write_quietly(self.store.abandon, unfinished)

    def _write_quietly(self, write: Any, *args: Any) -> None:
        """A write that may fail without harm, in the background (on the database's thread,
        waiting longer than a person's write would; in place when called off the event
        loop)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            with contextlib.suppress(sqlite3.Error):
                write(*args)
            return

        async def quietly() -> None:
            with contextlib.suppress(sqlite3.Error):
                await self.db.write(write, *args, wait=30.0)

        self._in_background(quietly())

    def _in_background(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- creating ------------------------------------------------------------------------------
    async def create(self, body: Any, client: str = "?") -> WebTable:
        """A new table from the request ``body``, created by ``client``; a ``ValueError``
        (bad request), ``PermissionError`` (a seed where the operator allows none) or
        ``OverflowError`` (too many tables) names what is wrong, and nothing is stored."""
        if not isinstance(body, dict):
            raise ValueError("the request is a JSON object with 'seats'")
        fields = ["seats", "seed", "house_rules", "language"]
        unknown = sorted(str(k)[:20] for k in set(body) - set(fields))
        if unknown:
            raise ValueError(f"unknown fields {unknown}; the fields are {fields}")
        raw = body.get("seats")
        if not isinstance(raw, list) or not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
            raise ValueError(f"'seats' is a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats (R2)")
        seed = body.get("seed")
        if seed is not None and not self.settings.allow_seed:
            raise PermissionError(
                "this server draws each game's seed itself ('seed' refused: a chosen seed tells "
                "its chooser every card)"
            )
        if seed is None:
            seed = secrets.randbits(63)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise ValueError(f"'seed' is a whole number from 0, not {str(seed)[:20]!r}")
        kinds_names = [seat_request(i, s) for i, s in enumerate(raw)]
        if all(kind != "person" for kind, _ in kinds_names):
            raise ValueError("a table needs at least one person")
        language = check_language(body.get("language", self.settings.language))
        house = HouseRules.from_request(body.get("house_rules"), language)
        return await self._new_table(kinds_names, seed, house, client)

    async def _new_table(
        self, kinds_names: list[tuple[str, str]], seed: int, house: HouseRules, client: str
    ) -> WebTable:
        """A new table of these seats (checked), within the limits on games in play: at the
        cap, the oldest tables no person ever joined make room."""
        self.sweep()
        live = [t for t in self.tables.values() if not t.state.is_terminal]
        if sum(t.creator == client for t in live) >= self.settings.max_tables_per_address:
            raise OverflowError(
                f"this address has {self.settings.max_tables_per_address} games in play; "
                "finish or leave one first"
            )
        if len(live) >= self.settings.max_tables:
            unjoined = sorted((t for t in live if not t.joined), key=lambda t: t.created)
            if not unjoined:
                raise OverflowError("too many games in play; try again later")
            self._expire(unjoined[0])
        seats = [
            Seat(
                name,
                kind,
                secrets.token_urlsafe(18) if kind == "person" else None,
                None if kind == "person" else build_bot(kind, house.language),
            )
            for kind, name in kinds_names
        ]
        table_id = secrets.token_urlsafe(9)
        while table_id.startswith("-"):  # `huescues replay DB --game ID` would read an option
            table_id = secrets.token_urlsafe(9)
        await self.db.write(
            self.store.create,
            table_id,
            seats_json(seats),
            seed,
            [None if s.token is None else token_hash(s.token) for s in seats],
            house.to_dict(),
        )
        return self._open(table_id, seats, seed, [], client, house)

    def _rebuild(self, stored: StoredGame) -> None:
        """A game in play when the server stopped, at the point its stored actions reach; a
        ``ValueError`` (or the engine's error) if it cannot be."""
        house = HouseRules.from_stored(stored.house_rules)
        seats = []
        for s, token in zip(stored.seats, stored.tokens, strict=True):
            kind = str(s["kind"])
            if kind != "person" and kind not in BOT_KINDS:
                kind = "random"  # a bot this server no longer offers: its seat plays on
            seats.append(
                Seat(
                    str(s["name"]),
                    kind,
                    token,
                    None if kind == "person" else build_bot(kind, house.language),
                )
            )
        table = self._open(stored.id, seats, stored.seed, stored.actions, "", house, hashed=True)
        # People were at it before the stop: it is kept as long as a joined table.
        table.joined = True

    def _open(
        self,
        table_id: str,
        seats: list[Seat],
        seed: int,
        actions: list[tuple[int, Action, Fault | None]],
        client: str,
        house: HouseRules,
        *,
        hashed: bool = False,
    ) -> WebTable:
        game = Table(
            [s.agent for s in seats],
            seed=seed,
            guard=ThreadTimer(self.settings.bot_time_limit),
            decision_streams=True,
        )
        # The bots are prepared by the table's task (off the event loop), before their turns.
        state = new_game(len(seats), seed=seed, rules=house.rules(len(seats)))
        for seat, action, fault in actions:
            state = state.apply(action, seat=seat)
            if fault is not None:
                game.faults.append(fault)
                if fault.kind == "timeout":
                    # As when it stalled: its thread may have run on, so it is not asked again.
                    game.retire(seat, f"{fault.message} earlier: not asked again", "timeout")
        game.state = state
        reveal = house.reveal_seconds
        table = WebTable(
            table_id,
            seats,
            game,
            self.settings,
            creator=client,
            house=house,
            reveal_seconds=self.settings.reveal_pause if reveal is None else reveal,
        )
        if state.history and state.phase is Phase.CHOOSE_TARGET:
            # Stopped between two rounds, perhaps mid-reveal: the reveal waits for the people
            # again (who dismissed it was not kept).
            self._reveal(table)
        self.tables[table_id] = table
        for i, s in enumerate(seats):
            if s.token is not None:
                key = s.token if hashed else token_hash(s.token)
                self.tokens[key] = (table, i)
                table.keys.append(key)
        table.task = asyncio.get_running_loop().create_task(self._run(table))
        return table

    # -- playing -------------------------------------------------------------------------------
    async def _run(self, table: WebTable) -> None:
        """Prepare the bots, then step the table whenever a bot's decision is pending, until the
        game is over; store the game. A bot's decision runs off the event loop, guarded by the
        table (:class:`~huescues.agents.ThreadTimer`), and is stored before anyone is told of
        it; persons' actions arrive through :meth:`act` meanwhile."""
        game = table.game
        try:
            # A bot that cannot be prepared is retired: its decisions are the random agent's.
            await asyncio.to_thread(game.prepare, table.state)
            table.ready = True
            await self.broadcast(table)
            while (pending := game.pending()) is not None:
                if table.reveal is not None:
                    await self._wait_for_reveal(table)
                    continue
                state = table.state
                if pending.person:
                    table.changed.clear()
                    if table.state is state:
                        await table.changed.wait()
                    continue
                if table.settings.bot_delay > 0:
                    await asyncio.sleep(table.settings.bot_delay)
                # Only this task steps the bots, and a person's action is refused while a
                # bot's decision is pending (not their turn): the step has the table to itself.
                faults = len(game.faults)
                after = await asyncio.to_thread(game.step)
                if table.expired:
                    return
                fault = game.faults[-1] if len(game.faults) > faults else None
                game.state = state  # played once stored
                stored = await self._keep(
                    table,
                    self.store.action,
                    table.id,
                    len(state.actions),
                    pending.seat,
                    after.actions[-1],
                    fault,
                )
                if not stored:
                    return
                game.state = after
                self._after(table, state, after)
                if after.is_terminal and not await self.finish(table):
                    return
                await self.broadcast(table)
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

    async def _keep(self, table: WebTable, write: Any, *args: Any) -> bool:
        """Store a bot's move (or the finished game), trying again with a growing pause while
        the database cannot take it; the table's ``storage`` says ``retrying`` meanwhile, so its
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
                pause = min(_MAX_RETRY_PAUSE, pause * 2)
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
        """Until every person at the table has dismissed the reveal, or its time is up; then
        the next round starts."""
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

    async def broadcast(self, table: WebTable) -> None:
        """Send every connection its own seat's view."""
        sends: list[Coroutine[Any, Any, None]] = []
        for seat, sockets in table.conns.items():
            if not sockets:
                continue
            text = json.dumps(view_message(table, table.state.view(seat)))
            sends.extend(send(s.ws, text) for s in list(sockets))
        if sends:
            await asyncio.gather(*sends)

    async def act(
        self, table: WebTable, seat: int, msg: Target | Clue | PassClue | Pawn | Next
    ) -> dict[str, Any] | None:
        """Apply a person's action and store it; an error message if it is refused or cannot be
        stored (then nothing changes)."""
        async with table.lock:
            state = table.state
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
        try:
            after = table.game.act(seat, to_action(msg, state))
        except IllegalAction as e:
            return error(str(e), getattr(e, "rule", None))
        # Played once stored: until then every page, and a page that joins, sees the state
        # before it (the store's write waits for the disk, off the event loop).
        table.game.state = state
        try:
            await self.db.write(
                self.store.action, table.id, len(state.actions), seat, after.actions[-1], None
            )
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
            pause = min(_MAX_RETRY_PAUSE, pause * 2)
            if await self.db.read(self.db.write_problem) is None:
                table.storage = "ok"
                await self.broadcast(table)

    async def play_again(self, table: WebTable, seat: int, client: str) -> dict[str, Any] | None:
        """A new table with the same seats, kinds and house rules ("play again": a new seed, new
        links); every seat's connections are sent their own new link token. Asked twice, the
        same new table."""
        if not table.state.is_terminal:
            return error("play again once the game is over (R24)")
        if table.again is None:
            kinds_names = [(s.kind, s.name) for s in table.seats]
            try:
                new = await self._new_table(kinds_names, secrets.randbits(63), table.house, client)
            except (ValueError, OverflowError) as e:
                return error(str(e))
            except sqlite3.Error as e:
                return error(store_failure(e))
            table.again = (new.id, [s.token for s in new.seats])
        sends = [
            send(s.ws, json.dumps(again_message(table, i, seat)))
            for i, sockets in table.conns.items()
            for s in list(sockets)
        ]
        await asyncio.gather(*sends)
        return None

    # -- the WebSocket -------------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        client = client_key(ws.client.host if ws.client else None)
        await ws.accept()
        if self.open.get(client, 0) >= self.settings.max_connections_per_address:
            await send(ws, json.dumps(error("too many connections from this address")))
            await ws.close(code=1013)
            return
        if not self.connects.take(client):
            await send(ws, json.dumps(error("too many connections; wait a little")))
            await ws.close(code=1013)
            return
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self._serve(ws, client)
        finally:
            self.freed += 1
            left = self.open.pop(client, 1) - 1
            if left > 0:
                self.open[client] = left

    async def _serve(self, ws: WebSocket, client: str) -> None:
        """One connection: its join, then its messages, each parsed once (:mod:`._inbound`) and
        handled in :meth:`_handle`; a message that cannot be taken is answered with an ``error``
        and the connection stays open."""
        bucket = TokenBucket(self.settings.message_burst, self.settings.message_rate)
        deadline = time.monotonic() + self.settings.join_timeout
        joined: tuple[WebTable, int, Socket] | None = None
        try:
            while joined is None:
                try:
                    msg = await asyncio.wait_for(
                        self._receive(ws, bucket), max(0.0, deadline - time.monotonic())
                    )
                except TimeoutError:
                    await send(ws, json.dumps(error(
                        f"no seat joined within {self.settings.join_timeout:g} s: "
                        "open the seat's link again")))  # fmt: skip
                    with contextlib.suppress(Exception):  # the client may be gone already
                        await ws.close(code=1008)
                    return
                if msg is None or isinstance(msg, Pong):
                    continue
                if not isinstance(msg, Join):
                    await send(ws, json.dumps(error("first join a seat with its link token")))
                    continue
                joined = await self._join(ws, msg)
                if joined is None:
                    return
            table, seat, sock = joined
            while True:
                msg = await self._receive(ws, bucket)
                sock.heard = table.heard = time.monotonic()
                if msg is None:
                    continue
                try:
                    reply = await self._handle(table, seat, msg, client)
                except BadMessage as e:
                    reply = error(str(e), e.rule)
                except Exception as e:  # a bug: logged once, and the page told its id
                    ident = log_failure(f"a {type(msg).__name__} message at table {table.id}", e)
                    reply = error(f"the server failed on this message (failure {ident})")
                if reply is not None:
                    await send(ws, json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            if joined is not None:
                table, seat, sock = joined
                table.conns.get(seat, set()).discard(sock)
                table.heard = time.monotonic()
                table.changed.set()  # a reveal no longer waits for a person who left

    async def _join(self, ws: WebSocket, msg: Join) -> tuple[WebTable, int, Socket] | None:
        """Seat the connection at its token's table; None (the connection told and closed) if
        the table is gone or the link is wrong."""
        found = self.tokens.get(token_hash(msg.token)) if msg.token else None
        if found is None or found[0].expired:
            # Said once, and the connection closed: the page shows that the table is gone
            # instead of trying again.
            gone = error(
                "no table has this link: the table is gone (ended long ago or expired) or the "
                "link is wrong; first join a seat with its link token, or make a new table"
            )
            await send(ws, json.dumps({**gone, "code": "gone"}))
            with contextlib.suppress(Exception):
                await ws.close(code=GONE_CLOSE_CODE)
            return None
        table, seat = found
        sock = Socket(ws)
        table.conns.setdefault(seat, set()).add(sock)
        table.joined = True
        table.heard = sock.heard
        await send(ws, json.dumps(welcome(table, seat)))
        await send(ws, json.dumps(view_message(table, table.state.view(seat))))
        if table.again is not None:
            await send(ws, json.dumps(again_message(table, seat, None)))
        return table, seat, sock

    async def _handle(
        self, table: WebTable, seat: int, msg: Inbound, client: str
    ) -> dict[str, Any] | None:
        """Every kind of message a joined connection may send, in one place: the answer to send
        back, if any."""
        match msg:
            case Pong():
                return None
            case Join():
                return error("this connection holds a seat already")
            case Check(text):
                return check_clue(text, table.state, seat)
            case Again():
                return await self.play_again(table, seat, client)
            case Target() | Clue() | PassClue() | Pawn() | Next():
                return await self.act(table, seat, msg)
            case _:
                assert_never(msg)

    async def _receive(self, ws: WebSocket, bucket: TokenBucket) -> Inbound | None:
        """The next message, parsed; ``None`` after answering one that cannot be taken (too
        many, too large, binary, malformed) with an error."""
        raw = await ws.receive()
        if raw["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(raw.get("code", 1000))
        text = raw.get("text")
        if text is None:
            data = raw.get("bytes") or b""
            size = len(data)
        else:
            size = len(text.encode("utf-8", "surrogatepass"))
        if not bucket.take():
            await send(ws, json.dumps(error("too many messages; slow down")))
            return None
        if size > self.settings.max_message_bytes:
            await send(ws, json.dumps(error(
                f"message refused: {size} bytes, and a message has at most "
                f"{self.settings.max_message_bytes}")))  # fmt: skip
            return None
        if text is None:
            await send(ws, json.dumps(error("messages are JSON text, not binary")))
            return None
        try:
            return parse_message(text)
        except BadMessage as e:
            await send(ws, json.dumps(error(str(e), e.rule)))
            return None


#: The largest ``POST /api/tables`` body, in bytes.
MAX_CREATE_BYTES = 16_384


class TableService:
    """The game tables of one server: their routes, and the life the application gives them
    (:meth:`start` rebuilds the games in play and expires idle tables; :meth:`stop`)."""

    def __init__(
        self, db: Database, settings: TableSettings | None = None, links: Links | None = None
    ) -> None:
        self.tables = _Tables(db, settings or TableSettings(), links or Links())

    async def start(self) -> None:
        await self.tables.start()

    async def stop(self) -> None:
        await self.tables.stop()

    def routes(self) -> list[BaseRoute]:
        """The routes of the game tables (see the module's docstring for the protocol)."""
        return _routes(self.tables)


def table_routes(db: Database, settings: TableSettings | None = None) -> list[BaseRoute]:
    """The routes of a :class:`TableService` whose games are neither rebuilt nor expired (for
    an application without a lifespan)."""
    return TableService(db, settings).routes()


def _routes(tables: _Tables) -> list[BaseRoute]:
    from importlib import resources

    static = resources.files("huescues.web") / "static"

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"))

    async def play(request: Request) -> Response:
        return FileResponse(str(static / "play.html"))

    async def create(request: Request) -> Response:
        client = client_key(request.client.host if request.client else None)
        if not tables.connects.take(client):
            return JSONResponse({"error": "too many requests; wait a little"}, status_code=429)
        try:
            table = await tables.create(await read_json(request, MAX_CREATE_BYTES), client)
        except Refused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)
        except PermissionError as e:
            return JSONResponse({"error": str(e)}, status_code=403)
        except OverflowError as e:
            return JSONResponse({"error": str(e)}, status_code=503)
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        seats = [
            {
                "seat": i,
                "name": s.name,
                "kind": s.kind,
                "token": s.token,
                "link": tables.links.seat(request, s.token),
            }
            for i, s in enumerate(table.seats)
        ]
        return JSONResponse({"table": table.id, "seats": seats})

    async def setup(request: Request) -> Response:
        return JSONResponse(
            {
                "bots": bot_choices(available_languages()),
                "languages": list(available_languages()),
                "language": tables.settings.language,
                "min_players": MIN_PLAYERS,
                "max_players": MAX_PLAYERS,
                "house_rules": {
                    "max_rounds_per_giver": MAX_ROUNDS_PER_GIVER,
                    "reveal_seconds": tables.settings.reveal_pause,
                    "max_reveal_seconds": MAX_REVEAL_SECONDS,
                },
            }
        )

    async def info(request: Request) -> Response:
        table = tables.tables.get(request.path_params["id"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        seats = [{k: v for k, v in s.items() if k != "colour"} for s in table.public_seats()]
        return JSONResponse(
            {"table": table.id, "seats": seats, "finished": table.state.is_terminal}
        )

    return [
        Route("/", index),
        Route("/play", play),
        Route("/api/setup", setup),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{id}", info),
        WebSocketRoute("/ws", tables.socket),
    ]
