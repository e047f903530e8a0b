"""Words to colours: models that say how well a text describes colours, for any colours."""

from typing import TYPE_CHECKING

from huescues.public import name_public_objects as _name_public_objects

from ._attested import ATTESTED_CONFIDENCE, GIVER_EVIDENCE, attested
from ._baselines import FlatModel, MeanColourModel, NearestNameModel
from ._capabilities import ColourTermModelBase, in_view, model_cache_key, with_capabilities
from ._combined import CombinedModel, combined_model
from ._data import C3Data, NamedColours, c3, colornames, xkcd_names
from ._default import OBJECT_BLEND_WEIGHT, BlendedModel, default_model, in_english
from ._embedding import EmbeddingModel, EmbeddingParams
from ._listen import listen, reads_in_context
from ._named import MODEL_NAMES, named_model
from ._naming import Modifier, NamingModel, name_key, words_of
from ._objects import (
    BASIC_TERMS,
    KNOWLEDGE_SOURCES,
    SPELLING_MIN,
    TONE_SPREAD,
    VIEW_POWER,
    ObjectColourModel,
    TermGrid,
)
from ._phrases import PHRASE_FAULTS, phrase_fault, survey_names, word_classes
from ._protocol import FLAT_LOG_DENSITY, ColourTermModel, Prediction, as_lab
from ._sentence import SentenceTransformerEncoder
from ._splits import N_FOLDS, fold_of, normalise_name
from ._standard import ModelFactory, standard_models
from ._translate import (
    LANGUAGES,
    OWN_KNOWLEDGE_WEIGHT,
    TranslatedModel,
    Translation,
    fold,
    spanish_knowledge,
    spanish_table,
)
from ._wordpiece import WordPieceEncoder

__all__ = [
    "ATTESTED_CONFIDENCE",
    "BASIC_TERMS",
    "FLAT_LOG_DENSITY",
    "GIVER_EVIDENCE",
    "KNOWLEDGE_SOURCES",
    "LANGUAGES",
    "MODEL_NAMES",
    "N_FOLDS",
    "OBJECT_BLEND_WEIGHT",
    "OWN_KNOWLEDGE_WEIGHT",
    "PHRASE_FAULTS",
    "SPELLING_MIN",
    "TONE_SPREAD",
    "VIEW_POWER",
    "BlendedModel",
    "C3Data",
    "ColourTermModel",
    "ColourTermModelBase",
    "CombinedModel",
    "EmbeddingModel",
    "EmbeddingParams",
    "FlatModel",
    "MeanColourModel",
    "ModelFactory",
    "Modifier",
    "NamedColours",
    "NamingModel",
    "NearestNameModel",
    "ObjectColourModel",
    "Prediction",
    "SentenceTransformerEncoder",
    "TermGrid",
    "TranslatedModel",
    "Translation",
    "WordPieceEncoder",
    "as_lab",
    "attested",
    "c3",
    "colornames",
    "combined_model",
    "default_model",
    "fold",
    "fold_of",
    "in_english",
    "in_view",
    "listen",
    "model_cache_key",
    "name_key",
    "named_model",
    "normalise_name",
    "phrase_fault",
    "reads_in_context",
    "spanish_knowledge",
    "spanish_table",
    "standard_models",
    "survey_names",
    "with_capabilities",
    "word_classes",
    "words_of",
    "xkcd_names",
]

#: Names this package no longer has, and where they are now: they need a board, and the language
#: models know colours, not boards.
_MOVED = {
    "clue_probabilities": "huescues.agents.clue_probabilities",
    "top_squares": "huescues.agents.top_squares",
    "render_clue": "huescues.render.render_clue",
    "Evaluation": "huescues.research.Evaluation",
    "ModelScores": "huescues.research.ModelScores",
    "evaluate": "huescues.research.evaluate",
    "standard_evaluation": "huescues.research.standard_evaluation",
}

if not TYPE_CHECKING:  # hidden from type checkers, so that they still flag unknown names

    def __getattr__(name: str) -> object:
        # Only says where a moved name went: importing it from here would import upwards.
        if name in _MOVED:
            raise AttributeError(f"huescues.language.{name} has moved to {_MOVED[name]}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Public objects name this package as their module, not a private one.
_name_public_objects(globals())
