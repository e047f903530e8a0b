"""Bad input to the API (issue 12): impossible saved states, wrong types and numpy integers get
a documented error at the call, naming what is wrong, or just work."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from huescues import (
    Board,
    Cell,
    ChooseTarget,
    GameRecord,
    GameState,
    GiveClue,
    InvalidRecord,
    PlacePawn,
    Rules,
    new_game,
    play_game,
)
from huescues.agents import RandomAgent
from huescues.research import HumanResponses


def _mid_game() -> GameState:
    """A 4-player game in its first round's guesses: target chosen, one clue, one pawn."""
    state = new_game(4, seed=11).apply(ChooseTarget(2)).apply(GiveClue("sky"))
    return state.apply(PlacePawn(Cell.parse("F12")))


def _finished() -> GameState:
    return play_game([RandomAgent() for _ in range(4)], seed=5).state


# -- item 7: a saved state must be one its actions reach ------------------------------------


def test_real_states_load_back_equal() -> None:
    for state in (new_game(4, seed=1), _mid_game(), _finished()):
        assert GameState.from_json(state.to_json()) == state


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("scores", [99, 0, 0, 0]),  # points nobody scored
        ("current_player", 7),  # no seat 7 in a 4-player game
        ("phase", "game_over"),  # over in the middle of a round, with no result
        ("target_index", 9),  # a card has four squares
        ("round", 3),
        ("pawns", [[1, "A1"]]),
        ("history", [{"round": 0}]),
        ("order", [0, 1, 2]),
        ("clues", [True]),
    ],
)
def test_impossible_states_are_refused_naming_the_field(field: str, value: Any) -> None:
    data = _mid_game().to_dict()
    data[field] = value
    with pytest.raises(InvalidRecord, match=field):
        GameState.from_dict(data)
    with pytest.raises(InvalidRecord, match=field):
        GameState.from_json(json.dumps(data))


def test_a_finished_state_with_edited_scores_is_refused() -> None:
    data = _finished().to_dict()
    data["scores"] = [99] * 4
    with pytest.raises(InvalidRecord, match="scores"):
        GameState.from_dict(data)
    data = _finished().to_dict()
    data["result"]["winners"] = [3, 2]
    with pytest.raises(InvalidRecord, match="result"):
        GameState.from_dict(data)


def test_a_state_whose_actions_break_the_rules_is_refused() -> None:
    data = _mid_game().to_dict()
    data["actions"][1] = {"clue": "red"}  # R19
    with pytest.raises(InvalidRecord, match="action 1"):
        GameState.from_dict(data)


# -- item 8: documented errors at the call -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("{}", "lacks engine_version, rules"),
        ("[]", "JSON object"),
        ("nonsense", "not JSON"),
        ('{"engine_version": 1, "rules": 4, "board_id": "b", "deck_id": "d", '
         '"seed": 0, "actions": []}', "rules"),
        ('{"engine_version": 1, "rules": {"n_players": 4}, "board_id": 3, "deck_id": "d", '
         '"seed": 0, "actions": []}', "board_id"),
        ('{"engine_version": 1, "rules": {"n_players": 4}, "board_id": "b", "deck_id": "d", '
         '"seed": -2, "actions": []}', "seed"),
        ('{"engine_version": 1, "rules": {"n_players": 4}, "board_id": "b", "deck_id": "d", '
         '"seed": 0, "actions": [{"pawn": 3}]}', "action 0"),
        ('{"engine_version": 1, "rules": {"n_players": 4}, "board_id": "b", "deck_id": "d", '
         '"seed": 0, "actions": {}}', "actions"),
    ],
)  # fmt: skip
def test_records_that_are_not_records_raise_invalid_record(text: str, match: str) -> None:
    with pytest.raises(InvalidRecord, match=match):
        GameRecord.from_json(text)
    with pytest.raises(InvalidRecord):
        GameState.from_json(text)


def test_cell_refuses_what_is_not_a_whole_number_when_made() -> None:
    for row, col in ((1.5, 2), (1, "2"), (True, 2), (None, 0)):
        with pytest.raises(TypeError, match=r"Cell's (row|col)"):
            Cell(row, col)  # type: ignore[arg-type]


