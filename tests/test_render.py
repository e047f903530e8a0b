"""Drawing (R1, R4, R5): a board as a PNG and as terminal text, and a clue's heat map on a
board, all from ``huescues.render``; the engine and the language models do not draw."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.agents import clue_probabilities, top_squares
from huescues.engine import ROW_LETTERS, Board, Cell
from huescues.language import default_model
from huescues.render import board_text, colour_wanted, render_board, render_clue

ANSI_BG = re.compile(r"\x1b\[48;2;(\d+);(\d+);(\d+)m")
BOARD = Board.standard()


def _rows(text: str) -> list[str]:
    """The board's square rows (the lines between the two number lines)."""
    return text.splitlines()[1 : 1 + BOARD.rows]


# -- the board as a PNG ----------------------------------------------------------------------------


def test_r1_render_board_writes_a_png(tmp_path: Path) -> None:
    board = Board.standard()
    path = render_board(board, tmp_path / "board.png", dpi=40)
    assert path == tmp_path / "board.png"
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_r1_render_board_with_marks_frame_and_title(tmp_path: Path) -> None:
    """Pawns and a target drawn on squares, and the R4 frame clipped at the board's corner."""
    board = Board.standard()
    marks = {board.cell("A1"): "T", board.cell("B2"): "1", board.cell("P30"): "2"}
    out = render_board(
        board, str(tmp_path / "marked.png"), marks=marks, frame=board.cell("A1"), title="R4"
    )
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_r1_render_board_refuses_squares_off_the_board(tmp_path: Path) -> None:
    board = Board.from_rgb(np.zeros((2, 2, 3)))
    with pytest.raises(ValueError, match="not on the 2 x 2 board"):
        render_board(board, tmp_path / "x.png", marks={Cell(2, 0): "1"})
    with pytest.raises(ValueError, match="not on the 2 x 2 board"):
        render_board(board, tmp_path / "x.png", frame=Cell(0, 5))
    assert not (tmp_path / "x.png").exists()


