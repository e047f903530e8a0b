"""R1: squares and their names."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from huescues import Cell


@pytest.mark.parametrize(
    ("text", "row", "col"),
    [("A1", 0, 0), ("F12", 5, 11), ("P30", 15, 29), (" f12 ", 5, 11), ("p30", 15, 29)],
)
def test_r1_parse_accepts_any_case_and_spaces(text: str, row: int, col: int) -> None:
    cell = Cell.parse(text)
    assert (cell.row, cell.col) == (row, col)


@pytest.mark.parametrize("text", ["Q1", "A0", "A31", "12F", "", "F", "F1 2", "FF12", "F-1", "F12x"])
def test_r1_parse_refuses_bad_names_and_names_the_text(text: str) -> None:
    with pytest.raises(ValueError, match="R1") as e:
        Cell.parse(text)
    assert repr(text) in str(e.value)


def test_r1_parse_on_other_board_sizes() -> None:
    assert str(Cell.parse("J41", rows=10, cols=41)) == "J41"
    with pytest.raises(ValueError, match="10 x 41"):
        Cell.parse("K1", rows=10, cols=41)


def test_r1_parse_refuses_non_text() -> None:
    with pytest.raises(TypeError):
        Cell.parse(12)  # type: ignore[arg-type]


@given(st.integers(0, 15), st.integers(0, 29))
def test_r1_name_round_trip(row: int, col: int) -> None:
    cell = Cell(row, col)
    assert Cell.parse(str(cell)) == cell
    assert eval(repr(cell)) == cell


def test_r1_str_and_fields() -> None:
    cell = Cell.parse("F12")
    assert str(cell) == "F12"
    assert cell.row == 5 and cell.col == 11


def test_cells_are_frozen_values() -> None:
    cell = Cell(1, 2)
    assert cell == Cell(1, 2) and hash(cell) == hash(Cell(1, 2))
    with pytest.raises(AttributeError):
        cell.row = 3  # type: ignore[misc]


@given(st.integers(0, 15), st.integers(0, 29), st.integers(0, 15), st.integers(0, 29))
def test_r5_distance_is_chebyshev(r1: int, c1: int, r2: int, c2: int) -> None:
    a, b = Cell(r1, c1), Cell(r2, c2)
    assert a.distance(b) == max(abs(r1 - r2), abs(c1 - c2)) == b.distance(a)
