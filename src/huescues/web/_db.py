"""The server's SQLite database: one file, WAL mode, every write in a transaction synced to disk
before it returns (``synchronous=FULL``), so that neither a crash nor a power cut loses a write
the server acknowledged."""

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

    A path that is not a usable database (a directory, a text file, a damaged SQLite file) is a
    ``ValueError`` whose one line names the path; :meth:`write_problem` says whether writes can
    be made.
    """

    def __init__(self, path: str | Path, schema: Sequence[str] = ()) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        if str(path) != ":memory:":
            if self.path.is_dir():
                raise ValueError(f"{self.path} is a directory, not a database file")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise ValueError(
                    f"{self.path}: cannot make its folder ({e.strerror or e})"
                ) from None
        try:
            self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        except sqlite3.Error as e:
            raise ValueError(f"{self.path}: {_reason(e)}") from None
        self._conn.row_factory = sqlite3.Row
        try:
            self._open(schema)
        except sqlite3.Error as e:
            self._conn.close()
            raise ValueError(f"{self.path}: {_reason(e)}") from None
        except ValueError:
            self._conn.close()
            raise

    def _open(self, schema: Sequence[str]) -> None:
        # WAL: readers never block the writer, and a crash mid-write leaves the last commit.
        self._conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk before it returns, so a power cut loses nothing the server
        # acknowledged (NORMAL can lose the last commits to a power cut, not to a crash).
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA busy_timeout=5000")
        problems = [row[0] for row in self._conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise ValueError(f"{self.path}: the database is damaged ({'; '.join(problems)})")
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
                # SQLite has already rolled back after some errors (a full disk, say).
                if self._conn.in_transaction:
                    cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """The rows a read-only statement returns."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def write_problem(self) -> str | None:
        """Why a write cannot be made now (one line, without the file's name: ``/healthz``
        shows it to anyone), or ``None`` when it can.

        The probe takes the write lock and makes a new table, then rolls back: it finds a file
        or folder that became read-only, a lock held by another process and a database at its
        size limit, and leaves nothing behind. A full disk shows only when a commit reaches the
        disk, so a failed write answers 503 too (see ``create_app``).
        """
        try:
            with self._lock:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    self._conn.execute("CREATE TABLE _huescues_write_probe (x INTEGER)")
                finally:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK")
        except sqlite3.Error as e:
            return _reason(e)
        return None

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _reason(error: sqlite3.Error) -> str:
    """What SQLite's ``error`` says is wrong with the database, in one line."""
    message = " ".join(str(error).split())
    if "not a database" in message:
        return f"not a SQLite database ({message})"
    if "malformed" in message:
        return f"the database is damaged ({message})"
    if "readonly" in message or "unable to open" in message or "disk" in message:
        return f"cannot write the database ({message})"
    return f"cannot use the database ({message})"
