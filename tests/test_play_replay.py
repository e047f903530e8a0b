"""Playing against bots in a terminal, and replaying records (R1-R27)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from huescues.agents import RandomAgent, play_game
from huescues.engine import Board, GameRecord, GameState
from huescues.terminal import GameAbandoned, load_record, play_in_terminal, replay_file

BOARD = Board.standard()


# -- play_in_terminal ------------------------------------------------------------------------------
class Person:
    """A scripted person: answers each kind of prompt from its own list, then plays on legally.

    Every prompt and answer is echoed into the output, so the output reads as a transcript.
    """

    def __init__(self, output: io.StringIO) -> None:
        self.output = output
        # The card is numbered 1-4, as in the browser: "0" and "7" are refused, "1" taken.
        self.targets: Iterator[str] = iter(["7", "0", "1"])
        fallback = ["lagoon", "ember", "moss", "sand", "cedar", "velvet", "walnut", "honey"]
        self.first_clues: Iterator[str] = iter(["reddish", "F12 G13", "meadow", *fallback])
        self.second_clues: Iterator[str] = iter(["sunny meadow"])
        names = [str(c) for c in BOARD.cells()]
        self.squares: Iterator[str] = iter(["Q99", *names])
        self.last_first: str | None = None
        #: The square of the person's first pawn, answered again as their second pawn (R13).
        self.own_square: str | None = None
        #: ``(round number shown, what the person saw from the round's header to the prompt)``
        self.guesser_screens: list[tuple[int, str]] = []

    def __call__(self, prompt: str) -> str:
        if "target" in prompt:
            answer = next(self.targets, "1")
        elif "first clue" in prompt:
            answer = next(self.first_clues)
        elif "second clue" in prompt:
            answer = next(self.second_clues, "pass")
        else:
            text = self.output.getvalue()
            header = text.rfind("=== ")
            number = int(re.findall(r"round (\d+)", text[header:])[0])
            self.guesser_screens.append((number, text[header:] + prompt))
            if "second pawn" in prompt and self.own_square is None:
                answer = self.own_square = self.last_first or "A1"  # R13: their own pawn
            else:
                answer = next(self.squares)
                if "first pawn" in prompt:
                    self.last_first = answer
        self.output.write(f"{prompt}{answer}\n")
        return answer


@pytest.fixture(scope="module")
def scripted_game() -> tuple[Person, str, GameState]:
    output = io.StringIO()
    person = Person(output)
    state = play_in_terminal(
        players=3, seat=0, seed=3, opponents="random", input_fn=person, output=output, colour=False
    )
    return person, output.getvalue(), state


def _refusal(transcript: str, answer: str) -> str:
    """The message printed right after ``answer`` was given."""
    match = re.search(rf": {re.escape(answer)}\n(Not allowed: [^\n]*)", transcript)
    assert match is not None, f"no refusal after {answer!r}"
    return match.group(1)


def test_a_whole_game_against_random_bots(scripted_game: tuple[Person, str, GameState]) -> None:
    _, transcript, state = scripted_game
    assert state.is_terminal and state.result is not None
    assert "=== game over ===" in transcript
    final = ", ".join(
        ("you" if s == 0 else f"seat {s}") + f" {v}" for s, v in enumerate(state.scores)
    )
    assert f"final scores: {final}" in transcript
    assert transcript.count("the reveal (R14)") == len(state.history) >= 6  # R7


def test_illegal_inputs_are_explained_and_asked_again(
    scripted_game: tuple[Person, str, GameState],
) -> None:
    person, transcript, _ = scripted_game
    assert "(R8)" in _refusal(transcript, "7")
    assert "1-4" in _refusal(transcript, "0") and "(R8)" in _refusal(transcript, "0")
    assert "(R1)" in _refusal(transcript, "Q99") and "'Q99'" in _refusal(transcript, "Q99")
    assert "'reddish'" in _refusal(transcript, "reddish")
    assert "(R19)" in _refusal(transcript, "reddish")
    assert "(R18" in _refusal(transcript, "F12 G13")
    assert person.own_square is not None
    occupied = re.search(
        rf"second pawn[^\n]*: {person.own_square}\n(Not allowed: [^\n]*)", transcript
    )
    assert occupied is not None and "(R13)" in occupied.group(1)


def test_the_person_never_sees_the_target_while_guessing(
    scripted_game: tuple[Person, str, GameState],
) -> None:
    """R8: a guesser's screen shows no card and no target."""
    person, _, state = scripted_game
    assert len(person.guesser_screens) >= 4
    for number, screen in person.guesser_screens:
        result = state.history[number - 1]
        assert result.giver != 0
        target = str(result.target)
        before = [cell for _, cell in result.pawns]
        assert result.target not in before, "a bot hit the target: pick another seed"
        assert re.search(rf"\b{target}\b", screen) is None
        assert BOARD.hex(result.target) not in screen
        assert "*" not in screen and "card" not in screen


