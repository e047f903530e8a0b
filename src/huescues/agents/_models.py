"""The players' listener models by name, so that players stay small values that any process
can build (each loads its own models), and how a player's models are given."""

from __future__ import annotations

import functools
from collections.abc import Callable

from huescues.language import MODEL_NAMES, BlendedModel, ColourTermModel, named_model

from ._languages import players_pack
from ._pooled import Pooled
from ._readings import Kind, Readings

__all__ = [
    "DEFAULT_GIVER_MODELS",
    "DEFAULT_GIVER_POOL",
    "DEFAULT_GUESSER_MODELS",
    "DEFAULT_SPEAKERS",
    "MODELS",
    "SPANISH_GIVER_MODELS",
    "SPANISH_GUESSER_MODELS",
    "ModelSpec",
    "Models",
    "Pooled",
    "models_of",
    "pooled_model",
    "resolve_model",
]


#: The shipped models by name, so that agents stay small and picklable (each process loads its
#: own). A name ``"NAME-CODE"`` is the model reading clues in that language (``"naming-es"``:
#: the naming data through the Spanish-to-English table; ``"default-es"`` is
#: ``default_model("es")``), :func:`~huescues.language.named_model`.
MODELS: dict[str, Callable[[], ColourTermModel]] = {
    name: functools.partial(named_model, name) for name in MODEL_NAMES
}

#: The listener models of the default players (the English pack's): the clue giver predicts
#: pawns with all three (``default_model()``, the naming data, the word vectors) and averages;
#: the guesser reads with ``default_model()`` and the naming data, pragmatically. (An ensemble
#: reads clues from other players better; measured in docs/agents.md.)
DEFAULT_GIVER_MODELS: tuple[str, ...] = players_pack("en").giver_models
#: How the default giver combines :data:`DEFAULT_GIVER_MODELS` (the English pack's
#: ``giver_pool``): their beliefs pooled geometrically, the default model's weight 0.7 and the
#: others' 0.15 each (:func:`pooled_model`), not averaged. Chosen held out by clue on the 39
#: dev clues (``python scripts/evaluate_giver_listener.py``): ``clue_choice_agreement`` 0.547
#: [0.475, 0.629] against the average's 0.526, paired +0.021 [+0.006, +0.033] (intervals over
#: the clues), the weight 0.7 in 34 of the 39 folds (docs/agents.md). The average diluted
#: the model that knows a word.
DEFAULT_GIVER_POOL: tuple[float, ...] | None = players_pack("en").giver_pool
DEFAULT_GUESSER_MODELS: tuple[str, ...] = players_pack("en").guesser_models
#: The clue givers the default guesser imagines (the English pack's ``speakers``): a giver
#: averaging :data:`DEFAULT_GIVER_MODELS`, then a giver on each model alone. The default giver
#: pools its models (:data:`DEFAULT_GIVER_POOL`), but a guesser imagining it so, with
#: ``Pooled(DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL)`` first, lost to this one head to head
#: (``python scripts/evaluate_speakers.py``, docs/agents.md): not adopted.
DEFAULT_SPEAKERS: tuple[str | tuple[str, ...] | Pooled, ...] = players_pack("en").speakers
#: The same for Spanish clues (the Spanish pack's, each model reading Spanish through the
#: shipped table): kept by their names before the packs named them.
SPANISH_GIVER_MODELS: tuple[str, ...] = tuple(f"{n}-es" for n in players_pack("es").giver_models)
SPANISH_GUESSER_MODELS: tuple[str, ...] = tuple(
    f"{n}-es" for n in players_pack("es").guesser_models
)

#: A model, by its name in :data:`MODELS` or itself.
ModelSpec = str | ColourTermModel
#: One model, or several whose readings are averaged (an ensemble of listeners), or several
#: pooled geometrically into one (a :class:`Pooled`).
Models = ModelSpec | tuple[ModelSpec, ...] | Pooled


def resolve_model(spec: ModelSpec) -> ColourTermModel:
    """A model from its name in :data:`MODELS` (``"default"``: ``default_model()``;
    ``"naming"``; ``"embedding"``), reading another language's clues as ``"NAME-CODE"``
    (``"naming-es"``), or the model itself."""
    if isinstance(spec, str):
        name, _, language = spec.partition("-")
        if name not in MODELS or (language and "-" in language):
            raise ValueError(
                f"no model named {spec!r}; choose one of {sorted(MODELS)}, or one of them "
                "reading another language's clues: NAME-CODE ('naming-es')"
            )
        return MODELS[name]() if not language else named_model(name, language)
    return spec


def models_of(
    spec: Models,
    named: dict[str, ColourTermModel] | None = None,
    store: Readings | None = None,
) -> list[ColourTermModel]:
    """The models of ``spec``; ``named`` keeps those looked up by name across calls (a
    guesser's specs name the same few models over and over). A :class:`Pooled` is one model,
    its pool (:func:`pooled_model`, kept in ``store``: the process's shared one when None)."""
    if isinstance(spec, Pooled):
        return [pooled_model(spec.models, spec.weights, store)]
    specs = spec if isinstance(spec, tuple) else (spec,)
    if named is None:
        return [resolve_model(m) for m in specs]
    out = []
    for m in specs:
        if isinstance(m, str):
            model = named.get(m)
            if model is None:
                model = named[m] = resolve_model(m)
            out.append(model)
        else:
            out.append(resolve_model(m))
    return out


#: The pooled models, kept by their models (weakly) and weights in a :class:`Readings`: one
#: object a pool, so that what is read from it is read once.
POOLS: Kind[ColourTermModel] = Kind("a pool of models", 8)


def pooled_model(
    spec: Models, weights: tuple[float, ...], store: Readings | None = None
) -> ColourTermModel:
    """The models of ``spec`` pooled geometrically with ``weights`` (one each, the first above
    zero): the model whose score is ``sum(w * model.score)``, so that its belief over any board
    is the product of the models' beliefs each raised to its weight, normalised (a logarithmic
    opinion pool; weights summing to 1 keep the readings' sharpness). Unlike an average of the
    beliefs, a word one model reads sharply and the others broadly is read near the one that
    knows it. Made once for each models and ``weights`` in ``store`` (the process's
    :meth:`Readings.shared` when None; a :class:`~huescues.language.BlendedModel` of blends, so
    its readings are kept on disk)."""
    models = models_of(spec)
    kept = store if store is not None else Readings.shared()
    return kept.get(models, POOLS, weights, lambda: _pool(models, weights))


def _pool(models: list[ColourTermModel], weights: tuple[float, ...]) -> ColourTermModel:
    if len(weights) != len(models) or not weights[0] > 0 or min(weights) < 0:
        raise ValueError(
            f"a pool needs one weight a model ({len(models)}), the first above zero and none "
            f"below: not {weights}"
        )
    pool, rest = models[0], list(zip(models[1:], weights[1:], strict=True))
    if not rest:
        return pool if weights[0] == 1.0 else BlendedModel(pool, pool, 0.0, scale=weights[0])
    for k, (model, w) in enumerate(rest):
        scale = weights[0] if k == len(rest) - 1 else 1.0
        pool = BlendedModel(pool, model, w / weights[0], scale=scale)
    return pool
