"""The game tables in a real browser (issue 14): Debian's Chromium driven by Playwright against
a real server on loopback. A person and three bots play a whole game through the page."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from huescues.engine import Board, GameRecord
from huescues.web import TableSettings
from web_server import browser_page, live_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Quick bots, but slow enough that the page shows their moves.
SETTINGS = TableSettings(bot_delay=0.02, reveal_pause=0.05, bot_time_limit=5, allow_seed=True)
#: A name and a clue that would run script if the page parsed them as HTML.
EVIL_NAME = "<img src=x onerror=f()>"
EVIL_CLUE = "<img onerror=alert()>"  # two words: a second clue the rules allow (R11)


def _status(page: Any) -> str:
    return str(page.locator("#status").inner_text())


def _act(page: Any, clues: list[str], done: dict[str, bool]) -> Any:
    """Play the person's turn shown on the page; the control used (it is redrawn, so
    detached, once the server has taken the move)."""
    status = _status(page)
    if "Choose a target" in status:
        cell = page.locator(".cell.card").first
        name = cell.get_attribute("data-cell")
        cell.click()
        # The next step is the giver's own: the clue box, with the chosen target shown.
        page.wait_for_selector(f"text=Your target: {name}")
        return page.locator("[data-field=clue]").element_handle()
    if "first clue" in status or "second clue" in status:
        box = page.locator("[data-field=clue]")
        if not done.get("refused"):
            # The live check shows the rule that refuses a clue (R19), before anything is sent.
            box.fill("reddish")
            # A function, not an expression: the page's policy forbids eval.
            page.wait_for_function(
                "() => (document.getElementById('clue-check')?.textContent ?? '').includes('R19')"
            )
            done["refused"] = True
        if "second clue" in status and not done.get("evil"):
            box.fill(EVIL_CLUE)
            page.wait_for_selector("#clue-check.ok")
            done["evil"] = True
        elif "second clue" in status:
            button = page.locator("[data-action=pass]").element_handle()
            button.click()
            return button
        else:
            box.fill(clues.pop(0))
        button = page.locator("[data-action=clue]").element_handle()
        button.click()
        return button
    assert "place your" in status, status
    page.locator(".cell.open").nth(37).click()
    button = page.locator("[data-action=place]").element_handle()
    assert button.is_enabled()
    button.click()
    return button


def test_a_person_plays_a_whole_game_against_three_bots_in_the_browser(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite"
    dialogs: list[str] = []
    with live_server(db, SETTINGS) as url, browser_page() as page:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(url + "/")
        page.select_option("[data-field=seat-count]", "4")
        page.locator("input[name=name]").first.fill(EVIL_NAME)
        kinds = page.locator("select[name=kind]")
        for i, kind in enumerate(["person", "random", "naming", "random"]):
            kinds.nth(i).select_option(kind)
        page.click("[data-action=create]")
        page.click("[data-action=pass-and-play]")
        page.wait_for_selector('[data-cell="F12"]')
        assert page.locator("[data-cell]").count() == 480
        # The board's own colours, as the engine's Board has them.
        for name in ("A1", "F12", "P30"):
            colour = page.locator(f'[data-cell="{name}"]').evaluate(
                "e => getComputedStyle(e).backgroundColor"
            )
            r, g, b = (int(x) for x in colour[4:-1].split(","))
            board = Board.standard()
            assert f"#{r:02x}{g:02x}{b:02x}" == board.hex(board.cell(name))
        # Enough for every round the person may give (the lobby deals unseeded, so R25's
        # tie-breakers may add some), and none a random bot says (R22 would refuse it again).
        clues = ["<b>meadow</b>", "walnut", "thistle", "orchard", "lantern", "driftwood",
                 "meteor", "biscuit", "kettle", "lichen", "quartz", "barley", "compass", "timber",
                 "chimney", "saddle", "anchor", "beacon", "falcon", "gravel"]  # fmt: skip
        done: dict[str, bool] = {}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            page.wait_for_function(
                "() => /Your turn|Game over/.test("
                "document.getElementById('status')?.textContent ?? '')"
            )
            if "Game over" in _status(page):
                break
            before = _status(page)
            used = _act(page, clues, done)
            if used.get_attribute("data-field") != "clue":
                # Taken once the control is gone or the status moves on (the person may act
                # again at once: the last first guess is followed by the first second guess).
                page.wait_for_function(
                    "([el, s]) => !el.isConnected || el.offsetParent === null"
                    " || (document.getElementById('status')?.textContent ?? '') !== s",
                    arg=[used, before],
                )
        else:
            pytest.fail("the game did not end in time")
        assert done.get("evil"), "the person never gave a second clue"
        scores = page.locator("#scores li")
        assert scores.count() == 4
        # Names and clues are shown as text, never as HTML.
        assert page.locator("img").count() == 0
        assert page.locator("#clues b, #last-round b").count() == 0
        assert EVIL_NAME in page.locator("#scores").inner_text()
        assert not dialogs
        table_scores = [int(s) for s in page.locator("#scores .score").all_inner_texts()]
    rows = _finished(db)
    assert len(rows) == 1
    final = GameRecord.from_json(rows[0]).replay()
    assert list(final.scores) == table_scores
    clues_given = [c for r in final.history for c in r.clues]
    assert EVIL_CLUE in clues_given and "<b>meadow</b>" in clues_given


def _finished(db: Path) -> list[str]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT record FROM games WHERE record IS NOT NULL")]


def _ann_bob_and_a_bot(url: str) -> list[dict[str, Any]]:
    """A table of Ann, Bob and a random bot made through the API: its seats (with tokens)."""
    import urllib.request

    body = {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"kind": "random"}], "seed": 1}
    request = urllib.request.Request(
        url + "/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return list(json.loads(response.read())["seats"])


def test_pass_and_play_hides_the_screen_between_people(tmp_path: Path) -> None:
    with live_server(tmp_path / "p.sqlite", SETTINGS) as url, browser_page(390, 844) as page:
        seats = _ann_bob_and_a_bot(url)
        tokens = ",".join(s["token"] for s in seats if s["token"])
        page.goto(f"{url}/play#t={tokens}")
        # Ann gives the first clue (R6): the device asks for her before showing her card.
        page.wait_for_selector("#cover:not([hidden])")
        assert "Pass the device to Ann" in page.locator("#cover-text").inner_text()
        assert not page.locator(".game").is_visible() or page.locator(".cell.card").count() == 0
        page.click("[data-action=reveal-screen]")
        page.locator(".cell.card").first.click()
        page.locator("[data-field=clue]").fill("lagoon")
        page.click("[data-action=clue]")
        # Bob guesses first (R10): the screen hides again, and Bob never sees Ann's card.
        page.wait_for_selector("#cover:not([hidden])")
        assert "Pass the device to Bob" in page.locator("#cover-text").inner_text()
        page.click("[data-action=reveal-screen]")
        assert page.locator(".cell.card").count() == 0
        assert "place your first pawn" in _status(page)
        # The board fits a phone's width.
        width = page.locator("#board").evaluate("e => e.getBoundingClientRect().width")
        assert width <= 390


def test_a_tap_on_give_survives_a_state_that_arrives_between_its_press_and_release(
    tmp_path: Path,
) -> None:
    """A slow phone's tap: Ann presses "Give", Bob's page comes back (a state that changes
    nothing of hers reaches her page) before she lifts her finger; the clue is still given,
    as she typed it (R11)."""
    from web_server import chromium

    with live_server(tmp_path / "t.sqlite", SETTINGS) as url, chromium() as browser:
        ann_token, bob_token = (s["token"] for s in _ann_bob_and_a_bot(url)[:2])
        ann = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        for page in (ann, bob):
            page.set_default_timeout(15_000)
        states: list[str] = []
        ann.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda f: states.append(str(f))),
        )
        bob.goto(f"{url}/play#t={bob_token}")
        ann.goto(f"{url}/play#t={ann_token}")
        ann.wait_for_selector("text=Choose a target")
        ann.locator(".cell.card").first.click()
        ann.locator("[data-field=clue]").fill("lagoon")
        give = ann.locator("[data-action=clue]")
        give.hover()
        ann.mouse.down()
        seen = sum('"type": "state"' in f or '"type":"state"' in f for f in states)
        bob.reload()
        deadline = time.monotonic() + 15
        while sum('"type": "state"' in f or '"type":"state"' in f for f in states) == seen:
            assert time.monotonic() < deadline, "Bob's return sent Ann's page no state"
            ann.wait_for_timeout(50)
        ann.mouse.up()
        ann.wait_for_function(
            "() => document.querySelectorAll('#clues .clue').length === 1", timeout=10_000
        )
        assert ann.locator("#clues .clue").inner_text().strip('“”"') == "lagoon"
