"""``huescues responses export``: the study's clicks as a CSV file that
:meth:`huescues.research.HumanResponses.from_csv` reads, and the stored games as the tidy round
table of :mod:`huescues.export`."""

from __future__ import annotations

import csv
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from huescues.engine import Board, Cell, GameRecord, safe_row
from huescues.export import save_rounds

from ._db import Database
from ._store import GAME_ADDED, GAME_SCHEMA
from ._study_items import attention_missed
from ._study_schema import STUDY_ADDED, STUDY_SCHEMA

__all__ = [
    "GIVEN_CLUE_COLUMNS",
    "PARTICIPANT_COLUMNS",
    "RESPONSE_COLUMNS",
    "export_games",
    "export_given_clues",
    "export_responses",
]

#: The participant's columns both exports end with: the panel's ids from the study's address
#: (empty when absent), the screen the page ran on, and the checks: how many attention checks
#: were answered and missed (a click more than one square from the square shown), whether the
#: participant passed them (``yes``, ``no``, or empty with none answered), and how many
#: colour-vision plates were answered and how many right.
PARTICIPANT_COLUMNS: tuple[str, ...] = (
    "prolific_pid",
    "study_id",
    "session_id",
    "participant_id",
    "screen_width",
    "screen_height",
    "pixel_ratio",
    "colour_depth",
    "attention_checks",
    "attention_missed",
    "attention_passed",
    "colour_plates",
    "colour_correct",
)

#: The columns of the responses file, in order: ``clue`` and ``square`` (what
#: ``HumanResponses.from_csv`` reads), the ``participant``, the board's id, the time (ISO 8601,
#: UTC), the response time in milliseconds, the clue's place in the participant's list, the
#: clue giver and hidden target of a giver study, the optional answers (empty when not
#: given), and whose clue list the clue came from: ``researcher`` or ``visitor`` (a list the
#: visitor brought, with ``huescues serve --allow-visitor-clues``); then the participant's
#: columns, and last ``clue_language``: the language of the clue (the study's,
#: ``StudyConfig.language``; ``en`` for rows stored before it), while ``language`` is what the
#: participant said of themselves.
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
    *PARTICIPANT_COLUMNS,
    "clue_language",
)

#: The columns of ``huescues responses export --kind given-clues``: one row per clue a
#: participant gave in the clue-giving study (``/study/give``; practice clues left out), read by
#: :meth:`huescues.research.GivenClues.from_csv`.
GIVEN_CLUE_COLUMNS: tuple[str, ...] = (
    "participant",
    "target",
    "clue",
    "board",
    "time",
    "response_ms",
    "item",
    "language",
    "colour_blindness",
    "age_range",
    *PARTICIPANT_COLUMNS,
    "clue_language",
)

_PANEL = (
    "p.prolific_pid, p.study_id, p.session_id, p.participant_id, p.screen_width, "
    "p.screen_height, p.pixel_ratio, p.colour_depth"
)


def _open(db: str | os.PathLike[str]) -> Database:
    """The database as a copy in memory: an export writes nothing to it, reads it while a
    server holds it, and reads it from a read-only file system."""
    return Database.snapshot(
        Path(db), schema=(*GAME_SCHEMA, *STUDY_SCHEMA), added=(*GAME_ADDED, *STUDY_ADDED)
    )


def export_responses(db: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write every study response in the database ``db`` to the CSV file ``out`` (columns
    :data:`RESPONSE_COLUMNS`, one row per click on a clue, in the order they were made;
    practice clicks, attention checks and colour plates are not responses: their results are
    the participant's columns); returns the number of rows. Load it with
    ``HumanResponses.from_csv(out, board)``."""
    return _export(
        db,
        out,
        RESPONSE_COLUMNS,
        "SELECT r.participant, r.clue, r.square, r.board, r.time, r.response_ms, r.item, "
        "r.giver, r.target, p.language, p.colour_blindness, p.age_range, p.clue_source, "
        f"{_PANEL}, r.clue_language FROM responses r "
        "LEFT JOIN participants p ON p.id = r.participant WHERE r.trial = 'clue' ORDER BY r.id",
    )


def export_given_clues(db: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write every clue people gave in the clue-giving study to the CSV file ``out`` (columns
    :data:`GIVEN_CLUE_COLUMNS`, one row per clue, in the order they were given; practice clues
    left out); returns the number of rows. Load it with ``GivenClues.from_csv(out, board)``."""
    return _export(
        db,
        out,
        GIVEN_CLUE_COLUMNS,
        "SELECT g.participant, g.target, g.clue, g.board, g.time, g.response_ms, g.item, "
        f"p.language, p.colour_blindness, p.age_range, {_PANEL}, g.clue_language "
        "FROM given_clues g "
        "LEFT JOIN participants p ON p.id = g.participant WHERE g.trial = 'give' "
        "ORDER BY g.id",
    )


def _export(
    db: str | os.PathLike[str], out: str | os.PathLike[str], columns: tuple[str, ...], sql: str
) -> int:
    """Write the rows of ``sql`` (with each participant's checks) to ``out``; their number."""
    database = _open(db)
    try:
        rows = database.query(sql)
        checks = _checks(database)
    finally:
        database.close()
    _write(out, columns, rows, checks)
    return len(rows)


def _checks(database: Database) -> dict[str, list[object]]:
    """Per participant: attention checks answered, missed, passed; colour plates, right. The
    rule (how many misses are allowed) is the one the server last stored (default 1)."""
    rule = database.query("SELECT value FROM study_meta WHERE key = 'attention_misses_allowed'")
    allowed = int(rule[0]["value"]) if rule else 1
    counts: dict[str, list[int]] = {}
    for r in database.query(
        "SELECT participant, trial, square, target FROM responses "
        "WHERE trial IN ('attention', 'colour')"
    ):
        c = counts.setdefault(r["participant"], [0, 0, 0, 0])
        if r["trial"] == "attention":
            c[0] += 1
            c[1] += attention_missed(Cell.parse(r["target"]), Cell.parse(r["square"]))
        else:
            c[2] += 1
            c[3] += r["square"] == r["target"]
    return {
        p: [a, m, ("no" if m > allowed else "yes") if a else "", n, right]
        for p, (a, m, n, right) in counts.items()
    }


def _write(
    out: str | os.PathLike[str],
    columns: tuple[str, ...],
    rows: list[Any],
    checks: dict[str, list[object]],
) -> None:
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for r in rows:
            values = list(r)
            values[4] = datetime.fromtimestamp(r["time"], UTC).isoformat(timespec="milliseconds")
            # The clue's language comes last, after the participant's checks (the newest column).
            clue_language = values.pop()
            values += checks.get(r["participant"], ["", "", "", "", ""])
            values.append(clue_language)
            w.writerow(safe_row("" if v is None else v for v in values))


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
