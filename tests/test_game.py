"""One game: phases, turn order, hidden information, scoring, the end and tie-breakers
(R6-R17, R24-R27), and refused actions that leave the state as it was."""

from __future__ import annotations

import copy

import pytest

from conftest import far_from_target, near, play_round
from huescues import (
    Board,
    Cell,
    ChooseTarget,
    GameOver,
    GameState,
    GiveClue,
    IllegalClue,
    InvalidRules,
    InvalidTarget,
    NotYourTurn,
    OccupiedSquare,
    OffBoard,
    Pass,
    PassNotAllowed,
    Phase,
    PlacePawn,
    Rules,
    WrongPhase,
    new_game,
)


def to_first_guess(state: GameState) -> GameState:
    return state.apply(ChooseTarget(2)).apply(GiveClue("ocean"))


def test_new_game_starts_with_the_first_giver_choosing_a_target() -> None:
    state = new_game(4, seed=1)
    assert state.phase is Phase.CHOOSE_TARGET
    assert state.giver == 0 and state.current_player == 0  # R6
    assert state.scores == (0, 0, 0, 0)  # R2
    assert len(state.card) == 4 and state.target is None  # R8
    assert state.legal_actions() == tuple(ChooseTarget(i) for i in range(4))
    assert not state.is_terminal and state.result is None


def test_r6_first_giver_setting_and_random_first_giver_from_the_seed() -> None:
    assert new_game(5, seed=1, rules=Rules.standard(5, first_giver=3)).giver == 3
    rules = Rules.standard(6, first_giver="random")
    givers = {new_game(6, seed=s, rules=rules).giver for s in range(40)}
    assert len(givers) > 1
    assert new_game(6, seed=7, rules=rules).giver == new_game(6, seed=7, rules=rules).giver


def test_r6_giver_passes_clockwise_and_r7_rounds() -> None:
    state = new_game(4, seed=2, rules=Rules.standard(4, first_giver=2))
    givers = []
    while not state.is_terminal:
        givers.append(state.giver)
        state = play_round(state)
    assert givers[:8] == [2, 3, 0, 1, 2, 3, 0, 1]


def test_r8_target_is_one_of_the_cards_four_squares() -> None:
    state = new_game(4, seed=3)
    after = state.apply(ChooseTarget(1))
    assert after.target == state.card[1]
    assert after.phase is Phase.FIRST_CLUE
    for bad in (4, -1, "1"):
        with pytest.raises(InvalidTarget, match="R8"):
            state.apply(ChooseTarget(bad))  # type: ignore[arg-type]


def test_r8_views_hide_the_card_and_target_from_guessers() -> None:
    state = new_game(4, seed=4)
    assert state.view(0).card == state.card
    assert state.view(0).target is None
    state = state.apply(ChooseTarget(3))
    giver = state.view(0)
    assert giver.card == state.card and giver.target == state.card[3] and giver.is_giver
    for seat in (1, 2, 3):
        view = state.view(seat)
        assert view.card is None and view.target is None and not view.is_giver
        assert state.card[3] not in tuple(view)
    with pytest.raises(ValueError, match="seat"):
        state.view(4)


def test_r9_r10_first_clue_then_guesses_clockwise_from_the_givers_left() -> None:
    state = new_game(5, seed=5, rules=Rules.standard(5, first_giver=3))
    state = state.apply(ChooseTarget(0))
    with pytest.raises(IllegalClue, match="R18"):
        state.apply(GiveClue("sunny ocean"))  # R9: exactly one word
    state = state.apply(GiveClue("ocean"))
    order = []
    while state.phase is Phase.FIRST_GUESS:
        order.append(state.current_player)
        state = state.apply(PlacePawn(far_from_target(state)))
    assert order == [4, 0, 1, 2]
    assert state.phase is Phase.SECOND_CLUE and state.current_player == 3


@pytest.mark.parametrize(
    ("setting", "expected"), [("reverse", [2, 1, 0, 4]), ("same", [4, 0, 1, 2])]
)
def test_r12_second_guesses_in_reverse_order(setting: str, expected: list[int]) -> None:
    rules = Rules.standard(5, first_giver=3, second_guess_order=setting)
    state = new_game(5, seed=5, rules=rules).apply(ChooseTarget(0)).apply(GiveClue("ocean"))
    while state.phase is Phase.FIRST_GUESS:
        state = state.apply(PlacePawn(far_from_target(state)))
    state = state.apply(GiveClue("sunset glow"))
    order = []
    while state.phase is Phase.SECOND_GUESS:
        order.append(state.current_player)
        state = state.apply(PlacePawn(far_from_target(state)))
    assert order == expected


