"""Draw the study page for the docs: the server on a free loopback port, Debian's chromium driven
by Playwright, screenshots of the consent screen, a clue with the board, the confirm step, the
phone, a colour plate, an attention check and the clue-giving page (``docs/images/study-*.png``).

    python scripts/screenshot_study.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright
from screenshot_web import ARGS, serve_in_thread

from huescues.web import StudyConfig, create_app

VIEWPORT = {"width": 1100, "height": 820}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="docs/images", help="the folder to write to")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    out = Path(args.out)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "study.sqlite", study=StudyConfig(allow_visitor_clues=True))
        url, server, thread = serve_in_thread(app)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
                page = browser.new_page(viewport=VIEWPORT)
                page.goto(f"{url}/study?clues=lagoon,banana")
                page.locator('[data-action="consent"]:enabled').wait_for()
                page.screenshot(path=out / "study-consent.png")
                page.click('[data-action="consent"]')
                page.locator("#clue").wait_for()
                page.hover('[data-cell="H19"]')
                page.screenshot(path=out / "study.png")
                # A click chooses, Confirm answers.
                page.click('[data-cell="H19"]')
                page.screenshot(path=out / "study-confirm.png")
                # The same on a phone: the whole board fits the width.
                phone = browser.new_page(viewport={"width": 390, "height": 760})
                phone.goto(f"{url}/study?clues=banana")
                phone.click('[data-action="consent"]')
                phone.locator("#clue").wait_for()
                phone.screenshot(path=out / "study-phone.png")
                browser.close()
        finally:
            server.should_exit = True
            thread.join(timeout=10)
    with tempfile.TemporaryDirectory() as tmp:
        # A panel's study: a colour plate, an attention check, and the clue-giving page.
        config = StudyConfig(
            clues=("lagoon", "banana"),
            clues_per_person=2,
            colour_plates=1,
            attention_checks=1,
            targets_per_person=3,
        )
        url, server, thread = serve_in_thread(create_app(Path(tmp) / "s.sqlite", study=config))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
                page = browser.new_page(viewport=VIEWPORT)
                page.goto(f"{url}/study?PROLIFIC_PID=5f0c5f0c5f0c5f0c5f0c5f0c")
                page.click('[data-action="consent"]:enabled')
                page.locator("[data-swatch]").first.wait_for()
                page.screenshot(path=out / "study-colour.png")
                page.click('[data-swatch="0"]')
                page.locator("#clue").wait_for()
                page.click('[data-cell="A1"]')
                page.click('[data-action="confirm"]')
                page.locator(".hc-cell.shown").wait_for()
                page.screenshot(path=out / "study-attention.png")
                give = browser.new_page(viewport=VIEWPORT)
                give.goto(f"{url}/study/give")
                give.click('[data-action="consent"]:enabled')
                give.click('[data-swatch="0"]')  # the plate comes first in both studies
                give.locator(".hc-cell.shown").wait_for()
                give.fill('[data-field="clue"]', "ripe banana")
                give.locator("#clue-check.bad").wait_for()
                give.screenshot(path=out / "study-give.png")
                browser.close()
        finally:
            server.should_exit = True
            thread.join(timeout=10)
    print(
        f"written: {out}/study-consent.png, study.png, study-confirm.png, study-phone.png, "
        "study-colour.png, study-attention.png, study-give.png"
    )


if __name__ == "__main__":
    main()
