"""Time the study as a participant on a slow phone sees it (the figures of docs/study.md, "On a
slow phone"): the server on a free loopback port, Debian's chromium driven by Playwright as a
360 x 740 touch screen, its CPU slowed 4 times (CDP ``Emulation.setCPUThrottlingRate``) and
its network to 400 ms latency and 50 KB/s each way (``Network.emulateNetworkConditions``).

For each language: the seconds from the navigation to the consent button turning on, from
Confirm to the next item, and from a reload mid-study to the item shown again; the median of
``--runs`` fresh browsers. Then a board square's width, the phone upright and turned.

    python scripts/measure_study_phone.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from screenshot_web import ARGS, serve_in_thread

from huescues.web import StudyConfig, create_app

SLOW = {"offline": False, "latency": 400, "downloadThroughput": 51_200, "uploadThroughput": 51_200}


def one_run(browser: object, url: str, locale: str) -> dict[str, float]:
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale=locale
    )
    page = context.new_page()
    page.set_default_timeout(60_000)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Network.emulateNetworkConditions", SLOW)
    times: dict[str, float] = {}
    start = time.monotonic()
    page.goto(f"{url}/study", wait_until="commit")
    page.locator('[data-action="consent"]:enabled').wait_for()
    times["consent usable"] = time.monotonic() - start
    page.tap('[data-action="consent"]')
    page.locator("#task:not([hidden])").wait_for()
    page.tap('[data-cell="F12"]')
    start = time.monotonic()
    page.tap('[data-action="confirm"]')
    page.wait_for_function("() => document.getElementById('progress').textContent.startsWith('2')")
    times["answer to next item"] = time.monotonic() - start
    start = time.monotonic()
    page.reload(wait_until="commit")
    page.locator("#task:not([hidden])").wait_for()
    times["reload to the same item"] = time.monotonic() - start
    context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="fresh browsers a language")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    print("| language | consent usable | answer to next item | reload to the same item |")
    print("|---|---:|---:|---:|")
    for language, locale in (("en", "en-GB"), ("es", "es-ES")):
        with tempfile.TemporaryDirectory() as tmp:
            study = StudyConfig(language=language, clues_per_person=3)
            url, server, thread = serve_in_thread(create_app(Path(tmp) / "s.sqlite", study=study))
            try:
                with sync_playwright() as pw:
                    browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
                    runs = [one_run(browser, url, locale) for _ in range(args.runs)]
                    browser.close()
            finally:
                server.should_exit = True
                thread.join(timeout=10)
        medians = [statistics.median(r[k] for r in runs) for k in runs[0]]
        print(f"| {language} | " + " | ".join(f"{m:.1f} s" for m in medians) + " |")
    print()
    print(squares(args.chromium))


def squares(chromium: str) -> str:
    """A square's width on the phone upright (360 x 740) and turned (740 x 360)."""
    lines = ["| phone | square |", "|---|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        study = StudyConfig(clues=("sky",), clues_per_person=1)
        url, server, thread = serve_in_thread(create_app(Path(tmp) / "s.sqlite", study=study))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
                for width, height in ((360, 740), (740, 360)):
                    context = browser.new_context(
                        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
                    )
                    page = context.new_page()
                    page.goto(f"{url}/study")
                    page.tap('[data-action="consent"]:enabled')
                    page.locator("#clue").wait_for()
                    square = page.evaluate(SQUARE)
                    lines.append(f"| {width} x {height} | {square:.1f} px |")
                    context.close()
                browser.close()
        finally:
            server.should_exit = True
            thread.join(timeout=10)
    return "\n".join(lines)


SQUARE = """() => document.querySelector('[data-cell="A1"]').getBoundingClientRect().width"""


if __name__ == "__main__":
    main()
