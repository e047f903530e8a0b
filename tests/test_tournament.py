"""The tournament runner: schedule, determinism across workers and Dask, crash safety, faults."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.agents import RANDOM_CLUE_WORDS, RandomAgent
from huescues.engine import ChooseTarget, GiveClue, Pass, PlacePawn, View
from huescues.tournament import (
    BUILTIN_ENTRANTS,
    Entrant,
    ResultsFileError,
    Tournament,
    TournamentResults,
    entrant,
    run_tournament,
)

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
MODULE = Path(__file__).stem  # importable by spawned workers: pytest puts tests/ on sys.path


# -- agents that misbehave (module level, so that workers can build them from a string) ----------
class _Base:
    """Plays like the random agent unless a method is overridden."""

    def __init__(self) -> None:
        self.random = RandomAgent()

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        return self.random.choose_target(view, rng)

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        return self.random.give_clue(view, rng)

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        return self.random.give_second_clue(view, rng)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        return self.random.place_pawn(view, rng)


class Raising(_Base):
    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        raise RuntimeError("boom")


class Illegal(_Base):
    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        return ChooseTarget(7)  # a card has four squares (R8)

    def give_clue(self, view: View, rng: np.random.Generator) -> Any:
        return "not an action"


class Slow(_Base):
    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        time.sleep(0.1)
        return self.random.give_clue(view, rng)


class SlowToPrepare(_Base):
    """Loads for longer than a decision may take, as a model does on a busy machine, and
    refuses to decide unprepared."""

    prepared = False

    def prepare(self, board: object, rules: object) -> None:
        time.sleep(0.3)
        self.prepared = True

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        if not self.prepared:
            raise RuntimeError("asked to decide before prepare()")
        return self.random.choose_target(view, rng)


class FailsToPrepare(_Base):
    def prepare(self, board: object, rules: object) -> None:
        raise OSError("model file missing")


class Hung(_Base):
    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        with contextlib.suppress(Exception):  # an agent that swallows errors is still stopped
            time.sleep(30)
        return self.random.give_clue(view, rng)


class Dawdling(_Base):
    """A little slow, so that a run of it can be killed half way."""

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        time.sleep(0.003)
        return self.random.choose_target(view, rng)


def returns_none() -> None:
    """A factory that builds nothing."""


def returns_a_number() -> int:
    return 5


def _e(name: str, cls: str) -> Entrant:
    return Entrant(name, f"{MODULE}:{cls}")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# -- entrants ---------------------------------------------------------------------------------
def test_entrant_specs() -> None:
    assert entrant("random") == Entrant("random", "random")
    assert entrant("r2=huescues.agents:RandomAgent") == Entrant("r2", "huescues.agents:RandomAgent")
    assert entrant("huescues.agents:RandomAgent").name == "huescues.agents:RandomAgent"
    assert "oracle" in BUILTIN_ENTRANTS
    for bad in ("nope", "no_such_module_xyz:f", "huescues.agents:nothing", "a=", "x y"):
        with pytest.raises(ValueError, match="bad entrant") as info:
            entrant(bad)
        assert repr(bad.strip()) in str(info.value)
        assert str(info.value).count("bad entrant") == 1  # said once, not by each layer


def test_names_must_differ() -> None:
    with pytest.raises(ValueError, match="repeated"):
        Tournament(["random", "random"], games=1)


def test_games_too_many_to_count_or_keep_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # They raised OverflowError (len of the schedule) and numpy's _ArrayMemoryError (the
    # results file's 8 bytes a game), tracebacks from the command, before any file was made.
    with pytest.raises(ValueError, match="games is a whole number from 0 to"):
        Tournament(["random"], games=10**30)
    out = tmp_path / "r.jsonl"
    with pytest.raises(ValueError, match="too many to keep a results file"):
        run_tournament(["random"], games=10**15, out=out)
    assert not out.exists()
    from huescues.cli import main

    assert main(["tournament", "--games", str(10**30), "--entrants", "random"]) == 2
    assert capsys.readouterr().err.startswith("huescues tournament: error: games is a whole")


def test_player_counts_given_as_numpy_integers_are_played(tmp_path: Path) -> None:
    # The rules took np.int64(3), so the tournament did too, and then failed at its first game
    # ("Object of type int64 is not JSON serializable").
    out = tmp_path / "r.jsonl"
    results = run_tournament(["random"], games=3, players=(np.int64(3),), workers=1, out=out)
    assert [g["n_players"] for g in results.games] == [3, 3, 3]
    assert _lines(out) == _lines(run_tournament(["random"], games=3, players=(3,), workers=1,
                                                out=tmp_path / "plain.jsonl").out)  # fmt: skip


# -- the schedule -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("k", "players"), [(2, (4,)), (3, (4,)), (4, (4,)), (5, (3,)), (8, (4,)), (4, (3, 4, 5))]
)
def test_every_entrant_plays_every_seat_equally_often(k: int, players: tuple[int, ...]) -> None:
    entrants = [Entrant(f"e{i}", "random") for i in range(k)]
    t = Tournament(entrants, games=1, players=players)
    cycle = t.balanced_games
    specs = Tournament(entrants, games=2 * cycle, players=players, seed=3).schedule()
    for n in players:
        seats = Counter(
            (name, s) for g in specs if g.n_players == n for s, name in enumerate(g.seats)
        )
        assert len(set(seats.values())) == 1, seats
        assert {name for name, _ in seats} == {e.name for e in entrants}


def test_blocks_share_a_seed_and_rotate() -> None:
    specs = Tournament(["random", "naming", "default"], games=9, players=(3,), seed=5).schedule()
    for b in range(3):
        block = specs[3 * b : 3 * b + 3]
        assert len({g.seed for g in block}) == 1
        for r in range(1, 3):  # each game moves everyone one seat on
            assert block[r].seats == block[0].seats[-r:] + block[0].seats[:-r]
    assert len({g.seed for g in specs}) == 3


def test_seeds_are_drawn_up_front_from_the_seed() -> None:
    long = Tournament(["random", "naming"], games=40, players=(3, 4), seed=7).schedule()
    short = Tournament(["random", "naming"], games=13, players=(3, 4), seed=7).schedule()
    assert short == long[:13]
    other = Tournament(["random", "naming"], games=13, players=(3, 4), seed=8).schedule()
    assert [g.seed for g in other] != [g.seed for g in short]
    assert all(0 <= g.seed < 2**53 for g in long)
    assert [g.index for g in long] == list(range(40))


def test_oracle_is_no_default_entrant() -> None:
    import inspect

    assert "oracle" not in repr(inspect.signature(Tournament).parameters["entrants"].default)


# -- determinism ------------------------------------------------------------------------------
MIXED = [Entrant("random", "random"), _e("raising", "Raising"), _e("illegal", "Illegal")]


@pytest.mark.slow
def test_results_file_is_identical_with_one_or_two_workers(tmp_path: Path) -> None:
    kw: dict[str, Any] = {"games": 60, "players": (3, 4, 5), "seed": 11}
    one = run_tournament(MIXED, **kw, workers=1, out=tmp_path / "one.jsonl")
    two = run_tournament(MIXED, **kw, workers=2, out=tmp_path / "two.jsonl")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert one.lines == two.lines
    assert [g["game"] for g in one.games] == list(range(60))
    loaded = TournamentResults.load(tmp_path / "two.jsonl")
    assert loaded.lines == one.lines
    assert set(loaded.entrants) == {"random", "raising", "illegal"}


@pytest.mark.cluster
@pytest.mark.slow
def test_same_results_on_a_dask_cluster() -> None:
    distributed = __import__("distributed")
    local = run_tournament(MIXED, games=40, players=(4,), seed=2, workers=1)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = run_tournament(
            MIXED, games=40, players=(4,), seed=2, scheduler=cluster.scheduler_address
        )
    assert remote.lines == local.lines


@pytest.mark.slow
def test_the_line_format(tmp_path: Path) -> None:
    results = run_tournament(["random"], games=4, players=(4,), out=tmp_path / "r.jsonl")
    line = _lines(tmp_path / "r.jsonl")[0]
    game = json.loads(line)
    assert line == json.dumps(game, sort_keys=True, separators=(",", ":"))
    assert set(game) == {
        "format", "game", "seed", "n_players", "board_id", "seats", "status", "error",
        "scores", "winners", "tiebreak_rounds", "rounds", "faults", "record",
    }  # fmt: skip
    assert game["status"] == "finished" and game["error"] is None and game["faults"] == []
    assert sum(sum(r["points"]) for r in game["rounds"]) == sum(game["scores"])
    assert game["record"]["seed"] == game["seed"] == results.games[0]["seed"]
    assert len(game["rounds"]) == 8 + game["tiebreak_rounds"]


# -- files: refusing, resuming, surviving SIGKILL -----------------------------------------------
def test_refuses_to_overwrite_without_resume(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_tournament(["random"], games=4, workers=1, out=out)
    before = out.read_bytes()
    with pytest.raises(ResultsFileError, match="resume=True"):
        run_tournament(["random"], games=4, workers=1, out=out)
    assert out.read_bytes() == before


def test_resume_refuses_another_schedule(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_tournament(["random"], games=4, workers=1, out=out)
    with pytest.raises(ResultsFileError, match="not from this tournament"):
        run_tournament(["random"], games=8, seed=1, workers=1, out=out, resume=True)
    with pytest.raises(ResultsFileError, match="other rules"):
        run_tournament(
            ["random"], games=8, workers=1, out=out, resume=True, rules={"max_tiebreak_rounds": 3}
        )


def test_resume_after_a_cut_last_line(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    run_tournament(MIXED, games=20, players=(3,), workers=1, out=full)
    data = full.read_bytes()
    cut = tmp_path / "cut.jsonl"
    # Completion order, not game order, and a half-written line at the end.
    lines = data.splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[7:2:-1]) + lines[9][:40])
    seen: list[tuple[int, int]] = []
    run_tournament(
        MIXED, games=20, players=(3,), workers=1, out=cut, resume=True,
        progress=lambda d, t: seen.append((d, t)),
    )  # fmt: skip
    assert cut.read_bytes() == data
    assert seen[0] == (5, 20) and seen[-1] == (20, 20)
    # Resuming a finished run plays nothing and changes nothing.
    run_tournament(MIXED, games=20, players=(3,), workers=1, out=cut, resume=True)
    assert cut.read_bytes() == data


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_bytes(tmp_path: Path) -> None:
    entrants = [Entrant("random", "random"), _e("dawdling", "Dawdling")]
    games = 160
    out = tmp_path / "killed.jsonl"
    script = (
        "from huescues.tournament import Entrant, run_tournament\n"
        f"entrants = [Entrant('random', 'random'), Entrant('dawdling', '{MODULE}:Dawdling')]\n"
        f"run_tournament(entrants, games={games}, seed=4, workers=1, out={str(out)!r})\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)])}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.read_bytes().count(b"\n") >= 10:
                break
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    partial = out.read_bytes().count(b"\n")
    assert 10 <= partial < games
    run_tournament(entrants, games=games, seed=4, workers=1, out=out, resume=True)
    reference = tmp_path / "reference.jsonl"
    run_tournament(entrants, games=games, seed=4, workers=1, out=reference)
    assert out.read_bytes() == reference.read_bytes()


# -- faults -----------------------------------------------------------------------------------
def _fault_kinds(results: TournamentResults) -> dict[str, Counter[str]]:
    return {k: v for k, v in results.fault_counts().items() if v}


def test_faults_are_recorded_and_the_games_finish() -> None:
    results = run_tournament(MIXED, games=12, players=(3,), workers=1)
    assert all(g["status"] == "finished" for g in results.games)
    counts = _fault_kinds(results)
    assert set(counts) == {"raising", "illegal"}
    assert set(counts["raising"]) == {"exception"}
    assert set(counts["illegal"]) == {"illegal"}
    fault = next(f for g in results.games for f in g["faults"] if f["entrant"] == "raising")
    assert fault["message"] == "RuntimeError: boom"
    assert fault["phase"] in ("first_guess", "second_guess")
    for g in results.games:
        for f in g["faults"]:
            assert g["seats"][f["seat"]] == f["entrant"]
        # The fallback moves are in the record: it replays to the same scores.
        from huescues.engine import GameRecord

        assert list(GameRecord.from_dict(g["record"]).replay().scores) == g["scores"]


@pytest.mark.slow
def test_a_hung_decision_is_interrupted() -> None:
    start = time.perf_counter()
    results = run_tournament(
        ["random", _e("hung", "Hung")], games=1, players=(3,), workers=1, decision_time_limit=0.05
    )
    assert time.perf_counter() - start < 10
    faults = results.games[0]["faults"]
    assert faults and {f["kind"] for f in faults} == {"timeout"}
    assert {f["entrant"] for f in faults} == {"hung"}
    assert faults[0]["message"] == "no decision within 0.05 s"
    assert results.games[0]["status"] == "finished"


@pytest.mark.parametrize("limit", [1e-7, 1e-300, 1e10, 1e300])
def test_a_decision_time_limit_of_any_size_above_zero_plays(limit: float) -> None:
    # A limit of a microsecond or less made the alarm ring again inside its own handler
    # (RecursionError); one past setitimer's range raised OverflowError before any game.
    results = run_tournament(
        ["random", "r2=huescues.agents:RandomAgent"],
        games=1,
        players=(3,),
        workers=1,
        decision_time_limit=limit,
    )
    (game,) = results.games
    assert game["status"] == "finished"
    kinds = {f["kind"] for f in game["faults"]}
    assert kinds == ({"timeout"} if limit < 1 else set())


@pytest.mark.slow
def test_preparing_an_agent_is_outside_the_decision_time_limit() -> None:
    # Loading takes 0.3 s, a decision may take 0.05 s: preparation is not a timed decision, so
    # a seeded tournament does not depend on how busy the machine is while models load.
    results = run_tournament(
        [_e("slow-start", "SlowToPrepare"), "random"],
        games=2,
        players=(3,),
        workers=1,
        decision_time_limit=0.05,
    )
    assert [g["faults"] for g in results.games] == [[], []]
    assert all(g["status"] == "finished" for g in results.games)


def test_an_agent_that_cannot_be_prepared_loses_its_decisions_not_the_game() -> None:
    results = run_tournament(
        [_e("broken", "FailsToPrepare"), "random"], games=1, players=(3,), workers=1
    )
    (game,) = results.games
    assert game["status"] == "finished" and game["faults"]
    assert {f["entrant"] for f in game["faults"]} == {"broken"}
    assert {f["kind"] for f in game["faults"]} == {"exception"}
    assert "could not be prepared: OSError: model file missing" in game["faults"][0]["message"]


@pytest.mark.parametrize(("factory", "what"), [("returns_none", "None"), ("returns_a_number", "5")])
def test_a_factory_that_returns_no_agent_loses_its_decisions_not_the_game(
    factory: str, what: str
) -> None:
    # None made a person's seat, waited for: every game unfinished ("the game did not end"),
    # with no fault; a number ended every game unfinished too.
    results = run_tournament([_e("broken", factory), "random"], games=1, players=(3,), workers=1)
    (game,) = results.games
    assert game["status"] == "finished" and game["faults"]
    assert {(f["entrant"], f["kind"]) for f in game["faults"]} == {("broken", "exception")}
    message = game["faults"][0]["message"]
    assert f"could not be built: TypeError: {MODULE}:{factory} returned {what}, not an agent" in (
        message
    )


def test_a_slow_decision_outside_the_main_thread_is_timed_afterwards() -> None:
    box: list[TournamentResults] = []
    thread = threading.Thread(
        target=lambda: box.append(
            run_tournament(
                [_e("slow", "Slow"), "random", "r2=huescues.agents:RandomAgent"],
                games=1,
                players=(3,),
                workers=1,
                decision_time_limit=0.02,
            )
        )
    )
    thread.start()
    thread.join()
    (game,) = box[0].games
    kinds = Counter((f["entrant"], f["kind"]) for f in game["faults"])
    assert kinds[("slow", "timeout")] >= 1 and set(kinds) == {("slow", "timeout")}
    assert game["status"] == "finished"


def test_a_game_that_cannot_finish_is_recorded_as_unfinished(tmp_path: Path) -> None:
    # Every word the random agent knows is banned, so neither an entrant nor the fallback
    # can give a clue (R19).
    rules = {"banned_terms": sorted(set(RANDOM_CLUE_WORDS))}
    out = tmp_path / "r.jsonl"
    results = run_tournament(["random"], games=3, players=(3,), workers=1, rules=rules, out=out)
    assert len(_lines(out)) == 3
    for g in results.games:
        assert g["status"] == "unfinished"
        assert "RuntimeError" in g["error"]
        assert g["faults"][0]["kind"] == "exception"
        assert g["winners"] == [] and g["scores"] == [0, 0, 0]
        assert g["record"]["actions"] == [{"target": g["record"]["actions"][0]["target"]}]
    assert len(results.unfinished) == 3


def test_an_agent_that_cannot_be_built_is_a_fault() -> None:
    results = run_tournament(
        ["random", Entrant("broken", f"{MODULE}:_e")], games=3, players=(3,), workers=1
    )
    for g in results.games:
        assert g["status"] == "finished"
        assert {f["entrant"] for f in g["faults"]} == {"broken"}
        assert "could not be built" in g["faults"][0]["message"]


def test_the_report_counts_faults_by_entrant() -> None:
    results = run_tournament(MIXED, games=12, players=(3,), workers=1)
    report = results.report()
    faults = {s.entrant: s.faults for s in report.entrants}
    assert faults["random"] == 0 and faults["raising"] > 0 and faults["illegal"] > 0


def _shard_bytes(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.slow
def test_parquet_shards_are_the_same_with_one_or_two_workers(tmp_path: Path) -> None:
    from huescues.tournament import Tournament, TournamentResults

    t = Tournament(["random", "naming"], games=12, seed=4)
    one = t.run(workers=1, out=tmp_path / "one.parquet")
    two = t.run(workers=2, out=tmp_path / "two.parquet")
    assert one.lines == two.lines
    assert _shard_bytes(tmp_path / "one.parquet") == _shard_bytes(tmp_path / "two.parquet")
    assert TournamentResults.load(tmp_path / "one.parquet").lines == one.lines
    jsonl = t.run(workers=1, out=tmp_path / "same.jsonl")
    assert jsonl.lines == one.lines  # the same lines as the JSON-lines file


@pytest.mark.slow
def test_parquet_shards_resume_after_a_killed_run(tmp_path: Path) -> None:
    from huescues.tournament import Tournament
    from huescues.tournament._shards import write_shard  # private: to leave a run half done

    t = Tournament(["random"], games=12, seed=5)
    full = t.run(workers=1, out=tmp_path / "full.parquet")
    # A run killed after two batches: two whole shards, and a temporary file half written.
    part = tmp_path / "part.parquet"
    part.mkdir()
    games = [(i, line) for i, line in enumerate(full.lines)]
    write_shard(part, 0, games[5:8])
    write_shard(part, 1, games[:2])
    (part / ".part-000002.parquet.tmp").write_bytes(b"PAR1 cut short")
    with pytest.raises(ValueError, match="resume"):
        t.run(workers=1, out=part)
    resumed = t.run(workers=2, out=part, resume=True)
    assert resumed.lines == full.lines
    assert _shard_bytes(part) == _shard_bytes(tmp_path / "full.parquet")


def test_edited_scores_are_refused_naming_the_game_and_line(tmp_path: Path) -> None:
    # issue 12 item 6: the record is the truth; a line whose scores were edited is refused,
    # by --resume and by TournamentResults.load, before it can change the report.
    out = tmp_path / "r.jsonl"
    run_tournament(["random"], games=4, players=(3,), workers=1, out=out)
    lines = _lines(out)
    game = json.loads(lines[2])
    real = game["scores"]
    game["scores"] = [99] * len(real)
    lines[2] = json.dumps(game, sort_keys=True, separators=(",", ":"))
    out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    before = out.read_bytes()
    message = r"line 3: game 2's scores \[99, 99, 99\] are not what its record replays to"
    with pytest.raises(ResultsFileError, match=message):
        TournamentResults.load(out)
    with pytest.raises(ResultsFileError, match=message):
        run_tournament(["random"], games=8, players=(3,), workers=1, out=out, resume=True)
    assert out.read_bytes() == before
    # Winners are checked too.
    game["scores"], game["winners"] = real, [s for s in range(3) if s not in game["winners"]]
    lines[2] = json.dumps(game, sort_keys=True, separators=(",", ":"))
    out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(ResultsFileError, match="line 3: game 2's winners"):
        TournamentResults.load(out)


@pytest.mark.slow
def _game_lines(path: Path) -> list[tuple[int, bytes]]:
    """``(byte offset, line)`` of each complete, non-blank line, read line by line."""
    out: list[tuple[int, bytes]] = []
    offset = 0
    with open(path, "rb") as f:
        for raw in f:
            if raw.endswith(b"\n") and raw.strip():
                out.append((offset, raw))
            offset += len(raw)
    return out


def test_checked_load_on_workers_finds_the_same_games_and_the_same_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 23 item 6: the lines are checked in chunks on worker processes; the games, their
    # offsets and the first error (with its line number) are those of the one-process reading,
    # and a schedule check of an earlier line still comes before a replay error of a later one.
    from huescues.tournament import _chunks_pool
    from huescues.tournament import _results_file as _results

    out = tmp_path / "r.jsonl"
    run_tournament(["random"], games=30, players=(3,), workers=1, out=out)
    # Blank lines and a last line cut short (a killed run) among blocks of whole lines.
    whole = out.read_bytes()
    text = whole.split(b"\n")
    text[10:10] = [b"", b"  "]
    out.write_bytes(b"\n".join(text) + b'{"format":1,"game":30')
    # Blocks of about 4 KB: one to three lines each, some a line longer than a block.
    monkeypatch.setattr(_results, "CHECK_BYTES", 4000)
    monkeypatch.setattr(_chunks_pool, "n_workers", lambda: 2)
    on_workers = list(_results.scan_results_file(out))
    monkeypatch.setattr(_chunks_pool, "n_workers", lambda: 1)
    here = list(_results.scan_results_file(out))
    assert on_workers == here
    assert [i for i, _, _ in here] == list(range(30))
    # Where each game's line starts, as reading the file line by line finds it.
    by_line = [(json.loads(raw)["game"], offset) for offset, raw in _game_lines(out)]
    assert [(i, at) for i, at, _ in here] == by_line
    # What comes back of each game is its seats (the line stays in the file).
    assert [g for *_, g in here] == [
        {"seats": json.loads(raw)["seats"]} for _, raw in _game_lines(out)
    ]
    # Reading only the indexes and seats (check=False) on workers finds the same.
    monkeypatch.setattr(_results, "INDEX_BYTES", 4000)
    monkeypatch.setattr(_chunks_pool, "n_workers", lambda: 2)
    assert list(_results.scan_results_file(out, check=False)) == [
        (json.loads(raw)["game"], offset, {"seats": json.loads(raw)["seats"]})
        for offset, raw in _game_lines(out)
    ]
    out.write_bytes(whole)
    lines = _lines(out)
    game = json.loads(lines[25])
    game["scores"] = [99] * len(game["scores"])
    lines[25] = json.dumps(game, sort_keys=True, separators=(",", ":"))
    out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    monkeypatch.setattr(_chunks_pool, "n_workers", lambda: 2)
    with pytest.raises(ResultsFileError, match=r"line 26: game 25's scores \[99, 99, 99\]"):
        TournamentResults.load(out)
    with pytest.raises(ResultsFileError, match="not from this tournament"):  # games 0-29 of 31
        run_tournament(["random"], games=20, players=(3,), workers=1, out=out, resume=True)


def test_load_names_the_entrants_in_game_order_whatever_the_file_order(tmp_path: Path) -> None:
    # issue 23 item 6: the names are read while the file is scanned when its games come in
    # order; a file out of order (or with a repeated game) still names them in game order.
    entrants = [
        "random",
        "random2=huescues.agents:RandomAgent",
        "random3=huescues.agents:RandomAgent",
    ]
    out = tmp_path / "r.jsonl"
    run_tournament(entrants, games=12, players=(3,), seed=4, workers=1, out=out)
    lines = _lines(out)
    expected = list(dict.fromkeys(n for line in lines for n in json.loads(line)["seats"]))
    shuffled = tmp_path / "s.jsonl"
    shuffled.write_text("".join(line + "\n" for line in lines[::-1]), encoding="utf-8")
    for path in (out, shuffled):
        for check in (True, False):
            assert list(TournamentResults.load(path, check=check).entrants) == expected


@pytest.mark.parametrize("number", [-5, 2**63, 10**30, 2**63 - 1])
def test_a_line_whose_game_number_no_tournament_has_is_refused_naming_the_line(
    tmp_path: Path, number: int
) -> None:
    # Games are numbered from 0 (a negative number was loaded as a game; one past int64 was an
    # OverflowError naming no line), whether the load checks the lines or not.
    out = tmp_path / "r.jsonl"
    run_tournament(["random"], games=4, players=(3,), workers=1, out=out)
    lines = _lines(out)
    game = json.loads(lines[2])
    game["game"] = number
    lines[2] = json.dumps(game, sort_keys=True, separators=(",", ":"))
    out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    for check in (True, False):
        with pytest.raises(ResultsFileError, match=r"line 3: not a tournament game \(its number"):
            TournamentResults.load(out, check=check)


def test_resuming_a_finished_run_leaves_its_file_as_it_is(tmp_path: Path) -> None:
    # issue 23 item 6: every game there, in order, nothing else: checked, not written again.
    out = tmp_path / "r.jsonl"
    first = run_tournament(["random"], games=9, players=(3,), workers=1, out=out)
    before, inode = out.read_bytes(), out.stat().st_ino
    again = run_tournament(["random"], games=9, players=(3,), workers=1, out=out, resume=True)
    assert out.read_bytes() == before and out.stat().st_ino == inode
    assert list(again.lines) == list(first.lines)
    # A blank line, or a game out of order, and the file is put in order as before.
    lines = _lines(out)
    out.write_text("".join(line + "\n" for line in [*lines[:4], "", *lines[4:]]), encoding="utf-8")
    run_tournament(["random"], games=9, players=(3,), workers=1, out=out, resume=True)
    assert out.read_bytes() == before
    out.write_text("".join(line + "\n" for line in lines[::-1]), encoding="utf-8")
    run_tournament(["random"], games=9, players=(3,), workers=1, out=out, resume=True)
    assert out.read_bytes() == before
    # A game twice: its first copy is the one kept (here told apart by its spacing).
    spaced = json.dumps(json.loads(lines[2]))
    for first, later, kept in ((lines[2], spaced, lines[2]), (spaced, lines[2], spaced)):
        twice = [*lines[:2], first, *lines[3:], later]
        out.write_text("".join(line + "\n" for line in twice), encoding="utf-8")
        run_tournament(["random"], games=9, players=(3,), workers=1, out=out, resume=True)
        assert _lines(out) == [*lines[:2], kept, *lines[3:]]


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("seed", 12345, r"game 7: seed 12345 in the file, \d+ in the schedule"),
        ("seats", ["random2", "random", "random"], r"game 7: seats \['random2'"),
        ("board_id", "another-board", r"game 7: board 'another-board' in the file"),
        ("format", 2, r"game 7: results format 2, not 1"),
        ("game", 40, r"game 40: this tournament has 30 games"),
    ],
)
def test_a_resume_checks_every_saved_game_against_the_schedule_on_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str, value: Any, why: str
) -> None:
    # issue 23 item 6: the schedule check of a resume runs where each line is checked (on the
    # workers), and names the game and what differs, as it did in the parent; the file is kept.
    from huescues.tournament import _chunks_pool
    from huescues.tournament import _results_file as _results

    entrants = ["random", "random2=huescues.agents:RandomAgent"]
    out = tmp_path / "r.jsonl"
    run_tournament(entrants, games=30, players=(3,), workers=1, out=out)
    lines = _lines(out)
    game = json.loads(lines[7])
    game[field] = value
    lines[7] = json.dumps(game, sort_keys=True, separators=(",", ":"))
    out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    before = out.read_bytes()
    monkeypatch.setattr(_results, "CHECK_BYTES", 4000)
    monkeypatch.setattr(_chunks_pool, "n_workers", lambda: 2)
    with pytest.raises(ResultsFileError, match=f"cannot resume from .*{why}"):
        run_tournament(entrants, games=30, players=(3,), workers=1, out=out, resume=True)
    assert out.read_bytes() == before


@settings(max_examples=300, deadline=None)
@given(count=st.integers(0, 200_000), workers=st.integers(1, 64))
def test_batches_hold_every_game_once_and_end_small(count: int, workers: int) -> None:
    from huescues.tournament._tournament import _MAX_BATCH, batch_sizes

    sizes = batch_sizes(count, workers)
    assert sum(sizes) == count and all(1 <= s <= _MAX_BATCH for s in sizes)
    # Each worker's first batch is one game (a rate shown at once), when batches are larger.
    if sizes and max(sizes) > 1:
        assert sizes[: min(workers, count)] == [1] * min(workers, count)
    # After the first, no batch is larger than the one before, and when there are many games
    # the last 2 * workers batches are at most half the largest: the workers finish close
    # together.
    rest = sizes[min(workers, count) :] if sizes and max(sizes) > 1 else sizes
    assert all(a >= b for a, b in itertools.pairwise(rest))
    if count >= 100 * workers:
        assert max(rest[-2 * workers :]) <= max(rest) / 2


def test_a_resumes_check_unpickled_again_in_a_worker_is_the_one_made_there() -> None:
    # A resume sends its check of the saved games with every block of lines: a worker keeps
    # the first it made (and the schedule it has worked out) for the next blocks.
    import pickle

    from huescues.tournament._entrants import entrant
    from huescues.tournament._saved import SavedGameCheck

    def check(seed: int) -> SavedGameCheck:
        return SavedGameCheck(
            Path("r.jsonl"), [entrant("random")], games=8, players=(4,), seed=seed,
            board_id="b", rules={"rounds_per_giver": 1},
        )  # fmt: skip

    first = pickle.loads(pickle.dumps(check(1)))
    assert pickle.loads(pickle.dumps(check(1))) is first
    other = pickle.loads(pickle.dumps(check(2)))
    assert other is not first and other.seed == 2 and other.rules == {"rounds_per_giver": 1}


def test_a_resumes_check_refuses_other_rules_after_the_tournaments_own(tmp_path: Path) -> None:
    # The check remembers the last rules object it found equal (a file's lines share one):
    # a game with other rules, or none, is still refused after it.
    from huescues.tournament import ResultsFileError
    from huescues.tournament._saved import SavedGameCheck

    out = tmp_path / "r.jsonl"
    run_tournament(["random"], games=6, players=(3,), workers=1, out=out, seed=4)
    games = [json.loads(line) for line in _lines(out)]
    check = SavedGameCheck(
        out, [entrant("random")], games=6, players=(3,), seed=4, board_id=games[0]["board_id"],
        rules={},
    )  # fmt: skip
    shared = games[0]["record"]["rules"]
    for game in games:
        game["record"]["rules"] = shared
        check(game["game"], game)
    other = json.loads(json.dumps(games[1]))
    other["record"]["rules"]["rounds_per_giver"] = 1
    without = json.loads(json.dumps(games[2]))
    del without["record"]["rules"]
    for game in (other, without):
        with pytest.raises(ResultsFileError, match="played by other rules"):
            check(game["game"], game)
    check(games[3]["game"], games[3])
    # And a game without rules as a fresh check's first.
    fresh = SavedGameCheck(
        out, [entrant("random")], games=6, players=(3,), seed=4, board_id=games[0]["board_id"],
        rules={},
    )  # fmt: skip
    with pytest.raises(ResultsFileError, match="played by other rules"):
        fresh(without["game"], without)


@pytest.mark.parametrize("key", ["rounds", "n_players", 1])
def test_a_rules_setting_that_does_not_exist_is_invalid_rules_naming_it(key: object) -> None:
    # It was a TypeError about Rules.standard's keywords; docs/errors.md says InvalidRules.
    from huescues.engine import InvalidRules

    with pytest.raises(InvalidRules, match=rf"unknown rules settings: \[{key!r}\]"):
        Tournament(["random"], games=1, rules={key: 2})