def test_r11_second_clue_at_most_two_words() -> None:
    state = to_first_guess(new_game(3, seed=6))
    state = state.apply(PlacePawn(far_from_target(state)))
    state = state.apply(PlacePawn(far_from_target(state)))
    with pytest.raises(IllegalClue, match="R18"):
        state.apply(GiveClue("deep calm ocean"))
    assert state.apply(GiveClue("lagoon")).phase is Phase.SECOND_GUESS
    assert state.apply(GiveClue("calm lagoon")).phase is Phase.SECOND_GUESS


def test_r11_pass_goes_straight_to_scoring_with_one_pawn_each() -> None:
    state = to_first_guess(new_game(4, seed=7))
    target = state.target
    assert target is not None
    state = state.apply(PlacePawn(target))  # seat 1 on the target
    state = state.apply(PlacePawn(near(state, 1)))  # seat 2 in the frame
    state = state.apply(PlacePawn(far_from_target(state)))
    assert state.legal_actions() == (Pass(),)
    after = state.apply(Pass())
    assert after.round == 1 and after.phase is Phase.CHOOSE_TARGET
    done = after.history[0]
    assert done.passed and len(done.pawns) == 3
    assert after.scores == (2, 3, 2, 0)  # R15 and R16


def test_r11_pass_refused_when_the_rules_forbid_it() -> None:
    rules = Rules.standard(3, second_clue_may_pass=False)
    state = to_first_guess(new_game(3, seed=8, rules=rules))
    state = state.apply(PlacePawn(far_from_target(state)))
    state = state.apply(PlacePawn(far_from_target(state)))
    assert state.legal_actions() == ()
    with pytest.raises(PassNotAllowed, match="R11"):
        state.apply(Pass())


def test_r13_a_square_holds_one_pawn() -> None:
    state = to_first_guess(new_game(4, seed=9))
    cell = Cell.parse("H15")
    state = state.apply(PlacePawn(cell))
    with pytest.raises(OccupiedSquare, match=r"H15.*seat 1.*R13"):
        state.apply(PlacePawn(cell))
    assert PlacePawn(cell) not in state.legal_actions()
    assert len(state.legal_actions()) == 479


def test_r13_pawns_stay_and_the_board_clears_between_rounds() -> None:
    state = play_round(new_game(4, seed=10))
    assert state.pawns == () and state.occupied == frozenset()
    assert len(state.history[0].pawns) == 6


def test_r1_off_the_board_refused() -> None:
    state = to_first_guess(new_game(4, seed=11))
    with pytest.raises(OffBoard, match="R1"):
        state.apply(PlacePawn(Cell(16, 0)))
    with pytest.raises(OffBoard, match="R1"):
        state.apply(PlacePawn(Cell(3, 30)))


def test_actions_compare_by_value_and_keep_their_argument() -> None:
    assert PlacePawn(Cell.parse("f12")) == PlacePawn(Cell(5, 11))
    assert ChooseTarget(1) == ChooseTarget(1) and GiveClue("sky") == GiveClue("sky")
    assert Pass() == Pass() and ChooseTarget(1) != PlacePawn(Cell.parse("A2"))
    assert PlacePawn(Cell.parse("F12")).cell == Cell(5, 11)
    assert ChooseTarget(2).index == 2 and GiveClue("sky").text == "sky"


def test_a_pawn_needs_a_cell() -> None:
    state = to_first_guess(new_game(4, seed=11))
    with pytest.raises(TypeError, match=r"Cell\.parse"):
        state.apply(PlacePawn("F12"))  # type: ignore[arg-type]


def test_wrong_phase_and_not_your_turn() -> None:
    state = new_game(4, seed=12)
    with pytest.raises(WrongPhase, match="choose_target"):
        state.apply(PlacePawn(Cell.parse("A1")))
    with pytest.raises(WrongPhase):
        state.apply(GiveClue("ocean"))
    with pytest.raises(WrongPhase):
        state.apply(Pass())
    with pytest.raises(NotYourTurn, match="seat 0's turn"):
        state.apply(ChooseTarget(0), seat=2)
    # A seat given as text is named as given, not as the seat whose turn it is.
    with pytest.raises(NotYourTurn, match=r"by seat '0' refused: it is seat 0's turn"):
        state.apply(ChooseTarget(0), seat="0")  # type: ignore[arg-type]
    state = to_first_guess(state)
    with pytest.raises(NotYourTurn):
        state.apply(PlacePawn(Cell.parse("A1")), seat=2)
    assert state.apply(PlacePawn(Cell.parse("A1")), seat=1).pawns == ((1, Cell(0, 0)),)
    with pytest.raises(TypeError):
        state.apply("A1")  # type: ignore[arg-type]


