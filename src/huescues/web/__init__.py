"""Hues and Cues in the browser, and people's clicks for research: ``huescues serve`` (needs
``huescues[web]``: Starlette, uvicorn, websockets). Game tables for 3-10 seats of people and
bots at ``/``, a guessing study at ``/study`` and a clue-giving one at ``/study/give``,
everything kept in one SQLite file; ``huescues responses export`` writes the study's clicks,
the clues people gave and the games' rounds as tables."""

from ._app import create_app
from ._board import board_json
from ._db import Database
from ._export import (
    ACTION_COLUMNS,
    GIVEN_CLUE_COLUMNS,
    PARTICIPANT_COLUMNS,
    PARTICIPANT_TABLE_COLUMNS,
    RESPONSE_COLUMNS,
    export_actions,
    export_games,
    export_given_clues,
    export_participants,
    export_responses,
)
from ._house import MAX_REVEAL_SECONDS
from ._ratings import RATING_COLUMNS, Rating, server_ratings, write_ratings
from ._report import study_report
from ._serve import per_address_limits, serve, server_config
from ._study_config import DEFAULT_CLUES, DEFAULT_CONSENT, SPANISH_CLUES, StudyConfig
from ._tables import GONE_CLOSE_CODE, TableSettings

__all__ = [
    "ACTION_COLUMNS",
    "DEFAULT_CLUES",
    "DEFAULT_CONSENT",
    "GIVEN_CLUE_COLUMNS",
    "GONE_CLOSE_CODE",
    "MAX_REVEAL_SECONDS",
    "PARTICIPANT_COLUMNS",
    "PARTICIPANT_TABLE_COLUMNS",
    "RATING_COLUMNS",
    "RESPONSE_COLUMNS",
    "SPANISH_CLUES",
    "Database",
    "Rating",
    "StudyConfig",
    "TableSettings",
    "board_json",
    "create_app",
    "export_actions",
    "export_games",
    "export_given_clues",
    "export_participants",
    "export_responses",
    "per_address_limits",
    "serve",
    "server_config",
    "server_ratings",
    "study_report",
    "write_ratings",
]

# Public objects name the public module they are used from (as httpx's do), not a private one.
for _obj in map(globals().__getitem__, __all__):
    if getattr(_obj, "__qualname__", "") and _obj.__module__.startswith(f"{__name__}._"):
        _obj.__module__ = __name__
