"""The held-out evaluations' tables on the pages are what scripts/evaluate_*.py give now
(scripts/docs_figures.py's EVALUATIONS): a file of their own, so that the suite's other worker
runs them beside the quick figures of tests/test_docs_figures.py."""

from __future__ import annotations

import pytest

from test_docs_figures import _script


@pytest.mark.slow  # model fits, evaluations, tournaments: 4.5 min in one process (testing.md)
def test_the_held_out_evaluations_on_the_pages_are_current() -> None:
    script = _script()
    stale = script.update(check=True, part="evaluations")
    assert not stale, (
        f"stale tables {stale}: run python scripts/docs_figures.py, re-read the prose around them"
    )
