"""A real ``huescues serve`` server on a free loopback port, in a thread, and Chromium for
Playwright (Debian's, through ``executable_path``: browser downloads do not work here)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from huescues.web import StudyConfig, TableSettings, create_app, server_config

CHROMIUM = os.environ.get("HUESCUES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Whether the page scrolls sideways, and what sticks out (to say so on a failure).
OVERFLOW = """() => {
  const width = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > width + 0.5)
    .slice(0, 5)
    .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().width)} px`);
  return { scroll: document.documentElement.scrollWidth, width, wide };
}"""


def have_chromium() -> bool:
    return Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is not None


def require_chromium() -> None:
    """Skip a browser test on a machine without Chromium; in CI (``CI`` set), where ``.ci/run``
    installs it, a missing browser is a failure, never a skip."""
    if have_chromium():
        return
    message = f"no Chromium at {CHROMIUM}: apt install chromium, or set HUESCUES_CHROMIUM"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def live_server(
    db: Path,
    settings: TableSettings | None = None,
    *,
    study: StudyConfig | None = None,
    public_url: str | None = None,
) -> Iterator[str]:
    """The server's base URL (``http://127.0.0.1:PORT``) while the block runs; ``public_url``
    is its ``--public-url``, ``{port}`` in it the server's port."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # The configuration huescues serve runs with: its protocols, frame bounds and guards.
    public = None if public_url is None else public_url.format(port=port)
    config = server_config(create_app(db, tables=settings, study=study, public_url=public))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


@contextmanager
def browser_page(width: int = 1280, height: int = 900, locale: str | None = None) -> Iterator[Any]:
    """A fresh Chromium page, every wait bounded; ``locale`` (``"es-ES"``) sets the browser's
    languages (``navigator.languages``)."""
    with chromium() as browser:
        extra = {} if locale is None else {"locale": locale}
        page = browser.new_page(viewport={"width": width, "height": height}, **extra)
        page.set_default_timeout(15_000)
        yield page


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright, for as long as the block runs: one browser, in
    which a test opens as many contexts (people, each with their own storage) as it needs."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=30_000)
        try:
            yield browser
        finally:
            browser.close()


# Watches the page's renders of #status for words other than those before the action. A state
# from the server sets the text even to the same words (a broadcast that crosses the click), so
# any render is no answer; but the observer sees every render, so a turn that moves on and comes
# back to the same words before the page is looked at again (bots play fast) is not missed.
# A refusal shows in #message and changes no state.
_WATCH_STATUS = """() => {
  const status = document.getElementById('status');
  const message = document.getElementById('message');
  window.__statusBefore = status.textContent;
  window.__messageBefore = message.textContent;
  window.__statusMoved = false;
  window.__refusal = null;
  if (!window.__statusWatch) {
    window.__statusWatch = new MutationObserver(() => {
      if (status.textContent !== window.__statusBefore) window.__statusMoved = true;
      const said = message.textContent;
      if (said && said !== window.__messageBefore) window.__refusal = said;
    });
    for (const node of [status, message]) {
      window.__statusWatch.observe(node, { childList: true, characterData: true, subtree: true });
    }
  }
}"""


def act_and_wait_for_the_next_state(page: Any, act: Callable[[], None]) -> None:
    """Do ``act`` (a person's action in the game page) and wait until the page shows the state
    it led to; if none comes, or the action is refused, fail saying what the page showed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate(_WATCH_STATUS)
    act()
    try:
        # (Longer than a page's usual wait: the action is stored before its state is sent.)
        page.wait_for_function(
            "() => window.__statusMoved || window.__refusal !== null", timeout=30_000
        )
    except PlaywrightTimeout:
        shown = page.evaluate(
            """() => ({status: document.getElementById('status').textContent,
                      message: document.getElementById('message').textContent,
                      cards: document.querySelectorAll('.cell.card').length})"""
        )
        raise AssertionError(
            f"no new state 30 s after the person's action; the page showed {shown}"
        ) from None
    if not page.evaluate("() => window.__statusMoved"):
        # (A refusal can cross a state that moved the turn on anyway: a stand-in's move.)
        try:
            page.wait_for_function("() => window.__statusMoved", timeout=3_000)
            return
        except PlaywrightTimeout:
            pass
        refusal = page.evaluate("() => window.__refusal")
        raise AssertionError(f"the person's action was refused: {refusal!r}")


def until(ws: Any, kind: str, *, limit: int = 30, timeout: float = 15) -> dict[str, Any]:
    """The next message of type ``kind`` on a websocket (within ``limit`` messages, each within
    ``timeout`` seconds): every wait of a server test bounded in count and time."""
    for _ in range(limit):
        msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind!r} among {limit} messages")
