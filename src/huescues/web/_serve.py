"""``huescues serve``: the web application on uvicorn, bound to localhost unless told otherwise."""

from __future__ import annotations

from pathlib import Path

from ._app import create_app
from ._study import StudyConfig

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = "huescues.sqlite",
    *,
    study: StudyConfig | None = None,
) -> None:
    """Serve the tables and the study until interrupted."""
    import uvicorn

    app = create_app(db, study=study)
    print(f"huescues serve: http://{host}:{port}/ (study: http://{host}:{port}/study), db {db}")
    uvicorn.run(app, host=host, port=port, log_level="warning")
