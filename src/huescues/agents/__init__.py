"""Players: the Agent protocol, the random agent, players built on colour-term models, and the
game loop."""

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
from ._protocol import Agent, ClueGiver, Guesser
from ._random import RandomAgent
from ._text import TextAgent, TextFailure, parse_clue, parse_square, parse_target, prompt_for

__all__ = [
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
    "combined_agent",
    "default_agent",
    "evaluate",
    "naming_agent",
    "oracle_agent",
    "parse_clue",
    "parse_square",
    "parse_target",
    "play_game",
    "prompt_for",
    "resolve_model",
]
