"""Issue 12: hostile results files, terminal manners of the report and the progress, and the
schedule made lazily."""

from __future__ import annotations

import pytest

from huescues.tournament import TournamentResults, run_tournament


@pytest.fixture(scope="module")
def small_results(tmp_path_factory: pytest.TempPathFactory) -> TournamentResults:
    out = tmp_path_factory.mktemp("results") / "r.jsonl"
    return run_tournament(["random", "naming"], games=8, workers=1, out=out)


def test_the_report_is_not_squeezed_into_80_columns_in_a_pipe(
    small_results: TournamentResults,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    small_results.report(seed=0).print()  # stdout is captured: not a terminal
    text = capsys.readouterr().out
    assert "…" not in text  # no header cut short
    assert "Points/game" in text and "Unfinished" in text
    header = next(line for line in text.splitlines() if "Entrant" in line and "Seats" in line)
    assert len(header) > 80
