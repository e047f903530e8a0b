"""The README's main command and every example run, as a new user would run them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
#: Examples whose full run takes minutes (training): run small here; test_learn_example.py
#: checks what they learn.
SMALL_RUNS = {
    "learn_guesser.py": ["--iterations", "2", "--steps", "10", "--size", "64", "--eval-games", "64"]
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.slow
def test_main_command_plays_a_game_and_prints_the_result() -> None:
    done = run("-m", "huescues")
    assert done.returncode == 0, done.stderr
    assert "round 1: seat 0 gives" in done.stdout
    assert "final scores:" in done.stdout
    assert "winner:" in done.stdout or "shared win:" in done.stdout


@pytest.mark.slow
def test_main_command_is_deterministic_and_takes_options() -> None:
    a = run("-m", "huescues", "--players", "7", "--seed", "3")
    b = run("-m", "huescues", "--players", "7", "--seed", "3")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert "7 players" in a.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "2"],
        pytest.param(["--seed", "-4"], marks=pytest.mark.slow),
        pytest.param(["--players", "x"], marks=pytest.mark.slow),
    ],
)
def test_main_command_user_errors_are_one_clear_line(args: list[str]) -> None:
    done = run("-m", "huescues", *args)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "error:" in done.stderr


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.slow
def test_example_runs(example: Path) -> None:
    done = run(str(example), *SMALL_RUNS.get(example.name, []))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def test_every_example_is_named_on_a_page_and_says_what_it_does_in_full() -> None:
    pages = " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    for example in EXAMPLES:
        assert f"examples/{example.name}" in pages, f"no page of docs/ names {example.name}"


@pytest.mark.slow  # a subprocess
def test_an_examples_help_ends_its_sentence() -> None:
    # The description was the docstring's first line, which stopped mid-sentence.
    done = run(str(ROOT / "examples" / "learn_guesser.py"), "--help")
    assert done.returncode == 0, done.stderr
    description = " ".join(done.stdout.split("\n\n")[1].split())
    assert description.endswith("compared with the random guesser.")
