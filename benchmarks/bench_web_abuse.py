"""Abuse on ``huescues serve``: abandoned tables and idle connections from many addresses, and the
server's memory. One real server process on loopback (uvicorn on ``create_app(db,
tables=TableSettings(...))``, its resident memory read from ``/proc/PID/status``):

1. warm-up: a table of a person and every bot the server offers (``GET /api/setup``), played to
   the end by a scripted person over a WebSocket; the models loaded stay loaded;
2. ``--tables`` abandoned tables, created by ``POST /api/tables`` from many loopback addresses
   (127.0.10.x, at most ``max_tables_per_address`` each), in waves of at most ``max_tables``
   (the total cap) with the idle expiry awaited between waves; nobody ever joins them;
3. ``--connections`` WebSockets from loopback addresses (127.0.11.x, 20 each) that complete the
   handshake and never join a seat: each must be closed by the server after the join deadline;
4. a new person, from an address of its own, creates a table and plays it to the end;
5. the memory after every abandoned table expired, against the memory after the warm-up;
6. ``--clients`` (30) people playing at tables of their own (a person and two random bots), each
   answering the server's pings, sending a live ``check`` every 0.1 s between its moves and
   joining its seat again from a second socket every second: the wait for each answer (a check's
   reply, a move's next state, a join's welcome), first alone, then under each flood in turn,
   each for ``--phase-seconds``:
   - compressed frames: 60 sockets from 2 addresses, each sending two frames that would inflate
     to 8 MiB (sent compressed, though the server never agreed to compression), round after
     round;
   - many tables: 26 addresses making 20 tables each, round after round (past the 500-table
     cap), and then one creation from a new address, which must be made;
   - many sockets: 1,116 idle connections from 18 addresses, held (past the connection cap);
   - the write lock: another process holds the database's write lock for ``--lock-seconds``
     (the people only check and join meanwhile: a move waits for the lock);
   the peak resident memory of each phase (``/proc/PID/clear_refs`` resets the peak).

    python benchmarks/bench_web_abuse.py [--tables 1000] [--connections 1000]
        [--idle-timeout 5] [--join-timeout 3] [--time-limit 900] [--tracemalloc FILE]
        [--clients 30] [--phase-seconds 8] [--lock-seconds 5] [--only-floods]

Bounded: every wait has a deadline, and the whole run stops at ``--time-limit`` seconds. Exits
with status 1 when a check fails: a refusal other than the total cap's, a table that did not
expire, an idle connection not closed by the server in time, the last game not finished, or the
resident memory at the end more than ``--rss-tolerance`` (20 %) above the warm-up's, a peak under a
flood more than ``--flood-rss`` (50 MiB) above the warm-up's, or a p95 under a flood more than
``--flood-p95`` (3) times the p95 alone.

Linux only (the whole of 127/8 is the loopback there, and ``/proc`` gives the memory). With
``--tracemalloc FILE`` the server traces its allocations (slower, and more memory) and writes to
FILE, when sent SIGUSR1, the top-10 growth since its first SIGUSR1 (after the warm-up) and the
object types whose counts grew most.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import http.client
import json
import os
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import websockets
from websockets.sync.client import connect

from huescues.agents import RANDOM_CLUE_WORDS
from huescues.engine import Board

#: The server: its settings come as JSON. SIGUSR2 collects garbage and hands free memory back to
#: the system (``malloc_trim``), then writes ``trimmed`` in $BENCH_DIR: a diagnostic of how much
#: of the resident memory is only kept by the allocator. With $BENCH_TRACEMALLOC set, SIGUSR1
#: writes $BENCH_DIR/tracemalloc.txt: what grew since the first SIGUSR1.
SERVER = """
import collections, ctypes, gc, json, os, signal, sys
where = os.environ["BENCH_DIR"]
def trim(signum, frame):
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    open(os.path.join(where, "trimmed"), "w").close()
signal.signal(signal.SIGUSR2, trim)
if os.environ.get("BENCH_TRACEMALLOC"):
    import tracemalloc
    tracemalloc.start(12)
    marks = []
    def counts():
        return collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    def report(signum, frame):
        gc.collect()
        snap, objects = tracemalloc.take_snapshot(), counts()
        if not marks:
            marks.append((snap, objects))
            return
        (base, before), = marks
        with open(os.path.join(where, "tracemalloc.part"), "w") as out:
            total = sum(s.size_diff for s in snap.compare_to(base, "filename"))
            print(f"traced memory grown since the warm-up: {total / 1024:+.1f} KiB", file=out)
            print("top-10 growth by place (tracemalloc):", file=out)
            for stat in snap.compare_to(base, "traceback")[:10]:
                print(f"{stat.size_diff / 1024:+10.1f} KiB {stat.count_diff:+7d} blocks", file=out)
                for line in stat.traceback.format()[-8:]:
                    print("      " + line, file=out)
            print("object types whose count grew most:", file=out)
            growth = {k: objects[k] - before.get(k, 0) for k in objects}
            for name, n in sorted(growth.items(), key=lambda kv: -kv[1])[:10]:
                print(f"  {n:+8d} {name}", file=out)
        os.replace(os.path.join(where, "tracemalloc.part"), os.path.join(where, "tracemalloc.txt"))
    signal.signal(signal.SIGUSR1, report)
