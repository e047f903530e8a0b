"""Game tables: 3-10 seats, each a person or a bot, played over WebSockets.

The engine is the only judge: every action a page sends is applied with
``GameState.apply(action, seat=seat)`` and every page is sent ``state.view(seat)`` of its own
seat, so the card and the target reach the clue giver's connections only, until the reveal (R8,
R14). Nothing of the rules runs in the browser.

HTTP
----
- ``GET /``: the page that creates a table. ``GET /play#t=TOKEN[,TOKEN...]``: the game page for
  one seat, or for several seats on one device (pass-and-play). Tokens travel in the fragment, so
  they never reach the server's logs.
- ``POST /api/tables`` with JSON ``{"seats": [{"kind": "person"|"default"|"naming"|"random"|...,
  "name": "Ann"}, ...]}`` (``name`` optional; 3-10 seats, at least one person; a bot's kind is
  one of ``GET /api/setup``'s; a ``"seed"`` only where :attr:`TableSettings.allow_seed`, else
  403: the server draws the seed and tells no client before the end) answers ``{"table": ID,
  "seats": [{"seat": 0, "name", "kind", "token"}, ...]}``; a person's seat has its token
  (``secrets.token_urlsafe``), a bot's has ``null``. The token is the
  seat: whoever holds it plays that seat, and nobody else can.
- ``GET /api/tables/ID``: ``{"table", "seats": [{"seat","name","kind"}], "finished": bool}``
  (no tokens).
- ``GET /api/setup``: what a new table may hold, for the page that creates one: ``{"bots":
  [{"kind", "description"}, ...], "min_players", "max_players"}`` (the bots are the catalogue's
  fair players, :data:`huescues.agents.CATALOGUE`; the bounds are R2's).

WebSocket ``/ws`` (JSON text messages, at most 4096 bytes each)
---------------------------------------------------------------
The page sends first ``{"type": "join", "token": TOKEN}``; one connection holds one seat (a page
for several seats opens one connection per seat). Then:

- ``{"type": "target", "index": 0-3}``: the clue giver picks a square of the card (R8);
- ``{"type": "clue", "text": "lagoon"}``: the first clue (R9) or the second (R11);
- ``{"type": "pass"}``: no second clue (R11);
- ``{"type": "pawn", "cell": "F12"}``: a guess (R10, R12);
- ``{"type": "check", "text": "..."}``: is this clue allowed now? (the live check; changes
  nothing);
- ``{"type": "next"}``: dismiss the reveal; the next round starts once every connected person
  has, or after the table's ``reveal_seconds`` (nobody acts meanwhile);
- ``{"type": "again"}``: once the game is over, a new table with the same seats and house rules.

``POST /api/tables`` also takes ``"house_rules": {"refuse_named_colours": bool,
"rounds_per_giver": 1-3, "reveal_seconds": 0-600}`` (:class:`HouseRules`); the ``welcome`` says
them (``house_rules``), the ``state`` says ``reveal``: null, or ``{"round", "waiting_for":
[seat, ...], "seconds_left"}``. The server also sends ``{"type": "again", "table", "token",
"by"}`` (each seat its own new token) and, to a join whose table is gone, an ``error`` with
``"code": "gone"`` before closing with :data:`GONE_CLOSE_CODE`.

The server sends:

- ``{"type": "welcome", "table", "seat", "seats": [{"seat","name","kind","colour"}],
  "board": {"id", "rows", "cols", "row_letters": [...], "colours": [[hex, ...], ...]}}`` once,
  after the join (the board as the study sends it too: :func:`board_json`);
- ``{"type": "state", "seat", "phase", "current", "giver", "guessers", "round",
  "regular_rounds", "tiebreak", "scores", "clues", "pawns": [[seat, "F12"], ...], "history":
  [round, ...], "card": ["F12", ...] | null, "target": "F12" | null, "result": {"winners",
  "scores", "shared", "tiebreak_rounds"} | null, "ready": bool, "clue_words": n, "may_pass":
  bool, "faults": [text, ...]}`` after the join and after every change: ``card`` and
  ``target`` are set for the clue giver only (and ``null`` once the game is over); a round of
  ``history`` is ``RoundResult.to_dict()``: its target, clues, pawns and points, after the
  reveal;
- ``{"type": "check", "text", "ok": bool, "rule": "R19" | null, "message"}`` answering a check;
- ``{"type": "error", "message", "rule": "R13" | null}`` when a message is refused (malformed,
  too big, too many, not your turn, against a rule): nothing changed.

Connections and messages are rate-limited per client address and per connection (token
buckets); open connections and tables in play are capped per address, a connection must join a
seat within :attr:`TableSettings.join_timeout`, and a table no one is connected to expires after
:attr:`TableSettings.idle_timeout`. Every action is stored as it is played (``_store``), so a
restart rebuilds the games in play; a finished game is stored as its
:class:`~huescues.GameRecord` JSON in the ``games`` table and replays with ``huescues replay DB
--game ID``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sqlite3
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from huescues.agents import Agent, Fault, Table, ThreadTimer, cut_message
from huescues.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    ChooseTarget,
    GameRecord,
    GameState,
    GiveClue,
    IllegalAction,
    Pass,
    Phase,
    PlacePawn,
    View,
    hidden_character,
    new_game,
    validate_clue,
)

from ._board import board_json
from ._bots import BOT_KINDS, bot_choices, build_bot
from ._db import Database
from ._house import MAX_REVEAL_SECONDS, MAX_ROUNDS_PER_GIVER, HouseRules
from ._limits import ClientLimiter, TokenBucket, client_key
from ._memory import release_memory
from ._requests import Refused, read_json
from ._store import GAME_SCHEMA, StoredGame, TableStore, token_hash

__all__ = [
    "GAME_SCHEMA",
    "GONE_CLOSE_CODE",
    "PAWN_COLOURS",
    "TableService",
    "TableSettings",
    "table_routes",
]

#: The WebSocket close code after a join to a table that is gone (or a wrong link): the page
#: shows so and does not reconnect (4000-4999 are the application's own codes).
GONE_CLOSE_CODE = 4404

#: One pawn colour per seat, drawn with a dark and a light ring so they stand out on any square,
#: and with the seat's number on it. Okabe and Ito's eight colours (chosen to stay apart for the
#: common colour-vision deficiencies: no two differ only in red against green), then white and
#: a dark brown: lightness keeps the last two apart from the rest, and the number tells every
#: pawn from every other whatever one's eyes.
PAWN_COLOURS: tuple[str, ...] = (
    "#d55e00",
    "#0072b2",
    "#f0e442",
    "#009e73",
    "#cc79a7",
    "#56b4e9",
    "#e69f00",
    "#000000",
    "#ffffff",
    "#7b4a12",
)

_MAX_NAME = 24


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How the tables behave: bots' pace and time limit, message size, rate limits."""

    #: Seconds a bot may think before the random move is played instead.
    bot_time_limit: float = 10.0
    #: Seconds between two bot moves, so that people can follow them.
    bot_delay: float = 0.6
    #: Seconds a reveal waits for the people at the table to dismiss it ("Next round") before
    #: the round ends anyway, unless the table's house rules set their own ``reveal_seconds``;
    #: 0: the round ends at once.
    reveal_pause: float = 60.0
    #: Largest message accepted, in bytes.
    max_message_bytes: int = 4096
    #: Connections (and tables created) per client address: a burst, then so many per second.
    connect_burst: float = 30.0
    connect_rate: float = 2.0
    #: Messages per connection: a burst, then so many per second.
    message_burst: float = 20.0
    message_rate: float = 5.0
    #: Games in play at once; more are refused until some finish or expire.
    max_tables: int = 500
    #: Games in play at once created from one client address (an IPv6 address counts by its
    #: /64 network, as one home or phone holds a whole /64).
    max_tables_per_address: int = 20
    #: Seconds a table with no one connected is kept; then it expires (a finished game's record
    #: stays in the database, an unfinished one is marked abandoned and not rebuilt on restart).
    idle_timeout: float = 1800.0
    #: Seconds a new WebSocket has to join a seat before it is closed.
    join_timeout: float = 10.0
    #: WebSockets open at once from one client address (a pass-and-play page holds one a seat).
    max_connections_per_address: int = 64
    #: Whether ``POST /api/tables`` may choose the game's seed. Off: the server draws it, keeps
    #: it in the database and sends it to no client before the game ends, as a chosen seed tells
    #: its chooser every card and the bots' streams. For tests and demonstrations only.
    allow_seed: bool = False

    def __post_init__(self) -> None:
        for name in ("max_tables", "max_tables_per_address", "max_connections_per_address"):
            if getattr(self, name) < 1:
                raise ValueError(f"TableSettings.{name} is at least 1, not {getattr(self, name)}")
        for name in ("idle_timeout", "join_timeout", "bot_time_limit"):
            if not getattr(self, name) > 0:
                raise ValueError(f"TableSettings.{name} is a positive number of seconds")


