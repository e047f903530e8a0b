"""The study's part of the database: its tables, bringing an older server's up to them, the
completion code kept there, and a participant's session as the database has it."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from huescues.engine import Cell

from ._db import Database
from ._requests import Refused
from ._study_items import Item, attention_missed

__all__ = ["STUDY_ADDED", "STUDY_SCHEMA", "order_secret"]


#: The study's part of the database: one row per participant (what they chose to tell, the
#: clues planned for them and whose list they came from) and one row per click.
STUDY_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS participants (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        board TEXT NOT NULL,
        seed INTEGER NOT NULL,
        plan TEXT NOT NULL,
        language TEXT,
        colour_blindness TEXT,
        age_range TEXT,
        clue_source TEXT NOT NULL DEFAULT 'researcher',
        study TEXT NOT NULL DEFAULT 'guess',
        prolific_pid TEXT,
        study_id TEXT,
        session_id TEXT,
        participant_id TEXT,
        screen_width INTEGER,
        screen_height INTEGER,
        pixel_ratio REAL,
        colour_depth INTEGER
    )""",
    """CREATE TABLE IF NOT EXISTS responses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        participant TEXT NOT NULL REFERENCES participants(id),
        item INTEGER NOT NULL,
        clue TEXT NOT NULL,
        square TEXT NOT NULL,
        board TEXT NOT NULL,
        time REAL NOT NULL,
        response_ms INTEGER,
        giver TEXT,
        target TEXT,
        trial TEXT NOT NULL DEFAULT 'clue',
        clue_language TEXT NOT NULL DEFAULT 'en',
        UNIQUE (participant, item)
    )""",
    """CREATE TABLE IF NOT EXISTS given_clues (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        participant TEXT NOT NULL REFERENCES participants(id),
        item INTEGER NOT NULL,
        target TEXT NOT NULL,
        clue TEXT NOT NULL,
        board TEXT NOT NULL,
        time REAL NOT NULL,
        response_ms INTEGER,
        trial TEXT NOT NULL DEFAULT 'give',
        clue_language TEXT NOT NULL DEFAULT 'en',
        UNIQUE (participant, item)
    )""",
    """CREATE TABLE IF NOT EXISTS study_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    # The game study's games: each participant's table, seat and seat token (kept so that the
    # participant, whose code is their credential, is given the same game again).
    """CREATE TABLE IF NOT EXISTS study_games (
        participant TEXT PRIMARY KEY REFERENCES participants(id),
        game TEXT NOT NULL,
        seat INTEGER NOT NULL,
        token TEXT NOT NULL,
        created REAL NOT NULL
    )""",
)

#: The columns added to the study's tables since their first release, which the database adds to
#: a database written before them (:class:`~huescues.web.Database`'s ``added``). Under
#: ``clue_source`` an older database's participants read as ``researcher`` (before it, every clue
#: list a visitor sent was taken, untold; the default is the likelier truth); under ``study`` as
#: ``guess`` and its responses' ``trial`` as ``clue`` (the only study and trial there were); its
#: responses' and given clues' ``clue_language`` as ``en`` (every study was English before it);
#: the panel ids and the screen are empty (never asked).
STUDY_ADDED: tuple[tuple[str, str, str], ...] = (
    ("participants", "clue_source", "TEXT NOT NULL DEFAULT 'researcher'"),
    ("participants", "study", "TEXT NOT NULL DEFAULT 'guess'"),
    ("participants", "prolific_pid", "TEXT"),
    ("participants", "study_id", "TEXT"),
    ("participants", "session_id", "TEXT"),
    ("participants", "participant_id", "TEXT"),
    ("participants", "screen_width", "INTEGER"),
    ("participants", "screen_height", "INTEGER"),
    ("participants", "pixel_ratio", "REAL"),
    ("participants", "colour_depth", "INTEGER"),
    ("responses", "trial", "TEXT NOT NULL DEFAULT 'clue'"),
    ("responses", "clue_language", "TEXT NOT NULL DEFAULT 'en'"),
    ("given_clues", "clue_language", "TEXT NOT NULL DEFAULT 'en'"),
)


def _stored_code(db: Database) -> str:
    """The study's completion code: drawn once and kept in the database, so a restart (and
    every participant) gives the same code."""
    with db.transaction() as cur:
        row = cur.execute("SELECT value FROM study_meta WHERE key = 'completion_code'").fetchone()
        if row is not None:
            return str(row[0])
        code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
        cur.execute("INSERT INTO study_meta (key, value) VALUES ('completion_code', ?)", (code,))
        return code


def order_secret(db: Database) -> bytes:
    """The study's secret: drawn once and kept in the database, never sent. Each participant's
    plan (the order of the items, the targets, the colour plates' answers) is drawn from it and
    the participant's code together, so that the code a participant holds tells nothing of what
    comes next."""
    with db.transaction() as cur:
        row = cur.execute("SELECT value FROM study_meta WHERE key = 'order_secret'").fetchone()
        if row is not None:
            return bytes.fromhex(str(row[0]))
        secret = secrets.token_bytes(32)
        cur.execute(
            "INSERT INTO study_meta (key, value) VALUES ('order_secret', ?)", (secret.hex(),)
        )
        return secret


@dataclass(frozen=True, slots=True)
class _Session:
    """A participant as the database has them: their plan and board, which study, how many
    items they answered and how many attention checks they missed."""

    plan: list[Item]
    board: str
    study: str
    answered: int
    missed: int


def _session(cur: Any, participant: str) -> _Session:
    row = cur.execute(
        "SELECT plan, board, study FROM participants WHERE id = ?", (participant,)
    ).fetchone()
    if row is None:
        raise Refused(404, "no such participant: start the study again")
    answered = sum(
        cur.execute(f"SELECT count(*) FROM {t} WHERE participant = ?", (participant,)).fetchone()[0]
        for t in ("responses", "given_clues")
    )
    missed = 0
    for square, target in cur.execute(
        "SELECT square, target FROM responses WHERE participant = ? AND trial = 'attention'",
        (participant,),
    ):
        missed += attention_missed(Cell.parse(target), Cell.parse(square))
    plan = [Item.from_json(raw) for raw in json.loads(row[0])]
    return _Session(plan, row[1], row[2], answered, missed)
