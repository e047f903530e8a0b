"""The shipped colour-term models by name, each in any language the library reads: what the
players' language packs name as their listeners (``data/languages/CODE/players.json``)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from ._default import default_model, english_model
from ._embedding import EmbeddingModel
from ._naming import NamingModel
from ._objects import ObjectColourModel
from ._protocol import ColourTermModel
from ._translate import TranslatedModel, check_language, spanish_knowledge, spanish_table

__all__ = ["MODEL_NAMES", "named_model"]

#: The shipped models by name: ``default_model()``, the naming data, the word vectors.
_SHIPPED: dict[str, Callable[[], ColourTermModel]] = {
    "default": english_model,
    "naming": NamingModel.default,
    "embedding": EmbeddingModel.default,
}
#: The names :func:`named_model` takes.
MODEL_NAMES: tuple[str, ...] = tuple(_SHIPPED)


@functools.cache
def named_model(name: str, language: str = "en") -> ColourTermModel:
    """The shipped model called ``name`` (one of :data:`MODEL_NAMES`) reading clues in
    ``language``, loaded once: in English the model itself; in Spanish ``default_model("es")``
    for ``"default"``, and the others through the shipped Spanish-to-English table
    (:class:`TranslatedModel`). Another name or language is a ValueError."""
    if name not in _SHIPPED:
        raise ValueError(f"no model named {name!r}; choose one of {', '.join(MODEL_NAMES)}")
    if check_language(language) == "en":
        return _SHIPPED[name]()
    if name == "default":
        return default_model(language)
    return TranslatedModel(
        _SHIPPED[name](),
        spanish_table(),
        language,
        knowledge=spanish_knowledge(),
        names=ObjectColourModel.default(),
    )
