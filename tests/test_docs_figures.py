"""The docs' deterministic figures are what the code gives now (scripts/docs_figures.py)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    # A script, not a module of the package: loaded from its file, once (its figures are cached).
    if "docs_figures" in sys.modules:
        return sys.modules["docs_figures"]
    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "scripts/docs_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["docs_figures"] = module
    return module


@pytest.mark.slow  # the quick part of scripts/docs_figures.py: 30 to 40 s (--check --quick --times)
def test_the_docs_figures_are_current() -> None:
    script, times = _script(), {}
    stale = script.update(check=True, times=times, part="quick")
    # The quick part computes none of the held-out evaluations (their own test does).
    assert not set(times) & {*script.EVALUATIONS, *script.INLINE_EVALUATIONS}
    assert not stale, (
        f"stale figures {stale}: run python scripts/docs_figures.py, re-read the prose"
    )


def _copy(script: ModuleType, root: Path) -> None:
    """The pages with figures or quotes, and the pictures, copied under ``root``."""
    for name in [*script.pages(), *script.IMAGES]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes((ROOT / name).read_bytes())


@pytest.mark.slow
def test_a_stale_figure_is_found_and_rewritten(tmp_path: Path) -> None:
    script = _script()
    _copy(script, tmp_path)
    quick = "|".join(script.FIGURES)
    for page in script.pages():
        text = (tmp_path / page).read_text(encoding="utf-8")
        # Every quick region (the held-out evaluations' regions are left as they are: the quick
        # part must not read them).
        text = re.sub(
            rf"(<!-- figures:(?:{quick}) -->\n(?:(?!<!-- /?figures).)*?)\n<!-- /figures -->",
            r"\g<1>\n9.999\n<!-- /figures -->",
            text,
            flags=re.S,
        )
        text = re.sub(
            r"(<!-- figures:([\w-]+) -->)(?!\n)",
            lambda m: m.group(0) + ("" if m.group(2) in script.INLINE_EVALUATIONS else "9.999 "),
            text,
        )
        (tmp_path / page).write_text(text)
    inline = sum(
        len(where)
        for name, (where, _) in script.INLINE.items()
        if name not in script.INLINE_EVALUATIONS
    )
    stale = script.update(check=True, root=tmp_path, part="quick")
    assert len(stale) == len(script.FIGURES) + inline
    script.update(check=False, root=tmp_path, part="quick")
    assert script.update(check=True, root=tmp_path, part="quick") == []
    for page in script.pages():
        assert (tmp_path / page).read_text() == (ROOT / page).read_text()


@pytest.mark.slow
def test_a_region_without_a_figure_is_an_error(tmp_path: Path) -> None:
    script = _script()
    _copy(script, tmp_path)
    text = (ROOT / "docs/research.md").read_text(encoding="utf-8")
    (tmp_path / "docs/research.md").write_text(
        text + "\n<!-- figures:nope -->\nx\n<!-- /figures -->\n"
    )
    with pytest.raises(SystemExit, match="region 'nope' is no figure"):
        script.update(check=True, root=tmp_path, part="quick")


def test_an_inline_region_is_read_in_the_prose() -> None:
    script = _script()
    line = "a vocabulary (<!-- figures:vocabulary-size -->3,414 words<!-- /figures -->), and"
    assert script.inline_regions(line) == [("vocabulary-size", "3,414 words")]
    assert script.regions(line) == {}


def test_a_part_other_than_all_quick_or_evaluations_is_refused() -> None:
    with pytest.raises(
        ValueError, match="part must be 'all', 'quick' or 'evaluations', not 'slow'"
    ):
        _script().update(check=True, part="slow")


def test_the_held_out_evaluations_are_a_part_of_their_own() -> None:
    script = _script()
    # Their regions sit on pages, and the quick part's names and theirs do not overlap.
    assert not set(script.EVALUATIONS) & set(script.FIGURES)
    for name, (page, _) in script.EVALUATIONS.items():
        assert name in script.regions((ROOT / page).read_text(encoding="utf-8")), name
