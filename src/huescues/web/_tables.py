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
  "name": "Ann"}, ...], "seed": 7}`` (``name`` and ``seed`` optional; 3-10 seats, at least one
  person; a bot's kind is one of ``GET /api/setup``'s) answers ``{"table": ID, "seats":
  [{"seat": 0, "name", "kind", "token"}, ...]}``; a person's seat has its token
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
  nothing).

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
buckets); a finished game is stored as its :class:`~huescues.GameRecord` JSON in the ``games``
table, inside a transaction, and replays with ``huescues replay DB --game ID``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
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
    new_game,
    validate_clue,
)

from ._board import board_json
from ._bots import BOT_KINDS, bot_choices, build_bot
from ._db import Database
from ._limits import ClientLimiter, TokenBucket

__all__ = ["GAME_SCHEMA", "PAWN_COLOURS", "TableSettings", "table_routes"]

#: The tables' part of the database: every finished game as its record.
GAME_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        finished REAL,
        players INTEGER NOT NULL,
        seats TEXT NOT NULL,
        record TEXT
    )""",
)

#: One pawn colour per seat: distinct from each other, drawn with a dark and a light ring so
#: they stand out on any square.
PAWN_COLOURS: tuple[str, ...] = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#bfef45",
    "#fabed4",
    "#ffe119",
)

_MAX_NAME = 24


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How the tables behave: bots' pace and time limit, message size, rate limits."""

    #: Seconds a bot may think before the random move is played instead.
    bot_time_limit: float = 10.0
    #: Seconds between two bot moves, so that people can follow them.
    bot_delay: float = 0.6
    #: Seconds the reveal stays before bots play on.
    reveal_pause: float = 2.5
    #: Largest message accepted, in bytes.
    max_message_bytes: int = 4096
    #: Connections (and tables created) per client address: a burst, then so many per second.
    connect_burst: float = 30.0
    connect_rate: float = 2.0
    #: Messages per connection: a burst, then so many per second.
    message_burst: float = 20.0
    message_rate: float = 5.0
    #: Games in play at once; more are refused until some finish.
    max_tables: int = 500


