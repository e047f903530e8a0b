"""``huescues serve``: the web application on uvicorn, bound to localhost unless told otherwise."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

from ._app import create_app
from ._http import guarded_http
from ._study_config import StudyConfig
from ._tables import TableSettings

__all__ = ["serve"]

_MAX_PORT = 65535


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = "huescues.sqlite",
    *,
    study: StudyConfig | None = None,
    tables: TableSettings | None = None,
    header_timeout: float = 10.0,
    connections_per_address: int = 64,
) -> None:
    """Serve the tables (set by ``tables``) and the study until interrupted.

    A connection whose request head is not complete ``header_timeout`` seconds after it opened
    (or after a kept-alive request began) is closed, and one client address may hold at most
    ``connections_per_address`` connections open (WebSockets included); more are refused with
    a 503. A port that cannot be had (in use, not allowed) is an ``OSError`` naming it, raised
    before anything is printed; a number that is no port (above 65535, say) is a ``ValueError``,
    raised before anything is made."""
    if type(port) is not int or not 0 <= port <= _MAX_PORT:
        # (The address lookup would take 99999 for 34463, its last 16 bits.)
        raise ValueError(f"port {port!r}: a port is 0 to {_MAX_PORT} (0: any free port)")
    import uvicorn

    http = guarded_http(header_timeout=header_timeout, per_address=connections_per_address)
    app = create_app(db, study=study, tables=tables)
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    print(f"huescues serve: http://{host}:{port}/ (study: http://{host}:{port}/study), db {db}")
    config = uvicorn.Config(app, log_level="warning", http=http)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


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
