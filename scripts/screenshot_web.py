"""The screenshot of a game in docs/web.md: a real ``huescues serve`` on loopback, a person and
three bots, taken with Playwright and Debian's Chromium.

    python scripts/screenshot_web.py [--out docs/images/web-game.png] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import sync_playwright

from huescues.web import TableSettings, create_app

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def serve_in_thread(app: Any) -> tuple[str, uvicorn.Server, threading.Thread]:
    """``app`` served on a free loopback port in a thread, once it has started: its address,
    the server (set ``should_exit`` to stop it) and the thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return url, server, thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/images/web-game.png")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()

    db = Path(tempfile.mkdtemp()) / "shot.sqlite"
    settings = TableSettings(bot_delay=0.05, reveal_pause=0.1, allow_seed=True)
    url, server, thread = serve_in_thread(create_app(db, tables=settings))
    seats = [
        {"name": "Ann", "kind": "person"},
        {"name": "Naming bot", "kind": "naming"},
        {"name": "Default bot", "kind": "default"},
        {"name": "Random bot", "kind": "random"},
    ]
    request = urllib.request.Request(
        url + "/api/tables",
        data=json.dumps({"seats": seats, "seed": 2}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        token = json.loads(response.read())["seats"][0]["token"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 760}, device_scale_factor=1)
        page.set_default_timeout(60_000)
        page.goto(f"{url}/play#t={token}")
        # Round 1: Ann gives the clues; then a bot's round, and Ann's second guess there.
        page.wait_for_selector("text=Choose a target")
        page.locator(".cell.card").nth(1).click()
        page.locator("[data-field=clue]").fill("lagoon")
        page.click("[data-action=clue]")
        page.wait_for_selector("text=give a second clue")
        page.locator("[data-field=clue]").fill("tropical sea")
        page.click("[data-action=clue]")
        page.wait_for_selector("text=place your first pawn")
        page.locator(".cell.open").nth(200).click()
        page.click("[data-action=place]")
        page.wait_for_selector("text=/place your second pawn|give a second clue/")
        page.wait_for_timeout(300)
        page.screenshot(path=args.out)
        browser.close()
    server.should_exit = True
    thread.join(10)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
