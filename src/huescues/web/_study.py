"""Study mode at ``/study``: consent, then clues one at a time; each click on the board is a
response in the database (filled in by the study work of issue 14)."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.routing import BaseRoute

from ._db import Database

__all__ = ["STUDY_SCHEMA", "StudyConfig", "study_routes"]

#: The study's part of the database: one row per click.
STUDY_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS responses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        participant TEXT NOT NULL,
        clue TEXT NOT NULL,
        square TEXT NOT NULL,
        board TEXT NOT NULL,
        time REAL NOT NULL
    )""",
)


@dataclass(frozen=True, slots=True)
class StudyConfig:
    """What a study asks: the clues (None: the built-in list), the board CSV (None: the
    standard board), how many clues each person sees, and the clue giver whose clues for
    hidden targets are shown instead (None: the clue list itself)."""

    clues: tuple[str, ...] | None = None
    board: str | None = None
    clues_per_person: int = 10
    giver: str | None = None


def study_routes(db: Database, config: StudyConfig) -> list[BaseRoute]:
    """The routes of the study."""
    return []
