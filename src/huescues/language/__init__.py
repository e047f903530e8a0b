"""Words to colours: models that say how well a text describes colours, for any colours."""

from ._baselines import MeanColourModel, NearestNameModel
from ._evaluate import Evaluation, ModelFactory, ModelScores, evaluate
from ._heatmap import clue_probabilities, render_clue, top_squares
from ._protocol import FLAT_LOG_DENSITY, ColourTermModel, Prediction
from ._splits import N_FOLDS, fold_of, normalise_name

__all__ = [
    "FLAT_LOG_DENSITY",
    "N_FOLDS",
    "ColourTermModel",
    "Evaluation",
    "MeanColourModel",
    "ModelFactory",
    "ModelScores",
    "NearestNameModel",
    "Prediction",
    "clue_probabilities",
    "evaluate",
    "fold_of",
    "normalise_name",
    "render_clue",
    "top_squares",
]
