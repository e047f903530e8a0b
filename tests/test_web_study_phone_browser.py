"""The study on a phone (a participant on a slow phone): a 360 x 740 touch screen, and a
connection that drops or answers slowly. An answer whose reply is lost is kept once and the study
goes on; an answer sent while offline, or to a busy server, is said so in the page's language and
sent again by itself; a tap while an answer is on its way sends nothing twice; every control a
finger taps is at least 40 px; a tap between two squares chooses the nearest; the phone turned
shows bigger squares and Confirm on one screen; a clue refused on submit is said in Spanish on a
Spanish page; the study's first request does not wait for the page's texts."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from huescues.web import StudyConfig
from web_server import chromium, live_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@contextmanager
def phone(locale: str = "en-GB") -> Iterator[Any]:
    """A page as on a small phone: 360 x 740, touch, every wait bounded."""
    with chromium() as browser:
        context = browser.new_context(
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
            locale=locale,
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        yield page


def _responses(db: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT item, square FROM responses ORDER BY item").fetchall()
    return [(int(i), str(s)) for i, s in rows]


def _given(db: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT item, clue FROM given_clues ORDER BY item").fetchall()
    return [(int(i), str(c)) for i, c in rows]


def _wait_for(page: Any, condition: Any, seconds: float = 10.0) -> None:
    """Lets the page run until ``condition()`` holds, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    for _ in range(int(seconds / 0.05) + 1):
        if condition():
            return
        if time.monotonic() > deadline:
            break
        page.wait_for_timeout(50)
    raise AssertionError(f"not within {seconds} s")


def _begin(page: Any, url: str) -> None:
    page.goto(url)
    page.tap('[data-action="consent"]:not([disabled])')
    sync_api.expect(page.locator("#task")).to_be_visible()


def test_an_answer_whose_reply_is_lost_is_kept_once_and_the_study_goes_on(tmp_path: Path) -> None:
    """The server stored the answer, the connection dropped on the way back: before, the page
    said "Failed to fetch", and Confirm again was refused ("clue 0 is not the one asked now")
    for good; the participant was stuck at an answered item."""
    db = tmp_path / "lost.sqlite"
    study = StudyConfig(clues=("sky", "moss"), clues_per_person=2)
    with live_server(db, study=study) as url, phone() as page:
        _begin(page, f"{url}/study")
        sync_api.expect(page.locator("#progress")).to_have_text("1 of 2")
        lost = {"n": 0}

        def lose_the_reply(route: Any) -> None:
            if lost["n"] == 0:
                lost["n"] += 1
                route.fetch()  # the server stores the answer ...
                route.abort("internetdisconnected")  # ... and its reply never arrives
            else:
                route.continue_()

        page.route("**/study/api/answer", lose_the_reply)
        page.tap('[data-cell="F12"]')
        page.tap('[data-action="confirm"]')
        # No second tap: the page finds out by itself that the answer is in.
        sync_api.expect(page.locator("#progress")).to_have_text("2 of 2", timeout=15_000)
        sync_api.expect(page.locator("#error")).to_be_hidden()
        assert _responses(db) == [(0, "F12")]
        page.tap('[data-cell="B20"]')
        page.tap('[data-action="confirm"]')
        sync_api.expect(page.locator("#thanks")).to_be_visible()
        assert _responses(db) == [(0, "F12"), (1, "B20")]
        assert not page.errors


def test_an_answer_sent_offline_is_said_in_spanish_and_sent_when_the_connection_is_back(
    tmp_path: Path,
) -> None:
    """Before, the page said the browser's English "Failed to fetch" and did nothing more: the
    answer was lost unless the participant guessed to tap Confirm again."""
    db = tmp_path / "offline.sqlite"
    study = StudyConfig(language="es", clues=("cielo", "musgo"), clues_per_person=2)
    with live_server(db, study=study) as url, phone("es-ES") as page:
        _begin(page, f"{url}/study")
        sync_api.expect(page.locator("#progress")).to_have_text("1 de 2")
        page.tap('[data-cell="F12"]')
        page.context.set_offline(True)
        page.tap('[data-action="confirm"]')
        error = page.locator("#error")
        sync_api.expect(error).to_contain_text("Sin conexión", timeout=10_000)
        assert "fetch" not in (error.text_content() or "")
        page.wait_for_timeout(3_000)
        assert _responses(db) == []
        sync_api.expect(page.locator("#progress")).to_have_text("1 de 2")
        page.context.set_offline(False)
        # Sent by itself, once, and the message goes.
        sync_api.expect(page.locator("#progress")).to_have_text("2 de 2", timeout=15_000)
        sync_api.expect(error).to_be_hidden()
        assert _responses(db) == [(0, "F12")]
        assert not page.errors


