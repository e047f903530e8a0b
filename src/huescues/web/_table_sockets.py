"""The tables' WebSockets: a connection joins a seat (its link's token), watches a table (the
spectators' token) or takes a free person's seat (the invite's token and a name); then every
message it sends is parsed once into a typed message (:mod:`._inbound`) and handled in one
dispatch, a message that cannot be taken answered with an ``error`` and the connection kept."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, assert_never

from starlette.websockets import WebSocket, WebSocketDisconnect

from huescues.agents import prepare

from ._bots import BOT_KINDS, STAND_IN, build_bot, speaks
from ._inbound import (
    Again,
    BadMessage,
    Check,
    Clue,
    GiveToBot,
    Inbound,
    Join,
    Next,
    PassClue,
    Pawn,
    Pong,
    React,
    Start,
    Target,
    parse_message,
)
from ._limits import ClientLimiter, TokenBucket, client_key
from ._logs import log_failure
from ._messages import (
    REACTIONS,
    again_message,
    check_clue,
    check_name,
    error,
    seats_json,
    send,
    view_message,
    welcome,
)
from ._store import TableStore, token_hash
from ._table import GONE_CLOSE_CODE, Socket, TableSettings, WebTable
from ._table_play import spectator_state

__all__ = ["REACTION_SECONDS", "Link", "TableSockets"]

#: The least time between two reactions of one seat (or one spectator), in seconds.
REACTION_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class Link:
    """What a link's token opens: a ``seat`` of a table, the table as a ``spectator``, or its
    ``invite`` (a free person's seat)."""

    table: WebTable
    role: str
    seat: int = -1


class TableSockets:
    """The WebSocket part of the server's tables (a base of ``_Tables``)."""

    settings: TableSettings
    store: TableStore
    links: dict[str, Link]
    open: dict[str, int]
    connects: ClientLimiter
    freed: int

    async def broadcast(self, table: WebTable, skip: Socket | None = None) -> None:
        raise NotImplementedError

    async def act(
        self, table: WebTable, seat: int, msg: Target | Clue | PassClue | Pawn | Next
    ) -> dict[str, Any] | None:
        raise NotImplementedError

    async def play_again(self, table: WebTable, seat: int, client: str) -> dict[str, Any] | None:
        raise NotImplementedError

    async def _write(self, write: Any, *args: Any) -> None:
        raise NotImplementedError

    def _index(self, table: WebTable, key: str, role: str, seat: int = -1) -> None:
        raise NotImplementedError

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
        """One connection: its join, then its messages, each handled in :meth:`_handle`."""
        bucket = TokenBucket(self.settings.message_burst, self.settings.message_rate)
        deadline = time.monotonic() + self.settings.join_timeout
        joined: Socket | None = None
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
                try:
                    joined = await self._join(ws, msg)
                except BadMessage as e:
                    await send(ws, json.dumps(error(str(e), e.rule)))
                    continue
                if joined is None:
                    return
            while True:
                msg = await self._receive(ws, bucket)
                table = joined.table  # (play again moves it to the next game)
                joined.heard = table.heard = time.monotonic()
                if msg is None:
                    continue
                try:
                    reply = await self._handle(joined, msg, client)
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
                self._leave(joined)

    def _leave(self, joined: Socket) -> None:
        table, now = joined.table, time.monotonic()
        if joined.seat is None:
            table.watchers.discard(joined)
        else:
            sockets = table.conns.get(joined.seat, set())
            sockets.discard(joined)
            if not sockets:
                table.seats[joined.seat].left = now
        table.heard = now
        table.changed.set()  # a reveal no longer waits for a person who left

    async def _join(self, ws: WebSocket, msg: Join) -> Socket | None:
        """Seat the connection as its token says; None (the connection told and closed) if the
        table is gone or the link is wrong; a :class:`BadMessage` for an invite that cannot be
        taken (a bad name, no free seat)."""
        link = self.links.get(token_hash(msg.token)) if msg.token else None
        if link is None or link.table.expired:
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
        table, token = link.table, msg.token
        if link.role == "spectator":
            sock = Socket(ws, table, None, token)
            table.watchers.add(sock)
            await send(ws, json.dumps(welcome(table, None)))
            await send(ws, json.dumps(spectator_state(table)))
            return sock
        seat = link.seat
        given: str | None = None
        if link.role == "invite":
            seat, token = await self._take_free_seat(table, msg.name)
            given = token
        sock = Socket(ws, table, seat, token)
        table.conns.setdefault(seat, set()).add(sock)
        chosen = table.seats[seat]
        fresh = not chosen.claimed and chosen.kind == "person"
        chosen.claimed = chosen.claimed or chosen.kind == "person"
        table.joined = True
        table.heard = sock.heard
        if fresh and given is None:
            self._save_seats(table)
        await send(ws, json.dumps(welcome(table, seat, given)))
        await send(ws, json.dumps(view_message(table, table.state.view(seat))))
        if table.again is not None:
            await send(ws, json.dumps(again_message(table, token, None)))
        table.changed.set()
        table.shown_presence = table.presence()
        await self.broadcast(table, skip=sock)  # everyone sees who arrived
        return sock

    async def _take_free_seat(self, table: WebTable, name: object) -> tuple[int, str]:
        """A free person's seat of ``table`` for a person who came through its invite: the
        first no person ever came to but the creator's, renamed ``name`` (if given) and given
        a new token (its old link, never opened, opens nothing now). Refused (a
        :class:`BadMessage`) when none is free or the game is over."""
        try:
            checked = check_name(name, "the name")
        except ValueError as e:
            raise BadMessage(str(e), "R18") from None
        if table.state.is_terminal:
            raise BadMessage("this game is over: no seat to take")
        # (Seat 0 is the creator's, whoever has come.)
        free = [i for i, s in enumerate(table.seats) if i and s.kind == "person" and not s.claimed]
        if not free:
            raise BadMessage("every person's seat at this table is taken")
        seat = free[0]
        chosen = table.seats[seat]
        self._drop_seat_key(table, seat)
        token = secrets.token_urlsafe(18)
        chosen.token, chosen.key = token, token_hash(token)
        if checked is not None:
            chosen.name, chosen.named = checked, True
        chosen.claimed = True
        self._index(table, chosen.key, "seat", seat)
        self._save_seats(table)
        return seat, token

    def _save_seats(self, table: WebTable) -> None:
        """Keep the seats as they are now (names, kinds, who came, the token hashes)."""
        tokens = [table.seat_key(i) for i in range(len(table.seats))]
        self._quietly(self.store.seats, table.id, seats_json(table.seats), tokens)

    def _quietly(self, write: Any, *args: Any) -> None:
        raise NotImplementedError

    async def _handle(self, joined: Socket, msg: Inbound, client: str) -> dict[str, Any] | None:
        """Every kind of message a joined connection may send, in one place: the answer to send
        back, if any."""
        table, seat = joined.table, joined.seat
        if isinstance(msg, Pong):
            return None
        if table.options.study and isinstance(msg, React | Again):
            return error("a study's game is played once, without reactions")
        if isinstance(msg, React):
            return await self._react(joined, msg.emoji)
        if seat is None:
            if isinstance(msg, Join):
                return error("this connection watches the table already")
            return error("a spectator may only react")
        match msg:
            case Join():
                return error("this connection holds a seat already")
            case Check(text):
                return check_clue(text, table.state, seat)
            case Again():
                return await self.play_again(table, seat, client)
            case Start(fill):
                return await self._start(table, seat, fill)
            case GiveToBot(other):
                return await self._give_to_bot(table, seat, other)
            case Target() | Clue() | PassClue() | Pawn() | Next():
                return await self.act(table, seat, msg)
            case _:
                assert_never(msg)

    async def _react(self, joined: Socket, emoji: str) -> dict[str, Any] | None:
        """Send a reaction to every connection of the table, the sender's too; at most one per
        :data:`REACTION_SECONDS` a seat (a spectator's socket)."""
        table = joined.table
        if emoji not in REACTIONS:
            return error(f"reaction {emoji[:8]!r} is not one of {' '.join(REACTIONS)}")
        sender: object = joined if joined.seat is None else joined.seat
        now = time.monotonic()
        if now - table.reacted.get(sender, -REACTION_SECONDS) < REACTION_SECONDS:
            return error(f"one reaction every {REACTION_SECONDS:g} s")
        table.reacted[sender] = now
        text = json.dumps({"type": "reaction", "seat": joined.seat, "emoji": emoji})
        sockets = [s for group in table.conns.values() for s in group] + list(table.watchers)
        await asyncio.gather(*(send(s.ws, text) for s in sockets))
        return None

    async def _start(self, table: WebTable, seat: int, fill: str | None) -> dict[str, Any] | None:
        """The creator (seat 0) starts a waiting room's game; ``fill`` first seats that bot at
        every person's seat no person came to."""
        if seat != 0:
            return error("only the table's creator (seat 1) starts the game")
        if table.started:
            return error("the game has started already")
        if table.starting:  # (the creator's other tab, or a second click)
            return error("the game is starting already")
        language = table.state.rules.language
        if fill is not None:
            if fill not in BOT_KINDS or not speaks(fill, language):
                kinds = ", ".join(k for k in BOT_KINDS if speaks(k, language))
                return error(f"fill {fill[:20]!r}: a bot of this table's language, one of {kinds}")
            # Marked before the first await: until the start ends, a second one is refused.
            table.starting = True
            try:
                await self._fill(table, fill)
            finally:
                table.starting = False
        table.started = True
        table.turn = (len(table.state.actions), time.monotonic())
        self._quietly(self.store.start, table.id)
        table.changed.set()
        await self.broadcast(table)
        return None

    async def _fill(self, table: WebTable, fill: str) -> None:
        """Seat a ``fill`` bot at every person's seat no person came to. The bots are prepared
        first (off the event loop, where people may still come through the invite or their
        seat's link), then seated at once at the seats still free: a person who came meanwhile
        keeps their seat, and is never made a bot with their connection still on it."""
        language = table.state.rules.language
        free = [i for i, s in enumerate(table.seats) if s.kind == "person" and not s.claimed]
        agents = []
        for _ in free:
            agent = build_bot(fill, language)
            await asyncio.to_thread(prepare, agent, table.state.board, table.state.rules)
            agents.append(agent)
        # From here to the end, no await: the seats are decided on what they are now.
        empty = [i for i in free if table.seats[i].kind == "person" and not table.seats[i].claimed]
        for i, agent in zip(empty, agents, strict=False):  # (alike: any of them will do)
            table.game.give_to_bot(i, agent)
            chosen = table.seats[i]
            chosen.kind, chosen.agent = fill, agent
            if not chosen.named:
                chosen.name = table.default_name(fill, i)
            self._drop_seat_key(table, i)
        if empty:
            self._save_seats(table)

    async def _give_to_bot(self, table: WebTable, seat: int, other: int) -> dict[str, Any] | None:
        """The creator gives an away person's seat to the table's default bot for the rest of
        the game."""
        if seat != 0:
            return error("only the table's creator (seat 1) gives a seat to a bot")
        refused = self._not_to_bot(table, other)
        if refused is not None:
            return refused
        language = table.state.rules.language
        agent = build_bot(STAND_IN, language)
        await asyncio.to_thread(prepare, agent, table.state.board, table.state.rules)
        # Asked again: while the bot was prepared, the seat may have been given already (the
        # creator's other tab) or its person come back.
        refused = self._not_to_bot(table, other)
        if refused is not None:
            return refused
        table.game.give_to_bot(other, agent)
        chosen = table.seats[other]
        chosen.kind, chosen.agent, chosen.handed = STAND_IN, agent, True
        self._save_seats(table)
        table.changed.set()
        await self.broadcast(table)
        return None

    @staticmethod
    def _not_to_bot(table: WebTable, other: int) -> dict[str, Any] | None:
        """Why seat ``other`` cannot go to a bot now (an ``error``), or None if it can."""
        if not 0 <= other < len(table.seats) or table.seats[other].kind != "person":
            return error(f"seat {other} is not a person's seat")
        if table.here(other):
            return error(f"{table.seats[other].name} is here: only an away seat goes to a bot")
        if table.state.is_terminal:
            return error("the game is over")
        return None

    def _drop_seat_key(self, table: WebTable, seat: int) -> None:
        """Forget a seat's link (its seat went to a bot before anyone came to it)."""
        key = table.seat_key(seat)
        if key is not None:
            self.links.pop(key, None)
            if key in table.keys:
                table.keys.remove(key)
        table.seats[seat].token = table.seats[seat].key = None

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
