"""Results as Parquet shards (``out="results.parquet"``, a directory): the same lines as the
JSON-lines file, one row a game, for tools that read Parquet. Needs pyarrow (``huescues[export]``).

While the run goes, every finished batch becomes a shard of its own, written to a temporary name
and renamed into place, so a killed run leaves only whole shards. When the run ends, the shards
are rewritten in game order, :data:`SHARD_GAMES` games each, so the final directory is the same,
byte for byte, whatever the number of workers or the order of completion.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ._results import check_scores

__all__ = ["SHARD_GAMES", "is_shard_directory", "read_shards", "write_final_shards", "write_shard"]

#: Games per shard in the final, ordered directory.
SHARD_GAMES = 1000
_PART = "part-{:06d}.parquet"


def _pyarrow() -> tuple[Any, Any]:
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError as e:
        raise ImportError("Parquet results need pyarrow: pip install 'huescues[export]'") from e
    return pa, pq


def is_shard_directory(path: Path) -> bool:
    """Whether ``path`` names Parquet shards (it ends in ``.parquet``)."""
    return path.suffix == ".parquet"


def write_shard(directory: Path, number: int, games: Sequence[tuple[int, str]]) -> None:
    """One shard of (game index, line) pairs, written whole or not at all."""
    pa, pq = _pyarrow()
    table = pa.table(
        {
            "game": pa.array([g for g, _ in games], type=pa.int64()),
            "line": pa.array([line for _, line in games], type=pa.string()),
        }
    )
    final = directory / _PART.format(number)
    tmp = directory / f".{final.name}.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, final)


def read_shards(directory: Path) -> tuple[dict[int, str], int]:
    """The games in the directory's whole shards, by index, and the next free shard number."""
    if not directory.exists():
        return {}, 0
    _, pq = _pyarrow()
    lines: dict[int, str] = {}
    top = -1
    for part in sorted(directory.glob("part-*.parquet")):
        top = max(top, int(part.stem.split("-")[1]))
        table = pq.read_table(part)
        for game, line in zip(
            table.column("game").to_pylist(), table.column("line").to_pylist(), strict=True
        ):
            if int(game) not in lines:
                check_scores(json.loads(str(line)), f"{part}, game {game}")
            lines.setdefault(int(game), str(line))
    for stale in directory.glob(".part-*.tmp"):
        stale.unlink()
    return lines, top + 1


def write_final_shards(directory: Path, ordered: Iterable[tuple[int, str]]) -> None:
    """Replace the directory's shards by the games in order, :data:`SHARD_GAMES` a shard."""
    games = list(ordered)
    old = sorted(directory.glob("part-*.parquet"))
    staging = directory / ".final"
    staging.mkdir(exist_ok=True)
    for stale in staging.iterdir():
        stale.unlink()
    for n, start in enumerate(range(0, len(games), SHARD_GAMES)):
        write_shard(staging, n, games[start : start + SHARD_GAMES])
    for part in old:
        part.unlink()
    for part in sorted(staging.glob("part-*.parquet")):
        os.replace(part, directory / part.name)
    staging.rmdir()
