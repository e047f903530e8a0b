"""The web application: the game tables, the study and a health check, on Starlette."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ._db import Database
from ._study import STUDY_SCHEMA, StudyConfig, study_routes
from ._tables import GAME_SCHEMA, TableService, TableSettings

__all__ = ["create_app"]


async def _healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


def create_app(
    db: str | Path = "huescues.sqlite",
    *,
    study: StudyConfig | None = None,
    tables: TableSettings | None = None,
) -> Starlette:
    """The ASGI application behind ``huescues serve``: tables at ``/`` (set by ``tables``), the
    study at ``/study`` (set by ``study``), ``GET /healthz``, and the page's own assets (nothing
    from a CDN)."""
    database = Database(db, schema=(*GAME_SCHEMA, *STUDY_SCHEMA))
    service = TableService(database, tables)
    routes: list[BaseRoute] = [
        Route("/healthz", _healthz),
        Mount("/static", StaticFiles(packages=[("huescues.web", "static")]), name="static"),
        *service.routes(),
        *study_routes(database, study or StudyConfig()),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # The games in play when the server stopped are rebuilt from their stored actions.
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            database.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.db = database
    return app
