"""A study database as the server wrote it before the study's later columns (participant ids,
clue sources, clue languages): the upgrade tests start from it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

_OLD_SCHEMA = """CREATE TABLE participants (id TEXT PRIMARY KEY, created REAL NOT NULL,
board TEXT NOT NULL, seed INTEGER NOT NULL, plan TEXT NOT NULL, language TEXT,
colour_blindness TEXT, age_range TEXT);
CREATE TABLE responses (id INTEGER PRIMARY KEY AUTOINCREMENT, participant TEXT NOT NULL,
item INTEGER NOT NULL, clue TEXT NOT NULL, square TEXT NOT NULL, board TEXT NOT NULL,
time REAL NOT NULL, response_ms INTEGER, giver TEXT, target TEXT,
UNIQUE (participant, item));"""


def old_study_database(path: Path, *, language: str | None = None) -> Path:
    """One participant (who said their language is ``language``) and one response to "sky"."""
    conn = sqlite3.connect(path)
    conn.executescript(_OLD_SCHEMA)
    conn.execute(
        "INSERT INTO participants VALUES ('p0123456789abcdefg', 0, 'standard', 1, "
        "'[[\"sky\", null, null]]', ?, NULL, NULL)",
        (language,),
    )
    conn.execute(
        "INSERT INTO responses VALUES (1, 'p0123456789abcdefg', 0, 'sky', 'F12', 'standard', 0, "
        "10, NULL, NULL)"
    )
    conn.commit()
    conn.close()
    return path
