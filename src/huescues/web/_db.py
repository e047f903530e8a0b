"""The server's SQLite database: one file, WAL mode, every write in a transaction synced to disk
before it returns (``synchronous=FULL``), so that neither a crash nor a power cut loses a write
the server acknowledged.

No call reaches the database from the event loop: the server's handlers ``await``
:meth:`Database.write` and :meth:`Database.read`, which run on the database's own threads (so a
bot's long decision in the default pool never holds a write up), and the synchronous methods
refuse to run on a thread with a running event loop. A write waits for another process's lock
at most ``wait`` seconds (1 by default) and then fails with ``database is locked``, which the
application answers 503 with ``Retry-After``."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["Database", "DatabaseLocked", "OnEventLoop"]

T = TypeVar("T")

#: Seconds a write waits for another process's write lock before it fails.
WRITE_WAIT = 1.0
#: Seconds the health probe waits, for the connection and for the file's lock: it answers
#: within about twice this even while another process holds the lock.
_PROBE_WAIT = 0.5


class DatabaseLocked(sqlite3.OperationalError):
    """A write that waited its time for the database's lock (another process holds it) and was
    not made: nothing of it was written."""


class OnEventLoop(RuntimeError):
    """A database call made on a thread that runs an event loop: it would block every socket."""


def _off_the_loop() -> None:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise OnEventLoop(
        "a database call on the event loop (it would stop every connection while it waits): "
        "await Database.write or Database.read instead"
    )


class Database:
    """A SQLite file shared by the server's tables and studies.

    One connection for writes, guarded by a lock (the server's writes are small and SQLite
    serialises writers anyway), and one for reads, which in WAL mode never wait for a writer.
    ``schema`` is the ``CREATE TABLE IF NOT EXISTS`` statements of the parts that use it;
    ``added`` the columns (table, column, declaration) added to those tables since their first
    release, which a database written before them lacks and is given on open.

    A path that is not a usable database (a directory, a text file, a damaged SQLite file), or
    one whose tables of these names are someone else's (they lack columns the schema has that
    were never added later), is a ``ValueError`` whose one line names the path and the table;
    :meth:`write_problem` says whether writes can be made.
    """

    def __init__(
        self,
        path: str | Path,
        schema: Sequence[str] = (),
        *,
        added: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        self.path = Path(path)
        memory = str(path) == ":memory:"
        self._lock = threading.Lock()
        # An in-memory database is one connection's own: its reads go through the writer's.
        self._read_lock = self._lock if memory else threading.Lock()
        self._local = threading.local()
        self._writer: ThreadPoolExecutor | None = None
        self._readers: ThreadPoolExecutor | None = None
        self._executors_lock = threading.Lock()
        if not memory:
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
            self._open(schema, added)
        except sqlite3.Error as e:
            self._conn.close()
            raise ValueError(f"{self.path}: {_reason(e)}") from None
        except ValueError:
            self._conn.close()
            raise
        self._reader = self._conn if memory else self._connect_reader()

    @classmethod
    def snapshot(
        cls,
        path: str | Path,
        schema: Sequence[str] = (),
        *,
        added: Sequence[tuple[str, str, str]] = (),
    ) -> Database:
        """A copy in memory of the database at ``path``, read without writing to it (a server
        may hold it and write on; the file may be on a read-only file system), brought up to
        ``schema`` and ``added`` in the copy. For the commands that only read a database."""
        where = Path(path)
        if not where.is_file():
            raise ValueError(f"{where}: no such database (the --db file huescues serve wrote)")
        copy = cls(":memory:")
        try:
            source = _read_only(where)
        except sqlite3.Error as e:
            copy.close()
            raise ValueError(f"{where}: {_reason(e)}") from None
        try:
            problems = [row[0] for row in source.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:
                raise ValueError(f"{where}: the database is damaged ({'; '.join(problems)})")
            source.backup(copy._conn)
            copy.path = where
            copy._open(schema, added)
        except sqlite3.Error as e:
            copy.close()
            raise ValueError(f"{where}: {_reason(e)}") from None
        except ValueError:
            copy.close()
            raise
        finally:
            source.close()
        return copy

    def _connect_reader(self) -> sqlite3.Connection:
        reader = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        reader.row_factory = sqlite3.Row
        reader.execute("PRAGMA query_only=1")
        return reader

    def _open(self, schema: Sequence[str], added: Sequence[tuple[str, str, str]]) -> None:
        # WAL: readers never block the writer, and a crash mid-write leaves the last commit.
        self._conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk before it returns, so a power cut loses nothing the server
        # acknowledged (NORMAL can lose the last commits to a power cut, not to a crash).
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute(f"PRAGMA busy_timeout={int(WRITE_WAIT * 1000)}")
        problems = [row[0] for row in self._conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise ValueError(f"{self.path}: the database is damaged ({'; '.join(problems)})")
        self._check_tables(schema, added)
        with self.transaction() as cur:
            for statement in schema:
                cur.execute(statement)
            for table, column, declaration in added:
                if column not in _columns(cur, table):
                    cur.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")

    def _check_tables(self, schema: Sequence[str], added: Sequence[tuple[str, str, str]]) -> None:
        """Refuse a database whose tables of the schema's names are not the schema's: each must
        have every column the schema gives it, but for those added since (which it is given)."""
        if not schema:
            return
        model = sqlite3.connect(":memory:")
        try:
            for statement in schema:
                model.execute(statement)
            names = [
                r[0] for r in model.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            expected = {name: _columns(model.cursor(), name) for name in names}
        finally:
            model.close()
        later = {(table, column) for table, column, _ in added}
        cur = self._conn.cursor()
        for name, columns in expected.items():
            have = _columns(cur, name)
            if not have:
                continue
            missing = [c for c in columns if c not in have and (name, c) not in later]
            if missing:
                raise ValueError(
                    f"{self.path}: its table {name!r} is not huescues serve's (it lacks the "
                    f"columns {', '.join(missing)}): give another --db"
                )

    # -- synchronous calls (the database's threads, start-up and the commands) -----------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Cursor]:
        """A cursor whose statements commit together, or not at all if the block raises. It
        waits for another process's lock until the deadline of the :meth:`write` it runs in
        (else ``WRITE_WAIT``), then raises :class:`DatabaseLocked`."""
        _off_the_loop()
        with self._lock:
            wait = self._wait_left()
            cur = self._conn.cursor()
            cur.execute(f"PRAGMA busy_timeout={int(wait * 1000)}")
            try:
                cur.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                if "locked" in str(e) or "busy" in str(e):
                    raise DatabaseLocked(
                        f"database is locked (another process held it for over {wait:.1f} s)"
                    ) from None
                raise
            try:
                yield cur
            except BaseException:
                # SQLite has already rolled back after some errors (a full disk, say).
                if self._conn.in_transaction:
                    cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """The rows a read-only statement returns (from the last commit; never waits for a
        writer)."""
        _off_the_loop()
        with self._read_lock:
            return self._reader.execute(sql, params).fetchall()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Cursor]:
        """A cursor for several reads of one snapshot (a deferred transaction: no lock)."""
        _off_the_loop()
        with self._read_lock:
            cur = self._reader.cursor()
            if self._reader is self._conn:
                yield cur
                return
            cur.execute("BEGIN")
            try:
                yield cur
            finally:
                cur.execute("ROLLBACK")

    def write_problem(self) -> str | None:
        """Why a write cannot be made now (one line, without the file's name: ``/healthz``
        shows it to anyone), or ``None`` when it can. Answers within about a second, even while
        another process holds the lock or a write of the server's waits for it.

        The probe takes the write lock and makes a new table, then rolls back: it finds a file
        or folder that became read-only, a lock held by another process and a database at its
        size limit, and leaves nothing behind. A full disk shows only when a commit reaches the
        disk, so a failed write answers 503 too (see ``create_app``).
        """
        _off_the_loop()
        if not self._lock.acquire(timeout=_PROBE_WAIT):
            return "a write is waiting for the database's lock (another process holds it)"
        try:
            self._conn.execute(f"PRAGMA busy_timeout={int(_PROBE_WAIT * 1000)}")
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("CREATE TABLE _huescues_write_probe (x INTEGER)")
            finally:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
        except sqlite3.Error as e:
            return _reason(e)
        finally:
            self._lock.release()
        return None

    def close(self) -> None:
        for pool in (self._writer, self._readers):
            if pool is not None:
                pool.shutdown(wait=True)
        with self._lock:
            self._conn.close()
        if self._reader is not self._conn:
            with self._read_lock:
                self._reader.close()

    # -- from the event loop -------------------------------------------------------------------
    async def write(self, fn: Callable[..., T], *args: Any, wait: float = WRITE_WAIT) -> T:
        """``fn(*args)`` on the database's writing thread, where its :meth:`transaction` waits
        for another process's lock until ``wait`` seconds after this call (a write queued behind
        others counts its time in the queue), then raises :class:`DatabaseLocked`."""
        deadline = time.monotonic() + wait

        def job() -> T:
            if time.monotonic() >= deadline:
                raise DatabaseLocked(
                    f"database is locked (the write waited over {wait:.1f} s for its turn)"
                )
            self._local.deadline = deadline
            try:
                return fn(*args)
            finally:
                self._local.deadline = None

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool("writer"), job)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on one of the database's reading threads (reads, and the health
        probe: neither waits behind a write)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool("readers"), fn, *args)

    def _pool(self, which: str) -> ThreadPoolExecutor:
        with self._executors_lock:
            if which == "writer":
                if self._writer is None:
                    self._writer = ThreadPoolExecutor(1, thread_name_prefix="huescues-db-write")
                return self._writer
            if self._readers is None:
                self._readers = ThreadPoolExecutor(2, thread_name_prefix="huescues-db-read")
            return self._readers

    def _wait_left(self) -> float:
        deadline: float | None = getattr(self._local, "deadline", None)
        if deadline is None:
            return WRITE_WAIT
        return max(0.001, deadline - time.monotonic())


def _columns(cur: sqlite3.Cursor, table: str) -> list[str]:
    return [row[1] for row in cur.execute(f"PRAGMA table_info({table})")]


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that never writes to ``path``: read-only, and where even that needs a file
    beside it that cannot be made (a read-only file system), as an immutable file."""
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn = sqlite3.connect(f"{uri}?immutable=1", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn


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