def test_a_tap_while_an_answer_is_on_its_way_sends_nothing_twice(tmp_path: Path) -> None:
    """A slow reply: Confirm is off until it comes (before, it stayed on and a tap did nothing
    visible), and the item after it is not skipped."""
    db = tmp_path / "slow.sqlite"
    study = StudyConfig(clues=("sky", "moss", "rust"), clues_per_person=3)
    with live_server(db, study=study) as url, phone() as page:
        _begin(page, f"{url}/study")
        held: list[Any] = []
        page.route("**/study/api/answer", lambda route: held.append(route))
        page.tap('[data-cell="F12"]')
        page.tap('[data-action="confirm"]')
        _wait_for(page, lambda: len(held) == 1)
        # The reply is held back: Confirm is off, and a tap on it sends nothing.
        sync_api.expect(page.locator('[data-action="confirm"]')).to_be_disabled()
        page.tap('[data-action="confirm"]', force=True)
        page.wait_for_timeout(300)
        assert len(held) == 1
        held[0].continue_()
        sync_api.expect(page.locator("#progress")).to_have_text("2 of 3")
        assert _responses(db) == [(0, "F12")]


def test_every_control_a_finger_taps_is_40_px_and_nothing_overflows_at_360_px(
    tmp_path: Path,
) -> None:
    """Before, the language buttons were 25 px high and the consent's selects 36 px."""
    db = tmp_path / "taps.sqlite"
    study = StudyConfig(clues=("sky",), clues_per_person=1)
    measure = """() => {
      const small = [];
      for (const e of document.querySelectorAll('button, input, select, a')) {
        if (e.offsetParent === null || e.classList.contains('hc-cell')) continue;
        const r = e.getBoundingClientRect();
        if (r.width < 40 || r.height < 40)
          small.push(`${e.outerHTML.slice(0, 60)} ${r.width}x${r.height}`);
      }
      return {small, scroll: document.documentElement.scrollWidth, width: window.innerWidth};
    }"""
    with live_server(db, study=study) as url, phone() as page:
        page.goto(f"{url}/study")
        sync_api.expect(page.locator('[data-action="consent"]')).to_be_enabled()
        sync_api.expect(page.locator(".lang-button").first).to_be_visible()
        for screen in ("consent", "item"):
            if screen == "item":
                page.tap('[data-action="consent"]')
                sync_api.expect(page.locator("#clue")).to_have_text("sky")
                page.tap('[data-cell="F12"]')
            seen = page.evaluate(measure)
            assert seen["small"] == [], (screen, seen["small"])
            assert seen["scroll"] <= seen["width"], (screen, seen)


def test_a_clue_refused_on_submit_is_said_in_the_pages_language(tmp_path: Path) -> None:
    """Before, a clue sent before the live check answered was refused in the server's English
    ("clue 'rojo' refused: ..."), and an empty one too ("type a clue first")."""
    db = tmp_path / "give.sqlite"
    study = StudyConfig(language="es", targets_per_person=1)
    with live_server(db, study=study) as url, phone("es-ES") as page:
        _begin(page, f"{url}/study/give")
        check = page.locator("#clue-check")
        page.tap('[data-action="submit-clue"]')
        sync_api.expect(check).to_have_text("Escribe primero una pista: una palabra.")
        # The live check never answers: only the submit's refusal can speak.
        page.route("**/study/api/check", lambda route: route.abort())
        page.fill('[data-field="clue"]', "rojo")
        page.tap('[data-action="submit-clue"]')
        sync_api.expect(check).to_contain_text("Rechazada (R19)")
        sync_api.expect(check).to_contain_text("ni términos de color")
        assert _given(db) == []
        page.fill('[data-field="clue"]', "laguna")
        page.tap('[data-action="submit-clue"]')
        sync_api.expect(page.locator("#thanks")).to_be_visible()
        assert _given(db) == [(0, "laguna")]


