"""Words to colours: models that say how well a text describes colours, for any colours."""

from ._baselines import MeanColourModel, NearestNameModel
from ._combined import CombinedModel, default_model
from ._data import C3Data, NamedColours, c3, colornames, xkcd_names
from ._embedding import EmbeddingModel, EmbeddingParams
from ._evaluate import Evaluation, ModelFactory, ModelScores, evaluate
from ._heatmap import clue_probabilities, render_clue, top_squares
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
    "clue_probabilities",
    "colornames",
    "default_model",
    "evaluate",
    "fold_of",
    "name_key",
    "normalise_name",
    "render_clue",
    "standard_evaluation",
    "standard_models",
    "top_squares",
    "words_of",
    "xkcd_names",
]
