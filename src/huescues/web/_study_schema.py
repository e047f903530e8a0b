"""The study's part of the database: its tables, bringing an older server's up to them, the
completion code kept there, and a participant's session as the database has it."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from huescues.engine import Cell

from ._db import Database
from ._requests import Refused
from ._store import token_hash
from ._study_items import Item, attention_missed

__all__ = ["STUDY_ADDED", "STUDY_SCHEMA", "hash_game_tokens", "order_secret"]

#: What :func:`~huescues.web._store.token_hash` gives: 64 lowercase hex digits (a token is 24
#: characters of base64url, so the two are never confused).
_HASH = re.compile(r"[0-9a-f]{64}")


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
    # The game study's games: each participant's table, seat and the SHA-256 hash of their seat's
    # token (``token``: the token itself is worked out again from the study's secret and the
    # participant's code, whose holder is given the same game again; see _study_game).
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
    # The attention rule the participant took part under (a restart may change the server's):
    # NULL for a participant of an older server, who is judged by study_meta's.
    ("participants", "attention_misses_allowed", "INTEGER"),
    ("responses", "trial", "TEXT NOT NULL DEFAULT 'clue'"),
    ("responses", "clue_language", "TEXT NOT NULL DEFAULT 'en'"),
    ("given_clues", "clue_language", "TEXT NOT NULL DEFAULT 'en'"),
)


def hash_game_tokens(db: Database) -> int:
    """Bring a database of a server before the game study's tokens were hashed to the hashes:
    each ``study_games.token`` that is a token itself becomes its SHA-256 hash, as every seat's
    is kept in ``games``. The table's link goes on opening the seat (its key is that hash); asking
    again gives the token the study now works out, which opens only the games made since. The
    number of rows changed."""
    with db.transaction() as cur:
        rows = cur.execute("SELECT participant, token FROM study_games").fetchall()
        plain = [(p, t) for p, t in rows if not _HASH.fullmatch(str(t))]
        cur.executemany(
            "UPDATE study_games SET token = ? WHERE participant = ?",
            [(token_hash(str(t)), p) for p, t in plain],
        )
    return len(plain)


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
    items they answered, how many attention checks they missed and how many they may."""

    plan: list[Item]
    board: str
    study: str
    answered: int
    missed: int
    #: The attention checks they may miss: the rule they started under (None: a participant of
    #: an older server, under the study's).
    allowed: int | None = None


def _session(cur: Any, participant: str) -> _Session:
    row = cur.execute(
        "SELECT plan, board, study, attention_misses_allowed FROM participants WHERE id = ?",
        (participant,),
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
    return _Session(plan, row[1], row[2], answered, missed, row[3])
