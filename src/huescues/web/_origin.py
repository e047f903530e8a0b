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

__all__ = ["SameOrigin", "foreign_origin"]


def foreign_origin(headers: Headers, public_url: str | None) -> str | None:
    """The request's ``Origin`` when it is another site's, else None: it must be http(s) and
    name the host (and port) the request came to, or ``public_url``'s."""
    origin = headers.get("origin")
    if origin is None:
        return None
    own = {headers.get("host", "").lower()}
    if public_url is not None:
        own.add(urlsplit(public_url).netloc.lower())
    try:
        parts = urlsplit(origin)
    except ValueError:  # an unbalanced "[" of an IPv6 address
        return origin
    if parts.scheme in ("http", "https") and parts.netloc and parts.netloc.lower() in own:
        return None
    return origin  # another site's, or "null" (a sandboxed frame, a file)


class SameOrigin:
    """Pure ASGI middleware refusing what :func:`foreign_origin` finds, before the route."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        origin = foreign_origin(Headers(scope=scope), self.public_url)
        if origin is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            # Closed before it is accepted: the handshake is answered 403.
            await send({"type": "websocket.close", "code": 1008})
        else:
            await _forbidden(origin, send)


async def _forbidden(origin: str, send: Send) -> None:
    message = f"Origin {origin[:80]!r} is not this server's: a page of another site may not call it"
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})
