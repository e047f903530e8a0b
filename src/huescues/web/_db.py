"""The server's SQLite database: one file, WAL mode, every write in a transaction, so that a
restart loses no finished game and no response."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["Database"]


class Database:
    """A SQLite file shared by the server's tables and studies.

    One connection, guarded by a lock: the server's writes are small and few (a finished game,
    a click), so a single writer is simpler than a pool and SQLite serialises writers anyway.
    ``schema`` is the ``CREATE TABLE IF NOT EXISTS`` statements of the parts that use it.
    """

    def __init__(self, path: str | Path, schema: Sequence[str] = ()) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        # WAL: readers never block the writer, and a crash mid-write leaves the last commit.
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=5000")
        with self.transaction() as cur:
            for statement in schema:
                cur.execute(statement)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Cursor]:
        """A cursor whose statements commit together, or not at all if the block raises."""
        with self._lock:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """The rows a read-only statement returns."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            self._conn.close()
