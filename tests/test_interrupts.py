"""Interruptions and lost work (issue 12): Ctrl-C ends a command with one line and status 130,
a killed run keeps the games it finished, and a tournament checks its outputs before it plays."""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from huescues.agents import RandomAgent, play_game
from huescues.engine import ChooseTarget, View
from huescues.terminal import GameAbandoned, play_in_terminal
from huescues.tournament import ResultsFileError, run_tournament

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
MODULE = Path(__file__).stem  # importable in the subprocesses: tests/ is on their path
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)]), "NO_COLOR": "1"}


class Counting(RandomAgent):
    """Plays like the random agent, a little slowly, and marks each game it starts in the file
    named by ``HUESCUES_TEST_STARTED`` (one byte a game)."""

    def prepare(self, board: object, rules: object) -> None:
        with open(os.environ["HUESCUES_TEST_STARTED"], "ab") as f:
            f.write(b"g")

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        time.sleep(0.01)
        return super().choose_target(view, rng)


def _huescues(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "huescues.cli", *args],
        env=env or ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C must reach the command even when this test runs with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for(condition: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def _interrupt(proc: subprocess.Popen[str]) -> tuple[str, str]:
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    return out, err


def _games_in(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


ENTRANTS = [
    "random",
    "b=huescues.agents:RandomAgent",
    f"counting={MODULE}:Counting",
]


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.slow
def test_ctrl_c_in_a_tournament_says_what_is_saved_and_how_to_resume(
    tmp_path: Path, workers: int
) -> None:
    out = tmp_path / "t.jsonl"
    args = ["--games", "600", "--players", "3", "--workers", str(workers), "--out", str(out)]
    env = {**ENV, "HUESCUES_TEST_STARTED": str(tmp_path / "started")}
    proc = _huescues("tournament", "--entrants", *ENTRANTS, *args, env=env)
    _wait_for(lambda: _games_in(out) >= 3)
    _, err = _interrupt(proc)
    assert proc.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    saved = _games_in(out)
    assert f"interrupted; {saved} of 600 games are saved in {out}" in err
    assert f"--out {out} --resume" in err


@pytest.mark.slow
def test_a_killed_run_keeps_every_game_it_finished(tmp_path: Path) -> None:
    # With one worker, every game started but the last has finished: all of those are on disk.
    out = tmp_path / "t.jsonl"
    started = tmp_path / "started"
    env = {**ENV, "HUESCUES_TEST_STARTED": str(started)}
    args = ["--games", "600", "--players", "3", "--workers", "1", "--out", str(out)]
    proc = _huescues("tournament", "--entrants", *ENTRANTS, *args, env=env)
    try:
        _wait_for(lambda: started.exists() and started.stat().st_size >= 8)
    finally:
        proc.kill()
        proc.communicate()
    assert _games_in(out) >= started.stat().st_size - 1


@pytest.mark.slow
def test_ctrl_c_while_a_bot_thinks_in_play(tmp_path: Path) -> None:
    # Seat 1: the bot in seat 0 gives the first clue, loading its models and reading the board
    # first (seconds, with the kept readings turned off).
    proc = _huescues("play", "--seat", "1", "--players", "3", env={**ENV, "HUESCUES_CACHE": "off"})
    time.sleep(1.5)
    _, err = _interrupt(proc)
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted" in err


def test_ctrl_c_at_a_play_prompt_does_not_say_the_input_ended() -> None:
    def press_ctrl_c(prompt: str) -> str:
        raise KeyboardInterrupt

    with pytest.raises(GameAbandoned, match="interrupted") as caught:
        play_in_terminal(players=3, seat=0, input_fn=press_ctrl_c, output=io.StringIO())
    assert "input ended" not in str(caught.value)


@pytest.mark.slow
def test_ctrl_c_in_replay_step(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text(play_game([RandomAgent() for _ in range(3)], seed=3).record.to_json())
    proc = _huescues("replay", str(record), "--step")
    assert proc.stdout is not None
    fd, seen = proc.stdout.fileno(), b""

    def prompted() -> bool:
        nonlocal seen
        if select.select([fd], [], [], 0.1)[0]:
            seen += os.read(fd, 4096)
        return b"Enter for the next round" in seen

    _wait_for(prompted, 30)
    _, err = _interrupt(proc)
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted" in err


# -- resume never destroys a file it cannot recognise ------------------------------------------
@pytest.mark.parametrize(
    "content",
    [
        lambda: play_game([RandomAgent() for _ in range(3)], seed=3).record.to_json(),
        lambda: "my notes, no newline at the end",
    ],
)
def test_resume_refuses_a_file_that_is_not_a_cut_results_file(
    tmp_path: Path, content: Callable[[], str]
) -> None:
    path = tmp_path / "mygame.json"
    path.write_text(content())
    before = path.read_bytes()
    with pytest.raises(ResultsFileError, match="not a results file cut short; nothing was changed"):
        run_tournament(
            ["random", "naming"], games=2, players=(3,), workers=1, out=path, resume=True
        )
    assert path.read_bytes() == before


def test_resume_still_drops_a_cut_last_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    full = run_tournament(["random", "b=huescues.agents:RandomAgent"], games=4, workers=1, out=path)
    data = path.read_bytes()
    path.write_bytes(data[: data.rfind(b"\n", 0, -1) + 30])  # the last line cut after 29 bytes
    again = run_tournament(
        ["random", "b=huescues.agents:RandomAgent"], games=4, workers=1, out=path, resume=True
    )
    assert again.lines == full.lines and path.read_bytes() == data


# -- a bad scheduler address fails at once, in one line ----------------------------------------
_COMMAND = [sys.executable, "-m", "huescues.cli", "tournament", "--games", "2", "--entrants"]
_COMMAND += ["random", "b=huescues.agents:RandomAgent"]


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("nonsense", "scheduler address 'nonsense' is not host:port"),
        ("tcp://127.0.0.1:1", "cannot reach the Dask scheduler at tcp://127.0.0.1:1"),
    ],
)
@pytest.mark.cluster
@pytest.mark.slow
def test_a_bad_scheduler_address_fails_fast_in_one_line(address: str, message: str) -> None:
    pytest.importorskip("distributed")
    started = time.monotonic()
    proc = subprocess.run(
        [*_COMMAND, "--scheduler", address],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - started < 20
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr


# -- outputs are checked before the first game ---------------------------------------------------
@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--report-json", "/proc/r.json", "--report-json /proc/r.json: cannot write there"),
        ("--plot", "/proc/r.png", "--plot /proc/r.png: cannot write there"),
        ("--report-json", "{tmp}/no/such/dir/r.json", "cannot write there"),
        ("--report-csv", "/proc/tables", "--report-csv /proc/tables: cannot write there"),
    ],
)
def test_report_outputs_are_checked_before_the_first_game(
    tmp_path: Path,
    option: str,
    value: str,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from huescues import cli
    from huescues.tournament import Tournament

    def no_games(*args: object, **kw: object) -> None:
        raise AssertionError("a game was played before the outputs were checked")

    monkeypatch.setattr(Tournament, "run", no_games)
    out = tmp_path / "t.jsonl"
    argv = ["tournament", "--games", "2", "--out", str(out), option, value.format(tmp=tmp_path)]
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_plot_without_matplotlib_is_refused_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from huescues import cli
    from huescues.tournament import Tournament

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )
    monkeypatch.setattr(Tournament, "run", lambda *a, **k: pytest.fail("a game was played"))
    assert cli.main(["tournament", "--games", "2", "--plot", str(tmp_path / "p.png")]) == 2
    assert "--plot needs matplotlib" in capsys.readouterr().err
