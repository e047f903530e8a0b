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

__all__ = ["GAME_SCHEMA", "StoredGame", "TableStore", "token_hash"]

#: The tables' part of the database: every game as its seats, seed and actions, the record once
#: finished; ``abandoned`` is set when a table expired unfinished (it is not rebuilt).
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
        house_rules TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        game TEXT NOT NULL REFERENCES games(id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        fault TEXT,
        PRIMARY KEY (game, n)
    )""",
)

#: Columns a database written before games were kept in play (and before house rules) lacks
#: (added on open).
_ADDED_COLUMNS = (
    ("seed", "INTEGER"),
    ("tokens", "TEXT"),
    ("abandoned", "REAL"),
    ("house_rules", "TEXT"),
)


def token_hash(token: str) -> str:
    """What the database and the server's index keep of a seat's link token."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game in play as the database has it: enough to rebuild its table."""

    id: str
    seats: list[dict[str, str]]
    seed: int
    tokens: list[str | None]
    #: The actions played, in order: (seat, action, the fault it replaced or None).
    actions: list[tuple[int, Action, Fault | None]]
    #: The house rules requested (``HouseRules.to_dict``); empty for a game stored before them.
    house_rules: dict[str, Any] = field(default_factory=dict)


class TableStore:
    """Reads and writes the ``games`` and ``actions`` tables; each write is one transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db
        have = {row["name"] for row in db.query("PRAGMA table_info(games)")}
        missing = [(name, kind) for name, kind in _ADDED_COLUMNS if name not in have]
        if missing:
            with db.transaction() as cur:
                for name, kind in missing:
                    cur.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")

    def create(
        self,
        game: str,
        seats: list[dict[str, str]],
        seed: int,
        tokens: list[str | None],
        house_rules: dict[str, Any] | None = None,
    ) -> None:
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO games (id, created, finished, players, seats, record, seed, tokens, "
                "house_rules) VALUES (?, ?, NULL, ?, ?, NULL, ?, ?, ?)",
                (
                    game,
                    time.time(),
                    len(seats),
                    json.dumps(seats),
                    seed,
                    json.dumps(tokens),
                    json.dumps(house_rules or {}),
                ),
            )

    def action(self, game: str, n: int, seat: int, action: Action, fault: Fault | None) -> None:
        """Keep the game's action number ``n`` (0-based), played by ``seat``."""
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO actions (game, n, seat, action, fault) VALUES (?, ?, ?, ?, ?)",
                (
                    game,
                    n,
                    seat,
                    json.dumps(action_to_dict(action)),
                    None if fault is None else json.dumps(fault.to_dict()),
                ),
            )

    def finish(self, game: str, record: str) -> None:
        with self.db.transaction() as cur:
            cur.execute(
                "UPDATE games SET finished = ?, record = ? WHERE id = ?",
                (time.time(), record, game),
            )

    def abandon(self, game: str) -> None:
        """Mark a game that expired unfinished, so that no restart rebuilds it."""
        with self.db.transaction() as cur:
            cur.execute(
                "UPDATE games SET abandoned = ? WHERE id = ? AND record IS NULL",
                (time.time(), game),
            )

    def in_play(self) -> list[StoredGame]:
        """Every game neither finished nor abandoned, in the order they were created."""
        games = []
        rows = self.db.query(
            "SELECT id, seats, seed, tokens, house_rules FROM games WHERE record IS NULL "
            "AND abandoned IS NULL AND seed IS NOT NULL AND tokens IS NOT NULL ORDER BY created, id"
        )
        for row in rows:
            actions = [
                (
                    int(a["seat"]),
                    action_from_dict(json.loads(a["action"])),
                    None if a["fault"] is None else _fault(json.loads(a["fault"])),
                )
                for a in self.db.query(
                    "SELECT seat, action, fault FROM actions WHERE game = ? ORDER BY n",
                    (row["id"],),
                )
            ]
            games.append(
                StoredGame(
                    row["id"],
                    json.loads(row["seats"]),
                    int(row["seed"]),
                    json.loads(row["tokens"]),
                    actions,
                    json.loads(row["house_rules"] or "{}"),
                )
            )
        return games


def _fault(data: dict[str, Any]) -> Fault:
    return Fault(
        int(data["seat"]),
        str(data["kind"]),
        str(data["message"]),
        int(data["round"]),
        str(data["phase"]),
    )
