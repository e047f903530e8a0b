"""Players: the Agent protocol, the random agent, players built on colour-term models, and the
game loop."""

from ._clue_reading import clue_probabilities, top_squares
from ._clue_words import RANDOM_CLUE_WORDS
from ._evaluate import AgentEvaluation, PairResult, evaluate
from ._loop import PlayedGame, play_game
from ._players import (
    EmbeddingClueGiver,
    EmbeddingGuesser,
    OracleGuesser,
    Player,
    combined_agent,
    default_agent,
    naming_agent,
    oracle_agent,
    resolve_model,
)
from ._points import expected_points
from ._protocol import Agent, ClueGiver, Guesser
from ._random import RandomAgent
from ._text import TextAgent, TextFailure, parse_clue, parse_square, parse_target, prompt_for
from ._vocabulary import clue_vocabulary

__all__ = [
    "RANDOM_CLUE_WORDS",
    "Agent",
    "AgentEvaluation",
    "ClueGiver",
    "EmbeddingClueGiver",
    "EmbeddingGuesser",
    "Guesser",
    "OracleGuesser",
    "PairResult",
    "PlayedGame",
    "Player",
    "RandomAgent",
    "TextAgent",
    "TextFailure",
    "clue_probabilities",
    "clue_vocabulary",
    "combined_agent",
    "default_agent",
    "evaluate",
    "expected_points",
    "naming_agent",
    "oracle_agent",
    "parse_clue",
    "parse_square",
    "parse_target",
    "play_game",
    "prompt_for",
    "resolve_model",
    "top_squares",
]
