"""The web application: the game tables, the study and a health check, on Starlette."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import AsyncIterator, Collection
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, Router
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from huescues.engine import available_languages

from ._db import Database, DatabaseLocked
from ._headers import SECURITY_HEADERS, SecurityHeaders
from ._hosts import AllowedHosts, allowed_host_names
from ._links import Links
from ._logs import log_failure
from ._origin import SameOrigin
from ._store import GAME_ADDED, GAME_SCHEMA
from ._study import study_routes
from ._study_config import StudyConfig
from ._study_schema import STUDY_ADDED, STUDY_SCHEMA
from ._tables import TableService, TableSettings

__all__ = ["create_app"]


async def _page_texts(request: Request) -> Response:
    """A language's texts for the pages, from its pack (``data/languages/CODE/pages.json``)."""
    code = request.path_params["code"]
    if code not in available_languages():
        return JSONResponse({"error": f"no language {code[:10]!r}"}, status_code=404)
    path = resources.files("huescues").joinpath("data", "languages", code, "pages.json")
    body = path.read_bytes()
    # Asked again on every page load: a phone that has them answers from its cache, asking only
    # whether they changed (a weak tag: the bytes sent may be compressed).
    tag = f'W/"{hashlib.sha256(body).hexdigest()[:20]}"'
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def _static() -> ASGIApp:
    """The pages' files and texts, compressed for a browser that takes gzip (a Spanish page's
    first load is 67 KB as it is, 23 KB compressed: a second less at 50 KB/s). Only these: an
    answer of the API holds seat tokens beside what a client sent, which compression would
    let a third party guess at from the answers' sizes (BREACH)."""
    files = StaticFiles(packages=[("huescues.web", "static")])
    # Before the files: the pages' texts live with the rest of each language's pack.
    texts = Router([Route("/i18n/{code}.json", _page_texts), Mount("/", files)])
    return GZipMiddleware(texts, minimum_size=1024)


async def _healthz(request: Request) -> JSONResponse:
    database: Database = request.app.state.db
    # On the database's reading threads: the probe waits at most about a second, and never
    # behind the server's own writes.
    problem = await database.read(database.write_problem)
    if problem is not None:
        return JSONResponse({"status": "error", "database": problem}, status_code=503)
    return JSONResponse({"status": "ok"})


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    # A write the database refused (read-only, full disk, locked): the server is up but cannot
    # keep anything, which is the server's state, not the request's fault. Nothing was written.
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return JSONResponse(
        {"error": f"the database cannot be written now ({reason}); try again later"},
        status_code=503,
        # Another process's lock passes in moments; a full or read-only disk does not.
        headers={"Retry-After": "2" if isinstance(exc, DatabaseLocked) else "30"},
    )


#: Set in a request's scope once its failure is logged, so that it is logged once.
_LOGGED = "huescues.failure_logged"


def _failure_answer(ident: str) -> JSONResponse:
    return JSONResponse(
        {"error": f"the server failed on this request (failure {ident}); it is logged"},
        status_code=500,
        headers=dict(SECURITY_HEADERS),
    )


_NOT_FOUND_PAGE = resources.files("huescues.web").joinpath("static", "404.html")


async def _not_found(request: Request, exc: Exception) -> Response:
    """A page in the site's style with a way back, for a person who followed a wrong address;
    JSON for the API's callers."""
    path = request.url.path
    if path.startswith(("/api/", "/study/api/", "/static/i18n/")):
        return JSONResponse({"error": "no such page"}, status_code=404)
    return Response(_NOT_FOUND_PAGE.read_bytes(), status_code=404, media_type="text/html")


async def _server_error(request: Request, exc: Exception) -> Response:
    # Starlette's 500 is made outside every middleware: its security headers are set here.
    request.scope[_LOGGED] = True
    return _failure_answer(log_failure(f"{request.method} {request.url.path[:100]}", exc))


class _Failures:
    """The outermost layer: a request or socket the application failed on (a bug) is logged
    once, with an id, and answered with a 500 that carries the id and the security headers;
    nothing is raised on to uvicorn, which would log it again."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as e:
            if scope.get(_LOGGED):
                return  # answered and logged by _server_error
            ident = log_failure(f"{scope['type']} {str(scope.get('path', ''))[:100]}", e)
            if started:
                return  # the answer is under way: the connection ends here
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1011})
                return
            await _failure_answer(ident)(scope, receive, send)


class _Application(Starlette):
    """Starlette, inside :class:`_Failures`."""

    def build_middleware_stack(self) -> ASGIApp:
        return _Failures(super().build_middleware_stack())


def create_app(
    db: str | Path = "huescues.sqlite",
    *,
    study: StudyConfig | None = None,
    tables: TableSettings | None = None,
    public_url: str | None = None,
    host: str = "127.0.0.1",
    allowed_hosts: Collection[str] | None = None,
) -> Starlette:
    """The ASGI application behind ``huescues serve``: tables at ``/`` (set by ``tables``), the
    study at ``/study`` (set by ``study``), ``GET /healthz``, ``GET /api/languages`` (the pages'
    languages and the server's defaults), and the page's own assets (nothing from a CDN). Seat
    links start with ``public_url`` where given, else with the address the request came to
    (:class:`~huescues.web._links.Links`; ``host`` is the address the server is bound to).
    With ``allowed_hosts`` given (``huescues serve`` always gives it), a request whose ``Host``
    names neither an address, ``localhost``, ``public_url``'s host nor one of these names is
    refused, which stops DNS rebinding (:mod:`huescues.web._hosts`; ``"*"`` allows any); with
    None, as for a test client's ``testserver``, any ``Host`` passes.

    A ``db`` that is not a sound SQLite database, that cannot be written, or whose tables are
    someone else's, is a ``ValueError`` naming it and the table: the server refuses to start
    rather than lose what people do, or change what is not its own."""
    database = Database(db, schema=(*GAME_SCHEMA, *STUDY_SCHEMA), added=(*GAME_ADDED, *STUDY_ADDED))
    problem = database.write_problem()
    if problem is not None:
        database.close()
        raise ValueError(f"{database.path}: {problem}")
    service = TableService(database, tables, Links(public_url, host))
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
        Mount("/static", _static(), name="static"),
        *service.routes(),
        *study_routes(database, study, service),
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

    hosts = (
        []
        if allowed_hosts is None
        else [Middleware(AllowedHosts, names=allowed_host_names(public_url, allowed_hosts))]
    )
    app = _Application(
        routes=routes,
        lifespan=lifespan,
        # The headers outermost: a refusal of another site's page carries them too.
        middleware=[
            Middleware(SecurityHeaders),
            *hosts,
            Middleware(SameOrigin, public_url=public_url),
        ],
        exception_handlers={
            sqlite3.Error: _database_error,
            404: _not_found,
            Exception: _server_error,
        },
    )
    app.state.db = database
    return app
