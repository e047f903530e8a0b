"""Held-out splits of named colours, the same on every machine, so that evaluations never see
the names they are judged on."""

from __future__ import annotations

import hashlib

__all__ = ["N_FOLDS", "fold_of", "normalise_name"]

#: Number of folds of the standard cross-validation.
N_FOLDS = 5


def normalise_name(name: str) -> str:
    """A colour name as the models compare names: lowercase, single spaces, no surrounding
    punctuation (``"Ocean  Blue"`` and ``"ocean blue"`` are one name)."""
    return " ".join(name.lower().replace("'", "").split()).strip(' .,;:!?"')


def fold_of(name: str, n_folds: int = N_FOLDS) -> int:
    """The fold (0 to ``n_folds`` - 1) a name belongs to: a hash of the normalised name, so a
    name is held out together with its spellings in every source."""
    digest = hashlib.sha256(normalise_name(name).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % n_folds
