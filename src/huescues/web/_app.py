"""The web application: the game tables, the study and a health check, on Starlette."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from huescues.engine import available_languages

from ._db import Database
from ._headers import SecurityHeaders
from ._study import study_routes
from ._study_config import StudyConfig
from ._study_schema import STUDY_SCHEMA
from ._tables import GAME_SCHEMA, TableService, TableSettings

__all__ = ["create_app"]


async def _page_texts(request: Request) -> Response:
    """A language's texts for the pages, from its pack (``data/languages/CODE/pages.json``)."""
    code = request.path_params["code"]
    if code not in available_languages():
        return JSONResponse({"error": f"no language {code[:10]!r}"}, status_code=404)
    path = resources.files("huescues").joinpath("data", "languages", code, "pages.json")
    return Response(path.read_bytes(), media_type="application/json")


async def _healthz(request: Request) -> JSONResponse:
    database: Database = request.app.state.db
    # In a thread: the probe may wait for another process's lock (busy_timeout).
    problem = await run_in_threadpool(database.write_problem)
    if problem is not None:
        return JSONResponse({"status": "error", "database": problem}, status_code=503)
    return JSONResponse({"status": "ok"})


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    # A write the database refused (read-only, full disk, locked): the server is up but cannot
    # keep anything, which is the server's state, not the request's fault.
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return JSONResponse(
        {"error": f"the database cannot be written now ({reason}); try again later"},
        status_code=503,
        headers={"Retry-After": "30"},
    )


def create_app(
    db: str | Path = "huescues.sqlite",
    *,
    study: StudyConfig | None = None,
    tables: TableSettings | None = None,
) -> Starlette:
    """The ASGI application behind ``huescues serve``: tables at ``/`` (set by ``tables``), the
    study at ``/study`` (set by ``study``), ``GET /healthz``, ``GET /api/languages`` (the pages'
    languages and the server's defaults), and the page's own assets (nothing from a CDN).

    A ``db`` that is not a sound SQLite database, or that cannot be written, is a ``ValueError``
    naming it: the server refuses to start rather than lose what people do."""
    database = Database(db, schema=(*GAME_SCHEMA, *STUDY_SCHEMA))
    problem = database.write_problem()
    if problem is not None:
        database.close()
        raise ValueError(f"{database.path}: {problem}")
    service = TableService(database, tables)
    study = study or StudyConfig()
    table_language = (tables or TableSettings()).language

    async def languages(request: Request) -> JSONResponse:
        # The pages' languages (their texts, in each language's pack) and the server's defaults: the
        # tables' (huescues serve --language) and the study's (--study-language).
        return JSONResponse(
            {
                "languages": list(available_languages()),
                "tables": table_language,
                "study": study.language,
            }
        )

    routes: list[BaseRoute] = [
        Route("/healthz", _healthz),
        Route("/api/languages", languages),
        # Before the static mount: the pages' texts live with the rest of each language's pack.
        Route("/static/i18n/{code}.json", _page_texts),
        Mount("/static", StaticFiles(packages=[("huescues.web", "static")]), name="static"),
        *service.routes(),
        *study_routes(database, study),
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

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={sqlite3.Error: _database_error},
    )
    app.state.db = database
    return app
