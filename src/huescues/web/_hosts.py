"""DNS rebinding: a site whose name is made to point at this server (``127.0.0.1``, or a game
night's LAN address) sends its own name in both ``Origin`` and ``Host``, so
:class:`~huescues.web._origin.SameOrigin` takes its page for the server's own, and any page a
player visits could reach a server only they can reach. A request that names a host the server
does not answer to is refused (400; a WebSocket closed before it opens). An address (``127.0.0.1``,
``192.168.1.5``, ``[::1]``) always passes: rebinding needs a name. So do ``localhost`` and its
subdomains (a browser keeps them on the loopback itself), the name the server is bound by,
``--public-url``'s name, and the names given with ``--allowed-hosts``. Only the forms a
browser writes in ``Host`` are read (``name:port``, ``[v6]:port``)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp

from ._origin import Refusing

__all__ = ["ANY_HOST", "AllowedHosts", "allowed_host_names", "check_host_name", "host_allowed"]

#: ``--allowed-hosts *``: any name (the check off).
ANY_HOST = "*"

# A host name as DNS writes it (letters, digits, hyphens and underscores between dots), with a
# leading dot for a name and its subdomains.
_NAME = re.compile(r"\.?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*")


# What a browser writes in ``Host``: a name or an IPv4 address, or an IPv6 address in brackets
# (a zone written %25eth0), then a port.
_HOST = re.compile(r"(?P<name>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+(%25[A-Za-z0-9._~-]+)?\])(:\d{1,5})?")


def check_host_name(name: str) -> str:
    """One ``--allowed-hosts`` entry as a browser writes it in ``Host``: lowercased, a name of
    other scripts in its ASCII form (``bücher.example`` is ``xn--bcher-kva.example``); a host
    name (``games.example.org``), one with a leading dot for it and its subdomains
    (``.example.org``), or ``*``; a ``ValueError`` names anything else (a port, a scheme, a
    path)."""
    entry = name.strip().lower().rstrip(".")
    if not entry.isascii():
        dot, rest = (".", entry[1:]) if entry.startswith(".") else ("", entry)
        try:
            entry = dot + rest.encode("idna").decode("ascii")
        except UnicodeError:
            entry = ""
    if entry == ANY_HOST or _NAME.fullmatch(entry):
        return entry
    raise ValueError(
        f"--allowed-hosts {name[:80]!r}: give host names (games.example.org, or .example.org "
        "for it and its subdomains) without a scheme, port or path, or * for any"
    )


def allowed_host_names(public_url: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a server answers to besides addresses: ``localhost`` (and its subdomains),
    ``public_url``'s host and ``extra`` (each checked by :func:`check_host_name`; a list, not
    one string)."""
    if isinstance(extra, str):
        raise TypeError(f"allowed hosts are a list of names, not the string {extra[:80]!r}")
    names = {"localhost", ".localhost", *(check_host_name(name) for name in extra)}
    host = None if public_url is None else urlsplit(public_url).hostname
    if host and not _is_address(host):
        names.add(check_host_name(host))
    return frozenset(names)


def host_allowed(host: str | None, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` (``name[:port]``, ``[v6]:port``, nothing else) is one the
    server answers to: an address, or a name in ``names`` (an entry ``.example.org`` takes in
    ``example.org`` and every name under it). A request without ``Host`` passes: a browser
    always sends one."""
    if host is None or ANY_HOST in names:
        return True
    found = _HOST.fullmatch(host)
    if found is None:
        return False
    name = found["name"].lower().rstrip(".")
    if _is_address(name):
        return True
    if name in names:
        return True
    return any(
        entry.startswith(".") and (name == entry[1:] or name.endswith(entry)) for entry in names
    )


def _is_address(name: str) -> bool:
    """Whether ``name`` is an IP address (an IPv6 one in brackets, with or without a zone)."""
    try:
        ipaddress.ip_address(name.strip("[]").replace("%25", "%"))
    except ValueError:
        return False
    return True


class AllowedHosts(Refusing):
    """Refuses a request whose ``Host`` :func:`host_allowed` refuses (400)."""

    def __init__(self, app: ASGIApp, names: frozenset[str]) -> None:
        super().__init__(app)
        self.names = names

    def refusal(self, headers: Headers) -> tuple[int, str] | None:
        host = headers.get("host")
        if host_allowed(host, self.names):
            return None
        return 400, (
            f"Host {str(host)[:80]!r} is not a name this server answers to: an address, "
            "localhost, --host's or --public-url's name, or one given with --allowed-hosts"
        )
