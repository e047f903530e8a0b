"""Words to colours: models that say how well a text describes colours, for any colours."""

from ._baselines import MeanColourModel, NearestNameModel
from ._combined import CombinedModel, default_model
from ._data import C3Data, NamedColours, c3, colornames, xkcd_names
from ._embedding import EmbeddingModel, EmbeddingParams
from ._heatmap import clue_probabilities, render_clue, top_squares
from ._naming import Modifier, NamingModel, name_key, words_of
from ._protocol import FLAT_LOG_DENSITY, ColourTermModel, Prediction
from ._splits import N_FOLDS, fold_of, normalise_name
from ._standard import ModelFactory, standard_models
from ._wordpiece import WordPieceEncoder

__all__ = [
    "FLAT_LOG_DENSITY",
    "N_FOLDS",
    "C3Data",
    "ColourTermModel",
    "CombinedModel",
    "EmbeddingModel",
    "EmbeddingParams",
    "MeanColourModel",
    "ModelFactory",
    "Modifier",
    "NamedColours",
    "NamingModel",
    "NearestNameModel",
    "Prediction",
    "WordPieceEncoder",
    "c3",
    "clue_probabilities",
    "colornames",
    "default_model",
    "fold_of",
    "name_key",
    "normalise_name",
    "render_clue",
    "standard_models",
    "top_squares",
    "words_of",
    "xkcd_names",
]

#: Names that moved out of this package (which knows no board) to where boards are known.
_MOVED = {
    "Evaluation": "huescues.research",
    "ModelScores": "huescues.research",
    "evaluate": "huescues.research",
    "standard_evaluation": "huescues.research",
}


def __getattr__(name: str) -> object:
    # Only says where a moved name went: importing it from here would import upwards.
    if name in _MOVED:
        raise AttributeError(
            f"huescues.language.{name} moved to {_MOVED[name]}.{name}: "
            f"import it from {_MOVED[name]}"
        )
    raise AttributeError(f"module 'huescues.language' has no attribute {name!r}")