@dataclass(slots=True)
class _Seat:
    name: str
    kind: str
    token: str | None
    agent: Agent | None = None


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

    @property
    def state(self) -> GameState:
        state = self.game.state
        assert state is not None
        return state

    @property
    def faults(self) -> list[str]:
        """The bots' faults and the table's errors, as the page shows them."""
        return [_fault_text(self.seats[f.seat].name, f) for f in self.game.faults] + self.errors

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
    }


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
    """Every table of this server, by id and by seat token."""

    def __init__(self, db: Database, settings: TableSettings) -> None:
        self.db = db
        self.settings = settings
        self.tables: dict[str, _Table] = {}
        self.tokens: dict[str, tuple[_Table, int]] = {}
        self.connects = ClientLimiter(settings.connect_burst, settings.connect_rate)

    # -- creating ------------------------------------------------------------------------------
    def create(self, body: Any) -> _Table:
        if not isinstance(body, dict):
            raise ValueError("the request is a JSON object with 'seats'")
        raw = body.get("seats")
        if not isinstance(raw, list) or not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
            raise ValueError(f"'seats' is a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats (R2)")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(32)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise ValueError(f"'seed' is a whole number from 0, not {str(seed)[:20]!r}")
        seats: list[_Seat] = []
        for i, s in enumerate(raw):
            if not isinstance(s, dict):
                raise ValueError(f"seat {i} is an object with a 'kind' and a 'name'")
            kind = s.get("kind", "person")
            if kind != "person" and kind not in BOT_KINDS:
                kinds = ", ".join(("person", *BOT_KINDS))
                raise ValueError(f"seat {i}: kind {str(kind)[:20]!r} is not one of {kinds}")
            name = s.get("name")
            if name is None or (isinstance(name, str) and not name.strip()):
                name = f"Player {i + 1}" if kind == "person" else f"{kind.title()} bot {i + 1}"
            if not isinstance(name, str) or len(name) > _MAX_NAME:
                raise ValueError(f"seat {i}: a name is text of at most {_MAX_NAME} characters")
            token = secrets.token_urlsafe(18) if kind == "person" else None
            agent = None if kind == "person" else build_bot(kind)
            seats.append(_Seat(" ".join(name.split()), kind, token, agent))
        if all(s.kind != "person" for s in seats):
            raise ValueError("a table needs at least one person")
        live = sum(1 for t in self.tables.values() if not t.state.is_terminal)
        if live >= self.settings.max_tables:
            raise OverflowError("too many games in play; try again later")
        self._forget_old()
        game = Table(
            [s.agent for s in seats], seed=seed, guard=ThreadTimer(self.settings.bot_time_limit)
        )
        # The bots are prepared by the table's task (off the event loop), before their turns.
        game.state = new_game(len(seats), seed=seed)
        table_id = secrets.token_urlsafe(9)
        table = _Table(table_id, seats, game, self.settings)
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO games (id, created, finished, players, seats, record) "
                "VALUES (?, ?, NULL, ?, ?, NULL)",
                (table_id, time.time(), len(seats), json.dumps(_seats_json(seats))),
            )
        self.tables[table_id] = table
        for i, s in enumerate(seats):
            if s.token is not None:
                self.tokens[s.token] = (table, i)
        table.task = asyncio.get_running_loop().create_task(self._run(table))
        return table

    def _forget_old(self) -> None:
        """Drop finished tables an hour after the end (their records are in the database)."""
        cutoff = time.time() - 3600
        for t in [t for t in self.tables.values() if t.finished_at and t.finished_at < cutoff]:
            del self.tables[t.id]
            for s in t.seats:
                if s.token is not None:
                    self.tokens.pop(s.token, None)

    # -- playing -------------------------------------------------------------------------------
    async def _run(self, table: _Table) -> None:
        """Prepare the bots, then step the table whenever a bot's decision is pending, until the
        game is over; store the game. A bot's decision runs off the event loop, guarded by the
        table (:class:`~huescues.agents.ThreadTimer`); persons' actions arrive through
        :meth:`act` meanwhile."""
        game = table.game
        try:
            # A bot that cannot be prepared is retired: its decisions are the random agent's.
            await asyncio.to_thread(game.prepare, table.state)
            table.ready = True
            await self.broadcast(table)
            seen = 0
            while (pending := game.pending()) is not None:
                state = table.state
                if len(state.history) > seen:
                    seen = len(state.history)
                    if table.settings.reveal_pause > 0:
                        await asyncio.sleep(table.settings.reveal_pause)
                    continue
                if pending.person:
                    table.changed.clear()
                    if table.state is state:
                        await table.changed.wait()
                    continue
                if table.settings.bot_delay > 0:
                    await asyncio.sleep(table.settings.bot_delay)
                # Only this task steps the bots, and a person's action is refused while a
                # bot's decision is pending (not their turn): the step has the table to itself.
                await asyncio.to_thread(game.step)
                await self.broadcast(table)
            self.store(table)
            await self.broadcast(table)
        except Exception as e:  # pragma: no cover - a bug; say so at the table
            table.errors.append(cut_message(f"the table stopped: {type(e).__name__}: {e}"))
            await self.broadcast(table)

    def store(self, table: _Table) -> None:
        """Keep the finished game's record (the JSON ``huescues replay`` reads)."""
        if table.stored:
            return
        record = GameRecord.of(table.state).to_json()
        with self.db.transaction() as cur:
            cur.execute(
                "UPDATE games SET finished = ?, record = ? WHERE id = ?",
                (time.time(), record, table.id),
            )
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
        """Apply a person's action; an error message if it is refused (nothing changes)."""
        async with table.lock:
            state = table.state
            if msg.get("type") == "check":
                return _check(msg, state, seat)
            try:
                table.game.act(seat, _parse_action(msg, state))
            except _ActionError as e:
                return _error(str(e))
            except IllegalAction as e:
                return _error(str(e), getattr(e, "rule", None))
            table.changed.set()
        await self.broadcast(table)
        return None

    # -- the WebSocket -------------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        client = ws.client.host if ws.client else "?"
        await ws.accept()
        if not self.connects.take(client):
            await ws.send_text(json.dumps(_error("too many connections; wait a little")))
            await ws.close(code=1013)
            return
        bucket = TokenBucket(self.settings.message_burst, self.settings.message_rate)
        table: _Table | None = None
        seat = -1
        try:
            while True:
                msg = await self._receive(ws, bucket)
                if msg is None:
                    continue
                if table is None:
                    token = msg.get("token") if msg.get("type") == "join" else None
                    joined = self.tokens.get(token) if isinstance(token, str) else None
                    if joined is None:
                        await _send(ws, json.dumps(_error("first join a seat with its link token")))
                        continue
                    table, seat = joined
                    table.conns.setdefault(seat, set()).add(ws)
                    await _send(ws, json.dumps(_welcome(table, seat)))
                    await _send(ws, json.dumps(_view_message(table, table.state.view(seat))))
                    continue
                if msg.get("type") == "join":
                    await _send(ws, json.dumps(_error("this connection holds a seat already")))
                    continue
                reply = await self.act(table, seat, msg)
                if reply is not None:
                    await _send(ws, json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None:
                table.conns.get(seat, set()).discard(ws)

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


def _seats_json(seats: list[_Seat]) -> list[dict[str, str]]:
    return [{"name": s.name, "kind": s.kind} for s in seats]


def _error(message: str, rule: str | None = None) -> dict[str, Any]:
    return {"type": "error", "message": message, "rule": rule}


async def _send(ws: WebSocket, text: str) -> None:
    if ws.client_state is not WebSocketState.CONNECTED:
        return
    with contextlib.suppress(Exception):  # a connection gone mid-send: its reader cleans up
        await ws.send_text(text)


def table_routes(db: Database, settings: TableSettings | None = None) -> list[BaseRoute]:
    """The routes of the game tables (see the module's docstring for the protocol)."""
    tables = _Tables(db, settings or TableSettings())
    from importlib import resources

    static = resources.files("huescues.web") / "static"

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"))

    async def play(request: Request) -> Response:
        return FileResponse(str(static / "play.html"))

    async def create(request: Request) -> Response:
        client = request.client.host if request.client else "?"
        if not tables.connects.take(client):
            return JSONResponse({"error": "too many requests; wait a little"}, status_code=429)
        body_bytes = await request.body()
        if len(body_bytes) > 16_384:
            return JSONResponse({"error": "request too large"}, status_code=413)
        try:
            body = json.loads(body_bytes)
            table = tables.create(body)
        except json.JSONDecodeError:
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
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
            {"bots": bot_choices(), "min_players": MIN_PLAYERS, "max_players": MAX_PLAYERS}
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
