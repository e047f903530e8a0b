"""The screenshots of docs/web.md: a real ``huescues serve`` on loopback, a person and three
bots, taken with Playwright and Debian's Chromium: a game (web-game.png), a reveal waiting for
"Next round" with each pawn's points on the board (web-reveal.png), the end screen
(web-end.png), a dead link (web-gone.png), the lobby's house rules (web-lobby.png), a phone's
zoom (web-phone-zoom.png), and a game in Spanish (web-game-es.png: a Spanish browser at a
Spanish table, "rojizo" refused live with R19); the party game's: the waiting room with a friend
arrived through the invite (web-waiting.png), a phone at a table of friends, one away
(web-phone.png), and the series table after "Play again" (web-series.png). Emoji need a colour
emoji font (Debian: fonts-noto-color-emoji).

    python scripts/screenshot_web.py [--out docs/images/web-game.png] [--chromium /usr/bin/chromium]
        [--only-spanish]
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


def _table(
    url: str, seats: list[dict[str, str]], seed: int, language: str = "en"
) -> list[str | None]:
    """A new table's seats' tokens (a rule each round: R19's house rule on named colours)."""
    body = {
        "seats": seats,
        "seed": seed,
        "house_rules": {"refuse_named_colours": True},
        "language": language,
    }
    request = urllib.request.Request(
        url + "/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return [s["token"] for s in json.loads(response.read())["seats"]]


def _play_to_the_end(page: Any, reveal: Path | None = None) -> None:
    """Ann plays on (the card's first square, a fresh clue, a pass, a square) and dismisses each
    reveal, until the end screen; the first reveal with points on the board is taken to
    ``reveal``, once its frame has dropped."""
    # (Enough for the tie-breakers too, R25: each a word not given before, R22.)
    clues = iter(
        [
            "meadow",
            "glacier",
            "velvet",
            "ember",
            "walnut",
            "harbour",
            "cocoa",
            "frost",
            "lagoon",
            "thistle",
            "lantern",
            "driftwood",
            "chimney",
            "saddle",
            "biscuit",
            "meteor",
            "kettle",
            "lichen",
            "quartz",
            "barley",
            "compass",
            "timber",
        ]
    )
    while not page.locator("[data-screen=end]").is_visible():
        page.wait_for_selector(
            "[data-action=next-round], [data-screen=end]:not([hidden]), .status.your-turn"
        )
        status = page.locator("#status").inner_text()
        if page.locator("[data-screen=end]").is_visible():
            break
        if page.locator("[data-action=next-round]").count():
            if reveal is not None and page.locator(".pawn-points").count():
                page.wait_for_timeout(1200)
                page.screenshot(path=str(reveal))
                reveal = None
            page.click("[data-action=next-round]")
            page.wait_for_selector("[data-action=next-round]", state="detached")
            continue
        if "Choose a target" in status:
            page.locator(".cell.card").first.click()
            page.wait_for_selector("[data-field=clue]")
            continue
        if "second clue" in status:
            page.click("[data-action=pass]")
        elif "first clue" in status:
            page.locator("[data-field=clue]").fill(next(clues))
            page.click("[data-action=clue]")
        else:
            page.locator(".cell.open").nth(120).click()
            page.click("[data-action=place]")
        # On, or refused (a clue given already at this table, R22: the next one then).
        page.wait_for_function(
            "s => document.getElementById('status').textContent !== s"
            " || document.getElementById('message').textContent !== ''",
            arg=status,
        )
        page.evaluate("() => { document.getElementById('message').textContent = ''; }")


def _spanish(browser: Any, url: str, images: Path) -> None:
    """A Spanish browser at a Spanish table: Ana gives the first clue, and "rojizo" (a form of
    "rojo") is refused live with R19, in Spanish words with the rule number."""
    seats = [
        {"name": "Ana", "kind": "person"},
        {"name": "Bot Luis", "kind": "random"},
        {"name": "Bot Marta", "kind": "random"},
        {"name": "Bot Pablo", "kind": "random"},
    ]
    token = _table(url, seats, 2, language="es")[0]
    page = browser.new_page(
        viewport={"width": 1280, "height": 760}, device_scale_factor=1, locale="es-ES"
    )
    page.set_default_timeout(60_000)
    page.goto(f"{url}/play#t={token}")
    page.wait_for_selector("text=Elige un objetivo")
    page.locator(".cell.card").nth(1).click()
    page.locator("[data-field=clue]").fill("rojizo")
    page.wait_for_selector("#clue-check.bad")
    page.wait_for_timeout(200)
    page.screenshot(path=str(images / "web-game-es.png"))
    page.close()


def _create(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url + "/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def _party(browser: Any, url: str, images: Path) -> None:
    """The waiting room of a table made in the lobby, Hal arrived through the invite on his
    phone, Ivy not yet; then the phone's view of the game with Ivy away."""
    lobby = browser.new_context(viewport={"width": 900, "height": 900}, device_scale_factor=1)
    ann = lobby.new_page()
    ann.set_default_timeout(60_000)
    ann.goto(url + "/")
    ann.select_option("[data-field=seat-count]", "4")
    ann.locator("input[name=name]").first.fill("Ann")
    for i, kind in enumerate(["person", "person", "person", "random"]):
        ann.locator("select[name=kind]").nth(i).select_option(kind)
    ann.select_option("[data-field=board]", "retail")
    ann.select_option("[data-field=rounds-per-giver]", "1")
    ann.click("[data-action=create]")
    ann.click("[data-action=waiting-room]")
    ann.wait_for_selector("img[data-qr=invite][src^='data:']")
    invite = ann.locator("[data-link=invite]").input_value()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    hal = phone.new_page()
    hal.set_default_timeout(60_000)
    hal.goto(invite)
    hal.fill("[data-field=join-name]", "Hal")
    hal.click("[data-action=join]")
    ann.wait_for_selector("#waiting-seats li:nth-child(2)[data-presence=here]")
    hal.click("[data-action=react][data-emoji='🎉']")
    ann.wait_for_selector("[data-reaction]")
    ann.wait_for_timeout(300)
    ann.screenshot(path=str(images / "web-waiting.png"), full_page=True)
    # Ann starts with Ivy's seat empty: its turns wait 45 s for her, then a bot plays them.
    ann.select_option("[data-field=fill]", "")
    ann.click("[data-action=start-game]")
    ann.wait_for_selector("text=Choose a target")
    ann.locator(".cell.card").nth(2).click()
    ann.locator("[data-field=clue]").fill("lagoon")
    ann.click("[data-action=clue]")
    hal.wait_for_selector("text=place your first pawn")
    hal.locator('[data-cell="H20"]').click()
    hal.click("[data-action=zoom-place]")
    hal.wait_for_selector("#timer:not([hidden])")
    hal.wait_for_timeout(1500)
    hal.screenshot(path=str(images / "web-phone.png"))
    lobby.close()
    phone.close()


def _series(browser: Any, url: str, images: Path) -> None:
    """Two games in a row at one table (Play again): the end screen's series table."""
    body = {
        "seats": [{"name": "Ann"}, {"kind": "default"}, {"kind": "naming"}],
        "seed": 5,
        "house_rules": {"rounds_per_giver": 1},
    }
    token = _create(url, body)["seats"][0]["token"]
    page = browser.new_page(viewport={"width": 800, "height": 900}, device_scale_factor=1)
    page.set_default_timeout(60_000)
    page.emulate_media(reduced_motion="reduce")  # (no confetti over the table)
    page.goto(f"{url}/play#t={token}")
    _play_to_the_end(page)
    page.click("[data-action=play-again]")
    page.wait_for_selector("[data-screen=game]:not([hidden])")
    _play_to_the_end(page)
    page.wait_for_selector("#series:not([hidden])")
    page.wait_for_timeout(300)
    # The standings and the series (the rounds, tie-breakers and all, follow below them).
    top = page.locator("#end-buttons").bounding_box()
    box = page.locator("#end").bounding_box()
    page.screenshot(
        path=str(images / "web-series.png"),
        clip={"x": box["x"], "y": box["y"], "width": box["width"],
              "height": top["y"] + top["height"] + 24 - box["y"]},
    )  # fmt: skip
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/images/web-game.png")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument(
        "--only-spanish", action="store_true", help="take only web-game-es.png (no default bot)"
    )
    args = parser.parse_args()

    db = Path(tempfile.mkdtemp()) / "shot.sqlite"
    settings = TableSettings(bot_delay=0.05, reveal_pause=120, allow_seed=True)
    url, server, thread = serve_in_thread(create_app(db, tables=settings))
    seats = [
        {"name": "Ann", "kind": "person"},
        {"name": "Naming bot", "kind": "naming"},
        {"name": "Default bot", "kind": "default"},
        {"name": "Random bot", "kind": "random"},
    ]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        _spanish(browser, url, Path(args.out).parent)
        if args.only_spanish:
            browser.close()
            server.should_exit = True
            thread.join(10)
            return
        _party(browser, url, Path(args.out).parent)
        _series(browser, url, Path(args.out).parent)
        token = _table(url, seats, 2)[0]
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
        # The reveal of round 1, waiting for Ann's "Next round".
        page.wait_for_selector("[data-action=next-round]")
        images = Path(args.out).parent
        page.click("[data-action=next-round]")
        page.wait_for_selector("text=place your first pawn")
        page.locator(".cell.open").nth(200).click()
        page.click("[data-action=place]")
        page.wait_for_selector("text=/place your second pawn|give a second clue/")
        page.wait_for_timeout(300)
        page.screenshot(path=args.out)
        _play_to_the_end(page, images / "web-reveal.png")
        page.wait_for_timeout(900)  # (the winner's confetti on its way down)
        page.screenshot(path=str(images / "web-end.png"), full_page=True)
        gone = browser.new_page(viewport={"width": 800, "height": 420}, device_scale_factor=1)
        gone.goto(f"{url}/play#t=a-table-long-gone")
        gone.wait_for_selector("[data-screen=gone]:not([hidden])")
        gone.screenshot(path=str(images / "web-gone.png"))
        lobby = browser.new_page(viewport={"width": 800, "height": 900}, device_scale_factor=1)
        lobby.goto(url + "/")
        lobby.wait_for_selector("[data-field=refuse-named-colours]")
        lobby.check("[data-field=refuse-named-colours]")
        lobby.screenshot(path=str(images / "web-lobby.png"), full_page=True)
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.set_default_timeout(60_000)
        seats[1], seats[0] = seats[0], seats[1]  # a bot gives first, Ann guesses (R6, R10)
        phone.goto(f"{url}/play#t={_table(url, seats, 6)[1]}")
        phone.wait_for_selector("text=place your first pawn")
        phone.locator('[data-cell="H15"]').click()
        phone.locator('[data-zoom-cell="H16"]').click()
        phone.wait_for_timeout(200)
        phone.screenshot(path=str(images / "web-phone-zoom.png"))
        browser.close()
    server.should_exit = True
    thread.join(10)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
