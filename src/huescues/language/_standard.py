"""The models of the standard held-out evaluation: every model of the library and the baselines,
each refitted without the names it is judged on (``huescues.research.standard_evaluation``
judges them; this side knows no board)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._baselines import MeanColourModel, NearestNameModel
from ._combined import CombinedModel
from ._data import colornames, xkcd_names
from ._embedding import EmbeddingModel
from ._naming import NamingModel
from ._protocol import ColourTermModel
from ._splits import normalise_name

__all__ = ["ModelFactory", "standard_models"]

#: Makes a model fitted without the given (normalised) names.
ModelFactory = Callable[[frozenset[str]], ColourTermModel]


def standard_models() -> dict[str, ModelFactory]:
    """Factories for the models of the standard evaluation: each takes the held-out names and
    returns the model fitted without them (in every source: XKCD, color-name-list, c3)."""
    xkcd = xkcd_names()
    extra = colornames()
    params = EmbeddingModel.default().params

    def training(held: frozenset[str]) -> tuple[list[str], np.ndarray]:
        keep = [i for i, n in enumerate(xkcd.names) if normalise_name(n) not in held]
        return [xkcd.names[i] for i in keep], xkcd.lab[keep]

    def embedding(held: frozenset[str]) -> EmbeddingModel:
        names, lab = training(held)
        keep = [i for i, n in enumerate(extra.names) if normalise_name(n) not in held]
        return EmbeddingModel.fit(
            names,
            lab,
            params=params,
            extra_names=[extra.names[i] for i in keep],
            extra_lab=extra.lab[keep],
        )

    def naming(held: frozenset[str]) -> NamingModel:
        return NamingModel.fit(exclude=held)

    def combined(held: frozenset[str]) -> CombinedModel:
        return CombinedModel(naming(held), embedding(held))

    return {
        "mean colour (baseline)": lambda held: MeanColourModel(training(held)[1]),
        "nearest name (baseline)": lambda held: NearestNameModel(*training(held)),
        "naming data": naming,
        "embedding": embedding,
        "combined": combined,
    }
