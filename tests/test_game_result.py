"""The results line has one owner, GameResult: every line a tournament wrote (the golden files,
faults and unfinished games among them) reads back to a GameResult whose line is the same bytes,
and the keys the fast readers (the report, the checked load) read are its fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from huescues.engine import Board, GameRecord
from huescues.tournament import EntrantFault, GameResult, GameSpec, TournamentResults

GOLDEN = Path(__file__).resolve().parent / "golden"


def _golden_lines() -> list[str]:
    lines = []
    for name in ("table-60.jsonl", "table-faults-20.jsonl"):
        lines += (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    for name in ("players-en-200.json", "players-es-200.json"):
        lines += json.loads((GOLDEN / name).read_text(encoding="utf-8"))["lines"].values()
    return lines


def test_every_golden_line_reads_back_to_the_same_bytes() -> None:
    lines = _golden_lines()
    assert any(json.loads(line)["faults"] for line in lines)
    for line in lines:
        result = GameResult.from_line(line)
        assert result.to_line() == line
        # What the fast readers read from the parsed JSON is the typed value's.
        assert json.loads(line) == result.to_dict()
        assert result.finished == (result.status == "finished")
        if result.record is not None:
            assert list(result.record.replay().scores) == list(result.scores)


def test_a_results_object_reads_its_games_as_game_results() -> None:
    results = TournamentResults.load(GOLDEN / "table-faults-20.jsonl", check=False)
    typed = list(results.iter_results())
    assert [r.to_line() for r in typed] == list(results.lines)
    faulted = [f for r in typed for f in r.faults]
    assert faulted and all(isinstance(f, EntrantFault) for f in faulted)
    assert {f.entrant for f in faulted} <= set(results.entrants)
    assert all(r.record is None or isinstance(r.record, GameRecord) for r in typed)


def test_a_game_that_could_not_be_set_up_reads_back_too() -> None:
    spec = GameSpec(7, 12345, 3, ("a", "b", "a"), ("random", "random", "random"))
    result = GameResult.of(spec, None, "the agents could not be built", [], None)
    assert result.status == "unfinished" and result.record is None
    assert result.scores == (0, 0, 0) and result.board_id == Board.standard().id
    assert GameResult.from_line(result.to_line()) == result


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[1, 2]", "a JSON object"),
        ('{"status": "lost", "game": 3}', "status 'lost'"),
        ("{}", "status"),
    ],
)
def test_a_line_that_is_not_a_game_is_refused(text: str, why: str) -> None:
    with pytest.raises((ValueError, KeyError), match=why):
        GameResult.from_line(text)
