"""Every Python snippet in the docs runs as written, so that none goes stale.

A page's ```python blocks run in order in one namespace (a later block may use an earlier one's
names, as a reader would type them), in a fresh directory. A block that cannot run here (it
needs a file of the reader's, the network, an optional extra, a person at the keyboard) has
``<!-- no-run: why -->`` on the line before it. Every page runs in the slow tier (issue 33); a
page with a block marked ``<!-- slow -->`` (a second or more) is also marked slow on its own.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: A fenced Python block, and the line before it (where a marker goes).
_BLOCK = re.compile(r"(?:^(?P<before>[^\n]*)\n)?^```python\n(?P<code>.*?)^```", re.S | re.M)
_MARK = re.compile(r"<!--\s*(?P<what>no-run|slow)\b")


class Snippet(NamedTuple):
    line: int  # the first line of code, 1-based, in the page
    code: str
    mark: str | None  # "no-run", "slow" or None


def snippets(page: Path) -> list[Snippet]:
    text = page.read_text(encoding="utf-8")
    found = []
    for m in _BLOCK.finditer(text):
        mark = _MARK.search(m.group("before") or "")
        line = text.count("\n", 0, m.start("code")) + 1
        found.append(Snippet(line, m.group("code"), mark.group("what") if mark else None))
    return found


def _param(page: Path) -> object:
    marks = [pytest.mark.slow] if any(s.mark == "slow" for s in snippets(page)) else []
    return pytest.param(page, id=str(page.relative_to(ROOT)), marks=marks)


@pytest.mark.slow
@pytest.mark.parametrize("page", [_param(p) for p in PAGES if snippets(p)])
def test_the_pages_python_snippets_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # files a snippet writes land here
    # Run as a script runs (a block may hold the `if __name__ == "__main__":` guard a script
    # that starts worker processes needs: docs/tournaments.md's first example).
    namespace: dict[str, object] = {"__name__": "__main__"}
    for snippet in snippets(page):
        if snippet.mark == "no-run":
            continue
        # Padded so that a traceback's line numbers are the page's.
        code = "\n" * (snippet.line - 1) + snippet.code
        exec(compile(code, str(page), "exec"), namespace)


def test_markers_are_read() -> None:
    page = ROOT / "docs" / "play.md"
    assert any(s.mark == "no-run" for s in snippets(page)), "play.md's game needs a person"
