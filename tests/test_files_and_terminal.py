"""Issue 12: hostile results files, terminal manners of the report and the progress, and the
schedule made lazily."""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from huescues.tournament import (
    Entrant,
    ResultsFileError,
    Tournament,
    TournamentResults,
    run_tournament,
)

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.fixture(scope="module")
def small_results(tmp_path_factory: pytest.TempPathFactory) -> TournamentResults:
    out = tmp_path_factory.mktemp("results") / "r.jsonl"
    return run_tournament(["random", "naming"], games=8, workers=1, out=out)


@pytest.mark.slow
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
        # What a resume compares with each saved game, without making the whole spec.
        assert [specs.seats(g.index) for g in specs] == [
            (g.seed, g.n_players, list(g.seats)) for g in specs
        ]


@pytest.mark.slow
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


# -- the results reader against hostile files (issue 12) -----------------------------------------
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_game_like = st.fixed_dictionaries(
    {"game": st.integers(-3, 5)},
    optional={
        "seats": _json,
        "scores": _json,
        "winners": _json,
        "record": _json,
        "status": _json,
        "format": _json,
    },
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.one_of(
            _json.map(json.dumps),
            _game_like.map(json.dumps),
            st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t),
            st.binary(max_size=20).map(lambda b: b.decode("latin-1")),
        ),
        max_size=5,
    ),
    cut=st.booleans(),
)
@pytest.mark.slow
def test_the_results_reader_gives_only_clear_errors(
    tmp_path: Path, lines: list[str], cut: bool
) -> None:
    path = tmp_path / "fuzz.jsonl"
    data = "".join(f"{line}\n" for line in lines).encode("utf-8", "surrogatepass")
    path.write_bytes(data[:-1] if cut and data else data)
    # Only the documented error (a ValueError) may come out, and it names the file and line.
    error: ResultsFileError | None = None
    try:
        results = TournamentResults.load(path)
    except ResultsFileError as e:
        error = e
    if error is None:
        assert all(isinstance(g["game"], int) for g in results.games)
    else:
        assert isinstance(error, ValueError)
        assert str(path) in str(error) and ", line " in str(error), error


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
@pytest.mark.slow
def test_the_results_reader_refuses_edited_lines_clearly(
    tmp_path: Path, small_results: TournamentResults, data: st.DataObject
) -> None:
    # A real line with one field (of the line, of its record, or of an action) set to random
    # JSON: read as it is when the edit changes nothing that matters, else a clear error.
    game = json.loads(small_results.lines[data.draw(st.integers(0, len(small_results) - 1))])
    record = game["record"]
    action = data.draw(st.sampled_from(record["actions"]))
    where = data.draw(st.sampled_from([game, record, record["rules"], action]))
    where[data.draw(st.sampled_from(sorted(where)))] = data.draw(_json)
    path = tmp_path / "edited.jsonl"
    path.write_text(json.dumps(game) + "\n", encoding="utf-8")
    error: ResultsFileError | None = None
    try:
        TournamentResults.load(path)
    except ResultsFileError as e:
        error = e
    if error is not None:
        assert str(path) in str(error) and ", line 1" in str(error), error