@dataclass(slots=True)
class _Seat:
    name: str
    kind: str
    token: str | None
    agent: Agent | None = None


@dataclass(slots=True)
class _Reveal:
    """A reveal the table waits on: since when, and who has dismissed it."""

    round: int
    since: float = field(default_factory=time.monotonic)
    dismissed: set[int] = field(default_factory=set)


@dataclass(eq=False)
class _Table:
    """A table of the server: the game itself is a guarded :class:`~huescues.agents.Table`
    (whose decision is pending, persons' actions, bots' decisions and their faults); this keeps
    the seats' names and tokens, the connections and what the page is told."""

    id: str
    seats: list[_Seat]
    game: Table
    settings: TableSettings
    conns: dict[int, set[WebSocket]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ready: bool = False
    stored: bool = False
    #: What went wrong with the table itself (not a bot's fault: those are the game's).
    errors: list[str] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    finished_at: float | None = None
    #: Who created the table (:func:`client_key`), for the per-address limit.
    creator: str = ""
    #: Since when no one is connected (``time.monotonic``), or None while someone is.
    idle_since: float | None = field(default_factory=time.monotonic)
    expired: bool = False
    #: The seats' keys in the server's index of tokens (their hashes).
    keys: list[str] = field(default_factory=list)
    #: The house rules asked for at creation (the game's own are in its rules).
    house: HouseRules = field(default_factory=HouseRules)
    #: Seconds a reveal waits for dismissals (the house rule, else the server's).
    reveal_seconds: float = 0.0
    #: The reveal the table waits on, or None while it plays.
    reveal: _Reveal | None = None
    #: The table "play again" made: its id and its seats' tokens (None for a bot).
    again: tuple[str, list[str | None]] | None = None

    @property
    def state(self) -> GameState:
        state = self.game.state
        assert state is not None
        return state

    @property
    def faults(self) -> list[str]:
        """The bots' faults and the table's errors, as the page shows them."""
        return [_fault_text(self.seats[f.seat].name, f) for f in self.game.faults] + self.errors

    def waiting_for(self) -> list[int]:
        """The people the reveal still waits for: connected persons who have not dismissed it
        (one who left holds nobody up)."""
        reveal = self.reveal
        if reveal is None:
            return []
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind == "person" and self.conns.get(i) and i not in reveal.dismissed
        ]

    def house_rules(self) -> dict[str, Any]:
        """The house rules in play, as the page shows them."""
        rules = self.state.rules
        return {
            "refuse_named_colours": rules.refuse_named_colours,
            "rounds_per_giver": rules.rounds_per_giver,
            "reveal_seconds": self.reveal_seconds,
        }

    def public_seats(self) -> list[dict[str, Any]]:
        return [
            {"seat": i, "name": s.name, "kind": s.kind, "colour": PAWN_COLOURS[i]}
            for i, s in enumerate(self.seats)
        ]


