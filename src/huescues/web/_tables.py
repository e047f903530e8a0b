"""Game tables: 3-10 seats, each a person or a bot, played over WebSockets (filled in by the
tables work of issue 14)."""

from __future__ import annotations

from starlette.routing import BaseRoute

from ._db import Database

__all__ = ["GAME_SCHEMA", "table_routes"]

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


def table_routes(db: Database) -> list[BaseRoute]:
    """The routes of the game tables."""
    return []
