"""``huescues serve``: the web application on uvicorn, bound to localhost unless told otherwise."""

from __future__ import annotations

from pathlib import Path

from ._app import create_app
from ._http import guarded_http
from ._study import StudyConfig

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = "huescues.sqlite",
    *,
    study: StudyConfig | None = None,
    header_timeout: float = 10.0,
    connections_per_address: int = 64,
) -> None:
    """Serve the tables and the study until interrupted.

    A connection whose request head is not complete ``header_timeout`` seconds after it opened
    (or after a kept-alive request began) is closed, and one client address may hold at most
    ``connections_per_address`` connections open (WebSockets included); more are refused with
    a 503."""
    import uvicorn

    http = guarded_http(header_timeout=header_timeout, per_address=connections_per_address)
    app = create_app(db, study=study)
    print(f"huescues serve: http://{host}:{port}/ (study: http://{host}:{port}/study), db {db}")
    uvicorn.run(app, host=host, port=port, log_level="warning", http=http)
