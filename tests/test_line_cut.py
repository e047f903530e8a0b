"""A checked load reads a results line with its record's actions, its record's rules and its
rounds cut out (tournament/_line_cut.py): it must give exactly what the JSON reader and
``action_from_dict`` give (the rounds apart, which it only knows to be JSON), or decline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.engine import GameRecord, action_from_dict
from huescues.tournament import ResultsFileError, TournamentResults, run_tournament
from huescues.tournament._line_cut import cut_line

# Text that could fool a reader that cuts at "},{", "}]" or "}", or looks for its markers.
_AWKWARD = st.text(alphabet=st.sampled_from(list('ab },{[]"\\:NaNInfity\u00e9-')), max_size=12)

_ACTION = st.one_of(
    st.builds(
        lambda r, c: {"pawn": f"{'ABCDEFGHIJKLMNOP'[r]}{c}"}, st.integers(0, 15), st.integers(1, 30)
    ),
    st.builds(lambda t: {"clue": t}, st.one_of(st.sampled_from(["brass", "leaf rust"]), _AWKWARD)),
    st.builds(lambda i: {"target": i}, st.integers(0, 3)),
    st.just({"pass": True}),
)
# What is not an action, which the reader must leave to the usual path (and its error).
_NOT_ACTION = st.one_of(
    st.just({"pawn": 3}),
    st.just({"clue": ["x"]}),
    st.just({"pass": False}),
    st.just({}),
    st.just({"pawn": "A1", "clue": "x"}),
    st.just({"clue": {"a": [{"b": 1}]}}),
    st.just([1]),
    st.just("NaN"),
)
_SQUARE = st.builds(
    lambda r, c: f"{'ABCDEFGHIJKLMNOP'[r]}{c}", st.integers(0, 15), st.integers(1, 30)
)
# Rounds as the library writes them, and others (keys missing, awkward clues and squares).
_ROUND = st.fixed_dictionaries(
    {
        "clues": st.lists(st.one_of(st.just("brass"), _AWKWARD), max_size=2),
        "giver": st.integers(0, 3),
        "pawns": st.lists(st.tuples(st.integers(0, 11), st.one_of(_SQUARE, _AWKWARD)), max_size=4),
        "points": st.lists(st.integers(-2, 5), min_size=1, max_size=4),
        "round": st.integers(0, 9),
        "target": st.one_of(_SQUARE, st.just("a1")),
        "tiebreak": st.booleans(),
    },
    optional={"note": _AWKWARD},
)
_RULES = st.one_of(
    st.just({"n_players": 4, "banned_terms": ["red"]}),
    st.dictionaries(st.sampled_from(["n_players", "x}", "rules"]), st.one_of(_AWKWARD, st.just(1))),
    st.just({"n_players": 4, "house": {"a": 1}}),
    st.just([1]),
)


def _line(actions: list[Any], extra: dict[str, Any], rules: Any, rounds: Any, compact: bool) -> str:
    # The extra keys first, so that a key that ends in "actions" or "rules" comes before the
    # real one.
    record = {**extra, "actions": actions, "rules": rules, "seed": 3}
    game = {"format": 1, "game": 0, "record": record, "rounds": rounds, "scores": [0]}
    return json.dumps(game, separators=(",", ":") if compact else None)


def _expected(text: str) -> tuple[dict[str, Any], tuple[Any, ...]]:
    game = json.loads(text)
    actions = tuple(action_from_dict(a) for a in game["record"]["actions"])
    game["record"]["actions"] = ()
    del game["rounds"]
    return game, actions


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(
    actions=st.lists(st.one_of(_ACTION, _ACTION, _ACTION, _NOT_ACTION), max_size=12),
    extra=st.dictionaries(
        st.sampled_from(['x"actions', "actions ", "note", 'x"rules', "rounds"]),
        st.one_of(st.lists(_ACTION, max_size=3), _AWKWARD, st.just(0)),
        max_size=2,
    ),
    rules=_RULES,
    rounds=st.one_of(st.lists(_ROUND, max_size=3), st.just("x")),
    compact=st.booleans(),
)
def test_the_parts_read_apart_are_what_json_reads(
    actions: list[Any], extra: dict[str, Any], rules: Any, rounds: Any, compact: bool
) -> None:
    text = _line(actions, extra, rules, rounds, compact)
    read = cut_line(text)
    if read is None:
        return  # declined: the caller reads the line as JSON
    assert read == _expected(text)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_line_that_is_not_json_is_never_read_apart(data: st.DataObject) -> None:
    # Characters of a real line changed (most often in its rounds, which the reader does not
    # decode): where the text is no longer JSON, the reader must decline and leave the error
    # to the JSON reader.
    text = _LINES[data.draw(st.integers(0, len(_LINES) - 1))]
    start = text.index('"rounds":') if data.draw(st.booleans()) else 0
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(start, len(chars) - 1))
        chars[at] = data.draw(st.sampled_from(list('[]{},:"\\0aA-1 ')))
    edited = "".join(chars)
    try:
        expected = _expected(edited)
    except (ValueError, KeyError, TypeError, AttributeError):
        expected = None
    read = cut_line(edited)
    assert read is None or read == expected, edited


def _results_lines() -> list[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "t.jsonl"
        run_tournament(["random", "random2=huescues.agents:RandomAgent"], games=8, out=out, seed=5)
        return out.read_text().splitlines()


_LINES = _results_lines()


def test_a_line_of_a_results_file_is_read_apart() -> None:
    for text in _LINES:
        read = cut_line(text)
        assert read is not None, "a line this library wrote takes the shortcut"
        _, actions = read
        record = json.loads(text)["record"]
        assert actions == GameRecord.from_dict(record).actions
        assert read == _expected(text)


def test_lines_it_cannot_vouch_for_are_declined() -> None:
    rounds = [{"clues": ["x"], "giver": 0, "pawns": [[1, "A1"]], "points": [0, 1],
               "round": 0, "target": "B2", "tiebreak": False}]  # fmt: skip
    rules = {"n_players": 4}
    for text in (
        # A clue holding "},{" cuts a piece inside its text; a NaN or Infinity anywhere.
        _line([{"clue": 'a},{"pawn":"A1'}, {"pawn": "B2"}], {}, rules, rounds, True),
        _line([{"clue": '},{"pawn":"A1'}], {}, rules, rounds, True),
        _line([{"pawn": "B2"}], {"note": "NaN"}, rules, rounds, True),
        _line([{"pawn": "B2"}], {"note": "-Infinity"}, rules, rounds, True),
        # Not compact; a list of actions that is not the record's.
        _line([{"pawn": "B2"}], {}, rules, rounds, False),
        '{"game":0,"x":{"actions":[{"pawn":"A1"}]},"record":{"actions":[],"rules":{}},"rounds":[]}',
        # Twice in the record: JSON keeps the last.
        '{"game":0,"record":{"actions":[{"pawn":"A1"}],"actions":[{"pawn":"B2"}],"rules":{}},'
        '"rounds":[]}',
        '{"game":0,"record":{"actions":[],"rules":{"a":1},"rules":{"a":2}},"rounds":[]}',
        '{"game":0,"record":{"actions":[],"rules":{}},"rounds":[],"rounds":[]}',
        # Rules with an object in them; a "}" in the rules' text.
        _line([], {}, {"n_players": 4, "house": {"a": 1}}, rounds, True),
        _line([], {}, {"n_players": "}"}, rounds, True),
        # Rounds not as the library writes them: another key, a seat of two digits, a square
        # named otherwise, rounds in the record before the line's own.
        _line([], {}, rules, [{**rounds[0], "note": 1}], True),
        _line([], {}, rules, [{**rounds[0], "pawns": [[10, "A1"]]}], True),
        _line([], {}, rules, [{**rounds[0], "target": "b2"}], True),
        '{"game":0,"record":{"a":0,"rounds":[],"actions":[],"rules":{}},"rounds":[]}',
    ):
        assert cut_line(text) is None, text


def test_a_results_line_with_broken_rounds_is_refused_by_the_checked_load(
    tmp_path: Path,
) -> None:
    # The rounds are not decoded by the check, but a line that is not JSON is still refused.
    text = _LINES[0]
    at = text.index('"rounds":[') + len('"rounds":[')
    path = tmp_path / "broken.jsonl"
    path.write_text(text[:at] + "{" + text[at:] + "\n", encoding="utf-8")
    with pytest.raises(ResultsFileError, match="line 1: not a tournament game"):
        TournamentResults.load(path)
    path.write_text(text + "\n", encoding="utf-8")
    assert len(TournamentResults.load(path)) == 1


def test_a_piece_is_read_as_json_reads_it_or_not_at_all() -> None:
    # New clues are read without the JSON reader when their text needs no decoding; a piece
    # that is not an action's object (a clue's text cut at "},{") is none.
    from huescues.engine import GiveClue
    from huescues.tournament._line_cut import _learn

    for piece, action in (
        ('"clue":"leaf rust"', GiveClue("leaf rust")),
        ('"clue":""', GiveClue("")),
        ('"clue":"caf\\u00e9"', GiveClue("caf\u00e9")),
        ('"clue":"a \\"b\\""', GiveClue('a "b"')),
        ('"clue":"\u00e9t\u00e9"', GiveClue("\u00e9t\u00e9")),
    ):
        assert _learn(piece) == action, piece
    for piece in ('"clue":"', '"clue":"a', '"clue":"a"b"', '"clue":"\x01"', '"clue":1'):
        assert _learn(piece) is None, piece
