"""Security headers on every HTTP response of the server, in one place: the pages, their assets,
the JSON API, errors and 404s alike."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SECURITY_HEADERS", "SecurityHeaders"]

#: The pages run only their own files: scripts and styles from /static (none inline, no
#: ``style=`` attributes; styles set from scripts are allowed by CSP), the WebSocket to the same
#: host (``'self'`` covers ws/wss), and the empty ``data:,`` icon that spares a /favicon.ico
#: request. Nothing may frame them (clickjacking a seat's moves).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),  # frame-ancestors for browsers that predate it
    ("Referrer-Policy", "no-referrer"),  # a seat's link never leaves in a Referer
)


class SecurityHeaders:
    """Pure ASGI middleware setting :data:`SECURITY_HEADERS` on every HTTP response (replacing
    a route's own copy, so there is one policy)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
