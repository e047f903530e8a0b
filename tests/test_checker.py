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


@pytest.mark.slow
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


def test_checker_refuses_bad_arguments_by_name() -> None:
    """A negative or fractional number of games is refused, not reported as played."""
    for games in (-1, 2.5, True):
        with pytest.raises((ValueError, TypeError), match="games"):
            check_games(games=games)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules"):
        check_games("standard", games=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="board"):
        check_games(board="standard", games=1)  # type: ignore[arg-type]


def test_checker_names_a_pawn_off_the_board_or_not_on_a_square() -> None:
    """R1: an agent's pawn off the board, or on what is no Cell, fails the check by name."""
    from huescues import Cell, PlacePawn
    from huescues.agents import RandomAgent

    for where, match in ((Cell(20, 0), r"pawn on U1: .*\(R1\)"), ("A1", r"pawn on A1: .*\(R1\)")):

        class Stray(RandomAgent):
            square = where

            def place_pawn(self, view, rng):  # type: ignore[no-untyped-def]
                return PlacePawn(self.square)

        with pytest.raises(CheckFailed, match=match):
            check_games(games=1, agents=lambda n: [Stray() for _ in range(n)])
