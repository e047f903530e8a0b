"""Issue 22 in a real browser (Debian's Chromium through Playwright), with a Spanish browser
(``navigator.languages`` es-ES): the lobby in Spanish makes a Spanish table (the clue language
chosen there, the bots that give English clues labelled so); a person plays a whole game
against three bots with the page's texts in Spanish, a Spanish clue refused live with R19
(rojizo, a form of rojo) and shown with Spanish words and the rule number; the switch turns the
page to English and is kept. And a Spanish giving study: its page in Spanish, rojizo refused
live, a clue given and exported with clue_language es."""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Any

import pytest

from huescues.cli import main
from huescues.web import StudyConfig, TableSettings
from web_server import act_and_wait_for_the_next_state, browser_page, live_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PATIENT = TableSettings(bot_delay=0.01, reveal_pause=60, bot_time_limit=5, allow_seed=True)


#: The person's first clues: none a random bot says in Spanish (R22 would refuse it again), enough
#: for tie-breakers (R25) too.
CLUES = ["pimiento", "pepino", "almendra", "castaña", "pradera", "oliva"]


def _play_turn(page: Any, refused: list[bool], clues: list[str]) -> None:
    status = page.locator("#status").inner_text()
    if "Elige un objetivo" in status:
        act_and_wait_for_the_next_state(page, page.locator(".cell.card").first.click)
        page.wait_for_selector("[data-field=clue]")
    elif "segunda pista" in status:
        act_and_wait_for_the_next_state(page, lambda: page.click("[data-action=pass]"))
    elif "primera pista" in status:
        box = page.locator("[data-field=clue]")
        if not refused:
            box.fill("rojizo")
            page.wait_for_function(
                "() => /Rechazada \\(R19\\):.*rojo/.test("
                "(document.getElementById('clue-check')?.textContent ?? ''))"
            )
            page.click("[data-action=clue]")
            page.wait_for_function(
                "() => /Rechazada \\(R19\\)/.test("
                "document.getElementById('message')?.textContent ?? '')"
            )
            refused.append(True)
            box = page.locator("[data-field=clue]")
        box.fill(clues.pop(0))
        page.wait_for_selector("#clue-check.ok")
        assert page.locator("#clue-check").inner_text() == "✓ permitida"
        act_and_wait_for_the_next_state(page, lambda: page.click("[data-action=clue]"))
    else:
        assert "peón" in status
        page.locator(".cell.open").nth(50).click()
        act_and_wait_for_the_next_state(page, lambda: page.click("[data-action=place]"))


