"""Hypothesis: any sequence of actions, legal or not, keeps the engine's invariants."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from huescues import (
    Action,
    Cell,
    ChooseTarget,
    GiveClue,
    IllegalAction,
    Pass,
    Phase,
    PlacePawn,
    new_game,
)
from huescues.agents import RANDOM_CLUE_WORDS

actions = st.one_of(
    st.builds(ChooseTarget, st.integers(-1, 5)),
    st.builds(GiveClue, st.sampled_from(RANDOM_CLUE_WORDS[:40])),
    st.builds(
        GiveClue,
        st.tuples(st.sampled_from(RANDOM_CLUE_WORDS[:40]), st.sampled_from(RANDOM_CLUE_WORDS)).map(
            " ".join
        ),
    ),
    st.builds(GiveClue, st.sampled_from(["red", "F12", "darker sea", "", "three", "left"])),
    st.just(Pass()),
    st.builds(PlacePawn, st.builds(Cell, st.integers(0, 17), st.integers(0, 31))),
)


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 10), st.integers(0, 10**6), st.lists(actions, max_size=120))
def test_any_action_sequence_keeps_the_invariants(n: int, seed: int, tried: list[Action]) -> None:
    state = new_game(n, seed=seed)
    for action in tried:
        before = state.to_dict()
        legal = state.is_legal(action)
        listed = state.legal_actions()
        try:
            after = state.apply(action)
        except IllegalAction:
            assert not legal
            assert state.to_dict() == before  # a refused action changes nothing
            assert action not in listed
            continue
        assert legal
        if not isinstance(action, GiveClue):
            assert action in listed  # every finite legal action is listed
        assert all(b >= a for a, b in zip(state.scores, after.scores, strict=True))  # R17
        assert len(after.occupied) == len(after.pawns)  # R13
        assert after.actions == (*state.actions, action)
        if after.phase in (Phase.FIRST_GUESS, Phase.SECOND_GUESS):
            assert after.current_player in after.guessers
            assert after.current_player != after.giver  # R13: the giver places no pawn
        state = after