def _view_message(table: _Table, view: View) -> dict[str, Any]:
    """The ``state`` message for one seat: its view and nothing more (R8)."""
    state = table.state
    rules = view.rules
    second = view.phase is Phase.SECOND_CLUE
    result = state.result
    return {
        "type": "state",
        "seat": view.seat,
        "phase": view.phase.value,
        "current": view.current_player,
        "giver": view.giver,
        "guessers": list(view.guessers),
        "round": view.round,
        "regular_rounds": rules.regular_rounds,
        "tiebreak": view.tiebreak,
        "scores": list(view.scores),
        "clues": list(view.clues),
        "pawns": [[s, str(c)] for s, c in view.pawns],
        "history": [r.to_dict() for r in view.history],
        "card": None if view.card is None else [str(c) for c in view.card],
        "target": None if view.target is None else str(view.target),
        "result": None
        if result is None
        else {
            "winners": list(result.winners),
            "scores": list(result.scores),
            "shared": result.shared,
            "tiebreak_rounds": result.tiebreak_rounds,
        },
        "ready": table.ready,
        "clue_words": rules.second_clue_words if second else rules.first_clue_words,
        "may_pass": rules.second_clue_may_pass,
        "faults": table.faults[-5:],
        "reveal": None
        if table.reveal is None
        else {
            "round": table.reveal.round,
            "waiting_for": table.waiting_for(),
            "seconds_left": max(
                0.0, round(table.reveal.since + table.reveal_seconds - time.monotonic(), 1)
            ),
        },
    }


