"""The rules engine: one game of Hues and Cues, exactly as docs/rules.md states it (R1-R27)."""

from ._actions import Action, ChooseTarget, GiveClue, Pass, PlacePawn
from ._board import STANDARD_BOARD_ID, Board
from ._cell import ROW_LETTERS, Cell
from ._clues import normalise_clue, validate_clue
from ._deck import STANDARD_DECK_ID, Card, Deck
from ._errors import (
    GameOver,
    IllegalAction,
    IllegalClue,
    InvalidRules,
    InvalidTarget,
    NotYourTurn,
    OccupiedSquare,
    OffBoard,
    PassNotAllowed,
    WrongPhase,
)
from ._random import seat_generators
from ._record import GameRecord
from ._render import render_board
from ._rules import BASIC_COLOUR_TERMS, RELATIVE_WORDS, Rules
from ._scoring import giver_points, pawn_points, points_array, points_map, round_points
from ._state import ENGINE_VERSION, GameSetup, GameState, Phase, Result, RoundResult, View, new_game
from ._text import describe_game

__all__ = [
    "BASIC_COLOUR_TERMS",
    "ENGINE_VERSION",
    "RELATIVE_WORDS",
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
    "InvalidRules",
    "InvalidTarget",
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
    "describe_game",
    "giver_points",
    "new_game",
    "normalise_clue",
    "pawn_points",
    "points_array",
    "points_map",
    "render_board",
    "round_points",
    "seat_generators",
    "validate_clue",
]
