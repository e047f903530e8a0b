"""``huescues responses export``: the study's clicks as a CSV file that
:meth:`huescues.research.HumanResponses.from_csv` reads, and the stored games as the tidy round
table of :mod:`huescues.export`."""

from __future__ import annotations

import csv
import json
import os
from datetime import UTC, datetime
from pathlib import Path

from huescues.engine import Board, GameRecord, safe_row
from huescues.export import save_rounds

from ._db import Database
from ._study import STUDY_SCHEMA, upgrade_study_tables
from ._tables import GAME_SCHEMA

__all__ = ["RESPONSE_COLUMNS", "export_games", "export_responses"]

#: The columns of the responses file, in order: ``clue`` and ``square`` (what
#: ``HumanResponses.from_csv`` reads), the ``participant``, the board's id, the time (ISO 8601,
#: UTC), the response time in milliseconds, the clue's place in the participant's list, the
#: clue giver and hidden target of a giver study, the optional answers (empty when not
#: given), and whose clue list the clue came from: ``researcher`` or ``visitor`` (a list the
#: visitor brought, with ``huescues serve --allow-visitor-clues``).
RESPONSE_COLUMNS: tuple[str, ...] = (
    "participant",
    "clue",
    "square",
    "board",
    "time",
    "response_ms",
    "item",
    "giver",
    "target",
    "language",
    "colour_blindness",
    "age_range",
    "clue_source",
)


def _open(db: str | os.PathLike[str]) -> Database:
    path = Path(db)
    if not path.is_file():
        raise ValueError(f"{path}: no such database (the --db file huescues serve wrote)")
    database = Database(path, schema=(*GAME_SCHEMA, *STUDY_SCHEMA))
    upgrade_study_tables(database)
    return database


def export_responses(db: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write every study response in the database ``db`` to the CSV file ``out`` (columns
    :data:`RESPONSE_COLUMNS`, one row per click, in the order they were made); returns the
    number of rows. Load it with ``HumanResponses.from_csv(out, board)``."""
    database = _open(db)
    try:
        rows = database.query(
            "SELECT r.participant, r.clue, r.square, r.board, r.time, r.response_ms, r.item, "
            "r.giver, r.target, p.language, p.colour_blindness, p.age_range, p.clue_source "
            "FROM responses r LEFT JOIN participants p ON p.id = r.participant ORDER BY r.id"
        )
    finally:
        database.close()
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(RESPONSE_COLUMNS)
        for r in rows:
            values = list(r)
            values[4] = datetime.fromtimestamp(r["time"], UTC).isoformat(timespec="milliseconds")
            w.writerow(safe_row("" if v is None else v for v in values))
    return len(rows)


def export_games(
    db: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    board: Board | None = None,
) -> int:
    """Write the rounds of every finished game in ``db`` to ``out`` as the tidy round table
    (:func:`huescues.export.save_rounds`: CSV, or Parquet for ``.parquet``), in the order the
    games finished; ``board`` is the board the games were played on when it is neither the
    standard board nor the WCS chart. Returns the number of games."""
    database = _open(db)
    try:
        rows = database.query(
            "SELECT record, seats FROM games WHERE record IS NOT NULL "
            "ORDER BY finished, created, id"
        )
    finally:
        database.close()
    records, names = [], []
    for i, r in enumerate(rows):
        try:
            records.append(GameRecord.from_json(r["record"]))
            # Who sat where: "person: Ann" or the bot's kind, so people's rounds can be told apart.
            names.append([_seat_name(s) for s in json.loads(r["seats"])])
        except (ValueError, TypeError, KeyError, json.JSONDecodeError) as e:
            raise ValueError(f"{db}: stored game {i + 1} is not a game record: {e}") from None
    save_rounds(records, out, board=board, agents=names)
    return len(records)


def _seat_name(seat: dict[str, str]) -> str:
    kind = seat["kind"]
    return f"person: {seat['name']}" if kind == "person" else kind
