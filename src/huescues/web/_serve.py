"""``huescues serve``: the web application on uvicorn, bound to localhost unless told otherwise.

One database has one server: :func:`serve` holds an ``flock`` on ``DB.lock`` beside the database
from before it binds the port until its process ends (a ``kill -9`` included, as the system drops
a dead process's locks), and a second server on the same database refuses to start. The commands
that only read a database (``responses export``, ``replay DB``) take no lock."""

from __future__ import annotations

import dataclasses
import errno
import ipaddress
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from ._app import create_app
from ._hosts import allowed_host_names, check_host_name
from ._http import SPARE_FILES, guarded_http, guarded_websocket
from ._links import lan_addresses
from ._logs import quiet_repeats
from ._study_config import StudyConfig
from ._tables import TableSettings

__all__ = [
    "MAX_FRAME_BYTES",
    "DatabaseHeld",
    "check_public_url",
    "default_max_connections",
    "hold_database",
    "serve",
    "server_config",
]

_MAX_PORT = 65535
#: The largest WebSocket frame (and message) read: a longer one is closed with 1009 before its
#: payload is read. Messages of more than ``TableSettings.max_message_bytes`` up to this are
#: answered with an ``error`` and the socket stays open.
MAX_FRAME_BYTES = 64 * 1024


class DatabaseHeld(OSError):
    """Another ``huescues serve`` holds this database."""