def test_the_first_screen_does_not_wait_for_the_pages_texts(tmp_path: Path) -> None:
    """The study's facts are asked while the texts load (before, one after the other: a round
    trip more before the first screen, 0.4 s and more on a slow phone), and the Spanish texts
    come at the same time as the English ones; until they come, the page says nothing in
    English."""
    db = tmp_path / "first.sqlite"
    study = StudyConfig(language="es", clues=("cielo",), clues_per_person=1)
    with live_server(db, study=study) as url, phone("es-ES") as page:
        held: list[Any] = []
        asked: list[str] = []
        page.route("**/static/i18n/*.json", lambda route: held.append(route))
        page.on("request", lambda r: asked.append(r.url.split("?")[0].rsplit("/", 1)[-1]))
        page.goto(f"{url}/study", wait_until="commit")
        # Both texts are asked before either comes back, and the study's facts with them.
        _wait_for(page, lambda: len(held) == 2 and "info" in asked)
        assert sorted(r.request.url.rsplit("/", 1)[-1] for r in held) == ["en.json", "es.json"]
        # Meanwhile the page shows no English to a Spanish reader (it said "Loading...").
        assert page.locator("#consent-text").inner_text().strip() == "…"
        for route in held:
            route.continue_()
        sync_api.expect(page.locator('[data-action="consent"]')).to_be_enabled()
        sync_api.expect(page.locator('[data-action="consent"]')).to_have_text("Acepto, empezar")


def test_a_tap_between_two_squares_chooses_the_nearest_never_nothing(tmp_path: Path) -> None:
    """At 360 px a square is about 8 px, and before, each row was as tall as its letter (13 px a
    row for 7.6 px squares): 44 % of the board chose nothing when tapped, a finger's tap lost."""
    db = tmp_path / "gaps.sqlite"
    study = StudyConfig(clues=("sky",), clues_per_person=1)
    with live_server(db, study=study) as url, phone() as page:
        _begin(page, f"{url}/study")

        def box(name: str) -> dict[str, float]:
            found = page.locator(f'[data-cell="{name}"]').bounding_box()
            assert found is not None
            return dict(found)

        a5, b5 = box("A5"), box("B5")
        # Rows follow each other at the squares' pitch, not the labels'.
        assert b5["y"] - a5["y"] <= a5["height"] + 2.5, (a5, b5)
        chosen = page.locator("#picked-name")
        # Just below A5, above B5's middle: the gap between the rows.
        page.touchscreen.tap(a5["x"] + a5["width"] / 2, (a5["y"] + a5["height"] + b5["y"]) / 2)
        sync_api.expect(chosen).to_have_text(re.compile(r"(A5|B5)$"))
        # A click on the board itself, in the gap between two squares of row H: what a mouse,
        # or a browser without Chromium's touch adjustment, delivers for a tap there. (A mouse
        # event's coordinates are whole pixels: the first gap with a whole pixel in it.)
        expected = page.evaluate(
            """() => {
              const box = (name) => document.querySelector(`[data-cell="${name}"]`)
                .getBoundingClientRect();
              const y = Math.round(box('H1').top + box('H1').height / 2);
              for (let c = 1; c < 30; c += 1) {
                const left = box(`H${c}`), right = box(`H${c + 1}`);
                const x = Math.floor(left.right) + 1;
                if (x <= left.right || x >= right.left) continue;
                document.querySelector('.hc-board').dispatchEvent(
                  new MouseEvent('click', {bubbles: true, clientX: x, clientY: y}));
                const mid = (b) => (b.left + b.right) / 2;
                const nearer = x - mid(left) < mid(right) - x;
                return nearer ? `H${c}` : `H${c + 1}`;
              }
              return null;
            }"""
        )
        assert expected is not None
        sync_api.expect(chosen).to_have_text(f"Your choice: {expected}")
        page.tap('[data-action="confirm"]')
        sync_api.expect(page.locator("#thanks")).to_be_visible()
        assert _responses(db) == [(0, expected)]


