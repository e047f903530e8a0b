"""Readings of a vocabulary on a board kept in files: shipped for the standard board
(``scripts/build_board_readings.py``) and cached on disk for other boards, each file holding
the key it was made for, so that a file made for another board, model, vocabulary or version
of the code is never used.

A file is a small JSON header (the key and the arrays' shapes) and two compressed arrays: the
log beliefs (float32, byte planes apart, which compress better) and, for the frame
probabilities, only how far each float32 value lies from the one recomputed from the stored
log beliefs (in units in the last place; mostly 0 or ±1, so it packs small). The recomputed
frame plus that difference is exactly the frame :func:`read_board` made, so decisions made
from a file are the same as from a fresh reading.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
import zlib
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board
from huescues.language import ColourTermModel, model_cache_key

from . import _scores
from ._listener import on_board

__all__ = [
    "CACHE_DIR_ENV",
    "CACHE_OFF_ENV",
    "FORMAT",
    "Arrays",
    "board_hash",
    "cache_path",
    "decode",
    "encode",
    "frame_of",
    "load",
    "readings_cache_dir",
    "readings_key",
    "save",
    "shipped_name",
    "shipped_path",
    "words_hash",
]

#: Bumped whenever the files' layout changes.
FORMAT = 1
_MAGIC = b"HCREAD1\n"
#: Where to keep readings of other boards (default: the user cache directory).
CACHE_DIR_ENV = "HUESCUES_CACHE_DIR"
#: Set to ``0``, ``off``, ``no`` or ``false`` to keep nothing on disk and read every board afresh.
CACHE_OFF_ENV = "HUESCUES_CACHE"
#: Words whose frame probabilities are recomputed together (keeps the temporaries small).
_CHUNK = 512

#: The log beliefs and frame probabilities of a reading, float32, shape (words, rows, cols).
Arrays = tuple[NDArray[np.float32], NDArray[np.float32]]


def board_hash(board: Board) -> str:
    """The board's colours (not its id, which a user may reuse), hashed.

    The colours are rounded to 1e-6 first: the same sRGB board converts to CIELAB values that
    differ in the last bits between machines (numpy's AVX-512 kernels round differently), and
    a shipped reading must be found on every machine (the readings are float32: those bits
    never reach them)."""
    digest = hashlib.sha256(f"{board.rows}x{board.cols}\0".encode())
    lab = np.round(np.asarray(board.lab, dtype=np.float64), 6) + 0.0  # + 0.0: no -0.0
    digest.update(np.ascontiguousarray(lab).tobytes())
    return digest.hexdigest()[:24]


def words_hash(words: tuple[str, ...]) -> str:
    """The vocabulary, hashed (its order counts: readings are indexed by it)."""
    return hashlib.sha256("\n".join(words).encode()).hexdigest()[:24]


def _code_fingerprint() -> str:
    """What the code that turns scores into readings does, so that a change to it makes every
    kept file stale: the readings the agents' code makes from fixed scores and the frame
    probabilities this module recomputes from them (a check by behaviour: a rewrite that
    changes no number keeps the files), with :data:`FORMAT` for the file's layout. Made for
    each reading kept or looked for (a fraction of a millisecond: once per model and board)."""
    digest = hashlib.sha256(str(FORMAT).encode())
    # Scores like a model's: peaked, flat and floored words, on a board with edges and a middle.
    w, r, c = np.indices((6, 5, 7), dtype=np.float64)
    scale = np.array([1.0, 10.0, 100.0, 0.0, 1.0, 0.3])[:, None, None]
    scores = -scale * ((3 * w + 5 * r + 7 * c) % 11 + r * c / 9)
    scores[5] = np.maximum(scores[5], -0.5)
    log_belief, frame = _scores.from_scores(scores)
    for array in (log_belief, frame, frame_of(log_belief, (5, 7))):
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:12]


def readings_key(
    model: ColourTermModel, board: Board, words: tuple[str, ...]
) -> dict[str, str] | None:
    """What a kept reading must have been made for, or ``None`` when ``model`` has no stable
    name (:func:`~huescues.language.model_cache_key`): then nothing is kept for it. The name is
    the model's as it reads this board (:func:`on_board`): a reading made before the models
    read in view, or of other colours in view, is another file."""
    name = model_cache_key(on_board(model, board))
    if name is None:
        return None
    return {
        "code": f"{FORMAT}-{_code_fingerprint()}",
        "model": name,
        "board": board_hash(board),
        "words": words_hash(words),
    }


def frame_of(log_belief: NDArray[np.float32], shape: tuple[int, int]) -> NDArray[np.float32]:
    """Frame probabilities recomputed from float32 log beliefs, near the exact ones (a few units
    in the last place): in float32, as a 3 x 3 box sum done by rows then columns, in chunks of
    words. Only the difference to the exact values is stored, so any fast computation that gives
    the same numbers when writing and reading will do."""
    n = len(log_belief)
    rows, cols = shape
    out = np.empty((n, rows, cols), dtype=np.float32)
    padded = np.zeros((min(n, _CHUNK), rows + 2, cols + 2), dtype=np.float32)
    for start in range(0, n, _CHUNK):
        part = log_belief[start : start + _CHUNK].reshape(-1, rows, cols)
        pad = padded[: len(part)]
        np.exp(part, out=pad[:, 1:-1, 1:-1])
        by_rows = pad[:, :-2] + pad[:, 1:-1] + pad[:, 2:]
        out[start : start + len(part)] = by_rows[..., :-2] + by_rows[..., 1:-1] + by_rows[..., 2:]
    return out


def encode(key: dict[str, str], log_belief: NDArray[np.float32], frame: NDArray[np.float32], *,
           level: int = 9) -> bytes:  # fmt: skip
    """A file's bytes for a reading (``level``: zlib's, 1 fast to 9 small)."""
    shape = log_belief.shape
    planes = np.ascontiguousarray(log_belief, dtype="<f4").view(np.uint8).reshape(-1, 4).T
    ulps = frame.astype("<f4").view("<i4").astype(np.int64) - frame_of(
        log_belief, (shape[1], shape[2])
    ).astype("<f4").view("<i4")
    small = next(t for t in ("<i1", "<i2", "<i4") if _fits(ulps, np.dtype(t)))
    first = zlib.compress(planes.tobytes(), level)
    second = zlib.compress(ulps.astype(small).tobytes(), level)
    header = {**key, "shape": list(shape), "ulps": small, "sizes": [len(first), len(second)]}
    text = json.dumps(header, sort_keys=True).encode()
    return _MAGIC + len(text).to_bytes(4, "little") + text + first + second


def decode(raw: bytes, key: dict[str, str]) -> Arrays | None:
    """The reading in a file's bytes, or ``None`` when they are not a reading made for ``key``
    (another board, model, vocabulary or code; truncated or corrupt)."""
    try:
        if not raw.startswith(_MAGIC):
            return None
        start = len(_MAGIC) + 4
        size = int.from_bytes(raw[len(_MAGIC) : start], "little")
        header = json.loads(raw[start : start + size])
        if any(header.get(k) != v for k, v in key.items()):
            return None
        rows, height, width = (int(x) for x in header["shape"])
        first, second = (int(x) for x in header["sizes"])
        body = start + size
        if len(raw) != body + first + second:
            return None
        count = rows * height * width
        planes = np.frombuffer(zlib.decompress(raw[body : body + first]), dtype=np.uint8)
        ulps = np.frombuffer(zlib.decompress(raw[body + first :]), dtype=np.dtype(header["ulps"]))
        if planes.size != 4 * count or ulps.size != count:
            return None
    except (ValueError, KeyError, TypeError, zlib.error):
        return None
    log_belief = planes.reshape(4, count).T.copy().view("<f4").reshape(rows, height, width)
    frame = frame_of(log_belief, (height, width))
    fixed = frame.view("<i4")
    fixed += ulps.reshape(frame.shape)
    return log_belief.astype(np.float32, copy=False), frame


def _fits(a: NDArray[np.int64], dtype: np.dtype[np.signedinteger]) -> bool:
    info = np.iinfo(dtype)
    return bool(a.size == 0 or (a.min() >= info.min and a.max() <= info.max))


def shipped_path(board: Board, key: dict[str, str]) -> Path:
    """Where a shipped reading for ``board`` and ``key``'s model would be (only the standard
    board has them); the file's header still decides whether it is used."""
    return _shipped_folder() / shipped_name(board, key)


