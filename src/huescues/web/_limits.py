"""Rate limits: token buckets, alone (one connection's messages) or one per client address (the
tables' connections, the study's requests)."""

from __future__ import annotations

import ipaddress
import threading
import time

__all__ = ["ClientLimiter", "TokenBucket", "client_key"]

#: Addresses kept before those whose bucket is full again are forgotten (a full bucket is what a
#: new address gets anyway).
_MAX_CLIENTS = 10_000


def client_key(host: str | None) -> str:
    """The client a limit counts: its IPv4 address, or its IPv6 address's /64 network (one
    home, one phone, one server holds a whole /64, so counting single addresses would let one
    client pass for millions)."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; a take of an empty bucket is refused."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class ClientLimiter:
    """A :class:`TokenBucket` per client address. Thread-safe: the study's handlers run in a
    thread pool."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self._buckets: dict[str, TokenBucket] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is None:
                if len(self._buckets) >= _MAX_CLIENTS:
                    self._forget_full()
                bucket = self._buckets[client] = TokenBucket(self.burst, self.rate)
            return bucket.take()

    def _forget_full(self) -> None:
        now = time.monotonic()
        refill = self.burst / self.rate
        self._buckets = {k: b for k, b in self._buckets.items() if now - b.stamp < refill}
