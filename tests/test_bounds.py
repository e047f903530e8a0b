"""The 3-10 player bounds (R2) are the engine's constants, and every front end says them."""

from __future__ import annotations

import io

import pytest

import huescues
from huescues import engine
from huescues.cli import main
from huescues.engine import MAX_PLAYERS, MIN_PLAYERS, Rules
from huescues.terminal import play_in_terminal


def test_the_bounds_are_exported_from_the_engine_and_the_package() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (3, 10)
    assert huescues.MIN_PLAYERS is engine.MIN_PLAYERS
    assert huescues.MAX_PLAYERS is engine.MAX_PLAYERS
    Rules.standard(MIN_PLAYERS)
    Rules.standard(MAX_PLAYERS)


@pytest.mark.parametrize("n", [MIN_PLAYERS - 1, MAX_PLAYERS + 1])
@pytest.mark.parametrize("command", [["game"], ["play"], ["tournament", "--games", "1"]])
def test_the_commands_refuse_players_out_of_bounds_in_the_engines_words(
    command: list[str], n: int, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main([*command, "--players", str(n)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"--players {n}: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players (R2)" in err


@pytest.mark.parametrize("command", ["game", "play", "tournament", "serve"])
def test_the_help_says_the_engines_bounds(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert f"{MIN_PLAYERS}-{MAX_PLAYERS}" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("n", [MIN_PLAYERS - 1, MAX_PLAYERS + 1])
def test_the_terminal_game_refuses_players_out_of_bounds(n: int) -> None:
    with pytest.raises(ValueError, match=f"for {MIN_PLAYERS} to {MAX_PLAYERS} players"):
        play_in_terminal(players=n, input_fn=lambda _: "quit", output=io.StringIO())
