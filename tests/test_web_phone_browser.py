"""What a QA pass of the party game on phones (360 to 393 px wide) found, in a real browser
(Debian's Chromium through Playwright, every wait bounded): no page scrolls sideways at 360 px;
the clue stays in sight while the zoom sheet is open; a connection that goes silent without
closing (a phone off the wifi) is noticed and the page reconnects; the lobby logs no console
error where the server shows no leaderboard; the header's small buttons are big enough to
tap and the header keeps one's own name."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from huescues.web import TableSettings
from web_server import OVERFLOW, act_and_wait_for_the_next_state, chromium, live_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Bots quick; a page is pinged every second (away_after / 3), so its watchdog gives a silent
#: connection up after 2.5 s.
SETTINGS = TableSettings(bot_delay=0.01, reveal_pause=1.5, bot_time_limit=5, away_after=3.0)
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("phone") / "phone.sqlite"
    with live_server(db, SETTINGS) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A 360 x 740 page in a context of its own; the console's errors and the page's script
    errors are kept (``page.console_errors``, ``page.errors``)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors, page.console_errors = [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    yield page
    context.close()


def _table(url: str, kinds: list[str], **extra: Any) -> dict[str, Any]:
    body = json.dumps({"seats": [{"kind": k} for k in kinds], **extra}).encode()
    request = urllib.request.Request(
        f"{url}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=20) as answer:
        result: dict[str, Any] = json.loads(answer.read())
    return result


def _no_overflow(page: Any, where: str) -> None:
    shown = page.evaluate(OVERFLOW)
    assert shown["scroll"] <= shown["width"], f"{where} scrolls sideways: {shown}"


def test_no_page_scrolls_sideways_on_a_360_px_phone(server: str, phone: Any) -> None:
    """The lobby (its fieldsets held the width of their longest label), the links, the
    waiting room (the fill select held the width of its longest option) and the game."""
    phone.goto(server + "/")
    phone.wait_for_selector("select[name=kind]")
    _no_overflow(phone, "the lobby")
    phone.select_option("[data-field=seat-count]", "3")
    phone.locator("select[name=kind]").nth(1).select_option("person")
    phone.click("[data-action=create]")
    phone.wait_for_selector("#links:not([hidden])")
    _no_overflow(phone, "the links")
    phone.click("[data-action=waiting-room]")
    phone.wait_for_selector("[data-screen=waiting]:not([hidden])")
    # (The fill select's bots come from /api/setup: its widest option is the first, there at once.)
    phone.wait_for_selector("[data-field=fill] option:nth-child(2)", state="attached")
    _no_overflow(phone, "the waiting room")
    phone.click("[data-action=start-game]")
    phone.wait_for_selector("text=Choose a target")
    _no_overflow(phone, "the game")
    assert phone.errors == []


def test_the_clue_stays_in_sight_while_the_zoom_sheet_is_open(server: str, phone: Any) -> None:
    """A bot gives the clue, the person guesses: a tap opens the zoom sheet at the foot of the
    screen, over the side panel, and the clue shows on top of it (not covered)."""
    answer = _table(server, ["random", "person", "random"])
    phone.goto(answer["seats"][1]["link"])
    phone.wait_for_selector(".cell.open")
    clue = phone.locator("#clues .clue").first.inner_text()
    phone.locator(".cell.open").nth(200).click()
    phone.wait_for_selector("#zoom:not([hidden])")
    shown = phone.evaluate(
        """(clue) => [...document.querySelectorAll('.clue')]
          .filter((c) => c.textContent === clue)
          .map((c) => {
            const r = c.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const inside = r.width > 0 && x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
            const top = inside ? document.elementFromPoint(x, y) : null;
            return { where: c.parentElement.id, y, seen: Boolean(top && c.contains(top)) };
          })""",
        clue,
    )
    assert any(c["seen"] for c in shown), f"the clue {clue!r} is covered or off screen: {shown}"
    assert phone.errors == []


class _Wire:
    """A TCP relay between the browser and the server that can go silent: cut, it passes
    nothing either way and closes nothing (as a phone that drops off the wifi: its socket
    never closes); mended, it drops the connections that went silent (a network's state lost)
    and relays new ones."""

    def __init__(self, url: str) -> None:
        self.upstream = int(url.rsplit(":", 1)[1])
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut = threading.Event()
        self.lock = threading.Lock()
        self.silent: list[socket.socket] = []
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.open.append(client)
                if self.cut.is_set():
                    self.silent.append(client)
                    threading.Thread(target=self._swallow, args=(client,), daemon=True).start()
                    continue
            server = socket.create_connection(("127.0.0.1", self.upstream), timeout=10)
            server.settimeout(None)
            with self.lock:
                self.open.append(server)
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _swallow(self, sock: socket.socket) -> None:
        while True:
            try:
                if not sock.recv(65536):
                    return
            except OSError:
                return

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            if not data:
                for s in (source, sink):
                    _shut(s)
                return
            if self.cut.is_set():
                with self.lock:
                    self.silent.extend(s for s in (source, sink) if s not in self.silent)
                continue
            try:
                sink.sendall(data)
            except OSError:
                return

    def mend(self) -> None:
        with self.lock:
            self.cut.clear()
            silent, self.silent = self.silent, []
        for s in silent:
            _shut(s)

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            sockets = list(self.open)
        for s in sockets:
            _shut(s)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


LOST = "Connection lost; reconnecting…"


def test_a_connection_gone_silent_without_closing_is_noticed_and_the_page_reconnects(
    server: str, phone: Any
) -> None:
    """Ann's phone drops off the wifi: her socket never closes, nothing more comes. Within
    two and a half of the server's pings her page says the connection is lost; once the
    network is back it reconnects on its own, and she plays on."""
    answer = _table(server, ["person", "random", "random"], away_seconds=0)
    wire = _Wire(server)
    try:
        phone.goto(f"http://127.0.0.1:{wire.port}/play#t={answer['seats'][0]['token']}")
        phone.wait_for_selector("text=Choose a target")
        wire.cut.set()
        began = time.monotonic()
        phone.wait_for_function(
            "(lost) => document.getElementById('status').textContent === lost",
            arg=LOST,
            timeout=15_000,
        )
        assert time.monotonic() - began < 12
        phone.wait_for_timeout(500)
        wire.mend()
        phone.wait_for_function(
            "() => /Choose a target/.test(document.getElementById('status').textContent)",
            timeout=20_000,
        )
        # The new connection is the seat's: her move is taken.
        act_and_wait_for_the_next_state(phone, phone.locator(".cell.card").first.click)
        assert "give the first clue" in phone.locator("#status").inner_text()
    finally:
        wire.close()
    assert phone.errors == []


def test_a_lost_connection_is_said_in_the_waiting_room_too(server: str, phone: Any) -> None:
    """The waiting room has no status line: a connection lost there (the wifi gone silent) is
    said above the screen all the same, and the notice goes once the page is back."""
    wire = _Wire(server)
    try:
        phone.goto(f"http://127.0.0.1:{wire.port}/")
        phone.wait_for_selector("select[name=kind]")
        phone.select_option("[data-field=seat-count]", "3")
        phone.locator("select[name=kind]").nth(1).select_option("person")
        phone.click("[data-action=create]")
        phone.click("[data-action=waiting-room]")
        phone.wait_for_selector("[data-screen=waiting]:not([hidden])")
        assert phone.locator("#offline").is_hidden()
        wire.cut.set()
        phone.wait_for_selector("#offline:not([hidden])", timeout=15_000)
        assert phone.locator("#offline").inner_text() == LOST
        assert phone.locator("[data-screen=waiting]").is_visible()
        wire.mend()
        phone.wait_for_selector("#offline", state="hidden", timeout=20_000)
        assert phone.locator("[data-screen=waiting]").is_visible()
    finally:
        wire.close()
    assert phone.errors == []


def test_the_lobby_logs_no_console_error_without_a_leaderboard(server: str, phone: Any) -> None:
    """The server shows no leaderboard (no --leaderboard): the lobby does not ask for it (its
    404 was a console error on every load), and its section stays hidden."""
    phone.goto(server + "/")
    phone.wait_for_selector("select[name=kind]")
    phone.wait_for_load_state("networkidle")
    assert phone.console_errors == []
    assert phone.locator("#leaders").is_hidden()
    assert phone.errors == []


#: Each matching element whose hit area is smaller than 40 x 40 px around its middle: the
#: points 19 px from it (its corners and sides) where a tap lands elsewhere.
SMALL_TARGETS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.offsetParent !== null)
  .map((e) => {
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const misses = [];
    for (const dx of [-19, 0, 19]) for (const dy of [-19, 0, 19]) {
      const hit = document.elementFromPoint(x + dx, y + dy);
      if (!hit || !e.contains(hit)) misses.push([dx, dy, hit && `${hit.tagName}.${hit.className}`]);
    }
    return { what: `${e.tagName} ${e.textContent}`, size: [r.width, r.height], misses };
  })
  .filter((t) => t.misses.length)"""

#: The header's text, and whether ``name`` in it shows whole (not cut off by its ellipsis).
HEADER = """(name) => {
  const r = document.getElementById('round');
  const text = r.firstChild, at = r.textContent.indexOf(name);
  if (!text || at < 0) return { text: r.textContent, shown: false };
  const range = document.createRange();
  range.setStart(text, at);
  range.setEnd(text, at + name.length);
  // (Where the line is cut, the ellipsis takes the last few pixels before the edge.)
  const room = r.getBoundingClientRect().right - (r.scrollWidth > r.clientWidth ? 12 : 0);
  return { text: r.textContent, shown: range.getBoundingClientRect().right <= room };
}"""


def test_small_buttons_are_big_enough_to_tap_and_the_header_keeps_ones_name(
    server: str, phone: Any
) -> None:
    """At 360 px: the language buttons, the links' "open", the bell, the logo's link and the
    reactions take a tap 40 x 40 px around their middle; the header names one's own seat, even
    a long name, in the waiting room and in the game (the round cut short instead)."""
    phone.goto(server + "/")
    phone.wait_for_selector("select[name=kind]")
    assert phone.evaluate(SMALL_TARGETS, ".lang-button") == []
    phone.select_option("[data-field=seat-count]", "3")
    phone.locator("input[name=name]").first.fill("Bartholomew")
    phone.locator("select[name=kind]").nth(1).select_option("person")
    phone.click("[data-action=create]")
    phone.wait_for_selector("#links:not([hidden])")
    assert phone.evaluate(SMALL_TARGETS, "[data-seat-link]") == []
    phone.click("[data-action=waiting-room]")
    phone.wait_for_selector("[data-screen=waiting]:not([hidden])")
    assert phone.evaluate(SMALL_TARGETS, ".bar button") == []
    header = phone.evaluate(HEADER, "you are Bartholomew")
    assert header["shown"], header
    phone.click("[data-action=start-game]")
    phone.wait_for_selector("text=Choose a target")
    assert phone.evaluate(SMALL_TARGETS, ".bar button") == []
    header = phone.evaluate(HEADER, "you are Bartholomew")
    assert header["shown"], header
    assert "Round 1 of" in header["text"] or "Round 1 of" in phone.get_attribute("#round", "title")
    # The logo's link home (its name is hidden on a phone) and the game's reactions.
    assert phone.evaluate(SMALL_TARGETS, ".bar .brand") == []
    assert phone.locator("#reactions .reaction").first.is_visible()
    phone.evaluate("document.getElementById('reactions').scrollIntoView({block: 'center'})")
    assert phone.evaluate(SMALL_TARGETS, "#reactions .reaction") == []
    _no_overflow(phone, "the game")
    assert phone.errors == []
