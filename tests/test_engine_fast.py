"""The engine's fast paths are its plain moves: GameState.apply and view (one tuple unpacked and
one built per action) give, at every step of any game, the state and views the plain version
gives field by field (huescues.engine._state_plain), refuse the same actions with the same kind
of error, and a replay (runs of pawns placed in one call) reaches the state played move by
move."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.engine import (
    Action,
    Cell,
    ChooseTarget,
    GameRecord,
    GameState,
    GiveClue,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    new_game,
)

# the plain reference of the engine's moves is private: what it is for is this test
from huescues.engine._state_plain import apply_plainly, view_plainly

#: Clue texts: legal ones, a repeat, a basic colour term (R19), a number (R20), too many words.
CLUES = ("lagoon", "ember", "velvet", "moss", "lagoon", "red", "seven", "deep sea", "a b c")

#: Rules that change the moves: passes forbidden, the second guesses in the same order.
RULES = [
    {},
    {"second_clue_may_pass": False},
    {"second_guess_order": "same"},
    {"rounds_per_giver": 1, "max_tiebreak_rounds": 3},
]


def _outcome(state: GameState, action: Action, plain: bool) -> GameState | type[BaseException]:
    try:
        return apply_plainly(state, action) if plain else state.apply(action)
    except (ValueError, TypeError) as e:  # IllegalAction is a ValueError
        return type(e)


def _action(data: st.DataObject, state: GameState) -> Action:
    """An action for ``state``: mostly a legal one, sometimes one the rules refuse."""
    board = state.board
    if data.draw(st.integers(0, 9)) == 0:  # anything, in any phase
        return data.draw(
            st.one_of(
                st.builds(ChooseTarget, st.integers(-1, 5)),
                st.builds(GiveClue, st.sampled_from(CLUES)),
                st.just(Pass()),
                st.builds(
                    PlacePawn,
                    st.builds(Cell, st.integers(0, board.rows), st.integers(0, board.cols)),
                ),
            )
        )
    phase = state.phase
    if phase is Phase.CHOOSE_TARGET:
        return ChooseTarget(data.draw(st.integers(0, 3)))
    if phase in (Phase.FIRST_CLUE, Phase.SECOND_CLUE):
        if phase is Phase.SECOND_CLUE and data.draw(st.booleans()):
            return Pass()
        return GiveClue(data.draw(st.sampled_from(CLUES)))
    # A pawn: an empty square, now and then an occupied one.
    cells = board.cells()
    if state.occupied and data.draw(st.integers(0, 5)) == 0:
        return PlacePawn(data.draw(st.sampled_from(sorted(state.occupied))))
    return PlacePawn(cells[data.draw(st.integers(0, len(cells) - 1))])


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**31),
    st.integers(3, 6),
    st.sampled_from(RULES),
    st.data(),
)
def test_the_fast_moves_are_the_plain_moves(
    seed: int, n: int, changes: dict[str, object], data: st.DataObject
) -> None:
    rules = dataclasses.replace(Rules.standard(n), **changes)  # type: ignore[arg-type]
    state = new_game(n, seed=seed, rules=rules)
    for _ in range(400):
        for seat in range(n):
            assert state.view(seat) == view_plainly(state, seat)
        if state.is_terminal:
            break
        action = _action(data, state)
        fast, plain = _outcome(state, action, False), _outcome(state, action, True)
        assert fast == plain, f"{action} in {state.phase.value}"
        if isinstance(fast, GameState):
            state = fast
    # A replay places runs of pawns in one call: the state played move by move.
    assert GameRecord.of(state).replay() == state


def test_a_state_from_another_game_is_refused_alike() -> None:
    state = new_game(4, seed=1)
    over = GameRecord.of(state).replay()._replace(phase=Phase.GAME_OVER, current_player=None)
    for action in (ChooseTarget(0), Pass()):
        assert _outcome(over, action, False) is _outcome(over, action, True)
    with pytest.raises(ValueError, match="turn"):
        state.apply(ChooseTarget(0), seat=3)
    with pytest.raises(ValueError, match="turn"):
        apply_plainly(state, ChooseTarget(0), seat=3)