def _fault_text(name: str, fault: Fault) -> str:
    what = "illegal decision: " if fault.kind == "illegal" else ""
    return f"{name}: {what}{fault.message}; played a random move instead"


def _welcome(table: _Table, seat: int) -> dict[str, Any]:
    return {
        "type": "welcome",
        "table": table.id,
        "seat": seat,
        "seats": table.public_seats(),
        "board": board_json(table.state.board),
        "house_rules": table.house_rules(),
    }


def _again_message(table: _Table, seat: int, by: int | None) -> dict[str, Any]:
    """Tells a seat of the table "play again" made: its own new link token (null for a bot's
    seat), and who asked (null when the table was made before this connection joined)."""
    assert table.again is not None
    new_id, tokens = table.again
    return {"type": "again", "table": new_id, "token": tokens[seat], "by": by}


class _ActionError(ValueError):
    """A message that is not an action the page may send."""


def _parse_action(msg: dict[str, Any], state: GameState) -> Action:
    kind = msg.get("type")
    if kind == "target":
        index = msg.get("index")
        if type(index) is not int or not 0 <= index < len(state.card):
            raise _ActionError(f"target {index!r} refused: choose a square of the card, 0-3 (R8)")
        return ChooseTarget(index)
    if kind == "clue":
        text = msg.get("text")
        if not isinstance(text, str):
            raise _ActionError("a clue message needs 'text', a string")
        return GiveClue(text)
    if kind == "pass":
        return Pass()
    if kind == "pawn":
        cell = msg.get("cell")
        if not isinstance(cell, str) or len(cell) > 8:
            raise _ActionError("a pawn message needs 'cell', a square's name such as 'F12'")
        try:
            return PlacePawn(state.board.cell(cell))
        except ValueError as e:
            raise _ActionError(str(e)) from None
    raise _ActionError(f"unknown message type {str(kind)[:30]!r}")


def _check(msg: dict[str, Any], state: GameState, seat: int) -> dict[str, Any]:
    """The live clue check: what the engine's clue rules say of ``text`` now (R18-R22)."""
    text = msg.get("text")
    if not isinstance(text, str):
        raise _ActionError("a check message needs 'text', a string")
    answer: dict[str, Any] = {"type": "check", "text": text, "ok": True, "rule": None}
    if state.phase not in (Phase.FIRST_CLUE, Phase.SECOND_CLUE) or seat != state.giver:
        answer.update(ok=False, message="it is not your turn to give a clue")
        return answer
    try:
        validate_clue(
            text,
            second=state.phase is Phase.SECOND_CLUE,
            rules=state.rules,
            previous=state.clues_given,
        )
    except IllegalAction as e:
        answer.update(ok=False, rule=getattr(e, "rule", None), message=str(e))
    else:
        answer["message"] = "allowed"
    return answer


