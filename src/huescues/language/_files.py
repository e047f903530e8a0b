"""Reading a saved model's npz archive with errors that name the file."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

__all__ = ["model_file"]


@contextlib.contextmanager
def model_file(
    path: str | os.PathLike[str] | IO[bytes], what: str, name: str = ""
) -> Iterator[Any]:
    """The npz archive of a saved model (an ``NpzFile``), open for the ``with`` block, or a
    :class:`ValueError` naming the file (``name``, else ``path``) as not ``what`` (with its
    article: ``"a naming model"``) file: when it is no npz archive (numpy's own error speaks of
    pickled data) or lacks an array the block reads (numpy's error is a KeyError)."""
    label = name or (str(path) if isinstance(path, str | os.PathLike) else "the file")
    try:
        archive = np.load(path, allow_pickle=False)
    except ValueError:
        raise ValueError(f"{label}: not {what} file (no npz archive)") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise ValueError(f"{label}: not {what} file (a single array, no npz archive)")
    with archive:
        try:
            yield archive
        except KeyError as e:
            key = str(e.args[0] if e.args else "").removesuffix(" is not a file in the archive")
            raise ValueError(f"{label}: not {what} file (it has no {key!r})") from None
