"""Words to colours: models that say how well a text describes colours, for any colours."""

from typing import TYPE_CHECKING

from ._baselines import MeanColourModel, NearestNameModel
from ._combined import CombinedModel, default_model
from ._data import C3Data, NamedColours, c3, colornames, xkcd_names
from ._embedding import EmbeddingModel, EmbeddingParams
from ._evaluate import Evaluation, ModelFactory, ModelScores, evaluate
from ._naming import Modifier, NamingModel, name_key, words_of
from ._protocol import FLAT_LOG_DENSITY, ColourTermModel, Prediction
from ._splits import N_FOLDS, fold_of, normalise_name
from ._standard import standard_evaluation, standard_models
from ._wordpiece import WordPieceEncoder

__all__ = [
    "FLAT_LOG_DENSITY",
    "N_FOLDS",
    "C3Data",
    "ColourTermModel",
    "CombinedModel",
    "EmbeddingModel",
    "EmbeddingParams",
    "Evaluation",
    "MeanColourModel",
    "ModelFactory",
    "ModelScores",
    "Modifier",
    "NamedColours",
    "NamingModel",
    "NearestNameModel",
    "Prediction",
    "WordPieceEncoder",
    "c3",
    "colornames",
    "default_model",
    "evaluate",
    "fold_of",
    "name_key",
    "normalise_name",
    "standard_evaluation",
    "standard_models",
    "words_of",
    "xkcd_names",
]

#: Names this package no longer has, and where they are now: they need a board, and the language
#: models know colours, not boards.
_MOVED = {
    "clue_probabilities": "huescues.agents.clue_probabilities",
    "top_squares": "huescues.agents.top_squares",
    "render_clue": "huescues.render.render_clue",
}

if not TYPE_CHECKING:  # hidden from type checkers, so that they still flag unknown names

    def __getattr__(name: str) -> object:
        if name in _MOVED:
            raise AttributeError(f"huescues.language.{name} has moved to {_MOVED[name]}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
