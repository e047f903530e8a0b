"""The standard held-out evaluation: the library's models and the baselines
(:func:`~huescues.language.standard_models`) judged on the XKCD names in five folds, or on a
second set of names the designs were not chosen on."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from huescues.engine import Board
from huescues.language import colornames, normalise_name, standard_models, xkcd_names

from ._model_evaluation import Evaluation, evaluate

__all__ = ["second_test_set", "standard_evaluation"]


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