def test_a_whole_spanish_game_from_the_lobby_with_a_live_r19_refusal(tmp_path: Path) -> None:
    with (
        live_server(tmp_path / "es.sqlite", PATIENT) as url,
        browser_page(locale="es-ES") as page,
    ):
        page.goto(url + "/")
        page.wait_for_selector("[data-lang-switch] [aria-pressed=true][data-lang=es]")
        assert page.locator("html").get_attribute("lang") == "es"
        assert page.locator("[data-action=create]").inner_text() == "Crear la mesa"
        assert page.title() == "Hues and Cues: mesa nueva"
        # The server's default is English (once GET /api/setup has filled the choice); the lobby
        # chooses Spanish clues.
        page.wait_for_selector("[data-field=language] option[value=es]", state="attached")
        assert page.locator("[data-field=language]").input_value() == "en"
        page.select_option("[data-field=language]", "es")
        page.select_option("[data-field=seat-count]", "4")
        options = page.locator("select[name=kind]").first.locator("option")
        labels = options.all_inner_texts()
        assert "Persona" in labels and "Bot (random)" in labels
        assert "Bot (naming), pistas en inglés" in labels
        kinds = page.locator("select[name=kind]")
        for i, kind in enumerate(["person", "random", "random", "random"]):
            kinds.nth(i).select_option(kind)
        page.locator("input[name=name]").first.fill("Ana")
        page.select_option("[data-field=rounds-per-giver]", "1")
        page.click("[data-action=create]")
        page.wait_for_selector("text=Tu mesa")
        page.click("[data-action=pass-and-play]")
        page.wait_for_selector("text=Elige un objetivo")
        assert "pistas en español" in page.locator("#house").inner_text()
        assert "Ronda 1 de 4" in page.locator("#round").inner_text()
        # Between two clues the style sheet writes "y luego", not English's "then".
        between = page.evaluate(
            """() => {
              const box = document.getElementById('clues');
              const two = [0, 1].map(() => box.appendChild(document.createElement('q')));
              two.forEach((q) => { q.className = 'clue'; });
              const word = getComputedStyle(two[1], '::before').content;
              two.forEach((q) => q.remove());
              return word;
            }"""
        )
        assert between == '"y luego "', between
        refused: list[bool] = []
        clues = list(CLUES)
        dismissed = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            # The end screen, a reveal to dismiss, or the person's turn (the status keeps its
            # class under the end screen: a function, not a selector, waits for either).
            page.wait_for_function(
                "() => !document.getElementById('end').hidden"
                " || !!document.querySelector('[data-action=next-round]')"
                " || (!document.querySelector('.game').hidden"
                " && document.getElementById('status').classList.contains('your-turn'))"
            )
            if page.locator("[data-screen=end]").is_visible():
                break
            if page.locator("[data-action=next-round]").count():
                assert "Revelación" in page.locator("#status").inner_text()
                assert page.locator("[data-action=next-round]").inner_text() == "Siguiente ronda"
                page.click("[data-action=next-round]")
                page.wait_for_selector("[data-action=next-round]", state="detached")
                dismissed += 1
            else:
                _play_turn(page, refused, clues)
        else:
            pytest.fail("the game did not end in time")
        # Four rounds (R7: one each), and tie-breakers if the lobby's unseeded deal ends level
        # (R25): every round but the last ends on a reveal the person dismisses.
        cards = page.locator("#rounds .round-card")
        assert refused and cards.count() >= 4 and dismissed == cards.count() - 1
        for extra in range(4, cards.count()):
            assert "desempate" in cards.nth(extra).inner_text().lower()
        end = page.locator("[data-screen=end]").inner_text()
        assert "Ronda a ronda" in end and "Jugar otra vez, mismos asientos" in end
        assert "Ronda 1: Ana dio “pimiento”" in page.locator("#rounds").inner_text()
        title = page.locator("#end-title").inner_text()
        assert "Gana" in title or "comparten" in title
        assert page.locator("#round").inner_text() == "Fin de la partida"
        # The switch: English, kept for the next page.
        page.click("[data-lang-switch] [data-lang=en]")
        page.wait_for_selector("[data-lang-switch] [aria-pressed=true][data-lang=en]")
        page.wait_for_selector("[data-screen=end]:not([hidden])")
        assert "Round by round" in page.locator("[data-screen=end]").inner_text()
        assert page.evaluate("() => localStorage.getItem('huescues.lang')") == "en"
        page.goto(url + "/")
        page.wait_for_selector("[data-lang-switch] [aria-pressed=true][data-lang=en]")
        assert page.locator("[data-action=create]").inner_text() == "Create the table"


def test_a_spanish_giving_study_in_the_browser_exported_with_clue_language_es(
    tmp_path: Path,
) -> None:
    db = tmp_path / "study.sqlite"
    study = StudyConfig(language="es", targets_per_person=1)
    # An English browser: the study's page follows the browser, and the switch turns it.
    with live_server(db, study=study) as url, browser_page() as page:
        page.goto(url + "/study/give")
        page.wait_for_selector("[data-lang-switch] [aria-pressed=true][data-lang=en]")
        page.click("[data-lang-switch] [data-lang=es]")
        page.wait_for_selector("[data-lang-switch] [aria-pressed=true][data-lang=es]")
        page.wait_for_selector("text=Escribe una palabra", state="attached")
        assert "Este es un breve estudio" in page.locator("#consent-text").inner_text()
        page.click("[data-action=consent]")
        page.wait_for_selector("#give:not([hidden])")
        assert page.locator("#prompt").inner_text().startswith("Escribe una palabra")
        page.locator("[data-field=clue]").fill("rojizo")
        page.wait_for_function(
            "() => /Rechazada \\(R19\\)/.test("
            "document.getElementById('clue-check')?.textContent ?? '')"
        )
        page.locator("[data-field=clue]").fill("tomate")
        page.wait_for_selector("#clue-check.ok")
        page.click("[data-action=submit-clue]")
        page.wait_for_selector("#thanks:not([hidden])")
        assert page.locator("#thanks h1").inner_text() == "¡Gracias!"
    out = tmp_path / "given.csv"
    args = ["responses", "export", "--db", str(db), "--out", str(out), "--kind", "given-clues"]
    assert main(args) == 0
    with out.open(newline="", encoding="utf-8") as f:
        (row,) = csv.DictReader(f)
    assert row["clue"] == "tomate" and row["clue_language"] == "es"
