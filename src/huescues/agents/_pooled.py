"""A listener spec that names a pool: models whose beliefs are pooled geometrically with weights
(:func:`~huescues.agents.pooled_model`), as one model. A guesser imagines the default clue
giver with it (the giver pools its three listener models, issue 34)."""

from __future__ import annotations

from dataclasses import dataclass

from huescues.language import ColourTermModel

__all__ = ["Pooled"]


@dataclass(frozen=True, slots=True)
class Pooled:
    """The models of ``models`` (names or models, as a player's ``model`` gives them) pooled
    geometrically with ``weights``, one a model: read as the one model
    ``pooled_model(models, weights)``. A small value, hashable, that any process can build."""

    models: str | ColourTermModel | tuple[str | ColourTermModel, ...]
    weights: tuple[float, ...]
