"""Large tournaments (issue 13): results stream to disk and nothing else grows with the number of
games, a run killed with SIGKILL (workers and all) resumes to the same bytes, a Dask cluster of
separate processes gives the same bytes as local workers, the report is one pass that keeps no
game, and the command shows its progress without mixing it into the report on stdout."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from huescues.agents import RandomAgent
from huescues.engine import ChooseTarget, PlacePawn, View
from huescues.stats import ratio_interval, resample
from huescues.tournament import Report, Tournament, TournamentResults, run_tournament

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
MODULE = Path(__file__).stem  # importable by spawned workers: pytest puts tests/ on sys.path
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)]), "NO_COLOR": "1"}
RANDOMS = ["random", "random2=huescues.agents:RandomAgent"]


class Slow(RandomAgent):
    """Plays like the random agent, a little slowly where ``HUESCUES_TEST_SLOW`` is set, so
    that a run can be killed half way (and the reference run is quick)."""

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        if os.environ.get("HUESCUES_TEST_SLOW"):
            time.sleep(0.005)
        return super().choose_target(view, rng)


def _files(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir())}
    return {path.name: path.read_bytes()}


def _saved(path: Path) -> int:
    if path.is_dir():
        return 3 * len(list(path.glob("part-*.parquet")))  # one shard is enough
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
@pytest.mark.slow
def test_a_run_killed_with_sigkill_resumes_to_the_bytes_of_an_uninterrupted_run(
    tmp_path: Path, suffix: str
) -> None:
    games = 400
    args = ["tournament", "--games", str(games), "--seed", "3", "--workers", "2"]
    args += ["--entrants", "random", f"slow={MODULE}:Slow"]
    out = tmp_path / f"killed{suffix}"
    # Its own process group, so that the kill takes the workers too, as a kill -9 of a job does.
    proc = subprocess.Popen(
        [sys.executable, "-m", "huescues", *args, "--out", str(out)],
        env={**ENV, "HUESCUES_TEST_SLOW": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        # Some games saved (a shard holds up to 100), far from all.
        while time.monotonic() < deadline and _saved(out) < 3 and proc.poll() is None:
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    kept = TournamentResults.load(out)
    assert 0 < len(kept) < games
    again = subprocess.run(
        [sys.executable, "-m", "huescues", *args, "--out", str(out), "--resume"],
        env=ENV,
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    reference = tmp_path / f"reference{suffix}"
    run_tournament(["random", f"slow={MODULE}:Slow"], games=games, seed=3, workers=2, out=reference)
    assert _files(out) == {
        k.replace("reference", "killed"): v for k, v in _files(reference).items()
    }


@pytest.mark.cluster
@pytest.mark.slow
def test_a_dask_cluster_of_separate_processes_gives_the_same_bytes(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local = run_tournament(RANDOMS, games=60, seed=2, workers=2, out=tmp_path / "local.jsonl")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        remote = run_tournament(
            RANDOMS,
            games=60,
            seed=2,
            scheduler=cluster.scheduler_address,
            out=tmp_path / "remote.jsonl",
        )
    assert (tmp_path / "remote.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert remote.lines == local.lines


def _held_by_run(tmp_path: Path, games: int, *, traced: bool = True) -> int:
    """Bytes the runner still holds after a run (results and report alive): made by the
    tournament's code, not by the engine or the players while a game is played (their bounded
    caches of clue verdicts and texts fill with what a run happens to use, then empty).
    Untraced, the run only fills those caches (0)."""
    out = tmp_path / f"m{games}.jsonl"
    t = Tournament(RANDOMS, games=games, seed=1)
    run_tournament(RANDOMS, games=4, workers=1)  # imports and caches, outside the measure
    if not traced:
        assert t.run(workers=1, out=out).report(n_boot=20).n_games == games
        return 0
    # Eight frames reach the tournament's code from what it holds (json, lists) as thirty did (the
    # same bytes within 2 %), and trace a game a third faster.
    tracemalloc.start(8)
    try:
        results = t.run(workers=1, out=out)
        report = results.report(n_boot=20)
        gc.collect()  # garbage the cycle collector has not reached yet is not held
        snapshot = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert report.n_games == games
    held = snapshot.filter_traces(
        [
            tracemalloc.Filter(True, "*/huescues/tournament/*", all_frames=True),
            tracemalloc.Filter(False, "*/huescues/engine/*", all_frames=True),
            tracemalloc.Filter(False, "*/huescues/agents/*", all_frames=True),
        ]
    )
    return sum(stat.size for stat in held.statistics("filename"))


@pytest.mark.slow
def test_memory_does_not_grow_with_the_number_of_games(tmp_path: Path) -> None:
    # Holding every line (3.5 kB a game) would hold 420 kB more at 160 games than at 40;
    # streaming leaves 8 bytes a game (where each line is) and a few numbers a block.
    # First-use allocations (imports, the report's tables) and the report's bounded caches
    # (the squares named, the rankings rated), filled here with every game measured below.
    # (The warm run untraced: tracing makes a game several times slower.)
    _held_by_run(tmp_path / "warm", 160, traced=False)
    small = _held_by_run(tmp_path, 40)
    large = _held_by_run(tmp_path, 160)
    assert large - small < 200_000, (small, large)


def test_results_in_a_file_are_read_from_it_when_used(tmp_path: Path) -> None:
    results = run_tournament(RANDOMS, games=24, seed=5, workers=1, out=tmp_path / "r.jsonl")
    assert not isinstance(results.lines, tuple)  # not held in memory
    lines = (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()
    assert list(results.lines) == lines and results.lines == lines and lines == results.lines
    assert results.lines[-1] == lines[-1] and results.lines[3:5] == lines[3:5]
    with pytest.raises(IndexError, match="game 24 of 24"):
        results.lines[24]
    assert results.lines[7] == lines[7] and results.lines[-1] == lines[-1]
    assert results.lines[2:5] == lines[2:5]
    shards = run_tournament(RANDOMS, games=24, seed=5, workers=1, out=tmp_path / "r.parquet")
    assert shards.lines == lines and shards.lines[-3] == lines[-3]
    assert TournamentResults.load(tmp_path / "r.parquet").lines == lines
    for name in ("r.jsonl", "r.parquet"):  # without replaying every record
        assert TournamentResults.load(tmp_path / name, check=False).lines == lines


def test_the_streamed_report_equals_the_report_of_the_games(tmp_path: Path) -> None:
    results = run_tournament(
        [*RANDOMS, "random3=huescues.agents:RandomAgent"],
        games=36,
        players=(3, 4),
        seed=6,
        workers=1,
        out=tmp_path / "r.jsonl",
    )
    games = [json.loads(line) for line in results.lines]
    assert results.report(seed=3).to_json() == Report.from_games(games, seed=3).to_json()
    loaded = TournamentResults.load(tmp_path / "r.jsonl")
    assert loaded.report(seed=3).to_json() == Report.from_games(games, seed=3).to_json()


def test_the_bootstrap_in_pieces_draws_the_same_resamples(monkeypatch: pytest.MonkeyPatch) -> None:
    from huescues.tournament import _report_stats  # private: the bootstrap's pieces

    rng = np.random.default_rng(0)
    s = rng.normal(size=300)
    c = rng.integers(0, 3, size=300).astype(np.float64)
    c[:5] = 0.0
    key = "points\0x"
    whole = _report_stats._estimate(s, c, seed=4, key=key, n_boot=500)
    monkeypatch.setattr(_report_stats, "_DRAWS_AT_ONCE", 300 * 7)  # 7 resamples a piece
    pieces = _report_stats._estimate(s, c, seed=4, key=key, n_boot=500)
    assert pieces == whole
    draws = resample(300, 500, np.random.default_rng([4, __import__("zlib").crc32(key.encode())]))
    assert ratio_interval(s, c, draws).low == whole.low


@pytest.mark.parametrize("count", [1.0, 8.0, 0.5, None])
def test_the_bootstrap_in_pieces_of_counts_alike_is_the_whole_bootstrap(
    count: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Counts alike in every block (whole numbers: their sums are not looked up).
    from huescues.tournament import _report_stats  # private: the bootstrap's pieces

    rng = np.random.default_rng(1)
    s = rng.integers(-3, 9, size=257).astype(np.float64) + rng.normal(size=257)
    c = np.full(257, count) if count is not None else rng.integers(1, 9, 257).astype(np.float64)
    key = "win\0y"
    draws = resample(257, 300, np.random.default_rng([2, __import__("zlib").crc32(key.encode())]))
    monkeypatch.setattr(_report_stats, "_DRAWS_AT_ONCE", 257 * 11)  # 11 resamples a piece
    pieces = _report_stats._estimate(s, c, seed=2, key=key, n_boot=300)
    whole = ratio_interval(s, c, draws)
    assert (pieces.mean, pieces.low, pieces.high) == (whole.mean, whole.low, whole.high)


@pytest.mark.slow
def test_the_command_shows_progress_on_stderr_and_keeps_stdout_for_the_report(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "huescues", "tournament", "--games", "40", "--workers", "1"),
            *("--entrants", *RANDOMS, "--out", str(tmp_path / "r.jsonl")),
        ],
        env=ENV,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # Not a terminal: plain lines, the last at the end of the run.
    assert "tournament: 40 of 40 games (100%)" in done.stderr
    assert "games/s" in done.stderr
    assert "tournament:" not in done.stdout and "40 games, 40 finished" in done.stdout


class Steady(RandomAgent):
    """Takes 0.02 s for each target and pawn: well inside a 0.3 s limit every time, but more
    than that over a game."""

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        time.sleep(0.02)
        return RandomAgent.choose_target(self, view, rng)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        time.sleep(0.02)
        return RandomAgent.place_pawn(self, view, rng)


class HangsLater(RandomAgent):
    """Quick, except that it never chooses the targets of rounds 2 and 3 (its seats give them
    in the first game of a 3-player tournament against one other entrant)."""

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        while view.round in (2, 3):
            time.sleep(0.001)
        return RandomAgent.choose_target(self, view, rng)


@pytest.mark.slow
def test_the_decision_timer_set_once_still_times_each_decision() -> None:
    # The alarm is set once and set again when it rings early: decisions within the limit are
    # never cut short, however many there are, and a late hang is still interrupted.
    steady = run_tournament(
        [f"steady={MODULE}:Steady", "random"],
        games=1,
        players=(3,),
        workers=1,
        decision_time_limit=0.3,
    )
    assert [g["faults"] for g in steady.games] == [[]]
    start = time.perf_counter()
    hangs = run_tournament(
        [f"hangs={MODULE}:HangsLater", "random"],
        games=1,
        players=(3,),
        workers=1,
        decision_time_limit=0.2,
    )
    (game,) = hangs.games
    # Both hangs are cut short (the alarm is set again after it interrupts one).
    assert [(f["entrant"], f["kind"]) for f in game["faults"]] == [("hangs", "timeout")] * 2
    assert time.perf_counter() - start < 10
    assert game["status"] == "finished"
