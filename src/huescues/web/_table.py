"""A table of the server, as data: its settings (:class:`TableSettings`), its seats, the reveal it
waits on, the connections, and the guarded :class:`~huescues.agents.Table` that plays the game."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from huescues.agents import Agent, Fault, Table
from huescues.engine import DEFAULT_LANGUAGE, GameState, available_languages

from ._bots import seat_name
from ._house import MAX_REVEAL_SECONDS, HouseRules, TableOptions

__all__ = [
    "AWAY_SECONDS",
    "GONE_CLOSE_CODE",
    "MAX_NAME",
    "PAWN_COLOURS",
    "Reveal",
    "Seat",
    "Socket",
    "TableSettings",
    "WebTable",
    "fault_text",
]

#: A seat's person is away once none of its sockets has sent a message or answered the server's
#: ping for this many seconds (the one definition of presence: the idle sweep uses it, and so
#: does the party game's). The server pings every third of it.
AWAY_SECONDS = 30.0

#: The longest a person's later turns wait for them once a stand-in has moved for them and they
#: are still away (:attr:`TableSettings.away_again`).
AWAY_AGAIN_SECONDS = 5.0

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

MAX_NAME = 24


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
    #: Seconds a table whose people are all away (:data:`AWAY_SECONDS`) is kept; then it expires
    #: (a finished game's record stays in the database, an unfinished one is marked abandoned
    #: and not rebuilt on restart).
    idle_timeout: float = 1800.0
    #: Seconds a table that no person ever joined is kept (when it is shorter than the idle
    #: timeout): a link no one opened holds no table for long. When the tables in play reach
    #: ``max_tables``, the oldest of these make room for a new one.
    unjoined_timeout: float = 300.0
    #: Seconds without a message or pong after which a seat's person is away.
    away_after: float = AWAY_SECONDS
    #: Once a stand-in has moved for a person who is away, their later turns wait at most this
    #: long while they stay away (the table's ``away_seconds`` when that is shorter): a friend
    #: whose phone died holds the table up once, not on every turn.
    away_again: float = AWAY_AGAIN_SECONDS
    #: Seconds a new WebSocket has to join a seat before it is closed.
    join_timeout: float = 10.0
    #: WebSockets open at once from one client address (a pass-and-play page holds one a seat).
    max_connections_per_address: int = 64
    #: Whether ``POST /api/tables`` may choose the game's seed. Off: the server draws it, keeps
    #: it in the database and sends it to no client before the game ends, as a chosen seed tells
    #: its chooser every card and the bots' streams. For tests and demonstrations only.
    allow_seed: bool = False
    #: The language of a table whose ``POST /api/tables`` names none (``huescues serve
    #: --language``), and the pages' language before the browser's is known.
    language: str = DEFAULT_LANGUAGE
    #: Whether the front page shows the top of the server's ratings (``GET /api/leaderboard``;
    #: ``huescues serve --leaderboard``).
    leaderboard: bool = False

    def __post_init__(self) -> None:
        if self.language not in available_languages():
            raise ValueError(
                f"TableSettings.language is one of {', '.join(available_languages())}, "
                f"not {self.language!r}"
            )
        for name in ("max_tables", "max_tables_per_address", "max_connections_per_address"):
            if getattr(self, name) < 1:
                raise ValueError(f"TableSettings.{name} is at least 1, not {getattr(self, name)}")
        for name in (
            "idle_timeout",
            "unjoined_timeout",
            "join_timeout",
            "bot_time_limit",
            "away_after",
            "away_again",
        ):
            if not getattr(self, name) > 0:
                raise ValueError(f"TableSettings.{name} is a positive number of seconds")
        if not 0 <= self.reveal_pause <= MAX_REVEAL_SECONDS:
            raise ValueError(
                f"TableSettings.reveal_pause is seconds from 0 to {MAX_REVEAL_SECONDS:g}, not "
                f"{self.reveal_pause!r}"
            )


@dataclass(slots=True)
class Seat:
    """A seat: its name and kind (``person`` or a bot's), its link token (a person's, while the
    server knows it: not after a restart) and the token's hash, its bot, and for a person's
    seat whether a
    person ever came to it, whether its name was given (not a default), when its last connection
    left, and the stand-in that plays for it while its person is away. A person's seat given to a
    bot for the rest of the game has the bot's kind and ``handed`` set."""

    name: str
    kind: str
    token: str | None
    agent: Agent | None = None
    #: The token's hash (the server's index and the database keep only this); None for a bot.
    key: str | None = None
    claimed: bool = False
    named: bool = True
    left: float | None = None
    stand_in: Agent | None = None
    handed: bool = False

    def to_json(self) -> dict[str, Any]:
        """The seat as the database keeps it."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "named": self.named}
        if self.claimed:
            out["claimed"] = True
        if self.handed:
            out["handed"] = True
        return out


@dataclass(eq=False, slots=True)
class Socket:
    """A joined WebSocket: when the server last heard from it (a message or a pong), the token
    it joined with, the table it is at (moved to the next game by "play again") and its seat
    (None: a spectator)."""

    ws: WebSocket
    table: WebTable
    seat: int | None
    token: str = ""
    heard: float = field(default_factory=time.monotonic)


@dataclass(slots=True)
class Reveal:
    """A reveal the table waits on: since when, and who has dismissed it."""

    round: int
    since: float = field(default_factory=time.monotonic)
    dismissed: set[int] = field(default_factory=set)


@dataclass(eq=False)
class WebTable:
    """A table of the server: the game itself is a guarded :class:`~huescues.agents.Table`
    (whose decision is pending, persons' actions, bots' decisions and their faults); this keeps
    the seats' names and tokens, the connections and what the page is told."""

    id: str
    seats: list[Seat]
    game: Table
    settings: TableSettings
    conns: dict[int, set[Socket]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ready: bool = False
    stored: bool = False
    #: The keeping of the finished game's record, once begun.
    finishing: asyncio.Future[bool] | None = None
    #: What went wrong with the table itself (not a bot's fault: those are the game's).
    errors: list[str] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    finished_at: float | None = None
    #: Who created the table (:func:`client_key`), for the per-address limit.
    creator: str = ""
    #: When the server last heard from anyone at the table (a message, a pong, a join or a
    #: leave; ``time.monotonic``), from its creation on.
    heard: float = field(default_factory=time.monotonic)
    #: Whether a person ever joined one of its seats.
    joined: bool = False
    #: When it was made (``time.monotonic``).
    created: float = field(default_factory=time.monotonic)
    #: Whether the table's writes reach the database: ``ok``, or ``retrying`` while a write
    #: fails (a full disk, a lock held past the wait) and is tried again.
    storage: str = "ok"
    expired: bool = False
    #: The table's keys in the server's index of links (the hashes of its seats', spectators'
    #: and invite's tokens).
    keys: list[str] = field(default_factory=list)
    #: The house rules asked for at creation (the game's own are in its rules).
    house: HouseRules = field(default_factory=HouseRules)
    #: Seconds a reveal waits for dismissals (the house rule, else the server's).
    reveal_seconds: float = 0.0
    #: The reveal the table waits on, or None while it plays.
    reveal: Reveal | None = None
    #: The table "play again" made: its id and its seats' tokens (None for a bot).
    again: tuple[str, list[str | None]] | None = None
    #: How the table runs: waiting room, stand-ins, turn timer, board.
    options: TableOptions = field(default_factory=TableOptions)
    #: Whether the game has started (a waiting room waits for its creator).
    started: bool = True
    #: Whether a start is under way (its bots are being prepared, off the event loop): a second
    #: start is refused meanwhile.
    starting: bool = False
    #: The spectators' sockets (they hold no seat).
    watchers: set[Socket] = field(default_factory=set)
    #: The hashes of the spectators' and the invite's tokens (None: none).
    spectate_key: str | None = None
    invite_key: str | None = None
    #: The final scores of the games these seats played before this one ("play again").
    series: list[list[int]] = field(default_factory=list)
    #: The decision pending and since when (``time.monotonic``): the number of actions played
    #: when it became pending, and the time.
    turn: tuple[int, float] = (-1, 0.0)
    #: When each sender (a seat, or a spectator's socket) last reacted (``time.monotonic``).
    reacted: dict[object, float] = field(default_factory=dict)
    #: The presence the table's pages were last told of.
    shown_presence: list[str] = field(default_factory=list)
    #: The moves stand-ins made for away people, as the pages mark them: each its round, seat,
    #: kind (``target``, ``clue``, ``pass``, ``pawn``) and public value (the clue, the square;
    #: never the target). Kept in memory (the actions table keeps who played what for good).
    stand_in_moves: list[dict[str, Any]] = field(default_factory=list)
    #: When a stand-in last moved for each seat whose person was away (``time.monotonic``).
    stood_in: dict[int, float] = field(default_factory=dict)
    #: The state a bot's (or a stand-in's) decision is being made in, off the event loop; None
    #: between decisions. Pages and persons' actions see it until the decision is stored.
    deciding: GameState | None = None

    @property
    def state(self) -> GameState:
        """The game as stored: during a decision made off the event loop, the state before it
        (the decision's thread keeps its result in ``game.state`` until it is stored)."""
        state = self.deciding if self.deciding is not None else self.game.state
        assert state is not None
        return state

    @property
    def faults(self) -> list[str]:
        """The bots' faults and the table's errors, as the page shows them."""
        return [fault_text(self.seats[f.seat].name, f) for f in self.game.faults] + self.errors

    def here(self, seat: int, now: float | None = None) -> bool:
        """Whether ``seat``'s person is here: one of its sockets was heard within
        :attr:`TableSettings.away_after` seconds."""
        now = time.monotonic() if now is None else now
        return any(now - s.heard < self.settings.away_after for s in self.conns.get(seat, ()))

    def seat_key(self, seat: int) -> str | None:
        return self.seats[seat].key

    def default_name(self, kind: str, seat: int) -> str:
        """A seat's name when none was given, in the table's language."""
        return seat_name(kind, seat, self.house.language)

    def presence(self, now: float | None = None) -> list[str]:
        """Each seat: ``here`` (its person is), ``away`` (its link never opened, no message or
        pong from its sockets for ``away_after`` seconds, or a free seat) or ``bot``."""
        now = time.monotonic() if now is None else now
        return [
            "bot" if s.kind != "person" else "here" if self.here(i, now) else "away"
            for i, s in enumerate(self.seats)
        ]

    def anyone_here(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return any(self.here(i, now) for i, s in enumerate(self.seats) if s.kind == "person")

    def away_since(self, seat: int, now: float) -> float:
        """Since when ``seat``'s person is away (``now`` or later while they are here)."""
        sockets = self.conns.get(seat, set())
        if sockets:
            return max(s.heard for s in sockets) + self.settings.away_after
        left = self.seats[seat].left
        return left if left is not None else self.created

    def stand_in_at(self, seat: int, now: float | None = None) -> tuple[float, str] | None:
        """When a stand-in makes ``seat``'s pending move, and why (``turn``: the turn timer ran
        out; ``away``: its person has been away ``away_seconds``), or None: not before they
        act."""
        now = time.monotonic() if now is None else now
        # The pending decision's start: a state told before the table's task marks a new turn
        # (after a person's move, a bot's, a reveal, the start) tells of a turn that starts now,
        # not of the last one's start.
        since = self.turn[1] if self.turn[0] == len(self.state.actions) else now
        times: list[tuple[float, str]] = []
        if self.options.turn_seconds:
            times.append((since + self.options.turn_seconds, "turn"))
        if self.options.away_seconds and not self.here(seat, now):
            gone = self.away_since(seat, now)
            wait = float(self.options.away_seconds)
            if gone <= self.stood_in.get(seat, -math.inf):
                # Away since before a stand-in last moved for them: the table waited once.
                wait = min(wait, self.settings.away_again)
            times.append((max(since, gone) + wait, "away"))
        return min(times) if times else None

    def idle_for(self, now: float) -> float:
        """Seconds the table has been idle: 0 while a person is here, else since it was last
        heard from."""
        if any(self.here(i, now) for i, s in enumerate(self.seats) if s.kind == "person"):
            return 0.0
        return now - self.heard

    def waiting_for(self) -> list[int]:
        """The people the reveal still waits for: persons here who have not dismissed it (one
        who left, or went away, holds nobody up)."""
        reveal = self.reveal
        if reveal is None:
            return []
        now = time.monotonic()
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind == "person" and self.here(i, now) and i not in reveal.dismissed
        ]

    def house_rules(self) -> dict[str, Any]:
        """The house rules in play, as the page shows them."""
        rules = self.state.rules
        return {
            "refuse_named_colours": rules.refuse_named_colours,
            "rounds_per_giver": rules.rounds_per_giver,
            "reveal_seconds": self.reveal_seconds,
            "language": rules.language,
        }

    def public_seats(self) -> list[dict[str, Any]]:
        return [
            {"seat": i, "name": s.name, "kind": s.kind, "colour": PAWN_COLOURS[i]}
            for i, s in enumerate(self.seats)
        ]


def fault_text(name: str, fault: Fault) -> str:
    what = "illegal decision: " if fault.kind == "illegal" else ""
    return f"{name}: {what}{fault.message}; played a random move instead"
