"""The huescues command: the README's main job and the user-facing errors."""

from __future__ import annotations

import json
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
        ["tournament", "--entrants", "nosuchplayer"],
        ["tournament", "--resume"],
        ["tournament", "--players", "2", "--games", "2"],
        ["replay", "/no/such/file.json"],
        ["clue", ""],
        ["nosuchcommand"],
    ],
)
def test_user_mistakes_are_one_clear_line(args: list[str]) -> None:
    done = huescues(*args)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "error" in done.stderr.lower()


@pytest.mark.parametrize("command", ["tournament", "play", "replay", "clue", "board", "game"])
def test_every_command_has_help(command: str) -> None:
    done = huescues(command, "--help")
    assert done.returncode == 0 and "usage:" in done.stdout