def test_a_phone_turned_sideways_shows_bigger_squares_and_confirm_without_scrolling(
    tmp_path: Path,
) -> None:
    """The page asks a participant holding the phone upright to turn it for bigger squares.
    Before, turned (740 x 360), the clue above the board left 6.3 px squares, smaller than the
    7.6 px upright, and Confirm below the screen's edge."""
    db = tmp_path / "turned.sqlite"
    study = StudyConfig(clues=("sky",), clues_per_person=1)
    sizes = {}
    with live_server(db, study=study) as url, chromium() as browser:
        for width, height in ((360, 740), (740, 360)):
            context = browser.new_context(
                viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            _begin(page, f"{url}/study")
            page.tap('[data-cell="P30"]')
            seen = page.evaluate(
                """() => {
                  const box = (q) => document.querySelector(q).getBoundingClientRect();
                  return {square: box('[data-cell="A1"]').width,
                          bottom: Math.max(box('[data-cell="P30"]').bottom,
                                           box('[data-action="confirm"]').bottom,
                                           box('#clue').bottom),
                          scroll: document.documentElement.scrollWidth};
                }"""
            )
            sizes[(width, height)] = seen["square"]
            assert seen["bottom"] <= height, (width, height, seen)
            assert seen["scroll"] <= width, (width, height, seen)
            context.close()
    assert sizes[(740, 360)] >= 1.4 * sizes[(360, 740)], sizes


def _refuse_once(page: Any, pattern: str, status: int, error: str) -> list[str]:
    """The first request to ``pattern`` answered ``status`` with ``error``, the later ones let
    through; what the page's error line said when each later one went out (filled as they go)."""
    said: list[str] = []
    refused = {"n": 0}

    def once(route: Any) -> None:
        if refused["n"] == 0:
            refused["n"] += 1
            body = json.dumps({"error": error})
            route.fulfill(status=status, content_type="application/json", body=body)
        else:
            said.append(page.locator("#error").text_content() or "")
            route.continue_()

    page.route(pattern, once)
    return said


def test_a_busy_server_is_waited_out_and_the_answer_sent_again(tmp_path: Path) -> None:
    """A 429 (the address's requests over the limit: a shared campus address, say): before, the
    page showed the server's words and waited for a tap; now it says so and sends again."""
    db = tmp_path / "busy.sqlite"
    study = StudyConfig(clues=("sky", "moss"), clues_per_person=2)
    with live_server(db, study=study) as url, phone() as page:
        _begin(page, f"{url}/study")
        said = _refuse_once(page, "**/study/api/answer", 429, "too many requests: wait a moment")
        page.tap('[data-cell="F12"]')
        page.tap('[data-action="confirm"]')
        sync_api.expect(page.locator("#progress")).to_have_text("2 of 2", timeout=15_000)
        assert said and said[0].startswith("The study is busy"), said
        sync_api.expect(page.locator("#error")).to_be_hidden()
        assert _responses(db) == [(0, "F12")]


def test_a_game_that_cannot_start_yet_is_asked_for_again_by_itself(tmp_path: Path) -> None:
    """The game study's game refused for now (a 503: the address's or the server's cap on games
    in play, a lab behind one address, say): before, the page showed the server's words and
    stayed; now it says so in the page's language and asks again until the game starts."""
    db = tmp_path / "game.sqlite"
    study = StudyConfig(game_bots=("random", "random"))
    with live_server(db, study=study) as url, phone("es-ES") as page:
        said = _refuse_once(page, "**/study/api/game", 503, "no game now: too many games in play")
        page.goto(f"{url}/study/game")
        page.tap('[data-action="consent"]:not([disabled])')
        page.wait_for_url("**/play#t=*study=1*", timeout=15_000)
        assert len(said) == 1 and said[0].startswith("Ahora no puede empezar la partida"), said
        assert page.errors == []
