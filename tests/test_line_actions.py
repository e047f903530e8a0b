"""A checked load reads a results line's actions a piece at a time (tournament/_line_actions.py):
it must give exactly what the JSON reader and ``action_from_dict`` give, or decline."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.engine import GameRecord, action_from_dict
from huescues.tournament import run_tournament
from huescues.tournament._line_actions import read_line_actions

# Text that could fool a reader that cuts at "},{" or "}]" or looks for NaN.
_AWKWARD = st.text(alphabet=st.sampled_from(list('ab },{[]"\\:NaN\u00e9')), max_size=12)

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


def _line(actions: list[Any], extra: dict[str, Any], compact: bool) -> str:
    # The extra keys first, so that a key that ends in "actions" comes before the real one.
    record = {**extra, "actions": actions, "rules": {"n_players": 4}, "seed": 3}
    game = {"format": 1, "game": 0, "record": record, "rounds": [{"clues": ["x},{"]}]}
    return json.dumps(game, separators=(",", ":") if compact else None)


@settings(max_examples=400, deadline=None)
@given(
    actions=st.lists(st.one_of(_ACTION, _ACTION, _ACTION, _NOT_ACTION), max_size=12),
    extra=st.dictionaries(
        st.sampled_from(['x"actions', "actions ", "note"]),
        st.one_of(st.lists(_ACTION, max_size=3), _AWKWARD, st.just(0)),
        max_size=2,
    ),
    compact=st.booleans(),
)
def test_the_actions_read_apart_are_what_json_reads(
    actions: list[Any], extra: dict[str, Any], compact: bool
) -> None:
    text = _line(actions, extra, compact)
    read = read_line_actions(text)
    if read is None:
        return  # declined: the caller reads the line as JSON
    game, got = read
    expected = json.loads(text)
    assert got == tuple(action_from_dict(a) for a in expected["record"]["actions"])
    expected["record"]["actions"] = ()
    assert game == expected


def test_a_line_of_a_results_file_is_read_apart(tmp_path: Any) -> None:
    out = tmp_path / "t.jsonl"
    run_tournament(["random", "random2=huescues.agents:RandomAgent"], games=8, out=out, seed=5)
    for text in out.read_text().splitlines():
        read = read_line_actions(text)
        assert read is not None, "a line this library wrote takes the shortcut"
        game, actions = read
        record = json.loads(text)["record"]
        assert actions == GameRecord.from_dict(record).actions
        assert game["record"]["actions"] == ()


def test_lines_it_cannot_vouch_for_are_declined() -> None:
    # A clue holding "},{" cuts a piece inside its text; a NaN anywhere; a list that is not
    # the record's; a line with spaces after the colon.
    for text in (
        _line([{"clue": 'a},{"pawn":"A1'}, {"pawn": "B2"}], {}, True),
        _line([{"pawn": "B2"}], {"note": "NaN"}, True),
        _line([{"pawn": "B2"}], {}, False),
        '{"game":0,"x":{"actions":[{"pawn":"A1"}]},"record":{"actions":[]}}',
        # Twice in the record: JSON keeps the last.
        '{"game":0,"record":{"actions":[{"pawn":"A1"}],"actions":[{"pawn":"B2"}]}}',
    ):
        assert read_line_actions(text) is None, text
