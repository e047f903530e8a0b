"""The rules engine: one game of Hues and Cues, exactly as docs/rules.md states it (R1-R27).

The engine does not draw: pictures of a board are in :mod:`huescues.render`."""

from typing import TYPE_CHECKING

from huescues.public import name_public_objects as _name_public_objects

from ._actions import (
    Action,
    ChooseTarget,
    GiveClue,
    Pass,
    PlacePawn,
    action_from_dict,
    action_to_dict,
)
from ._board import RETAIL_BOARD_ID, STANDARD_BOARD_ID, Board
from ._cell import ROW_LETTERS, Cell
from ._clues import (
    MAX_CLUE_LENGTH,
    common_words,
    hidden_character,
    named_colours,
    normalise_clue,
    validate_clue,
)
from ._csv import FORMULA_STARTS, safe_cell, safe_row, unescape_cell
from ._deck import STANDARD_DECK_ID, Card, Deck
from ._errors import (
    GameOver,
    IllegalAction,
    IllegalClue,
    InvalidRecord,
    InvalidRules,
    InvalidTarget,
    NotYourTurn,
    OccupiedSquare,
    OffBoard,
    PassNotAllowed,
    WrongPhase,
)
from ._languages import DEFAULT_LANGUAGE, LanguagePack, available_languages, language_pack
from ._random import seat_generators
from ._record import GameRecord
from ._rules import BASIC_COLOUR_TERMS, MAX_PLAYERS, MIN_PLAYERS, RELATIVE_WORDS, Rules
from ._scoring import giver_points, pawn_points, points_array, points_map, round_points
from ._state import (
    ENGINE_VERSION,
    GameSetup,
    GameState,
    Phase,
    Result,
    RoundResult,
    View,
    known_board,
    new_game,
)
from ._text import describe_game

__all__ = [
    "BASIC_COLOUR_TERMS",
    "DEFAULT_LANGUAGE",
    "ENGINE_VERSION",
    "FORMULA_STARTS",
    "MAX_CLUE_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RELATIVE_WORDS",
    "RETAIL_BOARD_ID",
    "ROW_LETTERS",
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
    "GameSetup",
    "GameState",
    "GiveClue",
    "IllegalAction",
    "IllegalClue",
    "InvalidRecord",
    "InvalidRules",
    "InvalidTarget",
    "LanguagePack",
    "NotYourTurn",
    "OccupiedSquare",
    "OffBoard",
    "Pass",
    "PassNotAllowed",
    "Phase",
    "PlacePawn",
    "Result",
    "RoundResult",
    "Rules",
    "View",
    "WrongPhase",
    "action_from_dict",
    "action_to_dict",
    "available_languages",
    "common_words",
    "describe_game",
    "giver_points",
    "hidden_character",
    "known_board",
    "language_pack",
    "named_colours",
    "new_game",
    "normalise_clue",
    "pawn_points",
    "points_array",
    "points_map",
    "round_points",
    "safe_cell",
    "safe_row",
    "seat_generators",
    "unescape_cell",
    "validate_clue",
]

# Public objects name this package as their module, not a private one.
_name_public_objects(globals())

#: Names the engine no longer has, and where they are now.
_MOVED = {"render_board": "huescues.render.render_board"}

if not TYPE_CHECKING:  # hidden from type checkers, so that they still flag unknown names

    def __getattr__(name: str) -> object:
        if name in _MOVED:
            raise AttributeError(
                f"huescues.engine.{name} has moved to {_MOVED[name]}: the engine does not draw"
            )
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
