"""A stable name for a colour-term model's readings, so that what players compute from the
shipped models can be kept on disk and shipped: the same name means the same scores."""

from __future__ import annotations

import functools
import hashlib
import weakref
from importlib import resources

__all__ = ["SCORES_VERSION", "model_cache_key", "register_shipped"]

#: The data folders the shipped models are loaded from.
_DATA_FOLDERS = ("naming", "embedding", "objects")

#: The shipped models (by identity) and their names; filled as each is loaded.
_SHIPPED: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()


#: The version of the shipped models' scores: raise it with any change to how they score (their
#: data files are hashed as well). The source is not hashed, so that a refactor or a comment does
#: not make the shipped readings stale; ``tests/test_readings_store.py`` reads the vocabulary
#: afresh and fails if the shipped readings differ in any bit, which catches a forgotten raise.
SCORES_VERSION = 3


@functools.cache
def shipped_fingerprint() -> str | None:
    """A hash of what the shipped models' scores come from: their data files and
    :data:`SCORES_VERSION` (a new fingerprint means that a kept reading is not used).
    ``None`` when a file cannot be read."""
    digest = hashlib.sha256(f"huescues-models-{SCORES_VERSION}".encode())
    try:
        data = resources.files("huescues.data")
        for folder in _DATA_FOLDERS:
            for item in sorted(data.joinpath(folder).iterdir(), key=lambda p: p.name):
                # What the models read, not the notes beside it (a README or a licence).
                if item.is_file() and not item.name.endswith((".md", ".txt")):
                    digest.update(item.name.encode() + b"\0" + item.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()[:20]


def register_shipped(model: object, name: str) -> None:
    """Mark ``model`` as the shipped model called ``name`` (done by the loaders)."""
    _SHIPPED[model] = name


def model_cache_key(model: object) -> str | None:
    """A stable name for ``model``'s scores, or ``None`` when it has none (then nothing
    computed from it is kept on disk).

    The shipped models (``default_model()``, ``NamingModel.default()``,
    ``EmbeddingModel.default()``, ``combined_model()``, ``ObjectColourModel.default()``) and
    blends or combinations of them have one, made from a hash of the package's model data and
    :data:`SCORES_VERSION`. Any other model may opt in with a ``cache_key`` string attribute,
    which must change whenever its scores do."""
    try:
        name = _SHIPPED.get(model)
    except TypeError:  # not weakly referable: not a shipped model
        name = None
    if name is not None:
        fingerprint = shipped_fingerprint()
        return None if fingerprint is None else f"{name}@{fingerprint}"
    # Imported here: the models' modules register their shipped instances with this one.
    from ._combined import CombinedModel
    from ._default import BlendedModel

    if type(model) is BlendedModel:
        base, other = model_cache_key(model.base), model_cache_key(model.other)
        if base is None or other is None:
            return None
        scale = "" if model.scale == 1.0 else f",scale={model.scale!r}"
        return f"blend({base},{other},{model.weight!r}{scale})"
    if type(model) is CombinedModel:
        naming, vectors = model_cache_key(model.naming), model_cache_key(model.embedding)
        if naming is None or vectors is None:
            return None
        return f"combined({naming},{vectors})"
    own = getattr(model, "cache_key", None)
    return own if isinstance(own, str) and own else None
