"""Issue 12: hostile results files, terminal manners of the report and the progress, and the
schedule made lazily."""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest

from huescues.tournament import Entrant, Tournament, TournamentResults, run_tournament

GOLDEN = Path(__file__).resolve().parent / "golden"


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


# -- the schedule, made lazily (issue 12 item 13) -----------------------------------------------
def test_the_schedule_is_the_one_written_before_it_was_made_lazily() -> None:
    # tests/golden/schedules.json was written by the list-building schedule (before issue 12):
    # the same seed must give the same games, so old results files resume and compare.
    for case in json.loads((GOLDEN / "schedules.json").read_text()):
        entrants = [Entrant(f"e{i}", "random") for i in range(case["entrants"])]
        specs = Tournament(
            entrants, games=case["games"], players=case["players"], seed=case["seed"]
        ).schedule()
        got = [[g.seed, "".join(name[1:] for name in g.seats)] for g in specs]
        assert got == case["schedule"]
        assert [g.index for g in specs] == list(range(case["games"]))
        assert specs[-1] == list(specs)[-1] and specs[3:7] == list(specs)[3:7]


def test_a_huge_tournament_starts_at_once_in_little_memory() -> None:
    # --games 100000000 used to build the whole schedule (1.1 GB) before the first game.
    class Started(Exception):
        pass

    def progress(done: int, total: int) -> None:
        if done:
            raise Started

    tournament = Tournament([Entrant("a", "random"), Entrant("b", "random")], games=10**8)
    tracemalloc.start()
    began = time.perf_counter()
    try:
        with pytest.raises(Started):
            tournament.run(workers=1, progress=progress)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - began < 30
    assert peak < 50 * 2**20, f"{peak / 2**20:.0f} MB"
    schedule = tournament.schedule()
    assert len(schedule) == 10**8 and schedule[-1].index == 10**8 - 1
    with pytest.raises(IndexError, match="not in a schedule of 100000000 games"):
        schedule[10**8]


def test_the_progress_moves_after_the_first_game(tmp_path: Path) -> None:
    # The first batch used to be 30 games with one worker: the bar sat at 0 with no estimate.
    seen: list[int] = []
    run_tournament(
        ["random"], games=40, players=(3,), workers=1, progress=lambda d, t: seen.append(d)
    )
    assert seen[:2] == [0, 1] and seen[-1] == 40
