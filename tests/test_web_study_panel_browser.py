"""Issue 21 in a real browser (Debian's chromium, Playwright, the real server on loopback): the
clue-giving study exported and loaded; a guessing study with Prolific's ids in the address, a
colour plate, a practice item, the confirm step, a failed attention check and both redirects;
the whole board in view on a phone."""

from __future__ import annotations

import csv
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright import sync_api

from huescues.cli import main
from huescues.engine import Board, Cell
from huescues.research import GivenClues
from huescues.web import StudyConfig
from web_server import browser_page, live_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]
BOARD = Board.standard()
CLUES = ["lagoon", "banana", "rust", "mint", "plum"]


def test_a_clue_giving_study_of_five_targets_exports_and_loads(tmp_path: Path) -> None:
    """R9: one word; a two-word clue is refused live with its rule (R18), as in the game."""
    db = tmp_path / "give.sqlite"
    with live_server(db, study=StudyConfig(targets_per_person=5)) as url, browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/study/give")
        page.click('[data-action="consent"]')
        field = page.locator('[data-field="clue"]')
        targets = []
        for n in range(1, 6):
            sync_api.expect(page.locator("#progress")).to_have_text(f"{n} of 5")
            shown = page.locator(".hc-cell.shown")
            sync_api.expect(shown).to_have_count(1)
            targets.append(shown.get_attribute("data-cell"))
            if n == 1:
                field.fill("ripe banana")
                sync_api.expect(page.locator("#clue-check")).to_contain_text("R18")
                page.click('[data-action="submit-clue"]')
                sync_api.expect(page.locator("#clue-check")).to_contain_text("1 word")
                sync_api.expect(page.locator("#progress")).to_have_text("1 of 5")
            field.fill(CLUES[n - 1])
            sync_api.expect(page.locator("#clue-check")).to_have_text("allowed")
            page.click('[data-action="submit-clue"]')
        sync_api.expect(page.locator("#thanks")).to_be_visible()
        assert not errors
    out = tmp_path / "given.csv"
    command = ["responses", "export", "--db", str(db), "--out", str(out), "--kind", "given-clues"]
    assert main(command) == 0
    given = GivenClues.from_csv(out, BOARD, strict=True)
    assert [(str(g.target), g.clue) for g in given.rows] == list(zip(targets, CLUES, strict=True))
    assert len({g.participant for g in given.rows}) == 1


def _far(square: str) -> str:
    c = BOARD.cell(square)
    return str(Cell((c.row + 8) % BOARD.rows, (c.col + 15) % BOARD.cols))


def _run_guessing(page: sync_api.Page, *, miss: bool) -> None:
    """Answer a guessing session to its end: the plate right, every clue on F12 (the first
    after a mis-click on A1, undone before Confirm), every check hit, or missed with ``miss``."""
    first = True
    while True:
        page.wait_for_function(
            "() => location.host === 'panel.example' || !document.querySelector('#colour')"
            "?.hidden || document.querySelector('#progress')?.textContent"
        )
        if page.url.startswith("https://panel.example"):
            return
        if page.locator("#colour").is_visible():
            colours = [
                b.evaluate("e => e.style.backgroundColor")
                for b in page.locator("[data-swatch]").all()
            ]
            odd = next(i for i, c in enumerate(colours) if colours.count(c) == 1)
            page.click(f'[data-swatch="{odd}"]')
            page.wait_for_timeout(150)
            continue
        progress = page.locator("#progress").text_content()
        if progress == "Check":
            shown = page.locator(".hc-cell.shown").get_attribute("data-cell")
            assert shown is not None
            page.click(f'[data-cell="{_far(shown) if miss else shown}"]')
        else:
            if first:
                page.click('[data-cell="A1"]')
                sync_api.expect(page.locator('[data-action="confirm"]')).to_be_enabled()
                first = False
            page.click('[data-cell="F12"]')
            sync_api.expect(page.locator(".hc-cell.picked")).to_have_count(1)
        page.click('[data-action="confirm"]')
        # The next item starts with no square picked or outlined (issue 21, defect 8).
        page.wait_for_function(
            "() => location.host === 'panel.example' || "
            "(!document.querySelector('.hc-cell.picked') && "
            "!document.activeElement?.dataset?.cell)"
        )


