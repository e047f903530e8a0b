"""The tables' part of the database: every game from its creation, every action as it is played,
and the finished record, so that a restart rebuilds the games in play by replaying them.

The seed a game was dealt from is kept here and nowhere a client can read it before the end
(the finished record carries it, so the game replays). Seat links are kept as hashes: the
database alone does not let anyone play a seat.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from huescues.agents import Fault
from huescues.engine import Action, action_from_dict, action_to_dict

from ._db import Database

__all__ = ["GAME_ADDED", "GAME_SCHEMA", "StoredGame", "TableStore", "Unreadable", "token_hash"]

#: The tables' part of the database: every game as its seats, seed and actions, the record once
#: finished; ``abandoned`` is set when a table expired unfinished (it is not rebuilt). A game's
#: ``options`` are its :class:`~huescues.web._house.TableOptions`, ``started`` when a waiting room
#: started it, ``spectate`` and ``invite`` its links' token hashes, ``series`` the scores of the
#: games its seats played before it ("play again"). An action's ``by`` is ``stand-in:KIND`` when a
#: stand-in played it for an away person (null: the seat's own player), and ``response_ms`` the
#: time from its seat's turn beginning to the move.
GAME_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        finished REAL,
        players INTEGER NOT NULL,
        seats TEXT NOT NULL,
        record TEXT,
        seed INTEGER,
        tokens TEXT,
        abandoned REAL,
        house_rules TEXT,
        set_aside TEXT,
        options TEXT,
        started REAL,
        spectate TEXT,
        invite TEXT,
        series TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        game TEXT NOT NULL REFERENCES games(id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        fault TEXT,
        by TEXT,
        response_ms INTEGER,
        PRIMARY KEY (game, n)
    )""",
)

#: The columns added to the tables' part since its first release, which a database written before
#: them lacks (the database adds them on open): the seed and the seats' token hashes (games kept in
#: play), when a game was abandoned, its house rules, and why a game that cannot be rebuilt was set
#: aside.
GAME_ADDED: tuple[tuple[str, str, str], ...] = (
    ("games", "seed", "INTEGER"),
    ("games", "tokens", "TEXT"),
    ("games", "abandoned", "REAL"),
    ("games", "house_rules", "TEXT"),
    ("games", "set_aside", "TEXT"),
    ("games", "options", "TEXT"),
    ("games", "started", "REAL"),
    ("games", "spectate", "TEXT"),
    ("games", "invite", "TEXT"),
    ("games", "series", "TEXT"),
    ("actions", "by", "TEXT"),
    ("actions", "response_ms", "INTEGER"),
)