def test_pictures_without_matplotlib_say_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.backends.backend_agg", None)
    install = r"pip install 'huescues\[plot\]'"
    with pytest.raises(ImportError, match="drawing a board needs matplotlib: " + install):
        render_board(BOARD, tmp_path / "x.png")
    with pytest.raises(ImportError, match="drawing a clue needs matplotlib: " + install):
        render_clue(default_model(), "ocean", BOARD, tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


# -- the board as terminal text --------------------------------------------------------------------
@pytest.mark.parametrize("colour", [True, False])
def test_board_has_row_letters_and_column_numbers(colour: bool) -> None:
    """R1: rows A-P on both sides, columns 1-30 above and below."""
    text = board_text(BOARD, colour=colour)
    lines = text.splitlines()
    assert lines[0].split() == [str(c) for c in range(1, 31)]
    assert lines[BOARD.rows + 1].split() == [str(c) for c in range(1, 31)]
    for r, line in enumerate(_rows(text)):
        letter = ROW_LETTERS[r]
        assert line.startswith(letter + " ") and line.endswith(" " + letter)
    assert [line[0] for line in _rows(text)] == list("ABCDEFGHIJKLMNOP")


def test_board_squares_are_painted_in_their_srgb() -> None:
    text = board_text(BOARD)
    for r, line in enumerate(_rows(text)):
        colours = ["#{:02x}{:02x}{:02x}".format(*map(int, m)) for m in ANSI_BG.findall(line)]
        assert colours == [BOARD.hex(Cell(r, c)) for c in range(BOARD.cols)]


def test_plain_board_has_no_escapes_and_lists_marked_hex_codes() -> None:
    target = Cell.parse("H8")
    text = board_text(BOARD, marks={target: "*", Cell.parse("B2"): "1"}, colour=False)
    assert "\x1b" not in text
    assert f"* H8 {BOARD.hex(target)}" in text
    assert "1 B2" in text
    row_h = _rows(text)[7]
    assert row_h.split()[1:9] == [".."] * 7 + ["*"]


def test_marks_are_black_on_light_squares_and_white_on_dark_ones() -> None:
    light = max(BOARD.cells(), key=lambda c: BOARD.lab[c.row, c.col, 0])
    dark = min(BOARD.cells(), key=lambda c: BOARD.lab[c.row, c.col, 0])
    text = board_text(BOARD, marks={light: "1", dark: "2"})
    assert "38;2;0;0;0m1" in _rows(text)[light.row]
    assert "38;2;255;255;255m2" in _rows(text)[dark.row]


def test_frame_is_clipped_at_a_corner() -> None:
    """R4, R5: the frame around A1 covers A1, A2, B1, B2 only."""
    rows = _rows(board_text(BOARD, frame=Cell.parse("A1"), colour=False))
    assert rows[0].startswith("A [.. ..]..")
    assert rows[1].startswith("B [.. ..]..")
    assert "[" not in rows[2] and "]" not in rows[2]
    rows = _rows(board_text(BOARD, frame=Cell.parse("P30"), colour=False))
    assert rows[-1].endswith(".. ..] P") and rows[-2].endswith(".. ..] O")
    assert rows[-1].count("[") == 1 and "[" not in rows[-3]


def test_frame_in_the_middle_spans_three_rows() -> None:
    text = board_text(BOARD, frame=Cell.parse("F12"), colour=True)
    rows = _rows(re.sub(r"\x1b\[[0-9;]*m", "", text))
    assert [i for i, line in enumerate(rows) if "[" in line] == [4, 5, 6]
    assert all(line.count("]") == 1 for line in rows[4:7])


def test_a_mark_off_the_board_is_refused() -> None:
    with pytest.raises(ValueError, match="not on the 16 x 30 board"):
        board_text(BOARD, marks={Cell(20, 0): "*"})


def test_colour_wanted_follows_no_color_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_wanted() is True
    monkeypatch.setenv("NO_COLOR", "")
    assert colour_wanted() is True  # set but empty does not count (no-color.org)
    monkeypatch.setenv("NO_COLOR", "1")
    assert colour_wanted() is False
    assert colour_wanted(True) is True and colour_wanted(False) is False


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_r4_r5_the_text_frame_is_the_three_by_three_around_a_square_clipped(
    data: st.DataObject,
) -> None:
    """Whatever the board's size, the brackets enclose exactly the squares at most one row and
    one column from the frame's centre that are on the board."""
    rows = data.draw(st.integers(1, 26), label="rows")
    cols = data.draw(st.integers(1, 12), label="cols")
    board = Board.from_rgb(np.zeros((rows, cols, 3)))
    centre = Cell(data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    lines = board_text(board, frame=centre, colour=False).splitlines()[1 : 1 + rows]
    left, right = max(centre.col - 1, 0), min(centre.col + 1, cols - 1)
    for r, line in enumerate(lines):
        # A row is its letter and a space, then per square a one-character gap and two characters.
        gaps = line[2 : 2 + 3 * cols + 1 : 3]
        if abs(r - centre.row) <= 1:
            assert gaps.strip() == "[" + " " * (right - left) + "]", line
            assert gaps.index("[") == left
        else:
            assert gaps.strip() == "", line


# -- a clue on the board ---------------------------------------------------------------------------


def test_a_clues_belief_is_a_distribution_over_the_board() -> None:
    p = clue_probabilities(default_model(), "ocean", BOARD)
    assert p.shape == BOARD.shape and np.all(p >= 0) and np.isclose(p.sum(), 1.0)


def test_top_squares_are_the_most_likely_best_first() -> None:
    model = default_model()
    best = top_squares(model, "ocean", BOARD, 4)
    probs = [p for _, p in best]
    assert len(best) == 4 and probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1
    p = clue_probabilities(model, "ocean", BOARD)
    assert probs[0] == pytest.approx(p.max())
    assert [p[c.row, c.col] for c, _ in best] == pytest.approx(probs)


def test_render_clue_writes_a_png(tmp_path: Path) -> None:
    out = render_clue(default_model(), "ocean", BOARD, tmp_path / "ocean.png", k=3, dpi=40)
    assert out == tmp_path / "ocean.png"
    assert out.read_bytes().startswith(b"\x89PNG")


# -- where drawing lives ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("package", "name", "now"),
    [
        ("huescues.engine", "render_board", "huescues.render.render_board"),
        ("huescues.language", "render_clue", "huescues.render.render_clue"),
        ("huescues.language", "top_squares", "huescues.agents.top_squares"),
        ("huescues.language", "clue_probabilities", "huescues.agents.clue_probabilities"),
    ],
)
def test_moved_names_say_where_they_are_now(package: str, name: str, now: str) -> None:
    module = __import__(package, fromlist=["_"])
    with pytest.raises(AttributeError, match=re.escape(now)):
        getattr(module, name)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        module.nonsense  # noqa: B018


@pytest.mark.slow
def test_the_engine_and_the_language_models_do_not_import_drawing() -> None:
    code = (
        "import sys, huescues, huescues.engine, huescues.language, huescues.agents\n"
        "print(sorted(m for m in sys.modules if m.startswith(('huescues.render', 'matplotlib'))))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
