"""uvicorn's HTTP/1.1 protocol with two guards a server on the internet needs and uvicorn lacks:
a time limit on the request head, and a cap on the connections one address holds open.

uvicorn's ``timeout_keep_alive`` only closes a connection that is idle *after* a response, and
``h11_max_incomplete_event_size`` bounds the head's size, not its time: a client that opens a
connection and sends a header line every few seconds (slowloris) holds it for ever. So the head
must be complete within ``header_timeout`` seconds of the connection opening, and of the first
byte of each later request on a kept-alive connection. And one address may hold at most
``per_address`` connections open at once; more are answered 503 and closed at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ._headers import SECURITY_HEADERS

__all__ = ["guarded_http"]

_REFUSAL_TEXT = b"too many connections from your address\n"
# Written before the app sees the connection, so with the app's security headers added here.
_REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    + b"".join(f"{name}: {value}\r\n".encode("ascii") for name, value in SECURITY_HEADERS)
    + b"connection: close\r\n"
    + b"content-length: %d\r\n\r\n" % len(_REFUSAL_TEXT)
    + _REFUSAL_TEXT
)


def guarded_http(*, header_timeout: float = 10.0, per_address: int = 64) -> type[H11Protocol]:
    """A subclass of uvicorn's h11 protocol for ``uvicorn.Config(http=...)``, with its own count
    of open connections per client address (so each server made with it counts its own)."""
    if not header_timeout > 0:
        raise ValueError(f"header_timeout {header_timeout}: give a number of seconds above 0")
    if per_address < 1:
        raise ValueError(f"per_address {per_address}: allow at least 1 connection")
    open_per_address: dict[str, int] = {}

    def release(address: str) -> None:
        left = open_per_address.get(address, 0) - 1
        if left > 0:
            open_per_address[address] = left
        else:
            open_per_address.pop(address, None)

    class GuardedH11Protocol(H11Protocol):
        open_connections = open_per_address  # for tests and logs: address -> connections

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._address: str | None = None  # set while this object holds a count
            self._head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if open_per_address.get(address, 0) >= per_address:
                transport.write(_REFUSAL)
                transport.close()
                return
            open_per_address[address] = open_per_address.get(address, 0) + 1
            self._address = address
            self._watch_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_watching()
            if self._address is not None:
                release(self._address)
                self._address = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is self:  # not upgraded to a WebSocket
                self._watch_head()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._stop_watching()
            super().handle_websocket_upgrade(event)
            # The transport now belongs to the WebSocket protocol; this object hears no more
            # of it, so the count is released when the WebSocket's connection is lost.
            address, self._address = self._address, None
            if address is None:
                return
            websocket = self.transport.get_protocol()
            lost = websocket.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                try:
                    lost(exc)
                finally:
                    release(address)

            setattr(websocket, "connection_lost", connection_lost)  # noqa: B010

        def _watch_head(self) -> None:
            """Time the request head while one is awaited (the client's state is IDLE and it
            has sent something, or the connection is new); stop once the head is in."""
            awaiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
            if not awaiting:
                self._stop_watching()
            elif self._head_timer is None:
                self._head_timer = self.loop.call_later(header_timeout, self._head_too_slow)

        def _stop_watching(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol
