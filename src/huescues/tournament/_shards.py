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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board

from ._chunks_pool import map_in_order
from ._results_file import (
    LazyLines,
    ResultsFileError,
    check_scores,
    header,
    in_game_order,
    iter_array,
)

__all__ = [
    "SHARD_GAMES",
    "ShardLines",
    "is_shard_directory",
    "next_shard_number",
    "read_shards",
    "scan_shards",
    "write_final_shards",
    "write_shard",
]

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


def _parts(directory: Path) -> list[Path]:
    return sorted(directory.glob("part-*.parquet"))


def scan_shards(
    directory: Path, *, board: Board | None = None
) -> Iterator[tuple[int, int, int, dict[str, Any]]]:
    """``(index, shard, row, game)`` for every game in the directory's whole shards, each checked
    (see :func:`check_scores`), a shard at a time on every core (``_chunks_pool``; ``game`` is
    the line's header: what a resume compares with its schedule); stale ``.tmp``
    files of a killed run are removed."""
    if not directory.exists():
        return
    _pyarrow()
    for stale in directory.glob(".part-*.tmp"):
        stale.unlink()
    tasks = ((part, board) for part in _parts(directory))
    for done, error in map_in_order(_check_part, tasks):
        yield from done
        if error is not None:
            raise error


def _check_part(
    task: tuple[Path, Board | None],
) -> tuple[list[tuple[int, int, int, dict[str, Any]]], ResultsFileError | None]:
    """The games of one shard, each checked, up to the first that fails (and its error)."""
    part, board = task
    _, pq = _pyarrow()
    number = int(part.stem.split("-")[1])
    table = pq.read_table(part)
    games = table.column("game").to_pylist()
    lines = table.column("line").to_pylist()
    del table
    done: list[tuple[int, int, int, dict[str, Any]]] = []
    rules: dict[str, Any] | None = None
    for row, (game, line) in enumerate(zip(games, lines, strict=True)):
        parsed = json.loads(str(line))
        try:
            check_scores(parsed, f"{part}, game {game}", board)
        except ResultsFileError as e:
            return done, e
        head = header(parsed, rules)
        rules = head.get("record", {}).get("rules", rules)
        done.append((int(game), number, row, head))
    return done, None


def next_shard_number(directory: Path) -> int:
    """The number after the directory's highest shard."""
    parts = _parts(directory) if directory.exists() else []
    return max((int(p.stem.split("-")[1]) for p in parts), default=-1) + 1


def read_shards(directory: Path) -> tuple[dict[int, str], int]:
    """The games in the directory's whole shards, by index, and the next free shard number
    (all in memory: for small directories; :class:`ShardLines` reads them when used)."""
    lines = ShardLines.read(directory)
    return {json.loads(line)["game"]: line for line in lines}, next_shard_number(directory)


class ShardLines(LazyLines):
    """The lines in a directory of shards, in game order, read one shard at a time when used
    (only the shard and row of each game are held)."""

    def __init__(self, parts: Sequence[Path], shard: NDArray[np.int64], row: NDArray[np.int64]):
        self._parts = list(parts)
        self._shard = shard
        self._row = row
        self._cached: tuple[int, list[str]] = (-1, [])

    @classmethod
    def read_final(cls, directory: Path, total: int) -> ShardLines:
        """The games of a directory just written in order by :func:`write_final_shards`."""
        games = np.arange(total, dtype=np.int64)
        return cls(_parts(directory), games // SHARD_GAMES, games % SHARD_GAMES)

    @classmethod
    def read(cls, directory: Path, *, board: Board | None = None, check: bool = True) -> ShardLines:
        """Every game of the directory, each checked as it is read (unless ``check`` is false:
        then only the ``game`` column is read)."""
        parts = _parts(directory) if directory.exists() else []
        place = {int(p.stem.split("-")[1]): i for i, p in enumerate(parts)}
        index: list[int] = []
        where: list[int] = []
        if not check:
            _, pq = _pyarrow()
            for i, part in enumerate(parts):
                games = pq.read_table(part, columns=["game"]).column("game").to_pylist()
                index.extend(int(g) for g in games)
                where.extend(i << 32 | row for row in range(len(games)))
        for game, number, row, _ in scan_shards(directory, board=board) if check else ():
            index.append(game)
            where.append(place[number] << 32 | row)
        ordered = in_game_order(np.array(index, dtype=np.int64), np.array(where, dtype=np.int64))
        return cls(parts, ordered >> 32, ordered & 0xFFFFFFFF)

    def _lines(self, shard: int) -> list[str]:
        if self._cached[0] != shard:
            _, pq = _pyarrow()
            table = pq.read_table(self._parts[shard], columns=["line"])
            self._cached = (shard, [str(x) for x in table.column("line").to_pylist()])
        return self._cached[1]

    def __len__(self) -> int:
        return len(self._shard)

    def _line(self, index: int) -> str:
        return self._lines(int(self._shard[index]))[int(self._row[index])]

    def __iter__(self) -> Iterator[str]:
        for shard, row in zip(iter_array(self._shard), iter_array(self._row), strict=True):
            yield self._lines(shard)[row]

    def __repr__(self) -> str:
        return f"<{len(self)} results lines in {len(self._parts)} Parquet shards>"


def write_final_shards(directory: Path, total: int) -> ShardLines:
    """Replace the directory's shards by its games ``0 .. total - 1`` in order,
    :data:`SHARD_GAMES` a shard, reading only the shards that hold each new shard's games (a
    shard's range of games is read from its ``game`` column first), so the memory needed is
    a few shards' worth whatever the number of games."""
    _, pq = _pyarrow()
    old = _parts(directory)
    ranges = []
    for part in old:
        games = pq.read_table(part, columns=["game"]).column("game").to_pylist()
        if games:
            ranges.append((min(games), max(games), part))
    staging = directory / ".final"
    staging.mkdir(exist_ok=True)
    for stale in staging.iterdir():
        stale.unlink()
    loaded: dict[Path, list[tuple[int, str]]] = {}
    for n, lo in enumerate(range(0, total, SHARD_GAMES)):
        hi = min(lo + SHARD_GAMES, total)
        for done in [p for p in loaded if not any(r[2] == p and r[1] >= lo for r in ranges)]:
            del loaded[done]
        found: dict[int, str] = {}
        for first, last, part in ranges:  # in part order: the first copy of a game wins
            if last < lo or first >= hi:
                continue
            if part not in loaded:
                table = pq.read_table(part)
                loaded[part] = list(
                    zip(
                        (int(g) for g in table.column("game").to_pylist()),
                        (str(x) for x in table.column("line").to_pylist()),
                        strict=True,
                    )
                )
            for game, line in loaded[part]:
                if lo <= game < hi:
                    found.setdefault(game, line)
        missing = [g for g in range(lo, hi) if g not in found]
        if missing:
            raise ResultsFileError(f"{directory}: games {missing[:5]} are in no shard")
        write_shard(staging, n, [(g, found[g]) for g in range(lo, hi)])
    for part in old:
        part.unlink()
    for part in sorted(staging.glob("part-*.parquet")):
        os.replace(part, directory / part.name)
    staging.rmdir()
    return ShardLines.read_final(directory, total)