import socket, uvicorn
from huescues.web import TableSettings, create_app, server_config
settings = TableSettings(**json.loads(sys.argv[3]))
sock = socket.socket()
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", int(sys.argv[2])))
sock.listen(2048)
# huescues serve's own configuration: its protocols, frame bounds and connection caps.
config = server_config(create_app(sys.argv[1], tables=settings), **json.loads(sys.argv[4]))
try:
    uvicorn.Server(config).run(sockets=[sock])
except KeyboardInterrupt:  # the bench's SIGINT at the end
    pass
"""

#: The server's own options (``server_config``): a connection cap above the 1,000 idle
#: WebSockets of step 3, and below the 1,116 connections of the many-sockets flood.
SERVER_OPTIONS: dict[str, Any] = {"max_connections": 1100}

#: The server processes started, for the watchdog to end.
_SERVERS: list[subprocess.Popen[bytes]] = []
CELLS = [str(c) for c in Board.standard().cells()]
CLUES = [w for w in RANDOM_CLUE_WORDS if w.isalpha()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def memory(pid: int) -> dict[str, int]:
    """The process's VmRSS and VmHWM (peak), in KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found


def mib(kib: int) -> str:
    return f"{kib / 1024:.1f} MiB"


@contextmanager
def server(
    folder: Path, settings: dict[str, Any], tracemalloc: bool
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """The server process (its database and reports in ``folder``) on a free loopback port,
    once it answers."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "BENCH_DIR": str(folder)}
    if tracemalloc:
        env["BENCH_TRACEMALLOC"] = "1"
    db = folder / "abuse.sqlite"
    cmd = [
        sys.executable, "-c", SERVER, str(db), str(port), json.dumps(settings),
        json.dumps(SERVER_OPTIONS),
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env)
    _SERVERS.append(proc)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def signal_and_wait(
    proc: subprocess.Popen[bytes], signum: int, done: Path, timeout: float = 30
) -> bool:
    """Send the server ``signum`` and wait (``timeout`` seconds at most) for it to write
    ``done``."""
    done.unlink(missing_ok=True)
    proc.send_signal(signum)
    deadline = time.monotonic() + timeout
    while not done.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def request(
    port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1"
) -> tuple[int, Any]:
    """One HTTP request from the loopback address ``source``: its status and JSON answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def create(port: int, seats: list[dict[str, str]], source: str) -> tuple[int, Any]:
    return request(port, "POST", "/api/tables", {"seats": seats}, source)


def play(port: int, token: str, source: str, timeout: float) -> dict[str, Any]:
    """Play seat 0 as a simple person, from the address ``source``, until the game is over; the
    last state."""
    done: set[tuple[int, str, int]] = set()
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    deadline = time.monotonic() + timeout
    with connect(f"ws://127.0.0.1:{port}/ws", sock=sock, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if msg["type"] == "error":
                raise RuntimeError(f"the server refused a move: {msg['message']}")
            if msg["type"] != "state" or not msg["ready"]:
                continue
            if msg["phase"] == "game_over":
                return msg
            key = (msg["round"], msg["phase"], len(msg["pawns"]))
            if msg["current"] != 0 or key in done:
                continue
            done.add(key)
            phase = msg["phase"]
            if phase == "choose_target":
                move: dict[str, Any] = {"type": "target", "index": msg["round"] % 4}
            elif phase == "first_clue":
                given = {c.lower() for r in msg["history"] for c in r["clues"]}  # R22
                move = {"type": "clue", "text": next(c for c in CLUES if c not in given)}
            elif phase == "second_clue":
                move = {"type": "pass"}
            else:
                taken = {c for _, c in msg["pawns"]}
                free = [c for c in CELLS if c not in taken]
                move = {"type": "pawn", "cell": free[(msg["round"] * 37 + len(taken)) % len(free)]}
            ws.send(json.dumps(move))


def addresses(block: int, n: int) -> list[str]:
    """``n`` loopback addresses 127.0.BLOCK.1, 127.0.BLOCK.2, ... (then 127.0.BLOCK+1.1, ...)."""
    return [f"127.0.{block + i // 250}.{1 + i % 250}" for i in range(n)]


@dataclass
class Abandoned:
    """The tables created and never joined."""

    ids: list[str] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)  # status -> count, past the cap probe
    cap_probe: int = 0  # the answer to one creation past the total cap
    probe_ids: list[str] = field(default_factory=list)  # the tables those creations made
    waves: list[float] = field(default_factory=list)  # seconds each wave took


def abandon(
    port: int,
    n: int,
    per_address: int,
    max_tables: int,
    kinds: list[str],
    idle: float,
    block: int = 1,
) -> Abandoned:
    """Create ``n`` tables from 127.0.BLOCK.x, ``per_address`` each, in waves of ``max_tables``;
    after a full wave, one creation more (from an address of its own) must still be made (the
    oldest table no one joined makes room), then the wave's idle expiry is awaited."""
    out = Abandoned()
    sources = [a for a in addresses(block, -(-n // per_address)) for _ in range(per_address)][:n]
    jobs = [
        (sources[i], [{"kind": "person"}, {"kind": kinds[i % len(kinds)]},
                      {"kind": kinds[(i + 1) % len(kinds)]}])
        for i in range(n)
    ]  # fmt: skip
    with ThreadPoolExecutor(16) as pool:
        for start in range(0, n, max_tables):
            wave = jobs[start : start + max_tables]
            began = time.perf_counter()
            for status, body in pool.map(lambda job: create(port, job[1], job[0]), wave):
                if status == 200:
                    out.ids.append(body["table"])
                else:
                    out.refused[status] = out.refused.get(status, 0) + 1
            out.waves.append(time.perf_counter() - began)
            if len(wave) == max_tables and not out.cap_probe:
                out.cap_probe, made = create(port, wave[0][1], "127.0.3.250")
                if out.cap_probe == 200:
                    out.probe_ids.append(made["table"])
            time.sleep(idle * 1.25 + 1.0)  # the expiry, and a sweep (every idle/4 s)
    return out


@dataclass
class Idle:
    """The WebSockets that never joined: when each was closed, by whom, with what code."""

    opened: int = 0
    failed: list[str] = field(default_factory=list)
    #: Seconds from the start of the connection to its handshake's end, and to its close by the
    #: server (the join deadline runs from a time between the two starts).
    handshakes: list[float] = field(default_factory=list)
    closed_after: list[float] = field(default_factory=list)
    codes: dict[int | None, int] = field(default_factory=dict)
    not_closed: int = 0


async def idle_connections(
    port: int, n: int, per_address: int, wait: float, block: int = 2
) -> Idle:
    """Open ``n`` WebSockets from 127.0.BLOCK.x (``per_address`` each) at once and wait until
    ``wait`` seconds after each one's start for the server to close it."""
    out = Idle()
    sources = [a for a in addresses(block, -(-n // per_address)) for _ in range(per_address)][:n]

    async def one(source: str) -> None:
        began = time.perf_counter()
        try:
            ws = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws", local_addr=(source, 0), open_timeout=30
            )
        except Exception as e:
            out.failed.append(f"{type(e).__name__}: {e}")
            return
        out.handshakes.append(time.perf_counter() - began)
        out.opened += 1
        try:
            async with asyncio.timeout(max(0.0, began + wait - time.perf_counter())):
                async for _ in ws:  # the server's error message, then its close
                    pass
        except TimeoutError:
            out.not_closed += 1
            await ws.close()
            return
        except websockets.ConnectionClosed:
            pass
        out.closed_after.append(time.perf_counter() - began)
        code = ws.close_code
        out.codes[code] = out.codes.get(code, 0) + 1

    await asyncio.gather(*(one(s) for s in sources))
    return out


# -- 6. people playing, alone and under floods ---------------------------------------------------
@dataclass
class Waits:
    """The seconds each answer took, by kind (``check``, ``move``, ``join``), in one phase."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: New connections the server refused, by status.
    refused: dict[int, int] = field(default_factory=dict)

    def add(self, kind: str, took: float) -> None:
        self.seconds.setdefault(kind, []).append(took)

    def all(self, *kinds: str) -> list[float]:
        return sorted(t for k in (kinds or tuple(self.seconds)) for t in self.seconds.get(k, []))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


async def person(
    port: int, source: str, stop_at: float, waits: Waits, *, moves: bool, table: dict[str, Any]
) -> None:
    """A person at ``table`` (made before the phase), from ``source``, until ``stop_at``:
    answers pings, plays its moves (when ``moves``), sends a live check every 0.1 s between
    them, and joins its seat again from a second socket every second; the wait for each answer
    goes to ``waits``."""
    token = table["seats"][0]["token"]
    url = f"ws://127.0.0.1:{port}/ws"
    async with websockets.connect(url, local_addr=(source, 0), open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def read() -> None:
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                else:
                    await inbox.put(msg)

        reader = asyncio.create_task(read())
        seen: dict[str, Any] = {}  # the last state
        last_join = time.monotonic()
        done: set[tuple[int, str, int]] = set()
        n = 0
        try:
            while time.monotonic() < stop_at:
                while not inbox.empty():
                    _note(inbox.get_nowait(), seen)
                state = seen.get("state")
                key = (
                    None if state is None else (state["round"], state["phase"], len(state["pawns"]))
                )
                mine = (
                    moves and state is not None and state["ready"] and state["current"] == 0
                    and state["phase"] != "game_over" and key not in done
                )  # fmt: skip
                began = time.monotonic()
                if mine and state is not None:
                    done.add(key)  # type: ignore[arg-type]
                    await ws.send(json.dumps(_move(state, {c for _, c in state["pawns"]})))
                    await _answer(inbox, ("state", "error"), seen, stop_at + 30)
                    waits.add("move", time.monotonic() - began)
                else:
                    n += 1
                    await ws.send(json.dumps({"type": "check", "text": f"lagoon{n}"}))
                    await _answer(inbox, ("check",), seen, stop_at + 30)
                    waits.add("check", time.monotonic() - began)
                    await asyncio.sleep(0.1)
                if time.monotonic() - last_join >= 1.0:
                    last_join = time.monotonic()
                    await _join_again(url, source, token, waits)
        except (TimeoutError, websockets.ConnectionClosed, OSError) as e:
            waits.errors.append(f"{source}: {type(e).__name__}: {e}")
        finally:
            reader.cancel()


def _note(msg: dict[str, Any], seen: dict[str, Any]) -> None:
    if msg["type"] == "state":
        seen["state"] = msg


async def _answer(
    inbox: asyncio.Queue[dict[str, Any]],
    kinds: tuple[str, ...],
    seen: dict[str, Any],
    deadline: float,
) -> dict[str, Any]:
    """The next message of one of ``kinds`` (a move's answer is its state, or a refusal while
    the lock is held); the states before it are noted."""
    while True:
        msg = await asyncio.wait_for(inbox.get(), max(0.1, deadline - time.monotonic()))
        _note(msg, seen)
        if msg["type"] in kinds:
            return msg


async def _join_again(url: str, source: str, token: str, waits: Waits) -> None:
    """Join the seat again from a second socket: the wait for its welcome, or a refusal (a
    server at its connection cap answers a new connection 503)."""
    began = time.monotonic()
    try:
        async with websockets.connect(url, local_addr=(source, 0), open_timeout=30) as second:
            await second.send(json.dumps({"type": "join", "token": token}))
            while json.loads(await asyncio.wait_for(second.recv(), 30))["type"] != "welcome":
                pass
            waits.add("join", time.monotonic() - began)
    except websockets.InvalidStatus as e:
        waits.refused[e.response.status_code] = waits.refused.get(e.response.status_code, 0) + 1


def _move(state: dict[str, Any], taken: set[str]) -> dict[str, Any]:
    phase = state["phase"]
    if phase == "choose_target":
        return {"type": "target", "index": state["round"] % 4}
    if phase == "first_clue":
        given = {c.lower() for r in state["history"] for c in r["clues"]}  # R22
        return {"type": "clue", "text": next(c for c in CLUES if c not in given)}
    if phase == "second_clue":
        return {"type": "pass"}
    free = [c for c in CELLS if c not in taken]
    return {"type": "pawn", "cell": free[(state["round"] * 37 + len(taken)) % len(free)]}


def compressed_frames(port: int, stop_at: float, rounds: int = 20) -> int:
    """60 sockets from 127.0.30.1-2, each sending two text frames marked compressed (RSV1, never
    agreed) that would inflate to 8 MiB, round after round until ``stop_at`` (at most
    ``rounds``); the sockets sent."""
    bomb = zlib.compressobj(wbits=-15)
    payload = (bomb.compress(b" " * (8 << 20)) + bomb.flush(zlib.Z_SYNC_FLUSH))[:-4]
    sent = 0
    for _ in range(rounds):
        if time.monotonic() >= stop_at:
            break
        for i in range(60):
            with contextlib.suppress(OSError):
                send_frames(port, f"127.0.30.{1 + i % 2}", payload)
                sent += 1
    return sent


def send_frames(port: int, source: str, payload: bytes, *, rsv1: bool = True) -> int | None:
    """Handshake a WebSocket by hand from ``source`` (asking for compression), send ``payload``
    as one text frame twice (marked compressed, RSV1, when ``rsv1``: compression the server never
    agreed to); the close code the server answers with (None: it just closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade"
            f"\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                return None
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            return None
        mask = os.urandom(4)
        frame = struct.pack("!BBQ", 0xC1 if rsv1 else 0x81, 0x80 | 127, len(payload)) + mask
        # Masked in full only up to 64 KiB: a longer frame is refused on its length alone.
        frame += bytes(b ^ mask[i % 4] for i, b in enumerate(payload[:65536])) + payload[65536:]
        with contextlib.suppress(OSError):  # closed on us mid-frame, as it should be
            for _ in range(2):
                s.sendall(frame)
        rest = head.split(b"\r\n\r\n", 1)[1]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if len(rest) >= 4 and rest[0] & 0x0F == 0x8:
                return int(struct.unpack("!H", rest[2:4])[0])
            try:
                chunk = s.recv(4096)
            except OSError:
                return None
            if not chunk:
                return None
            rest += chunk
    return None


def many_tables(port: int, stop_at: float, block: int, rounds: int = 10) -> tuple[int, int]:
    """26 addresses (127.0.BLOCK+r.x) making 20 tables each, round after round until ``stop_at``;
    the tables made, and the status of one creation from a new address afterwards."""
    made = 0
    seats = [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}]
    with ThreadPoolExecutor(16) as pool:
        for r in range(rounds):
            if time.monotonic() >= stop_at:
                break
            jobs = [a for a in addresses(block + 2 * r, 26) for _ in range(20)]
            for status, _ in pool.map(lambda source: create(port, seats, source), jobs):
                made += status == 200
    return made, create(port, seats, f"127.0.{block + 25}.250")[0]


def many_sockets(port: int, stop_at: float, n: int = 1116, per_address: int = 62) -> int:
    """``n`` idle connections from 127.0.40.x (``per_address`` each: 18 addresses), held until
    ``stop_at``; how many the server refused (503)."""
    held: list[socket.socket] = []
    refused = 0
    try:
        for i in range(n):
            source = f"127.0.40.{1 + i // per_address}"
            try:
                conn = socket.create_connection(
                    ("127.0.0.1", port), timeout=5, source_address=(source, 0)
                )
            except OSError:
                refused += 1
                continue
            held.append(conn)
        time.sleep(0.5)
        for conn in held:
            conn.setblocking(False)
            with contextlib.suppress(OSError):
                refused += conn.recv(12).startswith(b"HTTP/1.1 503")
        while time.monotonic() < stop_at:
            time.sleep(0.1)
    finally:
        for conn in held:
            conn.close()
    return refused


@contextmanager
def lock_held(db: Path, seconds: float) -> Iterator[None]:
    """Another process holds ``db``'s write lock for ``seconds`` from when the block starts;
    the block's end waits for it to let go."""
    script = (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "print('held', flush=True)\n"
        "time.sleep(float(sys.argv[2]))\n"
        "c.execute('ROLLBACK')\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script, str(db), str(seconds)], stdout=subprocess.PIPE
    ) as proc:
        try:
            assert proc.stdout is not None and proc.stdout.readline().strip() == b"held"
            yield
        finally:
            proc.wait(seconds + 30)


def reset_peak(pid: int) -> None:
    """Set the process's peak resident size (VmHWM) back to its current size."""
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/clear_refs").write_text("5")


def phase(
    port: int, args: argparse.Namespace, *, moves: bool = True, block: int = 50
) -> tuple[Waits, float, threading.Thread]:
    """The people's tables, made before the phase; then ``args.clients`` people playing for
    ``args.phase_seconds``, in a thread of its own (the flood runs in the caller's): their
    waits, the time the phase ends, and the thread."""
    seats = [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}]
    house = {"rounds_per_giver": 3}
    sources = [f"127.0.{block}.{1 + i}" for i in range(args.clients)]
    tables = []
    for source in sources:
        status, body = request(
            port, "POST", "/api/tables", {"seats": seats, "house_rules": house}, source
        )
        if status != 200:
            raise RuntimeError(f"a player's table was refused: {status} {body}")
        tables.append(body)
    waits = Waits()
    stop_at = time.monotonic() + args.phase_seconds

    async def everyone() -> None:
        await asyncio.gather(
            *(
                person(port, source, stop_at, waits, moves=moves, table=table)
                for source, table in zip(sources, tables, strict=True)
            )
        )

    thread = threading.Thread(target=asyncio.run, args=(everyone(),), daemon=True)
    thread.start()
    return waits, stop_at, thread


def floods(
    port: int, proc: subprocess.Popen[bytes], args: argparse.Namespace, db: Path, rss_warm: int
) -> list[str]:
    """Step 6: the people's waits and the server's peak memory, alone and under each flood."""
    failures: list[str] = []
    results: list[tuple[str, Waits, int, str]] = []
    for name, block in (
        ("alone", 50),
        ("compressed frames", 51),
        ("many tables", 52),
        ("many sockets", 53),
        ("write lock held", 54),
    ):
        time.sleep(1.0)  # the last phase's connections close
        reset_peak(proc.pid)
        waits, stop_at, players = phase(port, args, moves=name != "write lock held", block=block)
        note = ""
        if name == "compressed frames":
            note = f"{compressed_frames(port, stop_at)} sockets sent two 8-MiB bombs each"
        elif name == "many tables":
            made, fresh = many_tables(port, stop_at, block=100)
            note = f"{made} tables made by the flood; a new address's table answered {fresh}"
            if fresh != 200:
                failures.append(f"under the many-tables flood a new table answered {fresh}")
        elif name == "many sockets":
            refused = many_sockets(port, stop_at)
            note = f"1116 idle connections opened, {refused} refused with 503"
        elif name == "write lock held":
            with lock_held(db, args.lock_seconds):
                pass
        players.join(args.phase_seconds + 60)
        peak = memory(proc.pid)["VmHWM"]
        results.append((name, waits, peak, note))
        if waits.errors:
            failures.append(f"{name}: {len(waits.errors)} people stopped: {waits.errors[0]}")
    alone = results[0][1]
    alone_p95 = percentile(alone.all(), 0.95)
    alone_live = percentile(alone.all("check", "join"), 0.95)
    print(
        f"people playing: {args.clients} at tables of their own (a person, two random bots), "
        f"{args.phase_seconds:g} s a phase; the wait for an answer (check, move, join):"
    )
    for name, waits, peak, note in results:
        every = waits.all() if name != "write lock held" else waits.all("check", "join")
        kinds = ", ".join(
            f"{k} p95 {ms(percentile(waits.all(k), 0.95))} ({len(waits.all(k))})"
            for k in ("check", "move", "join")
            if waits.all(k)
        )
        p50, p95 = percentile(every, 0.5), percentile(every, 0.95)
        refused = f"; joins refused: {waits.refused}" if waits.refused else ""
        if name == "alone":
            refused += f"; checks and joins alone: p95 {ms(alone_live)}"
        print(
            f"  {name}: p50 {ms(p50)}, p95 {ms(p95)} [{kinds}]{refused}; peak RSS {mib(peak)} "
            f"(warm {'+' if peak >= rss_warm else '-'} {mib(abs(peak - rss_warm))})"
            f"{'; ' + note if note else ''}"
        )
        if peak - rss_warm > args.flood_rss * 1024:
            failures.append(
                f"{name}: peak RSS {mib(peak)} is more than {args.flood_rss:g} MiB above the "
                f"warm {mib(rss_warm)}"
            )
        if name == "alone":
            continue
        base = alone_live if name == "write lock held" else alone_p95
        if p95 > args.flood_p95 * base:
            failures.append(
                f"{name}: p95 {ms(p95)} is more than {args.flood_p95:g} x the p95 alone "
                f"({ms(base)})"
            )
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description="abandoned tables and idle connections")
    parser.add_argument("--tables", type=int, default=1000, help="abandoned tables")
    parser.add_argument("--connections", type=int, default=1000, help="idle WebSockets")
    parser.add_argument("--idle-timeout", type=float, default=5.0)
    parser.add_argument("--join-timeout", type=float, default=3.0)
    parser.add_argument("--slack", type=float, default=2.0, help="seconds past the deadline")
    parser.add_argument(
        "--repeat", type=int, default=1, help="rounds of abandoned tables and idle WebSockets"
    )
    parser.add_argument("--rss-tolerance", type=float, default=0.20)
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--clients", type=int, default=30, help="people playing in step 6")
    parser.add_argument("--phase-seconds", type=float, default=8.0, help="each phase of step 6")
    parser.add_argument("--lock-seconds", type=float, default=5.0, help="the lock held in step 6")
    parser.add_argument("--flood-rss", type=float, default=50.0, help="MiB above warm, at most")
    parser.add_argument("--flood-p95", type=float, default=3.0, help="times the p95 alone")
    parser.add_argument(
        "--only-floods", action="store_true", help="the warm-up and step 6 only (no steps 2-5)"
    )
    parser.add_argument(
        "--tracemalloc", action="store_true", help="print the server's allocation growth"
    )
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        print("FAILED: Linux only (loopback 127/8 and /proc)", file=sys.stderr)
        return 1
    watchdog = threading.Timer(args.time_limit, _timed_out, (args.time_limit,))
    watchdog.daemon = True
    watchdog.start()
    started = time.perf_counter()
    with TemporaryDirectory() as tmp:
        failures = run(args, Path(tmp))
    print(f"wall: {time.perf_counter() - started:.1f} s", flush=True)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


def run(args: argparse.Namespace, folder: Path) -> list[str]:
    """The five steps against one server; what failed."""
    settings: dict[str, Any] = {
        "bot_delay": 0,
        "reveal_pause": 0,
        "message_burst": 1000,
        "message_rate": 1000,
        "idle_timeout": args.idle_timeout,
        "join_timeout": args.join_timeout,
    }
    failures: list[str] = []
    with server(folder, settings, args.tracemalloc) as (port, proc):
        kinds = [b["kind"] for b in request(port, "GET", "/api/setup")[1]["bots"]]
        rss_before = memory(proc.pid)["VmRSS"]
        print(
            f"settings: idle_timeout {args.idle_timeout:g} s, join_timeout "
            f"{args.join_timeout:g} s; max_tables 500, max_tables_per_address 20, "
            "max_connections_per_address 64, connect_burst 30 (the defaults)"
        )
        print(f"RSS before warm-up: {mib(rss_before)}")

        # 1. Warm-up: every bot kind at a table (at most 9 bots a table), played to the end.
        began, rounds, faults = time.perf_counter(), 0, []
        for at in range(0, len(kinds), 9):
            seats = [{"kind": "person"}, *({"kind": k} for k in kinds[at : at + 9])]
            status, body = create(port, seats, "127.0.0.1")
            if status != 200:
                failures.append(f"warm-up table refused: {status} {body}")
                continue
            last = play(port, body["seats"][0]["token"], "127.0.0.1", args.time_limit)
            rounds += len(last["history"])
            faults += last["faults"]
        rss_warm = memory(proc.pid)["VmRSS"]
        print(
            f"warm-up: a person and {len(kinds)} bots ({', '.join(kinds)}), played to the end "
            f"in {time.perf_counter() - began:.1f} s ({rounds} rounds, bots' faults: "
            f"{len(faults)}); RSS_warm {mib(rss_warm)}"
        )
        if faults:
            failures.append(f"a bot's fault in the warm-up: {faults[0]}")
        if args.tracemalloc:
            proc.send_signal(signal.SIGUSR1)  # the baseline

        if not args.only_floods:
            failures += abuse(args, folder, port, proc, kinds, rss_before, rss_warm)
        failures += floods(port, proc, args, folder / "abuse.sqlite", rss_warm)
    return failures


def abuse(
    args: argparse.Namespace,
    folder: Path,
    port: int,
    proc: subprocess.Popen[bytes],
    kinds: list[str],
    rss_before: int,
    rss_warm: int,
) -> list[str]:
    """Steps 2-5: abandoned tables, idle WebSockets, a new person's game, and the memory after
    every abandoned table expired; what failed."""
    failures: list[str] = []
    # 2-3. Abandoned tables and idle WebSockets, --repeat times (from fresh addresses).
    ids: list[str] = []
    for r in range(args.repeat):
        # 2. Abandoned tables.
        began = time.perf_counter()
        ab = abandon(port, args.tables, 20, 500, kinds, args.idle_timeout, block=10 + 2 * r)
        ids += ab.ids + ab.probe_ids
        rss_tables = memory(proc.pid)["VmRSS"]
        waves = ", ".join(f"{w:.1f}" for w in ab.waves)
        print(
            f"round {r + 1}: abandoned tables: {len(ab.ids)} created from "
            f"{-(-args.tables // 20)} addresses in {len(ab.waves)} waves (creation "
            f"{waves} s); refused: {ab.refused or 'none'}; one more past the total cap "
            f"answered {ab.cap_probe or '-'}; {time.perf_counter() - began:.1f} s with the "
            "expiry waits"
        )
        if ab.refused:
            failures.append(f"table creations refused: {ab.refused}")
        if len(ab.ids) != args.tables:
            failures.append(f"{len(ab.ids)} of {args.tables} tables created")
        # At the cap, the oldest table no one joined makes room: a new table is still made.
        if args.tables >= 500 and ab.cap_probe != 200:
            failures.append(f"a creation past the total cap answered {ab.cap_probe}, not 200")

        # 3. Idle WebSockets.
        wait = args.join_timeout + args.slack
        idle = asyncio.run(idle_connections(port, args.connections, 20, wait, block=11 + 2 * r))
        rss_conns = memory(proc.pid)["VmRSS"]
        closed, after = len(idle.closed_after), sorted(idle.closed_after) or [0.0]
        handshake = max(idle.handshakes, default=0.0)
        print(
            f"round {r + 1}: idle WebSockets: {idle.opened} opened from "
            f"{-(-args.connections // 20)} addresses, {len(idle.failed)} failed to open; "
            f"{closed} closed by the server within {wait:g} s (join deadline + "
            f"{args.slack:g} s), {after[0]:.2f}-{after[-1]:.2f} s after their start "
            f"(handshakes took up to {handshake:.2f} s), close codes {idle.codes}; "
            f"{idle.not_closed} still open"
        )
        print(
            f"round {r + 1}: RSS after the tables expired {mib(rss_tables)}, after the "
            f"connections closed {mib(rss_conns)}"
        )
        if idle.failed:
            failures.append(f"{len(idle.failed)} WebSockets failed to open: {idle.failed[0]}")
        if closed != args.connections or set(idle.codes) != {1008}:
            failures.append(f"{closed} of {args.connections} idle WebSockets closed with 1008")
        if closed and after[0] < args.join_timeout:
            failures.append(f"an idle WebSocket was closed before the deadline ({after[0]:.2f})")

    # 4. A new person, from an address of its own.
    began = time.perf_counter()
    seats = [{"kind": "person"}, *({"kind": k} for k in kinds[:2])]
    status, body = create(port, seats, "127.0.3.1")
    if status == 200:
        last = play(port, body["seats"][0]["token"], "127.0.3.1", 120)
        print(
            f"a new person's game ({', '.join(kinds[:2])}): over in "
            f"{time.perf_counter() - began:.1f} s, scores {last['result']['scores']}"
        )
    else:
        failures.append(f"a new person's table refused: {status} {body}")

    # 5. Every abandoned table expired; the memory.
    time.sleep(args.idle_timeout * 1.25 + 1.0)
    gone = sum(request(port, "GET", f"/api/tables/{t}")[0] == 404 for t in ids)
    with sqlite3.connect(folder / "abuse.sqlite") as db:
        marked = db.execute("SELECT count(*) FROM games WHERE abandoned IS NOT NULL")
        abandoned = marked.fetchone()[0]
    print(
        f"expired: {gone} of {len(ids)} abandoned tables answer 404, "
        f"{abandoned} marked abandoned in the database"
    )
    if gone != len(ids) or abandoned != len(ids):
        failures.append("not every abandoned table expired")
    end = memory(proc.pid)
    rss_end, peak, ratio = end["VmRSS"], end["VmHWM"], end["VmRSS"] / rss_warm
    print(
        f"RSS: before warm-up {mib(rss_before)}; RSS_warm {mib(rss_warm)}; RSS_end "
        f"{mib(rss_end)}, RSS_end / RSS_warm = {ratio:.3f}; peak (VmHWM) {mib(peak)}"
    )
    if ratio > 1 + args.rss_tolerance:
        failures.append(
            f"RSS_end is {(ratio - 1) * 100:.0f} % above RSS_warm "
            f"(at most {args.rss_tolerance * 100:g} %)"
        )
    if signal_and_wait(proc, signal.SIGUSR2, folder / "trimmed"):
        trimmed = memory(proc.pid)["VmRSS"]
        print(
            f"diagnostic: after gc.collect() and malloc_trim(0) in the server, RSS "
            f"{mib(trimmed)} ({trimmed / rss_warm:.3f} of RSS_warm)"
        )
    if args.tracemalloc:
        report = folder / "tracemalloc.txt"
        if signal_and_wait(proc, signal.SIGUSR1, report, 300):
            print(report.read_text(), end="")
    return failures


def _timed_out(limit: float) -> None:
    print(f"FAILED: not done within {limit:g} s", file=sys.stderr, flush=True)
    for proc in _SERVERS:
        proc.kill()
    os._exit(1)


if __name__ == "__main__":
    raise SystemExit(main())