def test_play_game_names_the_seat_that_has_no_agent() -> None:
    with pytest.raises(TypeError, match="seat 0 has no agent"):
        play_game([object()] * 4, seed=1)  # type: ignore[list-item]
    agents: list[Any] = [RandomAgent(), RandomAgent(), "bot", RandomAgent()]
    with pytest.raises(TypeError, match="seat 2 has no agent"):
        play_game(agents, seed=1)


def test_human_responses_from_records_names_the_bad_records() -> None:
    board = Board.standard()
    with pytest.raises(TypeError, match="records are rows"):
        HumanResponses.from_records("abc", board)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="row 2"):
        HumanResponses.from_records([{"clue": "sky", "square": "F12"}, "x"], board)  # type: ignore[list-item]


# -- item 9: numpy integers are integers --------------------------------------------------------


def test_numpy_integers_are_accepted_and_stored_as_ints() -> None:
    scores = np.zeros((16, 30))
    scores[5, 11] = 1.0
    cell = Cell(*np.unravel_index(scores.argmax(), scores.shape))
    assert cell == Cell.parse("F12") and type(cell.row) is int and type(cell.col) is int
    state = new_game(np.int64(4), seed=np.int64(5))  # type: ignore[arg-type]
    assert state == new_game(4, seed=5) and type(state.seed) is int
    choose = ChooseTarget(np.int64(1))  # type: ignore[arg-type]
    assert type(choose.index) is int
    state = state.apply(choose).apply(GiveClue("sky"))
    state = state.apply(PlacePawn(cell))
    assert state.pawns[-1][1] == Cell.parse("F12")
    assert state.view(np.int32(2)).seat == 2  # type: ignore[arg-type]
    rules = Rules.standard(np.int8(5), max_tiebreak_rounds=np.uint16(3))  # type: ignore[arg-type]
    assert rules == Rules.standard(5, max_tiebreak_rounds=3)
    assert type(rules.n_players) is int and type(rules.max_tiebreak_rounds) is int
    assert json.loads(GameState.from_json(state.to_json()).to_json()) == state.to_dict()


# -- fuzz: random JSON and mutated real records get only documented errors ----------------------

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["F12", "A1", "random", "gen-16x30-10-0", "standard", "game_over"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)

_RECORD = play_game([RandomAgent() for _ in range(3)], seed=2).record.to_dict()
_STATE = _mid_game().to_dict()


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``data``."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


def _mutated(base: dict[str, Any], draw: Any) -> Any:
    data = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            parent[path[-1]] = draw(_json)
        elif isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
    return data


_DOCUMENTED = (InvalidRecord, ValueError, TypeError)


def _loads_or_documented_error(text: str) -> None:
    """Loading ``text`` succeeds or raises a documented error with a message (a KeyError,
    IndexError or AttributeError is none of these, and fails the test)."""
    for load in (GameRecord.from_json, GameState.from_json):
        error: Exception | None = None
        try:
            load(text)
        except _DOCUMENTED as e:
            error = e
        assert error is None or str(error), f"{type(error).__name__} without a message"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_json)
@pytest.mark.slow
def test_random_json_gets_only_documented_errors(data: Any) -> None:
    _loads_or_documented_error(json.dumps(data))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["record", "state"]))
@pytest.mark.slow
def test_mutated_records_and_states_get_only_documented_errors(data: Any, which: str) -> None:
    base = _RECORD if which == "record" else _STATE
    _loads_or_documented_error(json.dumps(_mutated(base, data.draw)))


@pytest.mark.parametrize("setting", ["rules", "board", "deck"])
def test_new_game_names_rules_a_board_or_a_deck_of_the_wrong_type(setting: str) -> None:
    """A name where the object belongs is refused naming it, not an AttributeError from
    inside (R2, R1, R3)."""
    with pytest.raises(TypeError, match=setting):
        new_game(4, seed=1, **{setting: "standard"})  # type: ignore[arg-type]