def shipped_name(board: Board, key: dict[str, str]) -> str:
    """The shipped file's name: the board's id and the model's name without its fingerprints
    (its data's and its view's: ``huescues-standard-v1-naming.bin``), stable across rebuilds.
    A long name (a pool of blends) is cut, with a hash of the whole, to keep paths short
    (Windows allows 260)."""
    model = re.sub(r"@(?:view-)?[0-9a-f]+", "", key["model"])
    name = re.sub(r"[^A-Za-z0-9.]+", "-", model).strip("-")
    if len(name) > 60:
        name = f"{name[:40].rstrip('-.')}-{hashlib.sha256(name.encode()).hexdigest()[:12]}"
    return f"{board.id}-{name}.bin"


def _shipped_folder() -> Path:
    return Path(str(resources.files("huescues.data").joinpath("readings")))


def readings_cache_dir() -> Path | None:
    """Where readings of boards other than the standard one are kept between processes:
    ``$HUESCUES_CACHE_DIR`` if set, else the user cache directory (``$XDG_CACHE_HOME/huescues``,
    ``~/.cache/huescues``; ``~/Library/Caches/huescues`` on macOS, ``%LOCALAPPDATA%`` on
    Windows). ``None`` when ``HUESCUES_CACHE`` is ``0``, ``off``, ``no`` or ``false``: then
    nothing is kept on disk, and the shipped readings are not used either (every process reads
    every board afresh, as before readings were kept)."""
    if os.environ.get(CACHE_OFF_ENV, "").strip().lower() in {"0", "off", "no", "false"}:
        return None
    chosen = os.environ.get(CACHE_DIR_ENV, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "huescues" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "huescues"
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg else Path.home() / ".cache") / "huescues"


def cache_path(folder: Path, key: dict[str, str]) -> Path:
    """The file in ``folder`` for ``key``."""
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return folder / "readings" / f"{name}.bin"


def load(path: Path, key: dict[str, str]) -> Arrays | None:
    """The reading in ``path`` made for ``key``, or ``None`` (missing, stale or damaged)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    return decode(raw, key)


def save(path: Path, raw: bytes) -> bool:
    """Write ``raw`` to ``path`` whole or not at all: another process reading or writing the
    same file at the same time sees the old file or the new one, never a mix. Whether it was
    written (a read-only or full disk only costs the next process the reading)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True
