"""Requests and WebSockets from another site's page are refused: a browser names the page's
site in ``Origin``, and one that is not this server's (the ``Host`` the request came to, or
``--public-url``) is answered 403, its WebSocket closed before it opens. Otherwise any page a
player visits could make tables, answer a study as its visitor or open a seat's socket with
their browser. A request without ``Origin`` (a script, a test, a page's own navigation) is not
a page of another site's, and passes."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["Refusing", "SameOrigin", "foreign_origin"]


#: The ports a browser leaves out of ``Origin`` (and ``Host``): the scheme's own.
_DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def foreign_origin(headers: Headers, public_url: str | None) -> str | None:
    """The request's ``Origin`` when it is another site's, else None: it must be http(s) and
    name the host (and port) the request came to, or ``public_url``'s."""
    origin = headers.get("origin")
    if origin is None:
        return None
    try:
        parts = urlsplit(origin)
    except ValueError:  # an unbalanced "[" of an IPv6 address
        return origin
    if parts.scheme not in _DEFAULT_PORTS or not parts.netloc:
        return origin  # "null" (a sandboxed frame, a file), or no web page's
    # (The Host of the request a page of this origin sends, whose port is the origin's.)
    own = {_site(headers.get("host", ""), parts.scheme)}
    if public_url is not None:
        public = urlsplit(public_url)
        own.add(_site(public.netloc, public.scheme))
    if _site(parts.netloc, parts.scheme) in own:
        return None
    return origin  # another site's


def _site(netloc: str, scheme: str) -> str:
    """``netloc`` as compared: lowercased, without ``scheme``'s default port. A browser never
    writes that port in ``Origin``, while an operator may in ``--public-url``
    (``https://games.example.org:443``) and a proxy in ``Host`` (``$host:$server_port``)."""
    netloc = netloc.lower()
    default = _DEFAULT_PORTS.get(scheme, "")
    return netloc.removesuffix(default) if default else netloc


class Refusing:
    """Pure ASGI middleware that refuses, before the route, a request or WebSocket for which
    :meth:`refusal` gives a status and a message (a WebSocket's handshake is answered 403)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def refusal(self, headers: Headers) -> tuple[int, str] | None:
        raise NotImplementedError

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = self.refusal(Headers(scope=scope))
        if refused is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            # Closed before it is accepted: the handshake is answered 403.
            await send({"type": "websocket.close", "code": 1008})
        else:
            await _refuse(send, *refused)


class SameOrigin(Refusing):
    """Refuses what :func:`foreign_origin` finds (403)."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        super().__init__(app)
        self.public_url = public_url

    def refusal(self, headers: Headers) -> tuple[int, str] | None:
        origin = foreign_origin(headers, self.public_url)
        if origin is None:
            return None
        return (
            403,
            f"Origin {origin[:80]!r} is not this server's: a page of another site may not call it",
        )


async def _refuse(send: Send, status: int, message: str) -> None:
    """Answer ``status`` with ``{"error": message}``, before any route (from a middleware)."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
