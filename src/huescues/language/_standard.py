"""The standard held-out evaluation: every model of the library and the baselines, each refitted
without the names it is judged on (XKCD names, five folds by :func:`fold_of`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from huescues.engine import Board

from ._baselines import MeanColourModel, NearestNameModel
from ._combined import CombinedModel
from ._data import colornames, xkcd_names
from ._embedding import EmbeddingModel
from ._evaluate import Evaluation, ModelFactory, evaluate
from ._naming import NamingModel
from ._splits import normalise_name

__all__ = ["second_test_set", "standard_evaluation", "standard_models"]


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
        "combined (default)": combined,
    }


def second_test_set(size: int = 1000, seed: int = 7) -> tuple[list[str], np.ndarray]:
    """A second held-out set: ``size`` names of color-name-list that are not XKCD names, drawn
    with ``seed``. The designs were chosen on the XKCD folds; this set checks the choice."""
    xkcd = {normalise_name(n) for n in xkcd_names().names}
    extra = colornames()
    pool = [i for i, n in enumerate(extra.names) if normalise_name(n) not in xkcd]
    pick = np.random.default_rng(seed).choice(pool, size=size, replace=False)
    return [extra.names[i] for i in pick], extra.lab[pick]


def standard_evaluation(
    board: Board | None = None,
    *,
    second_set: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Evaluation:
    """Run the standard held-out evaluation (about a minute) on the XKCD names, or with
    ``second_set`` on :func:`second_test_set`; see ``docs/language.md``."""
    if second_set:
        names, lab = second_test_set()
    else:
        xkcd = xkcd_names()
        names, lab = list(xkcd.names), xkcd.lab
    return evaluate(standard_models(), names, lab, board=board, progress=progress)
