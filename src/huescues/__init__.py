"""huescues: the board game Hues and Cues as a library.

A typed, immutable rules engine (``new_game``, ``GameState``), boards and decks, clue checks,
game records, and players (``huescues.agents``). The rules are numbered R1-R27 in the docs.
"""

from __future__ import annotations

import importlib
from importlib import metadata
from typing import TYPE_CHECKING

from huescues.engine import (
    BASIC_COLOUR_TERMS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RELATIVE_WORDS,
    STANDARD_BOARD_ID,
    STANDARD_DECK_ID,
    Action,
    Board,
    Card,
    Cell,
    ChooseTarget,
    Deck,
    GameOver,
    GameRecord,
    GameState,
    GiveClue,
    IllegalAction,
    IllegalClue,
    InvalidRecord,
    InvalidRules,
    InvalidTarget,
    NotYourTurn,
    OccupiedSquare,
    OffBoard,
    Pass,
    PassNotAllowed,
    Phase,
    PlacePawn,
    Result,
    RoundResult,
    Rules,
    View,
    WrongPhase,
    describe_game,
    new_game,
    normalise_clue,
    points_map,
    validate_clue,
)

if TYPE_CHECKING:
    from huescues.agents import PlayedGame, play_game

try:
    __version__ = metadata.version("huescues")
except metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

# The players are loaded on first use, so that ``import huescues.engine`` stays small.
_FROM_AGENTS = frozenset({"PlayedGame", "play_game"})
#: Subpackages reachable as attributes (``huescues.agents.RandomAgent``), imported on first use.
_SUBPACKAGES = frozenset(
    {"agents", "export", "language", "render", "research", "rl", "stats", "terminal"}
    | {"testing", "tournament", "web"}
)


def __getattr__(name: str) -> object:
    if name in _FROM_AGENTS:
        from huescues import agents

        return getattr(agents, name)
    if name in _SUBPACKAGES:
        return importlib.import_module(f"huescues.{name}")
    raise AttributeError(f"module 'huescues' has no attribute {name!r}")


__all__ = [
    "BASIC_COLOUR_TERMS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RELATIVE_WORDS",
    "STANDARD_BOARD_ID",
    "STANDARD_DECK_ID",
    "Action",
    "Board",
    "Card",
    "Cell",
    "ChooseTarget",
    "Deck",
    "GameOver",
    "GameRecord",
    "GameState",
    "GiveClue",
    "IllegalAction",
    "IllegalClue",
    "InvalidRecord",
    "InvalidRules",
    "InvalidTarget",
    "NotYourTurn",
    "OccupiedSquare",
    "OffBoard",
    "Pass",
    "PassNotAllowed",
    "Phase",
    "PlacePawn",
    "PlayedGame",
    "Result",
    "RoundResult",
    "Rules",
    "View",
    "WrongPhase",
    "__version__",
    "describe_game",
    "new_game",
    "normalise_clue",
    "play_game",
    "points_map",
    "validate_clue",
]