def test_a_prolific_session_with_practice_checks_and_both_redirects(tmp_path: Path) -> None:
    """A panel's session: ids from the address stored and exported, the colour plate, the
    practice item not exported, a mis-click undone before Confirm, the attention checks; one
    participant who passes goes to the completion URL with ?cc=CODE, one who misses both
    checks (more than the one miss allowed) to the screen-out URL. The panel's site is
    intercepted with Playwright's route."""
    db = tmp_path / "guess.sqlite"
    study = StudyConfig(
        clues=("banana", "lagoon"),
        clues_per_person=2,
        practice=1,
        attention_checks=2,
        attention_misses_allowed=1,
        colour_plates=1,
        completion_url="https://panel.example/complete?study=7",
        completion_code="HC2024",
        screen_out_url="https://panel.example/screened-out",
    )
    reached: list[str] = []
    with live_server(db, study=study) as url, browser_page(1100, 820) as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        def panel(route: sync_api.Route) -> None:
            reached.append(route.request.url)
            route.fulfill(status=200, content_type="text/html", body="<p>panel</p>")

        page.route("https://panel.example/**", panel)
        for pid, miss in (("a" * 24, False), ("b" * 24, True)):
            page.goto(f"{url}/study?PROLIFIC_PID={pid}&STUDY_ID=s1&SESSION_ID=x-{pid[0]}")
            page.click('[data-action="consent"]')
            _run_guessing(page, miss=miss)
            page.wait_for_url("https://panel.example/**")
        assert not errors
    done, out = reached
    assert urlsplit(done).path == "/complete"
    assert parse_qs(urlsplit(done).query) == {"study": ["7"], "cc": ["HC2024"]}
    assert out == "https://panel.example/screened-out"
    export = tmp_path / "responses.csv"
    assert main(["responses", "export", "--db", str(db), "--out", str(export)]) == 0
    with export.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    by_pid = {}
    for r in rows:
        by_pid.setdefault(r["prolific_pid"], []).append(r)
    passed, failed = by_pid["a" * 24], by_pid["b" * 24]
    # Two clues for the one who finished (the practice is no response), and the squares
    # confirmed, never the mis-click.
    assert [r["square"] for r in passed] == ["F12", "F12"]
    assert {(r["study_id"], r["session_id"]) for r in passed} == {("s1", "x-a")}
    assert {r["attention_passed"] for r in passed} == {"yes"}
    assert {r["attention_passed"] for r in failed} == {"no"}
    assert {(r["colour_plates"], r["colour_correct"]) for r in rows} == {("1", "1")}
    assert all(int(r["screen_width"]) > 0 and r["colour_depth"] for r in rows)


def test_on_a_phone_the_whole_board_is_in_view(tmp_path: Path) -> None:
    """Issue 21, defect 8: at 390 px the board fits the width, every column visible, no
    sideways scrolling (which would favour the columns in view)."""
    db = tmp_path / "phone.sqlite"
    study = StudyConfig(clues=("sky",), clues_per_person=1)
    with live_server(db, study=study) as url, browser_page(390, 844) as page:
        page.goto(f"{url}/study")
        page.click('[data-action="consent"]')
        sync_api.expect(page.locator("#clue")).to_have_text("sky")
        width = page.evaluate("() => document.documentElement.clientWidth")
        for name in ("A1", "A30", "P1", "P30"):
            box = page.locator(f'[data-cell="{name}"]').bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
            assert box["width"] >= 7
        scroll = page.evaluate(
            "() => [document.documentElement.scrollWidth, "
            "document.querySelector('#board').scrollWidth, "
            "document.querySelector('#board').clientWidth]"
        )
        assert scroll[0] <= width and scroll[1] <= scroll[2]
        page.click('[data-cell="P30"]')
        page.click('[data-action="confirm"]')
        sync_api.expect(page.locator("#thanks")).to_be_visible()