@pytest.mark.parametrize("stop", ["quit", " QUIT ", EOFError()])
def test_quitting_abandons_the_game(stop: str | EOFError) -> None:
    def answer(prompt: str) -> str:
        if isinstance(stop, EOFError):
            raise stop
        return stop

    with pytest.raises(GameAbandoned):
        play_in_terminal(
            players=3, opponents="random", input_fn=answer, output=io.StringIO(), colour=True
        )


class _Terminal(io.StringIO):
    """An output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_colour_play_paints_the_board_and_no_color_turns_it_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for no_color, painted in (("", True), ("1", False)):
        monkeypatch.setenv("NO_COLOR", no_color)
        out = _Terminal()
        with pytest.raises(GameAbandoned):
            play_in_terminal(players=3, opponents="random", input_fn=lambda p: "quit", output=out)
        assert ("\x1b[48;2;" in out.getvalue()) is painted


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": "clever"}, "opponents 'clever'"),
        ({"seat": 3}, "seats 0-2"),
        ({"players": 2}, "R2"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"players": 3, "opponents": "random", **kwargs}
    with pytest.raises(ValueError, match=message):
        play_in_terminal(input_fn=lambda p: "quit", output=io.StringIO(), **settings)  # type: ignore[arg-type]


# -- replay_file -----------------------------------------------------------------------------------
def _played(seed: int, board: Board | None = None) -> tuple[GameRecord, GameState]:
    played = play_game([RandomAgent() for _ in range(3)], seed=seed, board=board)
    return played.record, played.state


def test_replay_prints_every_round_and_the_same_scores(tmp_path: Path) -> None:
    record, played = _played(11)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    out = io.StringIO()
    state = replay_file(path, output=out, colour=False)
    text = out.getvalue()
    assert state == played and state.scores == played.scores
    for r in played.history:
        kind = "tie-breaker round" if r.tiebreak else "round"
        assert f"--- {kind} {r.round + 1}: the reveal (R14) ---" in text
        assert f"target: {r.target} {BOARD.hex(r.target)}" in text
    assert text.count("frame: the 3 x 3 squares around") == len(played.history)
    final = ", ".join(f"seat {s} {v}" for s, v in enumerate(played.scores))
    assert text.rstrip().splitlines()[-2:][0] == f"final scores: {final}"


def _serve_db(path: Path, record: GameRecord, seats: object) -> None:
    """A database as huescues serve writes it, reduced to what replay reads: one finished game."""
    import sqlite3

    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, finished REAL, "
            "players INTEGER NOT NULL, seats TEXT NOT NULL, record TEXT)"
        )
        conn.execute(
            "INSERT INTO games VALUES ('t1', 1.0, 2.0, 3, ?, ?)",
            (json.dumps(seats), record.to_json()),
        )
    conn.close()


def test_replay_of_a_stored_game_names_its_players(tmp_path: Path) -> None:
    record, played = _played(11)
    seats = [
        {"name": "Ann", "kind": "person"},
        {"name": "Default bot 2", "kind": "default"},
        {"name": "Bo", "kind": "person"},
    ]
    _serve_db(tmp_path / "games.sqlite", record, seats)
    out = io.StringIO()
    assert replay_file(tmp_path / "games.sqlite", output=out, colour=False) == played
    text = out.getvalue()
    # A person by their name, a bot by its kind; the seat stays, as the board marks pawns by it.
    assert "seats: 0 Ann, 1 default, 2 Bo" in text
    final = ", ".join(
        f"{who} (seat {s}) {v}"
        for s, (who, v) in enumerate(zip(["Ann", "default", "Bo"], played.scores, strict=True))
    )
    assert f"final scores: {final}" in text
    first = played.history[0]
    giver = ["Ann", "default", "Bo"][first.giver]
    assert f"{giver} (seat {first.giver}) gave " in text
    assert "seat 0 " not in text.replace("(seat 0)", "")


@pytest.mark.parametrize(
    "seats", ["not json", [{"name": "Ann"}], [{"name": "A", "kind": "person"}]]
)
def test_replay_of_a_stored_game_with_unreadable_seats_numbers_them(
    tmp_path: Path, seats: object
) -> None:
    record, played = _played(11)
    _serve_db(tmp_path / "games.sqlite", record, seats)
    out = io.StringIO()
    assert replay_file(tmp_path / "games.sqlite", output=out, colour=False) == played
    final = ", ".join(f"seat {s} {v}" for s, v in enumerate(played.scores))
    assert f"final scores: {final}" in out.getvalue()


def test_replay_in_colour_and_under_no_color(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record, _ = _played(12)
    path = tmp_path / "game.json"
    path.write_text(record.to_json(indent=2))
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = _Terminal()
    replay_file(path, output=out)
    assert "\x1b[48;2;" in out.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    out = _Terminal()
    replay_file(path, output=out)
    assert "\x1b" not in out.getvalue()


def test_no_colour_escapes_into_files_and_pipes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 12 item 13: colour only on a terminal, unless asked for.
    monkeypatch.delenv("NO_COLOR", raising=False)
    record, _ = _played(12)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    with open(tmp_path / "replay.txt", "w") as f:
        replay_file(path, output=f)
    assert "\x1b" not in (tmp_path / "replay.txt").read_text()
    out = io.StringIO()
    with pytest.raises(GameAbandoned):
        play_in_terminal(players=3, opponents="random", input_fn=lambda p: "quit", output=out)
    assert "\x1b" not in out.getvalue()
    out = io.StringIO()
    replay_file(path, output=out, colour=True)
    assert "\x1b[48;2;" in out.getvalue()


def test_replay_picks_the_game_of_a_results_file(tmp_path: Path) -> None:
    games = [_played(seed) for seed in (21, 22, 23)]
    path = tmp_path / "results.jsonl"
    path.write_text(
        "".join(
            json.dumps({"game": i, "seed": 21 + i, "record": rec.to_dict()}) + "\n"
            for i, (rec, _) in enumerate(games)
        )
    )
    assert replay_file(path, game=1, output=io.StringIO(), colour=False) == games[1][1]
    assert replay_file(path, output=io.StringIO(), colour=False) == games[0][1]
    assert load_record(path, game=2) == games[2][0]
    with pytest.raises(ValueError, match=r"no game 7 in the file \(it holds games 0-2\)"):
        load_record(path, game=7)


def test_replay_step_waits_between_rounds_and_q_stops(tmp_path: Path) -> None:
    record, _ = _played(13)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    answers = iter(["", "q"])
    prompts: list[str] = []

    def enter(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    state = replay_file(path, step=True, input_fn=enter, output=out, colour=False)
    assert len(prompts) == 2 and "q to quit" in prompts[0]
    assert len(state.history) == 2 and out.getvalue().count("the reveal (R14)") == 2


def test_replay_on_another_board_needs_its_csv(tmp_path: Path) -> None:
    board = Board.from_rgb(np.ascontiguousarray(BOARD.srgb[:, ::-1]))
    record, played = _played(14, board)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    with pytest.raises(ValueError, match=r"not one the library ships .*: give that board's CSV"):
        replay_file(path, output=io.StringIO())
    csv = tmp_path / "board.csv"
    board.to_csv(csv)
    state = replay_file(path, output=io.StringIO(), board_csv=str(csv), colour=False)
    assert state.scores == played.scores
    other = tmp_path / "standard.csv"
    BOARD.to_csv(other)
    with pytest.raises(ValueError, match="was played on board"):
        replay_file(path, output=io.StringIO(), board_csv=str(other))


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    record, _ = _played(15)
    old = record.to_dict() | {"engine_version": 99}
    files = {
        "missing": (tmp_path / "nowhere.json", "no such file"),
        "empty": (tmp_path / "empty.json", "the file is empty"),
        "not json": (tmp_path / "bad.json", "not JSON"),
        "bad line": (tmp_path / "bad.jsonl", r"bad.jsonl, line 2: not JSON"),
        "old engine": (tmp_path / "old.json", "engine version 99"),
        "no record": (tmp_path / "other.json", "not a game record"),
        "broken record": (tmp_path / "broken.json", "not a valid game record"),
        "unfinished": (tmp_path / "unfinished.jsonl", r"game 0 has no record \(it crashed\)"),
    }
    files["empty"][0].write_text("\n")
    files["not json"][0].write_text("{'record': oops")
    files["bad line"][0].write_text(json.dumps({"game": 0, "record": record.to_dict()}) + "\n{\n")
    files["old engine"][0].write_text(json.dumps(old))
    files["no record"][0].write_text(json.dumps({"scores": [1, 2, 3]}))
    files["broken record"][0].write_text(json.dumps({"actions": [], "engine_version": 1}))
    files["unfinished"][0].write_text(
        json.dumps({"game": 0, "record": None, "error": "it crashed"}) + "\n"
    )
    return files


def test_bad_files_give_one_line_errors(tmp_path: Path) -> None:
    for kind, (path, message) in _bad_files(tmp_path).items():
        with pytest.raises(ValueError, match=message) as error:
            replay_file(path, output=io.StringIO())
        assert "\n" not in str(error.value), kind
        assert str(path) in str(error.value), kind


def test_replay_of_a_killed_runs_results_skips_only_the_cut_last_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 12 item 4: a run killed while writing its last line leaves that line cut short;
    # every intact game still replays, and the cut line is named in a warning.
    games = [_played(seed) for seed in (31, 32, 33, 34)]
    lines = [json.dumps({"game": i, "record": rec.to_dict()}) for i, (rec, _) in enumerate(games)]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(line + "\n" for line in lines[:3]) + lines[3][:57])
    assert replay_file(path, game=0, output=io.StringIO(), colour=False) == games[0][1]
    assert "line 4 is cut short" in capsys.readouterr().err
    assert load_record(path, game=2) == games[2][0]
    with pytest.raises(ValueError, match=r"no game 3 in the file \(it holds games 0-2\)"):
        load_record(path, game=3)
    # A broken line that is not the last one is still an error naming it.
    path.write_text(lines[0] + "\n" + lines[1][:57] + "\n" + lines[2] + "\n")
    with pytest.raises(ValueError, match="line 2: not JSON"):
        load_record(path, game=0)


def test_replay_shows_a_stored_name_that_does_not_print_as_its_repr(tmp_path: Path) -> None:
    record, _ = _played(11)
    seats = [{"name": "\x1b[2JEve", "kind": "person"}] + [{"name": "b", "kind": "random"}] * 2
    _serve_db(tmp_path / "games.sqlite", record, seats)
    out = io.StringIO()
    replay_file(tmp_path / "games.sqlite", output=out, colour=False)
    assert "\x1b" not in out.getvalue() and "seats: 0 '\\x1b[2JEve', 1 random" in out.getvalue()
