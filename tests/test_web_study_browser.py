"""The study in a real browser (issue 14 item 7): Debian's chromium driven by Playwright against
the real server on loopback; a session of consent and clicks, then the export, read by
HumanResponses."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from huescues.cli import main
from huescues.engine import Board
from huescues.research import HumanResponses
from huescues.web import StudyConfig, create_app

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None, reason="needs Debian's chromium (apt install chromium)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The study's server on a free loopback port, in a thread; its address and database."""
    db = tmp_path / "study.sqlite"
    port = free_port()
    config = uvicorn.Config(
        create_app(db, study=StudyConfig()), host="127.0.0.1", port=port, log_level="warning"
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start within 20 s")
        time.sleep(0.05)
    try:
        yield url, db
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


def test_a_study_session_in_chromium_exports_for_the_research(
    server: tuple[str, Path], tmp_path: Path
) -> None:
    url, db = server
    squares = ["F12", "B20"]
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=30_000)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 800})
            page.set_default_timeout(15_000)
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
                assert f"#{r:02x}{g:02x}{b:02x}" == Board.standard().hex(
                    Board.standard().cell(square)
                )
                cell.click()
            sync_api.expect(page.locator("#thanks")).to_be_visible()
            assert page.locator("[data-cell]").count() == 16 * 30
            assert sorted(asked) == ["banana", "lagoon"]
            assert not errors
        finally:
            browser.close()

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
