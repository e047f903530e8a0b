"""R3: the standard deck, and decks for other boards."""

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from huescues import STANDARD_DECK_ID, Board, Cell, Deck, new_game

ROOT = Path(__file__).resolve().parents[1]


def test_r3_standard_deck() -> None:
    deck = Deck.standard()
    assert deck.id == STANDARD_DECK_ID
    assert len(deck) == 100
    squares = [c for card in deck.cards for c in card]
    assert all(len(card) == 4 for card in deck.cards)
    assert len(set(squares)) == 400, "400 distinct squares"
    board = Board.standard()
    assert all(c in board for c in squares)
    for card in deck.cards:
        for a, b in itertools.combinations(card, 2):
            assert a.distance(b) > 4, f"{a} and {b} are on one card within distance 4"


def test_r3_standard_deck_is_the_same_in_every_game() -> None:
    assert new_game(4, seed=1).deck == new_game(5, seed=2).deck == Deck.standard()


def test_r3_standard_deck_file_is_what_the_script_makes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_standard_deck.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_r3_a_drawn_card_is_not_reused() -> None:
    state = new_game(3, seed=11)
    order = state.setup.order
    assert sorted(order) == list(range(100))
    assert state.card == state.deck.cards[order[0]]


def test_r3_shuffle_depends_on_the_seed() -> None:
    assert new_game(4, seed=1).setup.order != new_game(4, seed=2).setup.order
    assert new_game(4, seed=5).setup.order == new_game(4, seed=5).setup.order


@pytest.mark.parametrize(("rows", "cols"), [(10, 41), (8, 8), (3, 3), (2, 2), (1, 30)])
def test_r3_generated_decks_for_other_boards(rows: int, cols: int) -> None:
    deck = Deck.generate(rows, cols)
    assert len(deck) == 100
    assert all(len(set(card)) == 4 for card in deck.cards)
    assert all(0 <= c.row < rows and 0 <= c.col < cols for card in deck.cards for c in card)
    assert Deck.from_id(deck.id) == deck
    if rows * cols >= 480:
        squares = [c for card in deck.cards for c in card]
        assert len(set(squares)) == 400


def test_deck_json_round_trip() -> None:
    deck = Deck.generate(10, 41, seed=3)
    assert Deck.from_json(deck.to_json()) == deck


def test_deck_refuses_cards_without_four_different_squares() -> None:
    with pytest.raises(ValueError, match="R3"):
        Deck("bad", ((Cell(0, 0), Cell(0, 0), Cell(1, 1), Cell(2, 2)),))
    with pytest.raises(ValueError, match="pass it in"):
        Deck.from_id("my-own-deck")


@pytest.mark.parametrize(
    "deck_id",
    [
        "generated-16x30-1000000000-s0",  # a billion cards: would deal for hours
        "generated-16x30-0-s0",
        "generated-27x30-100-s0",  # R1: rows A-Z
        "generated-16x100000000-100-s0",  # a board of a billion squares
    ],
)
def test_r1_r3_a_generated_deck_id_no_board_could_have_is_refused_at_once(deck_id: str) -> None:
    """A record's deck id is read from a file: one that would take hours or all the memory to
    deal is refused by name (R1, R3), not dealt."""
    with pytest.raises(ValueError, match="pass the deck in") as e:
        Deck.from_id(deck_id)
    assert repr(deck_id) in str(e.value)


@pytest.mark.parametrize(
    "text",
    [
        "{}",
        "[]",
        '{"id": "x"}',
        '{"id": "x", "cards": [[1, 2, 3, 4]]}',
        '{"id": "x", "cards": [5]}',
    ],
)
def test_r3_text_that_is_no_deck_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match=r"deck's JSON|a card is a list"):
        Deck.from_json(text)


def test_r3_a_card_of_what_are_not_squares_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match=r"card 0 of deck 'x' shows \(1, 2, 3, 4\), not 4 Cells"):
        Deck("x", ((1, 2, 3, 4),))  # type: ignore[arg-type]