class _Tables:
    """Every table of this server, by id and by seat token (its hash)."""

    def __init__(self, db: Database, settings: TableSettings) -> None:
        self.db = db
        self.store = TableStore(db)
        self.settings = settings
        self.tables: dict[str, _Table] = {}
        self.tokens: dict[str, tuple[_Table, int]] = {}
        self.connects = ClientLimiter(settings.connect_burst, settings.connect_rate)
        #: Open WebSockets by client address (:func:`client_key`).
        self.open: dict[str, int] = {}
        #: Tables expired and connections closed since memory was last given back.
        self.freed = 0
        self._sweeper: asyncio.Task[None] | None = None

    # -- the server's life ---------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild the games in play from the database (after a restart), and start expiring
        idle tables."""
        for stored in self.store.in_play():
            self._rebuild(stored)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        loop = asyncio.get_running_loop()
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        # A test client without a lifespan runs each request in a loop of its own: only this
        # loop's tasks can be waited for.
        tasks = [t for t in tasks if t.get_loop() is loop]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _sweep_forever(self) -> None:
        every = min(60.0, max(0.05, self.settings.idle_timeout / 4))
        while True:
            await asyncio.sleep(every)
            self.sweep()
            if self.freed:
                # Expired tables and closed connections leave their pages in the allocator's
                # arenas: hand them back, so that a burst of abuse does not stay in the RSS.
                self.freed = 0
                await asyncio.to_thread(release_memory)

    def sweep(self) -> None:
        """Expire the tables no one has been connected to for :attr:`TableSettings.idle_timeout`
        seconds, and forget finished ones an hour after the end."""
        now, wall = time.monotonic(), time.time()
        for table in list(self.tables.values()):
            idle = table.idle_since is not None and now - table.idle_since >= (
                self.settings.idle_timeout
            )
            old = table.finished_at is not None and wall - table.finished_at >= 3600
            if idle or old:
                self._expire(table)

    def _expire(self, table: _Table) -> None:
        table.expired = True
        self.freed += 1
        if table.task is not None:
            table.task.cancel()
        self.tables.pop(table.id, None)
        for key in table.keys:
            self.tokens.pop(key, None)
        if not table.stored:
            with contextlib.suppress(sqlite3.Error):  # then it is rebuilt, and expires again
                self.store.abandon(table.id)

    # -- creating ------------------------------------------------------------------------------
    def create(self, body: Any, client: str = "?") -> _Table:
        """A new table from the request ``body``, created by ``client``; a ``ValueError``
        (bad request), ``PermissionError`` (a seed where the operator allows none) or
        ``OverflowError`` (too many tables) names what is wrong, and nothing is stored."""
        if not isinstance(body, dict):
            raise ValueError("the request is a JSON object with 'seats'")
        fields = ["seats", "seed", "house_rules"]
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
        kinds_names = [_seat_request(i, s) for i, s in enumerate(raw)]
        if all(kind != "person" for kind, _ in kinds_names):
            raise ValueError("a table needs at least one person")
        house = HouseRules.from_request(body.get("house_rules"))
        return self._new_table(kinds_names, seed, house, client)

    def _new_table(
        self, kinds_names: list[tuple[str, str]], seed: int, house: HouseRules, client: str
    ) -> _Table:
        """A new table of these seats (checked), within the limits on games in play."""
        self.sweep()
        live = [t for t in self.tables.values() if not t.state.is_terminal]
        if len(live) >= self.settings.max_tables:
            raise OverflowError("too many games in play; try again later")
        if sum(t.creator == client for t in live) >= self.settings.max_tables_per_address:
            raise OverflowError(
                f"this address has {self.settings.max_tables_per_address} games in play; "
                "finish or leave one first"
            )
        seats = [
            _Seat(
                name,
                kind,
                secrets.token_urlsafe(18) if kind == "person" else None,
                None if kind == "person" else build_bot(kind),
            )
            for kind, name in kinds_names
        ]
        table_id = secrets.token_urlsafe(9)
        while table_id.startswith("-"):  # `huescues replay DB --game ID` would read an option
            table_id = secrets.token_urlsafe(9)
        self.store.create(
            table_id,
            _seats_json(seats),
            seed,
            [None if s.token is None else token_hash(s.token) for s in seats],
            house.to_dict(),
        )
        return self._open(table_id, seats, seed, [], client, house)

    def _rebuild(self, stored: StoredGame) -> None:
        """A game in play when the server stopped, at the point its stored actions reach."""
        seats = []
        for s, token in zip(stored.seats, stored.tokens, strict=True):
            kind = s["kind"]
            if kind != "person" and kind not in BOT_KINDS:
                kind = "random"  # a bot this server no longer offers: its seat plays on
            seats.append(
                _Seat(s["name"], kind, token, None if kind == "person" else build_bot(kind))
            )
        try:
            house = HouseRules.from_request(stored.house_rules)
            self._open(stored.id, seats, stored.seed, stored.actions, "", house, hashed=True)
        except (ValueError, TypeError) as e:  # pragma: no cover - a database edited by hand
            with contextlib.suppress(sqlite3.Error):
                self.store.abandon(stored.id)
            raise ValueError(f"game {stored.id} cannot be rebuilt: {e}") from None

    def _open(
        self,
        table_id: str,
        seats: list[_Seat],
        seed: int,
        actions: list[tuple[int, Action, Fault | None]],
        client: str,
        house: HouseRules,
        *,
        hashed: bool = False,
    ) -> _Table:
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
        table = _Table(
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
    async def _run(self, table: _Table) -> None:
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
                try:
                    await asyncio.to_thread(
                        self.store.action,
                        table.id,
                        len(state.actions),
                        pending.seat,
                        after.actions[-1],
                        fault,
                    )
                except sqlite3.Error as e:
                    # Not kept, so not played: after a restart the decision is asked again,
                    # with the same generator (the table's decision streams).
                    game.state = state
                    del game.faults[faults:]
                    table.errors.append(_store_failure(e))
                    await self.broadcast(table)
                    return
                game.state = after
                self._after(table, state, after)
                await self.broadcast(table)
            self.finish(table)
            await self.broadcast(table)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # pragma: no cover - a bug; say so at the table
            table.errors.append(cut_message(f"the table stopped: {type(e).__name__}: {e}"))
            await self.broadcast(table)

    def _reveal(self, table: _Table) -> None:
        """Wait on the reveal of the round just played, if the table gives reveals time."""
        if table.reveal_seconds > 0 and table.state.history:
            table.reveal = _Reveal(table.state.history[-1].round)

    def _after(self, table: _Table, before: GameState, after: GameState) -> None:
        """What the table does once ``after`` is played: a round that ended and a game that
        goes on wait on the reveal (the end screen shows the last one)."""
        if len(after.history) > len(before.history) and not after.is_terminal:
            self._reveal(table)

    async def _wait_for_reveal(self, table: _Table) -> None:
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
                await asyncio.wait_for(table.changed.wait(), left)
        table.reveal = None
        await self.broadcast(table)

    def finish(self, table: _Table) -> None:
        """Keep the finished game's record (the JSON ``huescues replay`` reads)."""
        if table.stored:
            return
        self.store.finish(table.id, GameRecord.of(table.state).to_json())
        table.stored = True
        table.finished_at = time.time()

    async def broadcast(self, table: _Table) -> None:
        """Send every connection its own seat's view."""
        sends: list[Coroutine[Any, Any, None]] = []
        for seat, conns in table.conns.items():
            if not conns:
                continue
            text = json.dumps(_view_message(table, table.state.view(seat)))
            sends.extend(_send(ws, text) for ws in list(conns))
        if sends:
            await asyncio.gather(*sends)

    async def act(self, table: _Table, seat: int, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Apply a person's action and store it; an error message if it is refused or cannot be
        stored (then nothing changes)."""
        async with table.lock:
            state = table.state
            kind = msg.get("type")
            if kind == "check":
                return _check(msg, state, seat)
            if kind == "next":
                # A late or repeated dismissal changes nothing, and tells nobody.
                if table.reveal is None or seat in table.reveal.dismissed:
                    return None
                table.reveal.dismissed.add(seat)
                table.changed.set()
            elif table.reveal is not None:
                return _error(
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
        self, table: _Table, seat: int, msg: dict[str, Any], state: GameState
    ) -> dict[str, Any] | None:
        """Apply a person's action (under the table's lock); an error if refused."""
        try:
            after = table.game.act(seat, _parse_action(msg, state))
        except _ActionError as e:
            return _error(str(e))
        except IllegalAction as e:
            return _error(str(e), getattr(e, "rule", None))
        # Played once stored: until then every page, and a page that joins, sees the state
        # before it (the store's write waits for the disk, off the event loop).
        table.game.state = state
        try:
            await asyncio.to_thread(
                self.store.action, table.id, len(state.actions), seat, after.actions[-1], None
            )
        except sqlite3.Error as e:
            return _error(_store_failure(e))
        table.game.state = after
        self._after(table, state, after)
        table.changed.set()
        return None

    async def play_again(self, table: _Table, seat: int, client: str) -> dict[str, Any] | None:
        """A new table with the same seats, kinds and house rules ("play again": a new seed, new
        links); every seat's connections are sent their own new link token. Asked twice, the
        same new table."""
        if not table.state.is_terminal:
            return _error("play again once the game is over (R24)")
        if table.again is None:
            kinds_names = [(s.kind, s.name) for s in table.seats]
            try:
                new = self._new_table(kinds_names, secrets.randbits(63), table.house, client)
            except (ValueError, OverflowError) as e:
                return _error(str(e))
            except sqlite3.Error as e:
                return _error(_store_failure(e))
            table.again = (new.id, [s.token for s in new.seats])
        sends = [
            _send(ws, json.dumps(_again_message(table, i, seat)))
            for i, conns in table.conns.items()
            for ws in list(conns)
        ]
        await asyncio.gather(*sends)
        return None

    # -- the WebSocket -------------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        client = client_key(ws.client.host if ws.client else None)
        await ws.accept()
        if self.open.get(client, 0) >= self.settings.max_connections_per_address:
            await _send(ws, json.dumps(_error("too many connections from this address")))
            await ws.close(code=1013)
            return
        if not self.connects.take(client):
            await _send(ws, json.dumps(_error("too many connections; wait a little")))
            await ws.close(code=1013)
            return
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self._serve(ws)
        finally:
            self.freed += 1
            left = self.open.pop(client, 1) - 1
            if left > 0:
                self.open[client] = left

    async def _serve(self, ws: WebSocket) -> None:
        bucket = TokenBucket(self.settings.message_burst, self.settings.message_rate)
        deadline = time.monotonic() + self.settings.join_timeout
        table: _Table | None = None
        seat = -1
        try:
            while table is None:
                try:
                    msg = await asyncio.wait_for(
                        self._receive(ws, bucket), max(0.0, deadline - time.monotonic())
                    )
                except TimeoutError:
                    await _send(ws, json.dumps(_error(
                        f"no seat joined within {self.settings.join_timeout:g} s: "
                        "open the seat's link again")))  # fmt: skip
                    with contextlib.suppress(Exception):  # the client may be gone already
                        await ws.close(code=1008)
                    return
                if msg is None:
                    continue
                if msg.get("type") != "join":
                    await _send(ws, json.dumps(_error("first join a seat with its link token")))
                    continue
                token = msg.get("token")
                joined = (
                    self.tokens.get(token_hash(token))
                    if isinstance(token, str) and token.isascii() and len(token) <= 64
                    else None
                )
                if joined is None or joined[0].expired:
                    # Said once, and the connection closed: the page shows that the table is
                    # gone instead of trying again.
                    gone = _error(
                        "no table has this link: the table is gone (ended long ago or expired) "
                        "or the link is wrong; first join a seat with its link token, or make "
                        "a new table"
                    )
                    await _send(ws, json.dumps({**gone, "code": "gone"}))
                    with contextlib.suppress(Exception):
                        await ws.close(code=GONE_CLOSE_CODE)
                    return
                table, seat = joined
                table.conns.setdefault(seat, set()).add(ws)
                table.idle_since = None
                await _send(ws, json.dumps(_welcome(table, seat)))
                await _send(ws, json.dumps(_view_message(table, table.state.view(seat))))
                if table.again is not None:
                    await _send(ws, json.dumps(_again_message(table, seat, None)))
            while True:
                msg = await self._receive(ws, bucket)
                if msg is None:
                    continue
                if msg.get("type") == "join":
                    await _send(ws, json.dumps(_error("this connection holds a seat already")))
                    continue
                if msg.get("type") == "again":
                    client = client_key(ws.client.host if ws.client else None)
                    reply = await self.play_again(table, seat, client)
                else:
                    reply = await self.act(table, seat, msg)
                if reply is not None:
                    await _send(ws, json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None:
                table.conns.get(seat, set()).discard(ws)
                table.changed.set()  # a reveal no longer waits for a person who left
                if not any(table.conns.values()):
                    table.idle_since = time.monotonic()

    async def _receive(self, ws: WebSocket, bucket: TokenBucket) -> dict[str, Any] | None:
        """The next message as a dict, or ``None`` after answering a bad one with an error."""
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
            await _send(ws, json.dumps(_error("too many messages; slow down")))
            return None
        if size > self.settings.max_message_bytes:
            await _send(ws, json.dumps(_error(
                f"message refused: {size} bytes, and a message has at most "
                f"{self.settings.max_message_bytes}")))  # fmt: skip
            return None
        if text is None:
            await _send(ws, json.dumps(_error("messages are JSON text, not binary")))
            return None
        try:
            msg = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            await _send(ws, json.dumps(_error("message refused: not JSON")))
            return None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await _send(ws, json.dumps(_error("message refused: a JSON object with a 'type'")))
            return None
        return msg


def _seat_request(i: int, seat: object) -> tuple[str, str]:
    """A requested seat's kind and name, checked: the name prints as it reads (the clue rules'
    character check, R18: no controls, bidirectional overrides or zero-width characters, so
    no name passes for another), and fits."""
    if not isinstance(seat, dict):
        raise ValueError(f"seat {i} is an object with a 'kind' and a 'name'")
    unknown = sorted(str(k)[:20] for k in set(seat) - {"kind", "name"})
    if unknown:
        raise ValueError(f"seat {i}: unknown fields {unknown}; a seat has 'kind' and 'name'")
    kind = seat.get("kind", "person")
    if kind != "person" and kind not in BOT_KINDS:
        kinds = ", ".join(("person", *BOT_KINDS))
        raise ValueError(f"seat {i}: kind {str(kind)[:20]!r} is not one of {kinds}")
    name = seat.get("name")
    if name is None or (isinstance(name, str) and not name.strip()):
        name = f"Player {i + 1}" if kind == "person" else f"{kind.title()} bot {i + 1}"
    if not isinstance(name, str) or len(name) > _MAX_NAME:
        raise ValueError(f"seat {i}: a name is text of at most {_MAX_NAME} characters")
    hidden = hidden_character(name)
    if hidden is not None:
        raise ValueError(f"seat {i}: a name shows only characters that print, not {hidden} (R18)")
    return kind, " ".join(name.split())


def _store_failure(e: Exception) -> str:
    return cut_message(f"the server could not store the move ({e}); nothing changed")


def _seats_json(seats: list[_Seat]) -> list[dict[str, str]]:
    return [{"name": s.name, "kind": s.kind} for s in seats]


def _error(message: str, rule: str | None = None) -> dict[str, Any]:
    return {"type": "error", "message": message, "rule": rule}


async def _send(ws: WebSocket, text: str) -> None:
    if ws.client_state is not WebSocketState.CONNECTED:
        return
    with contextlib.suppress(Exception):  # a connection gone mid-send: its reader cleans up
        await ws.send_text(text)


#: The largest ``POST /api/tables`` body, in bytes.
MAX_CREATE_BYTES = 16_384


class TableService:
    """The game tables of one server: their routes, and the life the application gives them
    (:meth:`start` rebuilds the games in play and expires idle tables; :meth:`stop`)."""

    def __init__(self, db: Database, settings: TableSettings | None = None) -> None:
        self.tables = _Tables(db, settings or TableSettings())

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
            table = tables.create(await read_json(request, MAX_CREATE_BYTES), client)
        except Refused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)
        except PermissionError as e:
            return JSONResponse({"error": str(e)}, status_code=403)
        except OverflowError as e:
            return JSONResponse({"error": str(e)}, status_code=503)
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        seats = [
            {"seat": i, "name": s.name, "kind": s.kind, "token": s.token}
            for i, s in enumerate(table.seats)
        ]
        return JSONResponse({"table": table.id, "seats": seats})

    async def setup(request: Request) -> Response:
        return JSONResponse(
            {
                "bots": bot_choices(),
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
