"""The clues people gave (issue 21 item 6): GivenClues read from the giving study's export, the
points people's clues earn (R15) from guessers and from people's clicks, and a clue giver's
clues for the same targets against people's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from huescues.engine import Board, Cell, Rules, pawn_points
from huescues.research import (
    GivenClues,
    HumanResponses,
    givers_against_people,
    points_on_given_clues,
)

BOARD = Board.standard()
R15 = Rules.standard(4)


class Fixed:
    """A guesser whose best square for every clue is one square (or per clue)."""

    def __init__(self, squares: dict[str, str]) -> None:
        self.squares = squares

    def rank(self, board: Board, clues: Sequence[str]) -> list[Cell]:
        first = board.cell(self.squares.get(clues[0], "A1"))
        return [first, *(c for c in board.cells() if c != first)]


@dataclass
class _Clue:
    text: str


class FixedGiver:
    def __init__(self, clue: str) -> None:
        self.clue = clue

    def give_clue(self, view: object, rng: object) -> _Clue:
        return _Clue(self.clue)


def given() -> GivenClues:
    return GivenClues.from_records(
        [
            {"participant": "p1", "target": "F12", "clue": "Banana"},
            {"participant": "p2", "target": "F12", "clue": "lemon"},
            {"participant": "p1", "target": "B3", "clue": "sky"},
        ],
        BOARD,
    )


def test_given_clues_read_and_skip_bad_rows(tmp_path: Path) -> None:
    path = tmp_path / "g.csv"
    path.write_text("participant,target,clue,time\np,F12,banana,t\np,Z99,sky,t\np,A1,,t\n")
    g = GivenClues.from_csv(path, BOARD)
    assert [(x.clue, str(x.target), x.extra["time"]) for x in g.rows] == [("banana", "F12", "t")]
    assert [n for n, _ in g.skipped] == [3, 4]
    with pytest.raises(ValueError, match="line 3"):
        GivenClues.from_csv(path, BOARD, strict=True)


def test_given_clues_refuse_what_the_responses_refuse(tmp_path: Path) -> None:
    # A missing value is no clue (it read as the clue "None"), a column named twice is refused
    # (the last one was read), and files and records that are not a table are named.
    g = GivenClues.from_records([{"target": "F12", "clue": None}], BOARD)
    assert g.rows == () and g.skipped == ((1, "empty clue"),)
    path = tmp_path / "g.csv"
    path.write_text("target,clue,clue\nF12,banana,sky\n")
    with pytest.raises(ValueError, match="names a column twice"):
        GivenClues.from_csv(path, BOARD)
    path.write_bytes("target,clue\nF12,pl\xe1tano\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"g\.csv: not UTF-8 text \(byte 0xe1"):
        GivenClues.from_csv(path, BOARD)
    with pytest.raises(TypeError, match="not dict"):
        GivenClues.from_records({"target": "F12", "clue": "sky"}, BOARD)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="names a column 5, not text"):
        GivenClues.from_records([{"target": "F12", "clue": "sky", 5: "x"}], BOARD)  # type: ignore[dict-item]


def test_points_on_given_clues_scores_guessers_and_people_against_the_target() -> None:
    """R15: 3 points on the target, 2 in its frame, 1 two squares away, 0 beyond."""
    guesser = Fixed({"banana": "F12", "lemon": "F13", "sky": "J20"})
    guesses = HumanResponses.from_records(
        [{"clue": "banana", "square": "F14"}, {"clue": "banana", "square": "F12"}], BOARD
    )
    m = points_on_given_clues(given(), {"fixed": guesser}, guesses=guesses, n_boot=50)
    expected = [3, 2, pawn_points(R15, BOARD.cell("B3"), BOARD.cell("J20"))]
    assert m.clues == 3 and m.read == 1
    assert dict(m.guessers)["fixed"].mean == pytest.approx(sum(expected) / 3)
    # People read only "Banana" (case does not matter): clicks 1 and 3 points on F12.
    assert m.people is not None and m.people.mean == pytest.approx(2.0)
    assert dict(m.guessers_on_read)["fixed"].mean == pytest.approx(3.0)
    assert "people" in m.table()


def test_a_giver_is_compared_with_people_on_the_same_targets() -> None:
    guesser = Fixed({"banana": "F12", "lemon": "F13", "sky": "B3", "grass": "H20"})
    guesses = HumanResponses.from_records(
        [
            {"clue": "grass", "square": "F12"},
            {"clue": "banana", "square": "F15"},
            {"clue": "sky", "square": "B3"},
        ],
        BOARD,
    )
    cmp = givers_against_people(
        given(), {"bot": FixedGiver("grass")}, {"fixed": guesser}, guesses=guesses, n_boot=50
    )
    rows = {(g, r): (n, people, bot, diff) for g, r, n, people, bot, diff in cmp.rows}
    n, people, bot, diff = rows["bot", "fixed"]
    # F12: people's clues 3 and 2 points (mean 2.5), the bot's "grass" read at H20: 0. B3: 3 vs 0.
    assert n == 2 and people.mean == pytest.approx((2.5 + 3) / 2)
    assert bot.mean == pytest.approx(0.0) and diff.mean == pytest.approx(-2.75)
    # People read "grass" and both targets' clues: on F12 grass 3 vs banana 0 (F15 is 3 away).
    n, people, bot, _ = rows["bot", "people"]
    assert n == 2 and cmp.clues["bot"][BOARD.cell("F12")] == "grass"
    assert "giver - people" in cmp.table()