def test_refused_actions_leave_the_state_as_it_was() -> None:
    state = to_first_guess(new_game(4, seed=13)).apply(PlacePawn(Cell.parse("B2")))
    before = copy.deepcopy(state.to_dict())
    for action, seat in [
        (PlacePawn(Cell.parse("B2")), None),
        (PlacePawn(Cell(20, 1)), None),
        (GiveClue("reddish"), None),
        (ChooseTarget(1), None),
        (PlacePawn(Cell.parse("C3")), 0),
        (Pass(), None),
    ]:
        assert not state.is_legal(action, seat=seat)
        with pytest.raises(Exception):  # noqa: B017, PT011 (every refusal, whichever subclass)
            state.apply(action, seat=seat)
        assert state.to_dict() == before


def test_r14_r17_reveal_and_scores_only_go_up() -> None:
    state = new_game(3, seed=14)
    previous = state.scores
    while not state.is_terminal:
        state = play_round(state, lambda s: near(s, min(len(s.pawns), 2)))
        assert all(b >= a for a, b in zip(previous, state.scores, strict=True))
        done = state.history[-1]
        assert tuple(b - a for a, b in zip(previous, state.scores, strict=True)) == done.points
        previous = state.scores


def test_r16_three_player_giver_scores_two_per_pawn_in_the_frame() -> None:
    state = to_first_guess(new_game(3, seed=15))
    state = state.apply(PlacePawn(near(state, 0)))
    state = state.apply(PlacePawn(near(state, 2)))
    state = state.apply(GiveClue("sea"))
    state = state.apply(PlacePawn(near(state, 1)))
    state = state.apply(PlacePawn(far_from_target(state)))
    # seat 1: 3 + 0, seat 2: 1 + 2; the giver: 2 pawns inside the frame x 2
    assert state.scores == (4, 3, 3)


def test_r22_a_clue_may_not_repeat_one_given_earlier_in_the_game() -> None:
    state = to_first_guess(new_game(3, seed=16))
    state = state.apply(PlacePawn(Cell.parse("A1"))).apply(PlacePawn(Cell.parse("A2")))
    with pytest.raises(IllegalClue, match="R22"):
        state.apply(GiveClue("  OCEAN "))
    rules = Rules.standard(3, refuse_repeated_clues=False)
    state = to_first_guess(new_game(3, seed=16, rules=rules))
    state = state.apply(PlacePawn(Cell.parse("A1"))).apply(PlacePawn(Cell.parse("A2")))
    assert state.apply(GiveClue("ocean")).clues == ("ocean", "ocean")


@pytest.mark.parametrize(
    ("n", "rounds"), [(3, 6), (4, 8), (5, 10), (6, 12), (7, 7), (8, 8), (9, 9), (10, 10)]
)
def test_r7_regular_rounds_then_the_end(n: int, rounds: int) -> None:
    # Every pawn scores nothing and the giver nothing: all tied at 0, so no tie-breaker (R26).
    state = new_game(n, seed=n)
    while not state.is_terminal:
        state = play_round(state)
    assert len(state.history) == rounds
    assert state.result is not None
    assert state.result.winners == tuple(range(n)) and state.result.shared
    assert state.result.tiebreak_rounds == 0
    assert state.current_player is None and state.legal_actions() == ()
    with pytest.raises(GameOver):
        state.apply(ChooseTarget(0))


def score_seats(seats: set[int], distance: int = 2):  # type: ignore[no-untyped-def]
    """A placement: seats in ``seats`` place near the target, the others far away."""

    def place(state: GameState) -> Cell:
        if state.current_player in seats:
            return near(state, distance)
        return far_from_target(state)

    return place


def test_r24_single_winner_without_tiebreak() -> None:
    state = play_round(new_game(4, seed=20), score_seats({2}))
    while not state.is_terminal:
        state = play_round(state)
    assert state.result is not None
    assert state.result.winners == (2,) and not state.result.shared
    assert state.scores[2] == max(state.scores)


def tied_game(n: int = 4, **settings: object) -> GameState:
    """Seats 1 and 2 tie at the top after the regular rounds (each one pawn at distance 2)."""
    state = new_game(n, seed=21, rules=Rules.standard(n, **settings))  # type: ignore[arg-type]
    state = play_round(state, score_seats({1, 2}), passing=True)
    while state.round < state.rules.regular_rounds:
        state = play_round(state)
    return state


def test_r25_tiebreak_only_tied_players_guess_and_giver_scores_nothing() -> None:
    state = tied_game()
    assert not state.is_terminal and state.tiebreak
    assert state.scores == (0, 1, 1, 0)
    assert state.giver == 0  # the last giver was seat 3; seat 0 is not tied
    assert state.guessers == (1, 2)
    state = play_round(state, score_seats({2}, distance=1), passing=True)
    assert state.result is not None
    assert state.result.winners == (2,)
    assert state.result.tiebreak_rounds == 1
    assert state.scores == (0, 1, 3, 0)  # the giver got nothing for the pawn in the frame
    assert state.history[-1].tiebreak


