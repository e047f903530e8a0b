"""The huescues command: the README's main job and the user-facing errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def huescues(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "huescues.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
def test_tournament_runs_and_reports(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    done = huescues(
        "tournament", "--games", "8", "--entrants", "random", "naming", "--workers", "1",
        "--out", str(out), "--report-json", str(tmp_path / "report.json"),
        "--report-csv", str(tmp_path / "tables"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Paired comparisons" in done.stdout and "naming" in done.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 8 and json.loads(lines[0])["game"] == 0
    assert json.loads((tmp_path / "report.json").read_text())
    assert (tmp_path / "tables" / "entrants.csv").read_text().startswith("entrant")
    again = huescues("tournament", "--games", "8", "--entrants", "random", "--out", str(out))
    assert again.returncode != 0 and "Traceback" not in again.stderr  # no overwrite


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--games", "0"],
        # One command per case: the rest are the slow tier.
        pytest.param(["tournament", "--entrants", "nosuchplayer"], marks=pytest.mark.slow),
        pytest.param(["tournament", "--resume"], marks=pytest.mark.slow),
        pytest.param(["tournament", "--players", "2", "--games", "2"], marks=pytest.mark.slow),
        pytest.param(["replay", "/no/such/file.json"], marks=pytest.mark.slow),
        pytest.param(["clue", ""], marks=pytest.mark.slow),
        pytest.param(["nosuchcommand"], marks=pytest.mark.slow),
    ],
)
def test_user_mistakes_are_one_clear_line(args: list[str]) -> None:
    done = huescues(*args)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "error" in done.stderr.lower()


def _one_quick(first: str, *rest: str) -> list[object]:
    """The first command in the quick tier, the others (a subprocess each) in the slow tier."""
    return [first, *(pytest.param(c, marks=pytest.mark.slow) for c in rest)]


@pytest.mark.parametrize(
    "command", _one_quick("tournament", "play", "replay", "clue", "board", "game")
)
def test_every_command_has_help(command: str) -> None:
    done = huescues(command, "--help")
    assert done.returncode == 0 and "usage:" in done.stdout


# -- terminal manners (issue 12 item 13) -----------------------------------------------------
@pytest.mark.slow
def test_python_dash_m_huescues_is_the_huescues_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "huescues", "tournament", "--help"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "usage: huescues tournament" in done.stdout


@pytest.mark.parametrize("command", _one_quick("play", "replay", "game", "clue", "board"))
def test_every_command_says_what_it_does(command: str) -> None:
    done = huescues(command, "--help")
    # A description is a paragraph between the usage and the arguments.
    _, _, rest = done.stdout.partition("\n\n")
    description = rest.split("\n\n")[0]
    assert not description.startswith(("positional arguments", "options")), done.stdout


@pytest.mark.parametrize("command", _one_quick("play", "game"))
def test_play_and_game_show_their_defaults(command: str) -> None:
    text = " ".join(huescues(command, "--help").stdout.split())
    assert "(default: 4)" in text and "(default: 0)" in text


def test_quit_in_play_says_goodbye_with_status_1_as_the_docs_say() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "huescues.cli", "play", "--players", "3", "--opponents", "random"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    # docs/errors.md: 1 is "play: the game was abandoned (you quit, or the input ended)".
    assert done.returncode == 1, done.stderr
    assert done.stdout.rstrip().endswith("Goodbye.") and done.stderr == ""


@pytest.mark.slow
def test_replay_into_a_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    from huescues.agents import RandomAgent, play_game

    path = tmp_path / "game.json"
    path.write_text(play_game([RandomAgent() for _ in range(4)], seed=3).record.to_json())
    proc = subprocess.Popen(
        [sys.executable, "-m", "huescues.cli", "replay", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # as `| head` does once it has its lines: before the first write here
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=600) == 0 and err == ""


def test_python_dash_m_huescues_help_lists_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "huescues", "--help"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0 and "tournament" in done.stdout  # the commands, not game's help


def test_clue_out_without_matplotlib_is_one_line_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from huescues import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )
    assert cli.main(["clue", "pumpkin", "--out", str(tmp_path / "p.png")]) == 2
    out, err = capsys.readouterr()
    # Refused before the reading is printed, in one line that says what to install.
    assert out == ""
    assert err == "huescues clue: error: --out needs matplotlib: pip install 'huescues[plot]'\n"
    assert not (tmp_path / "p.png").exists()
