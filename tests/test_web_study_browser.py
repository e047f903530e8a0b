"""The study in a real browser (issue 14 item 7): Debian's chromium driven by Playwright against
the real server on loopback; a session of consent and clicks with a reload in the middle, then
the export, read by HumanResponses."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright import sync_api

from huescues.cli import main
from huescues.engine import Board
from huescues.research import HumanResponses
from huescues.web import StudyConfig
from web_server import browser_page, live_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_study_session_in_chromium_exports_for_the_research(tmp_path: Path) -> None:
    db = tmp_path / "study.sqlite"
    squares = ["F12", "B20"]
    # The address carries the clues: the server takes a visitor's list.
    study = StudyConfig(allow_visitor_clues=True)
    with live_server(db, study=study) as url, browser_page(1000, 800) as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/study?clues=banana,lagoon")
        page.fill("input[name=language]", "English")
        page.select_option("select[name=age_range]", "25-34")
        page.click('[data-action="consent"]')
        asked = []
        for n, square in enumerate(squares, start=1):
            sync_api.expect(page.locator("#progress")).to_have_text(f"{n} of 2")
            asked.append(page.locator("#clue").text_content())
            cell = page.locator(f'[data-cell="{square}"]')
            # Drawn in the board's own colour (R1).
            colour = cell.evaluate("e => getComputedStyle(e).backgroundColor")
            r, g, b = (int(x) for x in colour[4:-1].split(","))
            assert f"#{r:02x}{g:02x}{b:02x}" == Board.standard().hex(Board.standard().cell(square))
            cell.click()
            # A click chooses; Confirm answers (issue 21: a mis-click can be undone).
            page.click('[data-action="confirm"]')
            if n == 1:
                # A reload mid-session resumes the same participant at the next clue, not at
                # the consent screen.
                sync_api.expect(page.locator("#progress")).to_have_text("2 of 2")
                page.reload()
                sync_api.expect(page.locator("#progress")).to_have_text("2 of 2")
                sync_api.expect(page.locator("#consent")).to_be_hidden()
                assert page.locator("#clue").text_content() not in asked
        sync_api.expect(page.locator("#thanks")).to_be_visible()
        assert page.locator("[data-cell]").count() == 16 * 30
        assert sorted(asked) == ["banana", "lagoon"]
        # A finished session is over: a reload starts a new one at the consent screen.
        page.reload()
        sync_api.expect(page.locator('[data-action="consent"]')).to_be_enabled()
        sync_api.expect(page.locator("#task")).to_be_hidden()
        assert not errors

    out = tmp_path / "responses.csv"
    assert main(["responses", "export", "--db", str(db), "--out", str(out)]) == 0
    loaded = HumanResponses.from_csv(
        out, Board.standard(), clue_column="clue", square_column="square", strict=True
    )
    assert [(r.clue, str(r.square)) for r in loaded.rows] == list(zip(asked, squares, strict=True))
    assert {r.extra["language"] for r in loaded.rows} == {"English"}
    assert {r.extra["age_range"] for r in loaded.rows} == {"25-34"}
    assert all(int(r.extra["response_ms"]) >= 0 for r in loaded.rows)
    assert len(loaded.participants()) == 1


def test_a_server_without_visitor_clues_starts_its_own_clues_from_an_address_with_clues(
    tmp_path: Path,
) -> None:
    """Issue 20, defect 1: the page does not send the address's clues to a server that refuses
    them (which would refuse the start), says they are not used, and asks the study's own."""
    db = tmp_path / "study.sqlite"
    study = StudyConfig(clues=("tomato",), clues_per_person=1)
    with live_server(db, study=study) as url, browser_page(1000, 800) as page:
        page.goto(f"{url}/study?clues=banana,lagoon")
        sync_api.expect(page.locator("#error")).to_contain_text("clues in the address are not used")
        page.click('[data-action="consent"]')
        sync_api.expect(page.locator("#clue")).to_have_text("tomato")
        sync_api.expect(page.locator("#error")).to_be_hidden()
