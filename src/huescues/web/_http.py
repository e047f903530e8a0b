"""uvicorn's HTTP/1.1 and WebSocket protocols with the guards a server on the internet needs and
uvicorn lacks: a time limit on the request head, caps on the connections one address and the
whole server hold open, and the security headers on the answers uvicorn writes itself (a 400 for
a request it cannot parse, a refused WebSocket handshake).

uvicorn's ``timeout_keep_alive`` only closes a connection that is idle *after* a response, and
``h11_max_incomplete_event_size`` bounds the head's size, not its time: a client that opens a
connection and sends a header line every few seconds (slowloris) holds it for ever. So the head
must be complete within ``header_timeout`` seconds of the connection opening, and of the first
byte of each later request on a kept-alive connection. One address may hold at most
``per_address`` connections open at once, and the server at most ``max_connections`` (HTTP and
WebSocket alike, kept below the process's open-file limit, so that the accept loop never runs out
of files); more are answered 503 and closed at once. Addresses in ``trusted`` are proxies: they
count towards the server's cap only, as the application counts the clients they forward.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Response

from ._headers import SECURITY_HEADERS

__all__ = ["guarded_http", "guarded_websocket"]

#: Every process needs some files of its own beside the connections: the database, its journal,
#: the package's files, the threads' pipes.
SPARE_FILES = 64


def _refusal(text: bytes) -> bytes:
    # Written before the app sees the connection, so with the app's security headers added here.
    return (
        b"HTTP/1.1 503 Service Unavailable\r\n"
        b"content-type: text/plain; charset=utf-8\r\n"
        + b"".join(f"{name}: {value}\r\n".encode("ascii") for name, value in SECURITY_HEADERS)
        + b"retry-after: 10\r\n"
        + b"connection: close\r\n"
        + b"content-length: %d\r\n\r\n" % len(text)
        + text
    )


_ADDRESS_FULL = _refusal(b"too many connections from your address\n")
_SERVER_FULL = _refusal(b"the server has as many connections as it can hold; try again soon\n")


class _Trusted:
    """The proxies' addresses (``--forwarded-allow-ips``: addresses, networks, or ``*``)."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.everyone = False
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in entries:
            entry = entry.strip()
            if not entry:
                continue
            if entry == "*":
                self.everyone = True
                continue
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                raise ValueError(
                    f"forwarded-allow-ips: {entry[:40]!r} is no address or network"
                ) from None

    def __contains__(self, host: str) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


def guarded_http(
    *,
    header_timeout: float = 10.0,
    per_address: int = 64,
    max_connections: int = 1000,
    trusted: Iterable[str] = (),
) -> type[H11Protocol]:
    """A subclass of uvicorn's h11 protocol for ``uvicorn.Config(http=...)``, with its own counts
    of open connections, per client address and in all (so each server made with it counts its
    own)."""
    if not header_timeout > 0:
        raise ValueError(f"header_timeout {header_timeout}: give a number of seconds above 0")
    if per_address < 1:
        raise ValueError(f"per_address {per_address}: allow at least 1 connection")
    if max_connections < 1:
        raise ValueError(f"max_connections {max_connections}: allow at least 1 connection")
    proxies = _Trusted(trusted)
    open_per_address: dict[str, int] = {}
    total = [0]

    def release(address: str | None) -> None:
        total[0] -= 1
        if address is None:
            return
        left = open_per_address.get(address, 0) - 1
        if left > 0:
            open_per_address[address] = left
        else:
            open_per_address.pop(address, None)

    class GuardedH11Protocol(H11Protocol):
        open_connections = open_per_address  # for tests and logs: address -> connections
        open_in_all = total  # for tests and logs: [connections]

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._counted = False  # whether this object holds a count
            self._address: str | None = None  # the address it counts against, if any
            self._head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if total[0] >= max_connections:
                transport.write(_SERVER_FULL)
                transport.close()
                return
            counted = None if address in proxies else address
            if counted is not None and open_per_address.get(counted, 0) >= per_address:
                transport.write(_ADDRESS_FULL)
                transport.close()
                return
            total[0] += 1
            if counted is not None:
                open_per_address[counted] = open_per_address.get(counted, 0) + 1
            self._counted, self._address = True, counted
            self._watch_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_watching()
            if self._counted:
                release(self._address)
                self._counted, self._address = False, None
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
            if not self._counted:
                return
            address = self._address
            self._counted, self._address = False, None
            websocket = self.transport.get_protocol()
            lost = websocket.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                try:
                    lost(exc)
                finally:
                    release(address)

            setattr(websocket, "connection_lost", connection_lost)  # noqa: B010

        def send_400_response(self, msg: str) -> None:
            # uvicorn's own answer to a request it cannot parse, with the security headers.
            text = msg.encode("ascii")
            event = h11.Response(
                status_code=400,
                reason="Bad Request",
                headers=[
                    (b"content-type", b"text/plain; charset=utf-8"),
                    *((n.encode(), v.encode()) for n, v in SECURITY_HEADERS),
                    (b"connection", b"close"),
                    (b"content-length", str(len(text)).encode()),
                ],
            )
            try:
                self.transport.write(self.conn.send(event) or b"")
                self.transport.write(self.conn.send(h11.Data(data=text)) or b"")
                self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
            except h11.LocalProtocolError:
                pass  # the connection is past where an answer can go
            self.transport.close()

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


def guarded_websocket() -> type[WebSocketsSansIOProtocol]:
    """A subclass of uvicorn's WebSocket protocol for ``uvicorn.Config(ws=...)`` whose answers
    to a refused handshake (and a 500 before the handshake) carry the security headers. (The
    bounds on frames are the configuration's: see ``_serve.server_config``.)"""

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            send_response = self.conn.send_response

            def with_headers(response: Response) -> None:
                if response.status_code != 101:
                    for name, value in SECURITY_HEADERS:
                        response.headers[name] = value
                send_response(response)

            self.conn.send_response = with_headers  # type: ignore[method-assign]

    return GuardedWebSocketProtocol