def test_r25_r26_tiebreak_limit_then_shared_win() -> None:
    state = tied_game(max_tiebreak_rounds=3)
    givers = []
    while not state.is_terminal:
        givers.append(state.giver)
        state = play_round(state)
    assert givers[-3:] == [0, 3, 0]  # non-tied players in turn, clockwise
    assert state.result is not None
    assert state.result.winners == (1, 2) and state.result.shared
    assert state.result.tiebreak_rounds == 3


def test_r25_no_tiebreak_rounds_when_the_limit_is_zero() -> None:
    state = tied_game(max_tiebreak_rounds=0)
    assert state.result is not None and state.result.winners == (1, 2)


def test_r25_tied_set_shrinks_and_a_dropped_player_may_give() -> None:
    # Three tied; after one tie-breaker two are still tied and the third may give clues.
    state = new_game(4, seed=22)
    state = play_round(state, score_seats({1, 2, 3}), passing=True)
    while state.round < state.rules.regular_rounds:
        state = play_round(state)
    assert state.scores == (0, 1, 1, 1)  # nobody was in round 0's frame, so seat 0 has 0
    assert state.guessers == (1, 2, 3) and state.giver == 0
    state = play_round(state, score_seats({1, 3}), passing=True)
    assert state.guessers == (3, 1) and state.giver in (0, 2)
    assert state.giver == 2  # seat 2 dropped out of the tie and is next clockwise after 0


def test_game_set_up_refused_when_it_cannot_be_played() -> None:
    with pytest.raises(InvalidRules, match="R2"):
        new_game(4, seed=0, rules=Rules.standard(5))
    with pytest.raises(InvalidRules, match="R3"):
        new_game(10, seed=0, rules=Rules.standard(10, rounds_per_giver=10))
    tiny = Board.from_rgb([[[0, 0, 0], [255, 255, 255]]] * 2)
    with pytest.raises(InvalidRules, match="R13"):
        new_game(4, seed=0, board=tiny)
    with pytest.raises(ValueError, match="seed"):
        new_game(4, seed=-1)


def test_games_on_other_boards() -> None:
    board = Board.from_rgb([[[10 * r, 8 * c, 100] for c in range(12)] for r in range(5)])
    state = new_game(3, seed=3, board=board)
    assert all(c in board for c in state.card)
    while not state.is_terminal:
        state = play_round(state)
    assert len(state.history) == 6


def test_r27_same_seed_same_game_different_seed_different_cards() -> None:
    a, b = new_game(6, seed=42), new_game(6, seed=42)
    assert a == b
    assert [new_game(6, seed=s).card for s in range(5)] != [a.card] * 5


def test_r24_r26_a_finished_game_has_no_current_round_so_no_tiebreak() -> None:
    # Without a tie-breaker (R24) and after one (R25, R26): the round counter has passed the
    # regular rounds either way, but a finished game is in no round, let alone a tie-breaker.
    plain = new_game(4, seed=4)
    while not plain.is_terminal:
        plain = play_round(plain)
    after_tiebreak = play_round(tied_game(), score_seats({2}, distance=1), passing=True)
    for state in (plain, after_tiebreak):
        assert state.is_terminal and state.round >= state.rules.regular_rounds
        assert not state.tiebreak
        assert not any(state.view(seat).tiebreak for seat in range(state.n_players))
        assert GameState.from_json(state.to_json()) == state
    assert after_tiebreak.history[-1].tiebreak and not plain.history[-1].tiebreak


def test_the_engines_round_results_are_the_dataclasses_own() -> None:
    # The engine makes each round's result through its slots (engine/_state.py): the same
    # value object as RoundResult(...), still frozen, for any fields.
    import dataclasses

    from huescues.engine._state import RoundResult, _round_result

    cases = [
        (0, 1, False, Cell(3, 4), ("sea",), ((2, Cell(0, 0)),), (0, 1, 3, 0)),
        (11, 0, True, Cell(15, 29), ("moss", "dark"), ((1, Cell(1, 1)), (2, Cell(1, 2))),
         (0, 3, 2)),
    ]  # fmt: skip
    for fields in cases:
        made, expected = _round_result(*fields), RoundResult(*fields)
        assert made == expected and hash(made) == hash(expected) and repr(made) == repr(expected)
        assert tuple(getattr(made, f.name) for f in dataclasses.fields(made)) == fields
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.round = 1  # type: ignore[misc]
