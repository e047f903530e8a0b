"""The links the server hands out (a seat's ``/play#t=TOKEN``): where they start.

BASE is ``huescues serve --public-url`` when given (the address people reach the server at,
behind a proxy or a tunnel). Without it, BASE is the address the request came to (its scheme and
``Host``), except that a request to a loopback address on a server bound to more than the
loopback (``--host 0.0.0.0``) gets the machine's address on its network instead: a link to
``127.0.0.1`` opens nothing on a friend's phone."""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

__all__ = ["Links", "lan_addresses"]

#: What a ``Host`` header may hold to be used in a link: a name or address and a port.
_HOST = re.compile(r"[A-Za-z0-9.\-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?")


def _is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's addresses on its networks other than the loopback (IPv4 first), as far as
    can be told without sending anything: the address a route out would use (a UDP socket's
    ``connect`` sends no packet), then the host name's."""
    found: list[str] = []
    for probe in ("192.0.2.1", "10.255.255.255"):  # TEST-NET-1, and a private network
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
            except OSError:
                pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    out: list[str] = []
    for address in found:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) and address not in out:
            out.append(address)
    return out


@dataclass(frozen=True)
class Links:
    """Where the server's links start: ``public_url`` (checked by ``serve``) or the request's
    address; ``host`` is the address the server is bound to."""

    public_url: str | None = None
    host: str = "127.0.0.1"
    _lan: list[str] = field(default_factory=list, compare=False, repr=False)

    def base(self, request: HTTPConnection) -> str:
        """BASE for links answered to ``request``, without a trailing slash."""
        if self.public_url is not None:
            return self.public_url
        scheme = "https" if request.url.scheme in ("https", "wss") else "http"
        given = request.headers.get("host", "")
        if not _HOST.fullmatch(given):
            port = request.url.port
            given = f"{self._bound()}" + ("" if port is None else f":{port}")
        parts = urlsplit(f"//{given}")
        name = parts.hostname or ""
        if _is_loopback(name) and not _is_loopback(self.host):
            lan = self._bound()
            shown = f"[{lan}]" if ":" in lan else lan
            given = shown + ("" if parts.port is None else f":{parts.port}")
        return f"{scheme}://{given}"

    def seat(self, request: HTTPConnection, token: str | None) -> str | None:
        """A seat's link, or the spectators' (``None`` for a bot's seat, which has no
        token)."""
        return None if token is None else f"{self.base(request)}/play#t={token}"

    def invite(self, request: HTTPConnection, token: str) -> str:
        """A table's invite link: whoever opens it takes a free person's seat."""
        return f"{self.base(request)}/join#i={token}"

    def _bound(self) -> str:
        """The address of this machine people reach: the bound one when it is one address,
        else the first on the machine's networks (the loopback if it has none)."""
        try:
            if not ipaddress.ip_address(self.host).is_unspecified:
                return self.host
        except ValueError:
            return self.host
        if not self._lan:
            self._lan.extend(lan_addresses() or ["127.0.0.1"])
        return self._lan[0]
