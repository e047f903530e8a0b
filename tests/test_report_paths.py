"""The report's fast paths (issue 23 item 6) give the report they gave before: the same JSON, to
the last digit, from golden results files (written by the code before the change), and the same
report whether the lines are counted here or on worker processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import huescues
from huescues.tournament import Report, TournamentResults, run_tournament

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", ["table-60", "table-faults-20"])
def test_the_report_is_the_one_before_the_fast_paths(name: str) -> None:
    # report-*.json: written by the report before its own ratings loop, its per-game numbers
    # and its workers (commit 771918b), from the same golden results (faults and all).
    expected = (GOLDEN / f"report-{name}.json").read_text(encoding="utf-8")
    results = TournamentResults.load(GOLDEN / f"{name}.jsonl", check=False)
    # The report names the library that made it (issue 35, after the goldens): that line aside,
    # the text is the golden's.
    version = f'  "huescues_version": "{huescues.__version__}",\n'
    made = results.report(seed=5, n_boot=200).to_json()
    assert version in made and made.replace(version, "") == expected
    games = [json.loads(line) for line in results.lines]
    assert Report.from_games(games, seed=5, n_boot=200).to_json().replace(version, "") == expected


@pytest.mark.slow
def test_the_report_counted_on_workers_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from huescues.tournament import _chunks_pool, _report_stats

    entrants = [
        "random",
        "random2=huescues.agents:RandomAgent",
        "random3=huescues.agents:RandomAgent",
    ]
    results = run_tournament(
        entrants, games=90, players=(3, 4), seed=23, workers=1, out=tmp_path / "r.jsonl"
    )
    games = [json.loads(line) for line in results.lines]
    expected = Report.from_games(games, seed=3, n_boot=300).to_json()
    monkeypatch.setattr(_report_stats, "LINES_CHUNK", 7)  # 13 chunks
    monkeypatch.setattr(_report_stats, "_DRAWS_FOR_WORKERS", 0)  # the intervals too
    monkeypatch.setattr(_chunks_pool, "n_workers", lambda: 2)
    assert results.report(seed=3, n_boot=300).to_json() == expected
    # An error in a late chunk names the game's place in the stream, as in one process.
    lines = list(results.lines)
    bad = json.loads(lines[80])
    bad["status"] = "lost"
    lines[80] = json.dumps(bad, sort_keys=True, separators=(",", ":"))
    from huescues.tournament._report_stats import compute_report_lines

    with pytest.raises(ValueError, match="game 80 has status 'lost'"):
        compute_report_lines(lines, entrants=list(results.entrants))
