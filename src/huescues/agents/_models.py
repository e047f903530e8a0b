"""The players' listener models by name, so that players stay small values that any process
can build (each loads its own models), and how a player's models are given."""

from __future__ import annotations

import functools
from collections.abc import Callable

from huescues.language import MODEL_NAMES, ColourTermModel, named_model

from ._languages import players_pack

__all__ = [
    "DEFAULT_GIVER_MODELS",
    "DEFAULT_GUESSER_MODELS",
    "MODELS",
    "SPANISH_GIVER_MODELS",
    "SPANISH_GUESSER_MODELS",
    "ModelSpec",
    "Models",
    "models_of",
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
DEFAULT_GUESSER_MODELS: tuple[str, ...] = players_pack("en").guesser_models
#: The same for Spanish clues (the Spanish pack's, each model reading Spanish through the
#: shipped table): kept by their names before the packs named them.
SPANISH_GIVER_MODELS: tuple[str, ...] = tuple(f"{n}-es" for n in players_pack("es").giver_models)
SPANISH_GUESSER_MODELS: tuple[str, ...] = tuple(
    f"{n}-es" for n in players_pack("es").guesser_models
)

#: A model, by its name in :data:`MODELS` or itself.
ModelSpec = str | ColourTermModel
#: One model, or several whose readings are averaged (an ensemble of listeners).
Models = ModelSpec | tuple[ModelSpec, ...]


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
    spec: Models, named: dict[str, ColourTermModel] | None = None
) -> list[ColourTermModel]:
    """The models of ``spec``; ``named`` keeps those looked up by name across calls (a
    guesser's specs name the same few models over and over)."""
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
