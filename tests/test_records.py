"""Records (R27): JSON round trips, exact replays, and a golden game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues import (
    Board,
    Cell,
    ChooseTarget,
    Deck,
    GameRecord,
    GameState,
    GiveClue,
    IllegalAction,
    Pass,
    PlacePawn,
    Rules,
    new_game,
    play_game,
)
from huescues.agents import RandomAgent

# an action's JSON form is private (records and states use it): tested here
from huescues.engine._actions import action_from_dict, action_to_dict

GOLDEN = Path(__file__).parent / "golden" / "random-4p-seed-2041.json"


def test_golden_game_is_played_the_same() -> None:
    """A fixed seed's full record is checked in: any change to the engine, the deck, the
    seeding or the random agent shows here (regenerate with scripts/make_golden_game.py)."""
    golden = json.loads(GOLDEN.read_text())
    record, state = play_game([RandomAgent() for _ in range(4)], seed=2041)
    assert record.to_dict() == golden["record"]
    assert list(state.scores) == golden["scores"]
    assert state.result is not None
    assert list(state.result.winners) == golden["winners"]
    assert state.result.tiebreak_rounds == golden["tiebreak_rounds"] > 0


def test_golden_record_replays_to_its_result() -> None:
    golden = json.loads(GOLDEN.read_text())
    state = GameRecord.from_dict(golden["record"]).replay()
    assert list(state.scores) == golden["scores"]
    assert state.is_terminal


@pytest.mark.parametrize(
    "action",
    [ChooseTarget(3), GiveClue("sea breeze"), Pass(), PlacePawn(Cell.parse("P30"))],
)
def test_action_json_round_trip(action: object) -> None:
    data = action_to_dict(action)  # type: ignore[arg-type]
    assert action_from_dict(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize("bad", [{}, {"pawn": 3}, {"target": "1"}, {"pass": False}, {"x": 1}])
def test_action_from_bad_json(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="not an action"):
        action_from_dict(bad)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 10), st.integers(0, 200))
def test_record_and_state_json_round_trip_and_replay(seed: int, n: int, cut: int) -> None:
    record, final = play_game([RandomAgent() for _ in range(n)], seed=seed)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert again.replay() == final
    assert GameState.from_json(final.to_json()) == final
    # Any state along the way round-trips and plays on identically.
    state = new_game(n, seed=seed)
    for action in record.actions[: min(cut, len(record.actions) - 1)]:
        state = state.apply(action)
    restored = GameState.from_json(state.to_json())
    assert restored == state
    nxt = record.actions[min(cut, len(record.actions) - 1)]
    assert restored.apply(nxt) == state.apply(nxt)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 10))
def test_r27_same_seed_same_game(seed: int, n: int) -> None:
    a = play_game([RandomAgent() for _ in range(n)], seed=seed)
    b = play_game([RandomAgent() for _ in range(n)], seed=seed)
    assert a.record == b.record and a.state == b.state


def test_records_on_custom_boards_need_the_board() -> None:
    board = Board.from_rgb([[[15 * r, 9 * c, 60] for c in range(20)] for r in range(8)])
    record, final = play_game([RandomAgent() for _ in range(3)], seed=5, board=board)
    text = record.to_json()
    assert GameRecord.from_json(text).replay(board=board) == final
    with pytest.raises(ValueError, match=board.id):
        GameRecord.from_json(text).replay()
    assert GameState.from_json(final.to_json(), board=board) == final


def test_records_with_a_custom_deck_need_the_deck() -> None:
    deck = Deck.generate(16, 30, seed=99)
    custom = Deck("my-deck", deck.cards)
    state = new_game(3, seed=1, deck=custom).apply(ChooseTarget(0))
    record = GameRecord.of(state)
    assert record.deck_id == "my-deck"
    with pytest.raises(ValueError, match="pass it in"):
        record.replay()
    assert record.replay(deck=custom) == state


def test_replay_refuses_another_engine_version() -> None:
    record = GameRecord.of(new_game(3, seed=1))
    data = record.to_dict() | {"engine_version": 999}
    with pytest.raises(ValueError, match="engine version"):
        GameRecord.from_dict(data).replay()


def test_record_keeps_the_rules() -> None:
    rules = Rules.standard(5, points_by_distance=(4, 2, 1), first_giver="random")
    record, final = play_game([RandomAgent() for _ in range(5)], seed=3, rules=rules)
    again = GameRecord.from_json(record.to_json())
    assert again.rules == rules
    assert again.replay() == final


def test_replays_of_one_seed_under_other_rules_boards_and_decks_start_from_their_own_deal() -> None:
    # A replay starts from the last replay's new game when they share a seed, rules, board and
    # deck (a tournament's blocks); anything else that differs must deal anew (R3, R27).
    board = Board.from_rgb([[[15 * r, 9 * c, 60] for c in range(20)] for r in range(8)])
    plays = [
        (Rules.standard(4), None, None),
        (Rules.standard(4).replace(second_clue_may_pass=False), None, None),
        (Rules.standard(5), None, None),
        (Rules.standard(4), board, Deck.generate(8, 20, seed=4)),
        (Rules.standard(4), board, Deck.generate(8, 20, seed=5)),
        (Rules.standard(4), None, Deck("my-deck", Deck.generate(16, 30, seed=99).cards)),
    ]
    finals = []
    for rules, b, d in plays:
        # A target chosen is enough to tell the deals apart: its card is the first drawn.
        state = new_game(rules.n_players, seed=11, rules=rules, board=b, deck=d)
        finals.append(state.apply(ChooseTarget(1)))
    for _ in range(2):
        for (_, b, d), final in zip(plays, finals, strict=True):
            assert GameRecord.of(final).replay(board=b, deck=d) == final


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(3, 10),
    seed=st.integers(0, 10**6),
    order=st.sampled_from(["reverse", "same"]),
    data=st.data(),
)
def test_a_replay_places_its_runs_of_pawns_as_one_by_one_play_does(
    n: int, seed: int, order: str, data: st.DataObject
) -> None:
    # A replay places the pawns that follow one another in one call (GameState.apply's run):
    # the same final state as applying each action alone, or the same refusal (R1, R8-R13)
    # when a pawn of the record is moved (to a square taken or off the board among them) or
    # replaced by another action.
    rules = dataclasses.replace(Rules.standard(n), second_guess_order=order)
    record = play_game([RandomAgent() for _ in range(n)], seed=seed, rules=rules).record
    actions = list(record.actions)
    pawns = [i for i, a in enumerate(actions) if isinstance(a, PlacePawn)]
    for _ in range(data.draw(st.integers(0, 2))):
        at = data.draw(st.sampled_from(pawns))
        actions[at] = data.draw(
            st.one_of(
                st.builds(PlacePawn, st.builds(Cell, st.integers(0, 17), st.integers(0, 31))),
                st.sampled_from([Pass(), GiveClue("moss"), ChooseTarget(0)]),  # a wrong phase
            )
        )
    state = new_game(n, seed=seed, rules=rules)
    refused: IllegalAction | None = None
    try:
        for action in actions:
            state = state.apply(action)
    except IllegalAction as e:
        refused = e
    edited = GameRecord(rules, record.board_id, record.deck_id, seed, tuple(actions))
    if refused is not None:
        with pytest.raises(type(refused)) as info:
            edited.replay()
        assert type(info.value) is type(refused) and str(info.value) == str(refused)
        return
    replayed = edited.replay()
    assert replayed.to_dict() == state.to_dict() and replayed.actions == tuple(actions)
