"""Players: the Agent protocol, the random agent, players built on colour-term models, and the
one table that asks them for decisions."""

from ._attested import GIVER_EVIDENCE, attested
from ._catalogue import (
    CATALOGUE,
    ROLES,
    CatalogueEntry,
    catalogue_entry,
    catalogue_help,
    catalogue_names,
)
from ._clue_reading import clue_probabilities, top_squares
from ._clue_words import RANDOM_CLUE_WORDS, RANDOM_CLUE_WORDS_ES, random_clue_words
from ._evaluate import AgentEvaluation, PairResult, evaluate
from ._lockstep import joins_batches, run_together
from ._loop import GameLoop, PlayedGame, play_game
from ._players import (
    DEFAULT_GIVER_MODELS,
    DEFAULT_GUESSER_MODELS,
    DEFAULT_PAIR_FROM,
    EmbeddingClueGiver,
    EmbeddingGuesser,
    ModelClueGiver,
    ModelGuesser,
    OracleGuesser,
    Player,
    combined_agent,
    default_agent,
    embedding_agent,
    naming_agent,
    oracle_agent,
    resolve_model,
    spanish_default_agent,
)
from ._points import expected_points
from ._protocol import Agent, ClueGiver, Guesser
from ._random import RandomAgent
from ._store import readings_cache_dir
from ._table import (
    FAULT_KINDS,
    MESSAGE_LIMIT,
    DecisionTimeout,
    Fault,
    Pending,
    SignalTimer,
    Table,
    ThreadTimer,
    Timer,
    cut_message,
    decide,
    decision_generator,
    error_text,
    fallback_generator,
    prepare,
    sees_target,
)
from ._text import TextAgent, TextFailure, parse_clue, parse_square, parse_target, prompt_for
from ._vocabulary import clue_vocabulary

__all__ = [
    "CATALOGUE",
    "DEFAULT_GIVER_MODELS",
    "DEFAULT_GUESSER_MODELS",
    "DEFAULT_PAIR_FROM",
    "FAULT_KINDS",
    "GIVER_EVIDENCE",
    "MESSAGE_LIMIT",
    "RANDOM_CLUE_WORDS",
    "RANDOM_CLUE_WORDS_ES",
    "ROLES",
    "Agent",
    "AgentEvaluation",
    "CatalogueEntry",
    "ClueGiver",
    "DecisionTimeout",
    "EmbeddingClueGiver",
    "EmbeddingGuesser",
    "Fault",
    "GameLoop",
    "Guesser",
    "ModelClueGiver",
    "ModelGuesser",
    "OracleGuesser",
    "PairResult",
    "Pending",
    "PlayedGame",
    "Player",
    "RandomAgent",
    "SignalTimer",
    "Table",
    "TextAgent",
    "TextFailure",
    "ThreadTimer",
    "Timer",
    "attested",
    "catalogue_entry",
    "catalogue_help",
    "catalogue_names",
    "clue_probabilities",
    "clue_vocabulary",
    "combined_agent",
    "cut_message",
    "decide",
    "decision_generator",
    "default_agent",
    "embedding_agent",
    "error_text",
    "evaluate",
    "expected_points",
    "fallback_generator",
    "joins_batches",
    "naming_agent",
    "oracle_agent",
    "parse_clue",
    "parse_square",
    "parse_target",
    "play_game",
    "prepare",
    "prompt_for",
    "random_clue_words",
    "readings_cache_dir",
    "resolve_model",
    "run_together",
    "sees_target",
    "spanish_default_agent",
    "top_squares",
]

# Public objects name the public module they are used from (as httpx's do), not a private one.
for _obj in map(globals().__getitem__, __all__):
    if getattr(_obj, "__qualname__", "") and _obj.__module__.startswith(f"{__name__}._"):
        _obj.__module__ = __name__
