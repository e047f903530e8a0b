"""Load on ``huescues serve``: simulated people playing at once against one real server on
loopback, each a WebSocket client (the ``websockets`` package) at its own table with two random
bots. Prints the 95th-percentile time per action: from sending a move to receiving the state
that shows it.

    python benchmarks/bench_web.py [--clients 50] [--actions 40] [--time-limit 120]

Bounded: each client makes at most ``--actions`` moves, and the whole run stops at
``--time-limit`` seconds (a run that hits the limit, or sees any error, exits with status 1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import uvicorn
import websockets

from huescues.agents import RANDOM_CLUE_WORDS
from huescues.engine import Board
from huescues.web import TableSettings, create_app

#: Every client comes from 127.0.0.1, so the per-address limit is raised for the run.
SETTINGS = TableSettings(
    bot_delay=0,
    reveal_pause=0,
    connect_burst=10_000,
    connect_rate=1_000,
    message_rate=1_000,
    allow_seed=True,
    max_tables_per_address=10_000,
)
CELLS = [str(c) for c in Board.standard().cells()]


@dataclass
class Outcome:
    """One client's run: the seconds each action took, and the errors it saw."""

    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: bool = False


def _create_table(base: str, seed: int) -> str:
    seats = [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}]
    request = urllib.request.Request(
        base + "/api/tables",
        data=json.dumps({"seats": seats, "seed": seed}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        token: str = json.loads(response.read())["seats"][0]["token"]
    return token


def _move(msg: dict[str, Any], clues: list[str], seed: int) -> dict[str, Any]:
    phase = msg["phase"]
    if phase == "choose_target":
        return {"type": "target", "index": seed % 4}
    if phase == "first_clue":
        given = {c.lower() for r in msg["history"] for c in r["clues"]}  # R22: no repeats
        while clues[0] in given:
            clues.pop(0)
        return {"type": "clue", "text": clues.pop(0)}
    if phase == "second_clue":
        return {"type": "pass"}
    taken = {c for _, c in msg["pawns"]}
    free = [c for c in CELLS if c not in taken]
    return {"type": "pawn", "cell": free[(seed * 37 + len(taken)) % len(free)]}


async def client(base: str, seed: int, max_actions: int) -> Outcome:
    """One person: creates a table, joins its seat and plays until the game ends or
    ``max_actions`` moves are made."""
    out = Outcome()
    token = await asyncio.to_thread(_create_table, base, seed)
    clues = list(RANDOM_CLUE_WORDS[seed:] + RANDOM_CLUE_WORDS[:seed])
    async with websockets.connect(base.replace("http", "ws") + "/ws") as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        answered: tuple[int, str, int] | None = None
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "error":
                out.errors.append(msg["message"])
                return out
            if msg["type"] != "state":
                continue
            if sent_at is not None:
                out.times.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["phase"] == "game_over":
                out.finished = True
                return out
            key = (msg["round"], msg["phase"], len(msg["pawns"]))
            if msg["current"] != 0 or key == answered:
                continue
            if len(out.times) >= max_actions:
                return out
            answered = key
            sent_at = time.perf_counter()
            await ws.send(json.dumps(_move(msg, clues, seed)))
    return out


def start_server(db: Path) -> tuple[str, uvicorn.Server, threading.Thread]:
    """A real server on a free loopback port, in a thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(db, tables=SETTINGS), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    return f"http://127.0.0.1:{sock.getsockname()[1]}", server, thread


def run(n_clients: int, max_actions: int, time_limit: float) -> tuple[list[Outcome], float]:
    """Play ``n_clients`` clients at once; their outcomes and the wall time."""
    with TemporaryDirectory() as tmp:
        base, server, thread = start_server(Path(tmp) / "load.sqlite")
        try:

            async def everyone() -> list[Outcome]:
                tasks = [client(base, seed, max_actions) for seed in range(n_clients)]
                return await asyncio.wait_for(asyncio.gather(*tasks), time_limit)

            start = time.perf_counter()
            outcomes = asyncio.run(everyone())
            return outcomes, time.perf_counter() - start
        finally:
            server.should_exit = True
            thread.join(30)


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else 0


def main() -> int:
    parser = argparse.ArgumentParser(description="load on huescues serve")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--actions", type=int, default=40, help="moves per client at most")
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()
    try:
        outcomes, wall = run(args.clients, args.actions, args.time_limit)
    except TimeoutError:
        print(f"FAILED: not done within {args.time_limit:g} s", file=sys.stderr)
        return 1
    times = [t for o in outcomes for t in o.times]
    errors = [e for o in outcomes for e in o.errors]
    finished = sum(o.finished for o in outcomes)
    print(
        f"{args.clients} clients, {len(times)} actions in {wall:.1f} s, {finished} games finished"
    )
    print(f"time per action: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {percentile(times, 95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")  # fmt: skip
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
