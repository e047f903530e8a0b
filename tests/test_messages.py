"""Error messages a user reads: they say what is wrong in the user's terms (the command's options,
the file's name), not the words of an API call or a decoder (issue 12, item 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from huescues import Board
from huescues.cli import main
from huescues.research import HumanResponses


def _refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command's error line for ``argv``; the command must end with status 2."""
    try:
        status = main(list(argv))
    except SystemExit as e:  # argparse's parser.error
        status = int(e.code or 0)
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err, "the command printed no error"
    return err[-1]


@pytest.mark.parametrize("command", ["tournament", "play", "game"])
@pytest.mark.parametrize("players", ["-3", "0", "1", "11"])
def test_players_out_of_range_is_said_in_the_commands_words(
    capsys: pytest.CaptureFixture[str], command: str, players: str
) -> None:
    line = _refusal(capsys, command, "--players", players)
    assert f"--players {players}: a game has 3 to 10 players (R2)" in line
    assert "Rules.standard" not in line
    assert ">= 0" not in line


def test_seat_outside_the_game_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    line = _refusal(capsys, "play", "--players", "4", "--seat", "7")
    assert "--seat 7: a 4-player game has seats 0-3" in line


def test_workers_below_one_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    line = _refusal(capsys, "tournament", "--games", "1", "--workers", "0")
    assert "--workers 0" in line
    assert "None" not in line


def test_an_existing_results_file_asks_for_the_resume_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.jsonl"
    out.write_text('{"game": 0}\n', encoding="utf-8")
    line = _refusal(capsys, "tournament", "--games", "1", "--out", str(out))
    assert "--resume" in line
    assert "resume=True" not in line
    assert out.read_text(encoding="utf-8") == '{"game": 0}\n'


@pytest.mark.parametrize("name", ["t.jsonl", "t.parquet"])
def test_a_finished_run_is_neither_overwritten_nor_added_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """docs/errors.md: the same huescues tournament again on its --out, without --resume, is
    refused with status 2 and a line naming --resume; the run's games stay as they were."""
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    out = tmp_path / name
    argv = ["tournament", "--games", "4", "--entrants", "random", "naming", "--workers", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    files = sorted(out.rglob("*")) if out.is_dir() else [out]
    before = {p: p.read_bytes() for p in files if p.is_file()}
    capsys.readouterr()
    line = _refusal(capsys, *argv, "--out", str(out))
    assert "--resume" in line and str(out) in line
    after = sorted(out.rglob("*")) if out.is_dir() else [out]
    assert {p: p.read_bytes() for p in after if p.is_file()} == before


@pytest.mark.parametrize(
    "command", [["board", "--out", "b.png", "--csv"], ["clue", "sky", "--board"]]
)
def test_a_missing_board_csv_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path = tmp_path / "nosuch.csv"
    line = _refusal(capsys, *command, str(path))
    assert line == (
        f"huescues {command[0]}: error: {path}: cannot read the board CSV "
        "(No such file or directory)"
    )


def test_out_under_a_file_says_the_parent_is_not_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "hostname"
    blocker.write_text("x\n", encoding="utf-8")
    line = _refusal(capsys, "tournament", "--games", "1", "--out", str(blocker / "t.jsonl"))
    assert f"{blocker} is a file, not a directory" in line
    assert "Errno" not in line


def test_replay_of_a_record_that_is_plain_text_says_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text('{"record": "hello"}\n', encoding="utf-8")
    line = _refusal(capsys, "replay", str(path))
    assert "not JSON" not in line
    assert "'hello'" in line
    assert "must be an object" in line


def test_a_binary_board_csv_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "board.csv"
    path.write_bytes(b"row,column,red,green,blue\nA,1,\xff\xfe,0,0\n")
    with pytest.raises(ValueError, match="not UTF-8 text") as info:
        Board.from_csv(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("bad", "channel"), [("A,1,300,0,0", "red 300"), ("A,1,0,0,-1", "blue -1")]
)
def test_a_colour_outside_the_byte_range_says_so(tmp_path: Path, bad: str, channel: str) -> None:
    path = tmp_path / "board.csv"
    path.write_text(f"row,column,red,green,blue\n{bad}\nA,2,0,0,0\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"line 2: {channel} is outside 0-255"):
        Board.from_csv(path)


def test_a_latin1_responses_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "responses.csv"
    path.write_bytes("clue,square\ncafé,F12\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8 text") as info:
        HumanResponses.from_csv(path, Board.standard())
    assert str(path) in str(info.value)
