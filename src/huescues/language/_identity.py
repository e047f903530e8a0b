"""A stable name for the shipped colour-term models' scores, so that what players compute from
them can be kept on disk and shipped: the same name means the same scores. (Other models name
their scores themselves: ``cache_key``, see ``_capabilities.py``.)"""

from __future__ import annotations

import functools
import hashlib
import weakref
from importlib import resources

__all__ = ["SCORES_VERSION", "register_shipped", "shipped_key"]

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


def shipped_key(model: object) -> str | None:
    """The name of a shipped model's scores: its name and :func:`shipped_fingerprint`
    (``"naming@62c9..."``); ``None`` for any other model, or when the data cannot be read."""
    try:
        name = _SHIPPED.get(model)
    except TypeError:  # not weakly referable: not a shipped model
        return None
    if name is None:
        return None
    fingerprint = shipped_fingerprint()
    return None if fingerprint is None else f"{name}@{fingerprint}"
