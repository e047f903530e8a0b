"""Words to colours: models that say how well a text describes colours, for any colours."""

from ._protocol import FLAT_LOG_DENSITY, ColourTermModel, Prediction
from ._splits import N_FOLDS, fold_of, normalise_name

__all__ = [
    "FLAT_LOG_DENSITY",
    "N_FOLDS",
    "ColourTermModel",
    "Prediction",
    "fold_of",
    "normalise_name",
]
