"""The game tables of one server (the protocol is :mod:`huescues.web._messages`'s docstring):
creating them, the index of their links, rebuilding the games in play after a restart, pinging
and watching who is here, expiring the idle ones, playing again in place, and the routes.

How a table plays is :mod:`._table_play`; its WebSockets, :mod:`._table_sockets`. No database
call runs on the event loop: every read and write is awaited on the database's own threads
(:meth:`Database.write`)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import secrets
import sqlite3
import time
from collections.abc import Coroutine
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from huescues.agents import Fault, Table, ThreadTimer, cut_message
from huescues.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    IllegalAction,
    Phase,
    available_languages,
    new_game,
)

from ._bots import BOT_KINDS, bot_choices, build_bot, seat_name, speaks
from ._db import Database
from ._house import (
    BOARDS,
    MAX_REVEAL_SECONDS,
    MAX_ROUNDS_PER_GIVER,
    MAX_TURN_SECONDS,
    OPTION_FIELDS,
    HouseRules,
    TableOptions,
    check_language,
)
from ._limits import ClientLimiter, client_key
from ._links import Links
from ._logs import warn
from ._memory import release_memory
from ._messages import (
    PING,
    again_message,
    error,
    seat_request,
    seats_json,
    send,
    store_failure,
    view_message,
    welcome,
)
from ._qr import MAX_QR_TEXT, qr_svg
from ._ratings import rate_server
from ._requests import Refused, read_json
from ._store import GAME_SCHEMA, StoredGame, TableStore, Unreadable, token_hash
from ._table import GONE_CLOSE_CODE, PAWN_COLOURS, Seat, Socket, TableSettings, WebTable
from ._table_play import TablePlay, spectator_state
from ._table_sockets import Link, TableSockets

__all__ = [
    "GAME_SCHEMA",
    "GONE_CLOSE_CODE",
    "PAWN_COLOURS",
    "TableService",
    "TableSettings",
    "table_routes",
]

#: The fields of ``POST /api/tables``.
CREATE_FIELDS = ("seats", "seed", "house_rules", "language", *OPTION_FIELDS)


class _Tables(TablePlay, TableSockets):
    """Every table of this server, by id and by its links' tokens (their hashes)."""

    def __init__(self, db: Database, settings: TableSettings, links: Links) -> None:
        self.db = db
        self.store = TableStore(db)
        self.settings = settings
        self.addresses = links
        self.tables: dict[str, WebTable] = {}
        #: What each token's hash opens: a seat, a table to watch, an invite.
        self.links: dict[str, Link] = {}
        self.connects = ClientLimiter(settings.connect_burst, settings.connect_rate)
        #: Open WebSockets by client address (:func:`client_key`).
        self.open: dict[str, int] = {}
        #: Tables expired and connections closed since memory was last given back.
        self.freed = 0
        self._tasks: list[asyncio.Task[None]] = []
        #: Writes that may fail without harm (marking an expired game abandoned), under way.
        self._background: set[asyncio.Task[Any]] = set()
        #: The leaderboard's top and when it was worked out (``time.monotonic``).
        self.leaders: tuple[float, list[dict[str, Any]]] | None = None

    # -- the server's life ---------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild the games in play from the database (after a restart), setting aside those
        that cannot be read; start expiring idle tables, pinging the joined sockets and watching
        who is here."""
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
            loop.create_task(self._watch_presence()),
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
                for sockets in (*table.conns.values(), table.watchers)
                for s in list(sockets)
            ]
            if sends:
                await asyncio.gather(*sends)

    async def _watch_presence(self) -> None:
        """Every second, tell a table's people when someone at it went away (silently: a
        phone asleep), so every page shows who is here."""
        while True:
            await asyncio.sleep(1.0)
            await self._tell_presence()

    async def _tell_presence(self) -> None:
        # (Its own frame: no table stays referenced by the watcher while it sleeps, which would
        # keep an expired table alive.)
        now = time.monotonic()
        for table in list(self.tables.values()):
            if not table.conns and not table.watchers:
                continue
            presence = table.presence(now)
            if presence != table.shown_presence:
                table.shown_presence = presence
                table.changed.set()
                await self.broadcast(table)

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
                # "Play again" moved a table's links to its next game: those stay.
                link = self.links.get(key)
                if link is not None and link.table is table:
                    del self.links[key]
            if not table.stored:
                unfinished.append(table.id)
        if unfinished:
            # If this write fails, the games are rebuilt at the next start, and expire again.
            self._quietly(self.store.abandon, unfinished)

    def _quietly(self, write: Any, *args: Any) -> None:
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

    def _index(self, table: WebTable, key: str, role: str, seat: int = -1) -> None:
        self.links[key] = Link(table, role, seat)
        if key not in table.keys:
            table.keys.append(key)

    # -- creating ------------------------------------------------------------------------------
    async def create(self, body: Any, client: str = "?") -> tuple[WebTable, dict[str, str]]:
        """A new table from the request ``body``, created by ``client``, and its spectators' and
        invite's tokens; a ``ValueError`` (bad request), ``PermissionError`` (a seed where the
        operator allows none) or ``OverflowError`` (too many tables) names what is wrong, and
        nothing is stored."""
        if not isinstance(body, dict):
            raise ValueError("the request is a JSON object with 'seats'")
        unknown = sorted(str(k)[:20] for k in set(body) - set(CREATE_FIELDS))
        if unknown:
            raise ValueError(f"unknown fields {unknown}; the fields are {list(CREATE_FIELDS)}")
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
        for i, (kind, _) in enumerate(kinds_names):
            if kind != "person" and not speaks(kind, language):
                offered = ", ".join(k for k in BOT_KINDS if speaks(k, language))
                raise ValueError(
                    f"seat {i}: the {kind} bot does not speak {language}; a table in {language} "
                    f"seats people or {offered}"
                )
        house = HouseRules.from_request(body.get("house_rules"), language)
        options = TableOptions.from_request(body)
        if options.waiting_room and kinds_names[0][0] != "person":
            raise ValueError("seat 0 is the creator's, a person's, at a table with a waiting room")
        tokens = {"spectate": secrets.token_urlsafe(18)}
        if options.waiting_room:
            tokens["invite"] = secrets.token_urlsafe(18)
        table = await self._new_table(kinds_names, seed, house, options, client, tokens)
        return table, tokens

    async def study_table(
        self,
        kinds_names: list[tuple[str, str | None]],
        seed: int,
        language: str,
        client: str,
        key: str,
        away_seconds: int = 45,
    ) -> WebTable:
        """A game study's table (:attr:`TableOptions.study`): these seats, the study language's
        standard rules, started at once; its person's seat opened by the token whose hash is
        ``key`` (the study works the token out again, and stores only ``key``). Created by
        ``client``, the address that asked, so the per-address cap counts it.

        Counted as joined from the start, even before its participant opens it: a table no one
        joined is the first to go at the cap, and this one cannot be made again (asking again
        gives the same table), so the participant would find it gone in the second between the
        study's answer and their page opening it. It holds its place for a while only: the
        stand-in plays an absent participant's seat, so the game ends on its own."""
        house = HouseRules(language=language)
        options = TableOptions(away_seconds=away_seconds, study=True)
        table = await self._new_table(
            kinds_names,
            seed,
            house,
            options,
            client,
            {"spectate": secrets.token_urlsafe(18)},
            keys=[key if kind == "person" else None for kind, _ in kinds_names],
        )
        table.joined = True
        return table

    async def _new_table(
        self,
        kinds_names: list[tuple[str, str | None]],
        seed: int,
        house: HouseRules,
        options: TableOptions,
        client: str,
        tokens: dict[str, str],
        *,
        keys: list[str | None] | None = None,
        series: list[list[int]] | None = None,
    ) -> WebTable:
        """A new table of these seats (checked), within the limits on games in play: at the
        cap, the oldest tables no person ever joined make room. ``keys`` (play again, a game
        study's table) are the seats' token hashes to keep, else new tokens are drawn;
        ``tokens`` the spectators' and the invite's (plain, or their hashes under ``*_key``)."""
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
        seats = []
        for i, (kind, name) in enumerate(kinds_names):
            person = kind == "person"
            token = secrets.token_urlsafe(18) if person and keys is None else None
            key = None if not person else keys[i] if keys is not None else token_hash(token or "")
            seats.append(
                Seat(
                    name or "",
                    kind,
                    token,
                    None if person else build_bot(kind, house.language),
                    key=key,
                    named=name is not None,
                )
            )
        for i, seat in enumerate(seats):
            if not seat.named:
                seat.name = seat_name(seat.kind, i, house.language)
        spectate = tokens.get("spectate_key") or token_hash(tokens["spectate"])
        invite = tokens.get("invite_key") or (
            token_hash(tokens["invite"]) if "invite" in tokens else None
        )
        table_id = secrets.token_urlsafe(9)
        while table_id.startswith("-"):  # `huescues replay DB --game ID` would read an option
            table_id = secrets.token_urlsafe(9)
        started = not options.waiting_room
        await self.db.write(
            functools.partial(
                self.store.create,
                table_id,
                seats_json(seats),
                seed,
                [s.key for s in seats],
                house.to_dict(),
                options=options.to_dict(),
                started=started,
                spectate=spectate,
                invite=invite,
                series=series,
            )
        )
        table = self._open(
            table_id, seats, seed, [], client, house, options, started, spectate, invite
        )
        table.series = list(series or [])
        return table

    def _rebuild(self, stored: StoredGame) -> None:
        """A game in play when the server stopped, at the point its stored actions reach; a
        ``ValueError`` (or the engine's error) if it cannot be."""
        house = HouseRules.from_stored(stored.house_rules)
        options = TableOptions.from_stored(stored.options)
        seats = []
        for s, key in zip(stored.seats, stored.tokens, strict=True):
            kind = str(s["kind"])
            if kind != "person" and kind not in BOT_KINDS:
                kind = "random"  # a bot this server no longer offers: its seat plays on
            seats.append(
                Seat(
                    str(s["name"]),
                    kind,
                    None,
                    None if kind == "person" else build_bot(kind, house.language),
                    key=key,
                    claimed=bool(s.get("claimed", True)),
                    named=bool(s.get("named", True)),
                    handed=bool(s.get("handed", False)),
                )
            )
        table = self._open(
            stored.id,
            seats,
            stored.seed,
            stored.actions,
            "",
            house,
            options,
            stored.started,
            stored.spectate,
            stored.invite,
        )
        table.series = list(stored.series)
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
        options: TableOptions,
        started: bool,
        spectate: str | None,
        invite: str | None,
    ) -> WebTable:
        game = Table(
            [s.agent for s in seats],
            seed=seed,
            guard=ThreadTimer(self.settings.bot_time_limit),
            decision_streams=True,
        )
        # The bots are prepared by the table's task (off the event loop), before their turns.
        board = options.game_board()
        state = new_game(len(seats), seed=seed, rules=house.rules(len(seats)), board=board)
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
            options=options,
            started=started,
            spectate_key=spectate,
            invite_key=invite,
        )
        if state.history and state.phase is Phase.CHOOSE_TARGET:
            # Stopped between two rounds, perhaps mid-reveal: the reveal waits for the people
            # again (who dismissed it was not kept).
            self._reveal(table)
        self.tables[table_id] = table
        for i, s in enumerate(seats):
            if s.key is not None:
                self._index(table, s.key, "seat", i)
        if spectate is not None:
            self._index(table, spectate, "spectator")
        if invite is not None:
            self._index(table, invite, "invite")
        table.task = asyncio.get_running_loop().create_task(self._run(table))
        return table

    # -- play again ----------------------------------------------------------------------------
    async def play_again(self, table: WebTable, seat: int, client: str) -> dict[str, Any] | None:
        """A new game at this table ("play again"): the same seats, kinds, names, house rules
        and options, a new seed; the same links open it (every seat's, the spectators', the
        invite), and every connection is moved to it, told with an ``again`` message. The
        series table gains this game's scores. Asked twice, the same new game."""
        if not table.state.is_terminal:
            return error("play again once the game is over (R24)")
        if table.again is None:
            result = table.state.result
            assert result is not None
            # A seat given to a bot goes back to its person, who may come back.
            kinds_names = [
                ("person" if s.handed else s.kind, s.name if s.named else None) for s in table.seats
            ]
            carried = {"spectate_key": table.spectate_key or ""}
            if table.invite_key is not None:
                carried["invite_key"] = table.invite_key
            try:
                new = await self._new_table(
                    kinds_names,
                    secrets.randbits(63),
                    table.house,
                    TableOptions(**{**table.options.to_dict(), "waiting_room": False}),
                    client,
                    carried,
                    keys=[s.key for s in table.seats],
                    series=[*table.series, list(result.scores)],
                )
            except (ValueError, OverflowError) as e:
                return error(str(e))
            except sqlite3.Error as e:
                return error(store_failure(e))
            for old, fresh in zip(table.seats, new.seats, strict=True):
                fresh.token, fresh.claimed = old.token, old.claimed
            table.again = (new.id, [s.token for s in new.seats])
            await self._move_everyone(table, new, seat)
        return None

    async def _move_everyone(self, table: WebTable, new: WebTable, by: int) -> None:
        """Every connection of ``table`` to its next game ``new``: each is told (``again``,
        with its own token), welcomed and sent its view there."""
        sends = []
        for seat, sockets in table.conns.items():
            for sock in sockets:
                new.conns.setdefault(seat, set()).add(sock)
                sends.append(self._tell_moved(table, new, sock, seat, by))
        for sock in table.watchers:
            new.watchers.add(sock)
            sends.append(self._tell_moved(table, new, sock, None, by))
        for sock in [*(s for group in new.conns.values() for s in group), *new.watchers]:
            sock.table = new
        table.conns, table.watchers = {}, set()
        new.joined = bool(new.conns)
        new.heard = time.monotonic()
        await asyncio.gather(*sends)

    async def _tell_moved(
        self, table: WebTable, new: WebTable, sock: Socket, seat: int | None, by: int
    ) -> None:
        await send(sock.ws, json.dumps(again_message(table, sock.token, by)))
        await send(sock.ws, json.dumps(welcome(new, seat)))
        view = spectator_state(new) if seat is None else view_message(new, new.state.view(seat))
        await send(sock.ws, json.dumps(view))


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

    async def study_table(
        self,
        kinds_names: list[tuple[str, str | None]],
        seed: int,
        language: str,
        client: str,
        key: str,
        away_seconds: int = 45,
    ) -> str:
        """A game study's table (see ``_Tables.study_table``): its id. An ``OverflowError`` (the
        caps on games in play) says which cap it met."""
        table = await self.tables.study_table(
            kinds_names, seed, language, client, key, away_seconds
        )
        return table.id


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
            table, tokens = await tables.create(await read_json(request, MAX_CREATE_BYTES), client)
        except Refused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)
        except PermissionError as e:
            return JSONResponse({"error": str(e)}, status_code=403)
        except OverflowError as e:
            return JSONResponse({"error": str(e)}, status_code=503)
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        links = tables.addresses
        seats = [
            {
                "seat": i,
                "name": s.name,
                "kind": s.kind,
                "token": s.token,
                "link": links.seat(request, s.token),
            }
            for i, s in enumerate(table.seats)
        ]
        invite = tokens.get("invite")
        return JSONResponse(
            {
                "table": table.id,
                "seats": seats,
                "spectate": links.seat(request, tokens["spectate"]),
                "invite": None if invite is None else links.invite(request, invite),
                "options": table.options.to_dict(),
            }
        )

    async def setup(request: Request) -> Response:
        return JSONResponse(
            {
                "bots": bot_choices(available_languages()),
                "languages": list(available_languages()),
                "language": tables.settings.language,
                "min_players": MIN_PLAYERS,
                "max_players": MAX_PLAYERS,
                # Whether GET /api/leaderboard answers (else a 404 the lobby need not ask for).
                "leaderboard": tables.settings.leaderboard,
                "house_rules": {
                    "max_rounds_per_giver": MAX_ROUNDS_PER_GIVER,
                    "reveal_seconds": tables.settings.reveal_pause,
                    "max_reveal_seconds": MAX_REVEAL_SECONDS,
                },
                "options": {
                    **TableOptions().to_dict(),
                    "boards": list(BOARDS),
                    "max_seconds": MAX_TURN_SECONDS,
                },
            }
        )

    async def qr(request: Request) -> Response:
        # A link of this server's as a QR code (the waiting room shows one per link). Only this
        # server's links: it is no QR service for anyone's text. The link comes in the body, as
        # a token in a query string would reach the proxies' logs.
        client = client_key(request.client.host if request.client else None)
        if not tables.connects.take(client):
            return JSONResponse({"error": "too many requests; wait a little"}, status_code=429)
        try:
            body = await read_json(request, 1024)
        except Refused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)
        text = body.get("text") if isinstance(body, dict) else None
        base = f"{tables.addresses.base(request)}/"
        if not isinstance(text, str) or not text.startswith(base) or len(text) > MAX_QR_TEXT:
            return JSONResponse(
                {"error": f"'text' is a link of this server's ({base}...), at most "
                          f"{MAX_QR_TEXT} characters"},
                status_code=400,
            )  # fmt: skip
        return Response(qr_svg(text), media_type="image/svg+xml")

    async def leaderboard(request: Request) -> Response:
        # The top of the server's ratings (huescues ratings), for the front page: only where the
        # operator shows it (--leaderboard), worked out at most once a minute.
        if not tables.settings.leaderboard:
            return JSONResponse({"error": "this server shows no leaderboard"}, status_code=404)
        now = time.monotonic()
        if tables.leaders is None or now - tables.leaders[0] > 60:
            ratings = await tables.db.read(rate_server, tables.db)
            top = [
                {"entrant": r.entrant, "kind": r.kind, "games": r.games,
                 "mu": round(r.mu, 2), "low": round(r.interval[0], 2),
                 "high": round(r.interval[1], 2), "ordinal": round(r.ordinal, 2)}
                for r in ratings[:10]
            ]  # fmt: skip
            tables.leaders = (now, top)
        return JSONResponse({"leaders": tables.leaders[1]})

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
        Route("/join", play),
        Route("/api/setup", setup),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{id}", info),
        Route("/api/qr", qr, methods=["POST"]),
        Route("/api/leaderboard", leaderboard),
        WebSocketRoute("/ws", tables.socket),
    ]
