"""What one ``huescues serve`` holds: the memory a table in play costs (with its bots and a
person's connection), and the memory an open connection costs, on one real server process on
loopback (``server_config``, as ``huescues serve`` runs), read from ``/proc/PID/status``.

1. a warm-up: a table of a person and the bots measured, joined, until its bots are ready (the
   models load once for every table);
2. ``--tables`` tables of a person and those bots (``--bots``, default ``default,naming``), made
   from many loopback addresses (10 each), each joined by a person's WebSocket that answers the
   server's pings, until every table is ready: the memory per table;
3. ``--connections`` more WebSockets joined to those tables (a second device for a seat): the
   memory per connection.

    python benchmarks/bench_web_capacity.py [--tables 200] [--connections 600]
        [--bots default,naming] [--time-limit 600]

Bounded: every wait has a deadline. Linux only (127/8 is the loopback, ``/proc`` the memory).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web_abuse import addresses, create, memory, mib, server


async def hold(
    port: int, tables: list[tuple[str, str]], ready: asyncio.Event, stop: asyncio.Event
) -> list[Any]:
    """Join each (source, token) and keep the socket, answering pings, until ``stop``; set
    ``ready`` once every table said its bots are ready."""
    url = f"ws://127.0.0.1:{port}/ws"
    waiting = {token for _, token in tables}

    async def one(source: str, token: str) -> None:
        async with websockets.connect(url, local_addr=(source, 0), open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "join", "token": token}))
            while not stop.is_set():
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if msg["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                elif msg["type"] == "state" and msg["ready"] and token in waiting:
                    waiting.discard(token)
                    if not waiting:
                        ready.set()

    return await asyncio.gather(*(one(s, t) for s, t in tables), return_exceptions=True)


def measure(
    port: int, pid: int, seats: list[dict[str, str]], n: int, extra: int, block: int
) -> None:
    """``n`` tables from 127.0.BLOCK.x (10 each: a table and its person's connection both take
    from the address's connection allowance, a burst of 30), then ``extra`` more connections."""
    sources = [a for a in addresses(block, -(-n // 10)) for _ in range(10)][:n]
    before = memory(pid)["VmRSS"]
    made = []
    for source in sources:
        status, body = create(port, seats, source)
        if status != 200:
            raise RuntimeError(f"a table was refused: {status} {body}")
        made.append((source, body["seats"][0]["token"]))

    async def run() -> tuple[int, int, float]:
        ready, stop, more_ready = asyncio.Event(), asyncio.Event(), asyncio.Event()
        began = time.perf_counter()
        first = asyncio.create_task(hold(port, made, ready, stop))
        await asyncio.wait_for(ready.wait(), 300)
        took = time.perf_counter() - began
        await asyncio.sleep(1.0)
        tables_rss = memory(pid)["VmRSS"]
        # Second devices: from other addresses (each may hold 64), on the same seats.
        second = [
            (f"127.0.{block + 20 + i // 250}.{1 + i % 250}", made[i % len(made)][1])
            for i in range(extra)
        ]
        more = asyncio.create_task(hold(port, second, more_ready, stop))
        await asyncio.wait_for(more_ready.wait(), 300)
        await asyncio.sleep(1.0)
        conns_rss = memory(pid)["VmRSS"]
        stop.set()
        for outcome in [*await first, *await more]:
            if isinstance(outcome, BaseException):
                raise outcome
        return tables_rss, conns_rss, took

    tables_rss, conns_rss, took = asyncio.run(run())
    if n == 1:
        print(
            f"warm-up: a table of a person and {', '.join(s['kind'] for s in seats[1:])}, joined "
            f"(ready in {took:.1f} s): RSS {mib(before)} -> {mib(tables_rss)} (the models)"
        )
        return
    print(
        f"{n} tables of a person and {', '.join(s['kind'] for s in seats[1:])} in play, each "
        f"joined (ready in {took:.1f} s): RSS {mib(before)} -> {mib(tables_rss)}, "
        f"{(tables_rss - before) / n:.0f} KiB a table"
    )
    print(
        f"{extra} more joined connections: RSS {mib(tables_rss)} -> {mib(conns_rss)}, "
        f"{(conns_rss - tables_rss) / extra:.0f} KiB a connection"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="the memory a table and a connection cost")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--connections", type=int, default=600)
    parser.add_argument("--bots", default="default,naming")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        print("FAILED: Linux only (loopback 127/8 and /proc)", file=sys.stderr)
        return 1
    seats = [{"kind": "person"}, *({"kind": k} for k in args.bots.split(","))]
    settings = {"bot_delay": 0, "reveal_pause": 0, "max_tables_per_address": 20}
    started = time.perf_counter()
    with TemporaryDirectory() as tmp, server(Path(tmp), settings, False) as (port, proc):
        print(f"RSS at start: {mib(memory(proc.pid)['VmRSS'])}")
        measure(port, proc.pid, seats, 1, 1, 50)  # the warm-up: the bots' models load once
        measure(port, proc.pid, seats, args.tables, args.connections, 60)
    print(f"wall: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
