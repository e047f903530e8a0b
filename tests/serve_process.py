"""``huescues serve`` as its own process on a free loopback port, as a person starts it: what
``kill -9`` ends, whose memory ``/proc`` reads, and whose standard error a test reads whole."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_FIRST_LINE = re.compile(r"huescues serve: http://127\.0\.0\.1:(\d+)/ ")


@dataclass
class Served:
    """A running server: its port, process and the files its output goes to."""

    port: int
    proc: subprocess.Popen[bytes]
    stdout: Path
    stderr: Path

    def err(self) -> str:
        return self.stderr.read_text(errors="replace")

    def rss_kib(self) -> dict[str, int]:
        """The process's VmRSS and VmHWM (its peak), in KiB."""
        found = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
        return found


def command(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "huescues", "serve", "--port", "0", "--db", str(db), *args]


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


@contextmanager
def serve_process(
    db: Path,
    *args: str,
    folder: Path | None = None,
    preexec: Callable[[], None] | None = None,
    timeout: float = 60.0,
) -> Iterator[Served]:
    """Start ``huescues serve --port 0 --db DB ARGS`` and wait for it to answer ``/healthz``;
    killed (SIGKILL) when the block ends, if it still runs."""
    where = folder or db.parent
    stamp = time.monotonic_ns()
    stdout, stderr = where / f"serve-{stamp}.out", where / f"serve-{stamp}.err"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        proc = subprocess.Popen(
            command(db, *args), stdout=out, stderr=err, env=environment(), preexec_fn=preexec
        )
    try:
        deadline = time.monotonic() + timeout
        port = None
        while port is None:
            found = _FIRST_LINE.search(stdout.read_text(errors="replace"))
            if found:
                port = int(found.group(1))
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {stderr.read_text()}")
            time.sleep(0.05)
        while True:
            try:
                if request(port, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not answer: {stderr.read_text()}")
            time.sleep(0.05)
        yield Served(port, proc, stdout, stderr)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    *,
    source: str = "127.0.0.1",
    timeout: float = 30.0,
) -> tuple[int, Any, dict[str, str]]:
    """One HTTP request from the loopback address ``source``: status, JSON (or text), headers."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        raw = response.read()
        try:
            parsed: Any = json.loads(raw or b"null")
        except ValueError:
            parsed = raw.decode(errors="replace")
        return response.status, parsed, {k.lower(): v for k, v in response.getheaders()}
    finally:
        conn.close()
