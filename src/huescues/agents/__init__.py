"""Players: the Agent protocol, the random agent, players built on colour-term models, and the
one table that asks them for decisions."""

from huescues.language import GIVER_EVIDENCE, attested
from huescues.public import name_public_objects as _name_public_objects

from ._abilities import Abilities, abilities, missing_decisions
from ._alike import (
    ALIKE_FEATURES,
    AlikeRule,
    alike_chance,
    alike_chances,
    alike_features,
    alike_rule,
)
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
from ._crowd import CROWD_READINGS
from ._defaults import (
    DEFAULT_PAIR_FROM,
    combined_agent,
    default_agent,
    embedding_agent,
    naming_agent,
    oracle_agent,
    random_agent,
    spanish_default_agent,
)
from ._evaluate import AgentEvaluation, PairResult, evaluate
from ._giver import EmbeddingClueGiver, ModelClueGiver
from ._grammar import Grammar, read_grammar
from ._guesser import EmbeddingGuesser, ModelGuesser
from ._languages import clue_vocabulary, player_languages
from ._lockstep import joins_batches, run_together
from ._loop import GameLoop, PlayedGame, play_game
from ._models import (
    DEFAULT_GIVER_MODELS,
    DEFAULT_GIVER_POOL,
    DEFAULT_GUESSER_MODELS,
    DEFAULT_SPEAKERS,
    Pooled,
    pooled_model,
    resolve_model,
)
from ._player import OracleGuesser, Player
from ._points import POINTS_TIE, best_squares, expected_points
from ._protocol import Agent, ClueGiver, Guesser
from ._random import RandomAgent
from ._readings import Readings
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

__all__ = [
    "ALIKE_FEATURES",
    "CATALOGUE",
    "CROWD_READINGS",
    "DEFAULT_GIVER_MODELS",
    "DEFAULT_GIVER_POOL",
    "DEFAULT_GUESSER_MODELS",
    "DEFAULT_PAIR_FROM",
    "DEFAULT_SPEAKERS",
    "FAULT_KINDS",
    "GIVER_EVIDENCE",
    "MESSAGE_LIMIT",
    "POINTS_TIE",
    "RANDOM_CLUE_WORDS",
    "RANDOM_CLUE_WORDS_ES",
    "ROLES",
    "Abilities",
    "Agent",
    "AgentEvaluation",
    "AlikeRule",
    "CatalogueEntry",
    "ClueGiver",
    "DecisionTimeout",
    "EmbeddingClueGiver",
    "EmbeddingGuesser",
    "Fault",
    "GameLoop",
    "Grammar",
    "Guesser",
    "ModelClueGiver",
    "ModelGuesser",
    "OracleGuesser",
    "PairResult",
    "Pending",
    "PlayedGame",
    "Player",
    "Pooled",
    "RandomAgent",
    "Readings",
    "SignalTimer",
    "Table",
    "TextAgent",
    "TextFailure",
    "ThreadTimer",
    "Timer",
    "abilities",
    "alike_chance",
    "alike_chances",
    "alike_features",
    "alike_rule",
    "attested",
    "best_squares",
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
    "missing_decisions",
    "naming_agent",
    "oracle_agent",
    "parse_clue",
    "parse_square",
    "parse_target",
    "play_game",
    "player_languages",
    "pooled_model",
    "prepare",
    "prompt_for",
    "random_agent",
    "random_clue_words",
    "read_grammar",
    "readings_cache_dir",
    "resolve_model",
    "run_together",
    "sees_target",
    "spanish_default_agent",
    "top_squares",
]

# Public objects name this package as their module, not a private one.
_name_public_objects(globals())