def _file_limit() -> int | None:
    """This process's limit on open files (the soft one), or None where there is none to read."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def default_max_connections() -> int:
    """The server's connection cap by default: 1,000, or the open-file limit less the files the
    process needs besides, if that is lower."""
    soft = _file_limit()
    return 1000 if soft is None else max(1, min(1000, soft - SPARE_FILES))


def _check_max_connections(n: int) -> None:
    soft = _file_limit()
    if n < 1:
        raise ValueError(f"--max-connections {n}: allow at least 1 connection")
    if soft is not None and n >= soft:
        raise ValueError(
            f"--max-connections {n}: at or above this process's open-file limit ({soft}), so "
            f"the server would run out of files before it refused a connection; give at most "
            f"{max(1, soft - SPARE_FILES)}, or raise the limit (ulimit -n)"
        )


#: The most people ``--people-per-address`` takes: a lab, not a number that overflows the limits.
_MAX_PEOPLE = 10_000


def per_address_limits(
    people: int, study: StudyConfig, tables: TableSettings, connections_per_address: int
) -> tuple[StudyConfig, TableSettings, int]:
    """The limits on one client address made ``people`` times as large, for ``people`` who reach
    the server through one address (a lab's computers behind one NAT): a study's requests and
    new participants, the games in play, the WebSocket connects and connections, and the open
    connections (``connections_per_address``). The server's own caps stay as they are."""
    if type(people) is not int or not 1 <= people <= _MAX_PEOPLE:
        raise ValueError(
            f"--people-per-address {str(people)[:20]}: give a whole number from 1 to {_MAX_PEOPLE}"
        )
    if people == 1:
        return study, tables, connections_per_address
    study = dataclasses.replace(
        study,
        rate=study.rate * people,
        burst=study.burst * people,
        starts_per_minute=study.starts_per_minute * people,
    )
    tables = dataclasses.replace(
        tables,
        connect_burst=tables.connect_burst * people,
        connect_rate=tables.connect_rate * people,
        max_tables_per_address=tables.max_tables_per_address * people,
        max_connections_per_address=tables.max_connections_per_address * people,
    )
    return study, tables, connections_per_address * people


def check_public_url(url: str) -> str:
    """``--public-url``, checked: ``http(s)://host[:port]`` with no path, query or fragment (one
    trailing slash is dropped); a ``ValueError`` names what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.hostname is None:
        raise ValueError(
            f"--public-url {url[:80]!r}: give the address people reach the server at, "
            "http://HOST[:PORT] or https://HOST[:PORT]"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(
            f"--public-url {url[:80]!r}: give the server's address without a path (the server "
            "serves from /)"
        )
    try:
        parts.port  # noqa: B018 - raises on a port that is no number
    except ValueError:
        raise ValueError(f"--public-url {url[:80]!r}: the port is no number") from None
    return f"{parts.scheme}://{parts.netloc}"


@contextmanager
def hold_database(db: str | Path) -> Iterator[None]:
    """Hold ``DB.lock`` beside the database while the block runs: a :class:`DatabaseHeld` if
    another process holds it. The system lets a dead process's lock go, so a server killed with
    ``kill -9`` does not stop the next one from starting."""
    if str(db) == ":memory:":
        yield
        return
    path = Path(f"{db}.lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle: IO[Any] = open(path, "a+")  # noqa: SIM115 - held open for the block
    except OSError as e:
        raise OSError(f"{db}: cannot make its lock file {path} ({e.strerror or e})") from None
    try:
        try:
            _lock(handle)
        except OSError as e:
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OSError(f"{db}: cannot lock {path} ({e.strerror or e})") from None
            raise DatabaseHeld(
                f"{db}: another huescues serve holds it (the lock {path}); stop that server "
                "first, or give another --db"
            ) from None
        # Who holds it, for a person looking at the file (the lock, not the text, is the hold).
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield
    finally:
        handle.close()


def _lock(handle: IO[Any]) -> None:
    """Hold ``handle``'s file, or raise ``OSError`` (EWOULDBLOCK) if another process does."""
    if sys.platform == "win32":  # pragma: no cover - a lock on the first byte
        import msvcrt

        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def server_config(
    app: Any,
    *,
    header_timeout: float = 10.0,
    connections_per_address: int = 64,
    max_connections: int | None = None,
    forwarded_allow_ips: str | None = None,
) -> Any:
    """The uvicorn configuration ``serve`` runs ``app`` with (the tests' servers run with it
    too): the guarded protocols, WebSocket frames of at most :data:`MAX_FRAME_BYTES` and no
    compression, and the client's address from ``X-Forwarded-For`` only when it comes from one
    of ``forwarded_allow_ips`` (addresses or networks, comma-separated, or ``*``)."""
    import uvicorn

    trusted = [] if forwarded_allow_ips is None else forwarded_allow_ips.split(",")
    http = guarded_http(
        header_timeout=header_timeout,
        per_address=connections_per_address,
        max_connections=default_max_connections() if max_connections is None else max_connections,
        trusted=trusted,
    )
    return uvicorn.Config(
        app,
        log_level="warning",
        http=http,
        ws=guarded_websocket(),
        ws_max_size=MAX_FRAME_BYTES,
        # Off: an inflated frame is what let 15 KiB on the wire become 15 MiB in the server, and
        # every compressed connection keeps zlib's windows for its life; our messages are small.
        ws_per_message_deflate=False,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "",
        lifespan="on",
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = "huescues.sqlite",
    *,
    study: StudyConfig | None = None,
    tables: TableSettings | None = None,
    header_timeout: float = 10.0,
    connections_per_address: int = 64,
    max_connections: int | None = None,
    public_url: str | None = None,
    forwarded_allow_ips: str | None = None,
    allowed_hosts: Sequence[str] = (),
    people_per_address: int = 1,
) -> None:
    """Serve the tables (set by ``tables``) and the study until interrupted.

    A connection whose request head is not complete ``header_timeout`` seconds after it opened
    (or after a kept-alive request began) is closed; one client address may hold at most
    ``connections_per_address`` connections open (WebSockets included), and the server at most
    ``max_connections`` (default :func:`default_max_connections`; at or above the open-file
    limit is a ``ValueError``); more are refused with a 503. Seat links start with
    ``public_url`` (:func:`check_public_url`) when given. A request naming a host other than
    an address, ``localhost``, ``host`` (a name), ``public_url``'s or one of ``allowed_hosts``
    (names, ``.name`` for its subdomains too, or ``"*"`` for any) is refused, against DNS
    rebinding; a bad name is a ``ValueError``. ``people_per_address`` makes the limits on one
    address that many times as large (:func:`per_address_limits`). The database is held
    (:func:`hold_database`) from before the port is bound: a second server on it is a
    :class:`DatabaseHeld`. A port that cannot be had (in use, not allowed) is an ``OSError``
    naming it, raised before anything is printed; a number that is no port (above 65535, say)
    is a ``ValueError``, raised before anything is made."""
    if type(port) is not int or not 0 <= port <= _MAX_PORT:
        # (The address lookup would take 99999 for 34463, its last 16 bits.)
        raise ValueError(f"port {port!r}: a port is 0 to {_MAX_PORT} (0: any free port)")
    if max_connections is not None:
        _check_max_connections(max_connections)
    base = None if public_url is None else check_public_url(public_url)
    allowed_host_names(base, allowed_hosts)  # a bad name is refused before anything is made
    # The name the server is bound by (--host mybox.lan) is one it answers to.
    allowed_hosts = [*allowed_hosts, *_bound_name(host)]
    study, tables, connections_per_address = per_address_limits(
        people_per_address,
        study or StudyConfig(),
        tables or TableSettings(),
        connections_per_address,
    )
    import uvicorn

    with hold_database(db):
        app = create_app(
            db,
            study=study,
            tables=tables,
            public_url=base,
            host=host,
            allowed_hosts=allowed_hosts,
        )
        config = server_config(
            app,
            header_timeout=header_timeout,
            connections_per_address=connections_per_address,
            max_connections=max_connections,
            forwarded_allow_ips=forwarded_allow_ips,
        )
        sock = _listen(host, port)
        port = sock.getsockname()[1]
        print(f"huescues serve: http://{host}:{port}/ (study: http://{host}:{port}/study), db {db}")
        for address in _also_at(host, port, base):
            print(f"huescues serve: also at {address}")
        sys.stdout.flush()
        quiet_repeats()
        try:
            uvicorn.Server(config).run(sockets=[sock])
        finally:
            sock.close()


def _bound_name(host: str) -> list[str]:
    """``host`` when it is a name a browser can send, not an address (nothing for ``0.0.0.0``,
    ``::1`` or ``""``)."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        try:
            return [check_host_name(host)] if host.strip() else []
        except ValueError:
            return []  # no name a browser writes in Host: binding to it fails on its own
    return []


def _also_at(host: str, port: int, public_url: str | None) -> list[str]:
    """The other addresses people can reach the server at: the public URL, and on a server
    bound to every address, the machine's addresses on its networks."""
    out = [] if public_url is None else [f"{public_url}/"]
    try:
        wildcard = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        wildcard = False
    if wildcard:
        for address in lan_addresses():
            shown = f"[{address}]" if ":" in address else address
            out.append(f"http://{shown}:{port}/")
    return out


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``, so the port is held before the server says it is
    serving (uvicorn would print its own error, after ours, and exit 3)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as e:
        raise OSError(f"host {host}: no such address here ({e.strerror})") from None
    sock = socket.socket(family, kind, proto)
    # As uvicorn does: a restarted server need not wait for the old connections' TIME_WAIT.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)  # uvicorn's backlog: clients queue from the moment we say we serve
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise OSError(
                f"port {port} on {host} is in use (another server?): stop it or give --port"
            ) from None
        raise OSError(f"cannot listen on port {port} of {host} ({e.strerror or e})") from None
    return sock