def token_hash(token: str) -> str:
    """What the database and the server's index keep of a seat's link token."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game in play as the database has it: enough to rebuild its table."""

    id: str
    seats: list[dict[str, Any]]
    seed: int
    tokens: list[str | None]
    #: The actions played, in order: (seat, action, the fault it replaced or None).
    actions: list[tuple[int, Action, Fault | None]]
    #: The house rules requested (``HouseRules.to_dict``); empty for a game stored before them.
    house_rules: dict[str, Any] = field(default_factory=dict)
    #: The table's options (``TableOptions.to_dict``); empty for a game stored before them.
    options: dict[str, Any] = field(default_factory=dict)
    #: Whether the game started (a table without a waiting room starts at once).
    started: bool = True
    #: The spectators' and the invite link's token hashes (None: none).
    spectate: str | None = None
    invite: str | None = None
    #: The final scores of the games the same seats played before this one.
    series: list[list[int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A game in play whose stored rows cannot be read back (a database edited by hand, a bug
    of an older server): which game, and what of it cannot be read."""

    id: str
    reason: str


class TableStore:
    """Reads and writes the ``games`` and ``actions`` tables; each write is one transaction.
    Its methods are synchronous: the server runs them on the database's threads
    (:meth:`Database.write`, :meth:`Database.read`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(
        self,
        game: str,
        seats: list[dict[str, Any]],
        seed: int,
        tokens: list[str | None],
        house_rules: dict[str, Any] | None = None,
        *,
        options: dict[str, Any] | None = None,
        started: bool = True,
        spectate: str | None = None,
        invite: str | None = None,
        series: list[list[int]] | None = None,
    ) -> None:
        now = time.time()
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO games (id, created, finished, players, seats, record, seed, tokens, "
                "house_rules, options, started, spectate, invite, series) "
                "VALUES (?, ?, NULL, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    now,
                    len(seats),
                    json.dumps(seats),
                    seed,
                    json.dumps(tokens),
                    json.dumps(house_rules or {}),
                    json.dumps(options or {}),
                    now if started else None,
                    spectate,
                    invite,
                    json.dumps(series or []),
                ),
            )

    def action(
        self,
        game: str,
        n: int,
        seat: int,
        action: Action,
        fault: Fault | None,
        by: str | None = None,
        response_ms: int | None = None,
    ) -> None:
        """Keep the game's action number ``n`` (0-based), played by ``seat`` (``by`` a
        stand-in, when one played it), ``response_ms`` after its turn began."""
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO actions (game, n, seat, action, fault, by, response_ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    n,
                    seat,
                    json.dumps(action_to_dict(action)),
                    None if fault is None else json.dumps(fault.to_dict()),
                    by,
                    response_ms,
                ),
            )

    def seats(self, game: str, seats: list[dict[str, Any]], tokens: list[str | None]) -> None:
        """Keep the game's seats as they are now (a name an invite gave, a seat given to a bot)
        and their token hashes."""
        with self.db.transaction() as cur:
            cur.execute(
                "UPDATE games SET seats = ?, tokens = ? WHERE id = ?",
                (json.dumps(seats), json.dumps(tokens), game),
            )

    def start(self, game: str) -> None:
        """Keep that a waiting room's game started."""
        with self.db.transaction() as cur:
            cur.execute("UPDATE games SET started = ? WHERE id = ?", (time.time(), game))

    def finish(self, game: str, record: str) -> None:
        with self.db.transaction() as cur:
            cur.execute(
                "UPDATE games SET finished = ?, record = ? WHERE id = ?",
                (time.time(), record, game),
            )

    def abandon(self, games: list[str]) -> None:
        """Mark games that expired unfinished, so that no restart rebuilds them (one
        transaction: a sweep may expire hundreds at once)."""
        now = time.time()
        with self.db.transaction() as cur:
            cur.executemany(
                "UPDATE games SET abandoned = ? WHERE id = ? AND record IS NULL",
                [(now, game) for game in games],
            )

    def set_aside(self, game: str, reason: str) -> None:
        """Keep a game that cannot be rebuilt as it is, with the reason, and rebuild it no more
        (its rows stay for whoever can mend them)."""
        with self.db.transaction() as cur:
            cur.execute("UPDATE games SET set_aside = ? WHERE id = ?", (reason, game))

    def in_play(self) -> list[StoredGame | Unreadable]:
        """Every game neither finished, abandoned nor set aside, in the order they were created;
        one whose rows cannot be read is :class:`Unreadable`, saying which row."""
        games: list[StoredGame | Unreadable] = []
        with self.db.reading() as cur:
            rows = cur.execute(
                "SELECT id, seats, seed, tokens, house_rules, options, started, spectate, "
                "invite, series FROM games WHERE record IS NULL "
                "AND abandoned IS NULL AND set_aside IS NULL AND seed IS NOT NULL "
                "AND tokens IS NOT NULL ORDER BY created, id"
            ).fetchall()
            for row in rows:
                actions = cur.execute(
                    "SELECT n, seat, action, fault FROM actions WHERE game = ? ORDER BY n",
                    (row["id"],),
                ).fetchall()
                games.append(_stored(row, actions))
        return games


def _stored(row: Any, actions: list[Any]) -> StoredGame | Unreadable:
    """A game's rows read back, or what of them cannot be."""
    game = str(row["id"])
    try:
        seats = json.loads(row["seats"])
        tokens = json.loads(row["tokens"])
        house = json.loads(row["house_rules"] or "{}")
        options = json.loads(row["options"] or "{}")
        series = json.loads(row["series"] or "[]")
        if not (isinstance(seats, list) and all(isinstance(s, dict) for s in seats)):
            raise ValueError("its seats are not a list of seats")
        if not (isinstance(tokens, list) and len(tokens) == len(seats)):
            raise ValueError("its tokens are not one per seat")
        if not isinstance(house, dict) or not isinstance(options, dict):
            raise ValueError("its house rules or options are not an object")
        if not isinstance(series, list):
            raise ValueError("its series is not a list")
        seed = int(row["seed"])
    except (ValueError, TypeError) as e:
        return Unreadable(game, f"its row in games cannot be read ({_short(e)})")
    played: list[tuple[int, Action, Fault | None]] = []
    for a in actions:
        try:
            fault = None if a["fault"] is None else _fault(json.loads(a["fault"]))
            played.append((int(a["seat"]), action_from_dict(json.loads(a["action"])), fault))
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            return Unreadable(game, f"its action {a['n']} cannot be read ({_short(e)})")
    # A game stored before waiting rooms has no options and started at once.
    started = row["started"] is not None or not options.get("waiting_room", False)
    return StoredGame(
        game,
        seats,
        seed,
        tokens,
        played,
        house,
        options,
        started,
        row["spectate"],
        row["invite"],
        series,
    )


def _short(error: Exception) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 120 else text[:119] + "…"


def _fault(data: dict[str, Any]) -> Fault:
    return Fault(
        int(data["seat"]),
        str(data["kind"]),
        str(data["message"]),
        int(data["round"]),
        str(data["phase"]),
    )
