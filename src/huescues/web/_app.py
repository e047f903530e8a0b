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
from ._tables import GAME_SCHEMA, TableSettings, table_routes

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
    routes: list[BaseRoute] = [
        Route("/healthz", _healthz),
        Mount("/static", StaticFiles(packages=[("huescues.web", "static")]), name="static"),
        *table_routes(database, tables),
        *study_routes(database, study or StudyConfig()),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        database.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.db = database
    return app
