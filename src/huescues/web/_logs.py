"""What the server writes to its log: one line for a warning, one record with an id for a failure
(the id is also in the answer, so a person's report finds its traceback), and no flood.

A flood of one error (an exhausted file table makes asyncio log every refused ``accept`` with its
traceback: 48,000 of them, 19 MB, in five seconds) drowns the log and slows the server that
writes it, so the server's loggers let a few of each kind through per window and then say how
many they held back.
"""

from __future__ import annotations

import logging
import secrets
import sys
import threading
import time

__all__ = ["REPEATS", "RepeatFilter", "failure_id", "log_failure", "quiet_repeats", "warn"]

#: The loggers a server's floods come through: asyncio's (the accept loop), uvicorn's and ours.
_LOGGERS = ("asyncio", "uvicorn.error", "huescues.web")
#: Records of one kind let through per window.
REPEATS = 5

_log = logging.getLogger("huescues.web")


class RepeatFilter(logging.Filter):
    """Lets ``burst`` records of each kind (logger and message template) through per ``window``
    seconds; the first let through after a window that held some back says how many."""

    def __init__(self, burst: int = REPEATS, window: float = 10.0) -> None:
        super().__init__()
        self.burst, self.window = burst, window
        self._seen: dict[tuple[str, str], list[float | int]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:200])
        now = time.monotonic()
        with self._lock:
            seen = self._seen.get(key)
            if seen is None or now - seen[0] >= self.window:
                held = 0 if seen is None else int(seen[2])
                if len(self._seen) > 1000:  # kinds are few; an unbounded dict is not
                    self._seen.clear()
                self._seen[key] = [now, 1, 0]
                if held:
                    record.msg = f"{record.msg} ({held} more like this were not logged)"
                return True
            if seen[1] < self.burst:
                seen[1] = int(seen[1]) + 1
                return True
            seen[2] = int(seen[2]) + 1
            return False


def quiet_repeats() -> None:
    """Put a :class:`RepeatFilter` on the server's loggers (once)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RepeatFilter) for f in logger.filters):
            logger.addFilter(RepeatFilter())


def warn(text: str) -> None:
    """One line on standard error: ``huescues serve: warning: TEXT``."""
    print(f"huescues serve: warning: {text}", file=sys.stderr, flush=True)


def failure_id() -> str:
    return secrets.token_hex(4)


def log_failure(what: str, error: BaseException) -> str:
    """Log ``error`` (a bug: a request or message the server failed on) once, with its
    traceback and a new id; the id, for the answer."""
    ident = failure_id()
    _log.error("failure %s: %s", ident, what, exc_info=error)
    return ident
