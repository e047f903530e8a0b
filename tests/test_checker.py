"""The public checker (huescues.testing) over every player count and several variants, and a
check that it catches a broken engine."""

import pytest

import huescues.engine._state as state_module  # private: patched to break the engine on purpose
from huescues import Board, Rules
from huescues.testing import CheckFailed, check_games


@pytest.mark.parametrize(
    "n", [3, 4, *(pytest.param(n, marks=pytest.mark.slow) for n in range(5, 10)), 10]
)
def test_checker_passes_for_every_player_count(n: int) -> None:
    report = check_games(n_players=n, games=12, seed=100 * n)
    assert report.games == 12
    assert report.rounds >= 12 * Rules.standard(n).regular_rounds  # R7
    assert report.passes > 0  # the random agent passes sometimes (R11)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.standard(4, second_guess_order="same"),  # R12 variant
        Rules.standard(5, second_clue_may_pass=False),  # R11 variant
        Rules.standard(3, points_by_distance=(5, 3, 2, 1)),  # R15 variant
        Rules.standard(6, first_giver="random"),  # R6 variant
        Rules.standard(4, max_tiebreak_rounds=1),  # R25 variant
        Rules.standard(7, rounds_per_giver=2, giver_points_per_pawn=3),  # R7, R16 variants
        Rules.standard(4, refuse_repeated_clues=False),  # R22 variant
        Rules.standard(3, first_clue_words=2, second_clue_words=3),  # R9, R11 variants
        Rules.standard(4, banned_terms=("red", "teal", "navy", "olive")),  # R19 variant
    ],
    ids=lambda r: "variant",
)
def test_checker_passes_for_variants(rules: Rules) -> None:
    report = check_games(rules, games=10, seed=7)
    assert report.games == 10
    if not rules.second_clue_may_pass:
        assert report.passes == 0


def test_checker_finds_tiebreakers_and_shared_wins() -> None:
    report = check_games(n_players=3, games=40, seed=1)
    assert report.tiebreak_rounds > 0  # R25 is exercised
    assert report.shared_wins > 0  # and R26


def test_checker_on_a_small_custom_board() -> None:
    board = Board.from_rgb([[[20 * r, 20 * c, 90] for c in range(10)] for r in range(6)])
    report = check_games(Rules.standard(5), board, games=10)
    assert report.games == 10


def test_checker_catches_wrong_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    real = state_module.round_points

    def generous(*args, **kwargs):  # type: ignore[no-untyped-def]
        points = real(*args, **kwargs)
        return (points[0] + 1, *points[1:])

    monkeypatch.setattr(state_module, "round_points", generous)
    with pytest.raises(CheckFailed, match="R15/R16"):
        check_games(n_players=4, games=2)


def test_checker_catches_a_wrong_turn_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_module.GameState, "_second_order", lambda self: self.guessers)
    with pytest.raises(CheckFailed, match="to play"):
        check_games(n_players=4, games=2)


def test_checker_refuses_mismatched_arguments() -> None:
    with pytest.raises(ValueError, match="players"):
        check_games(Rules.standard(4), n_players=5)
