"""The board (R1): the standard palette and its statistics, CSV and array boards."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from numpy.typing import NDArray

from huescues.colour import (
    PaletteModel,
    delta_e_2000,
    palette_srgb,
    palette_stats,
    srgb_to_lab,
    standard_palette,
)
from huescues.engine import STANDARD_BOARD_ID, Board, Cell

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_CSV = ROOT / "src" / "huescues" / "data" / "standard_board.csv"

#: The claims docs/board.md makes about the standard palette (CIEDE2000, 8-bit colours).
MIN_PAIRWISE = 2.0
NEIGHBOUR4_MEDIAN = (3.0, 3.5)
NEIGHBOUR8_MEDIAN = (3.9, 4.5)


@pytest.fixture(scope="module")
def generated() -> NDArray[np.uint8]:
    """The standard palette, generated afresh (takes a second or two)."""
    return standard_palette()


@pytest.fixture(scope="module")
def script() -> ModuleType:
    """scripts/make_standard_board.py, loaded as a module."""
    path = ROOT / "scripts" / "make_standard_board.py"
    spec = importlib.util.spec_from_file_location("make_standard_board", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _edge_walk(rows: int, cols: int) -> list[tuple[int, int]]:
    """The edge squares clockwise from A1: along the top, down the right, back, and up."""
    top = [(0, c) for c in range(cols)]
    right = [(r, cols - 1) for r in range(1, rows)]
    bottom = [(rows - 1, c) for c in range(cols - 2, -1, -1)]
    left = [(r, 0) for r in range(rows - 2, 0, -1)]
    return top + right + bottom + left


# -- the standard board ------------------------------------------------------------------------


def test_r1_standard_board_is_16_by_30() -> None:
    board = Board.standard()
    assert board.shape == (16, 30)
    assert board.size == 480
    assert board.srgb.shape == board.lab.shape == (16, 30, 3)
    assert board.id == STANDARD_BOARD_ID
    assert Board.standard() is board  # loaded once


def test_r1_board_arrays_are_read_only() -> None:
    board = Board.standard()
    with pytest.raises(ValueError, match="read-only"):
        board.srgb[0, 0, 0] = 0.5
    with pytest.raises(ValueError, match="read-only"):
        board.lab[0, 0, 0] = 50.0


def test_r1_lab_is_the_cielab_of_srgb() -> None:
    board = Board.standard()
    np.testing.assert_allclose(board.lab, srgb_to_lab(board.srgb), atol=1e-9)


@pytest.mark.slow
def test_r1_shipped_csv_is_what_the_generator_makes(
    generated: NDArray[np.uint8], script: ModuleType
) -> None:
    """Regenerating the palette gives the shipped file, byte for byte."""
    shipped = np.round(Board.standard().srgb * 255.0).astype(np.uint8)
    np.testing.assert_array_equal(shipped, generated)
    assert SHIPPED_CSV.read_text(encoding="utf-8") == script.to_csv(generated)


@pytest.mark.slow
def test_r1_palette_is_inside_the_srgb_gamut() -> None:
    """The model reduces chroma to stay in gamut: its float colours need no clipping."""
    srgb = palette_srgb(PaletteModel())
    assert srgb.min() >= 0.0
    assert srgb.max() <= 1.0
    # Edge squares are full colours: one channel at 0 and one at 255.
    shipped = np.round(Board.standard().srgb * 255.0).astype(int)
    for r, c in _edge_walk(16, 30):
        assert shipped[r, c].min() == 0
        assert shipped[r, c].max() == 255


def test_r1_no_two_squares_nearly_alike_and_neighbours_close() -> None:
    """The statistics docs/board.md quotes hold for the shipped 8-bit colours."""
    stats = palette_stats(Board.standard().lab)
    assert stats.pairwise_min >= MIN_PAIRWISE
    assert stats.neighbour4_min >= MIN_PAIRWISE
    assert NEIGHBOUR4_MEDIAN[0] <= stats.neighbour4_median <= NEIGHBOUR4_MEDIAN[1]
    assert NEIGHBOUR8_MEDIAN[0] <= stats.neighbour8_median <= NEIGHBOUR8_MEDIAN[1]
    assert stats.neighbour4_max < 15.0


def test_r1_palette_stats_on_a_small_board() -> None:
    lab = np.array([[[50.0, 0.0, 0.0], [60.0, 0.0, 0.0]], [[50.0, 10.0, 0.0], [50.0, 0.0, 0.0]]])
    stats = palette_stats(lab)
    assert stats.pairwise_min == 0.0
    assert stats.closest == ((0, 0), (1, 1))
    assert stats.neighbour4_min > 0.0
    assert stats.neighbour8_min == 0.0
    with pytest.raises(ValueError, match="rows, cols, 3"):
        palette_stats(np.zeros((4, 3)))


def test_r1_hue_goes_once_round_the_edge() -> None:
    """Walked clockwise from A1, the edge squares' hue angle always increases, by a full turn."""
    lab = Board.standard().lab
    walk = _edge_walk(16, 30)
    hue = np.degrees(np.arctan2([lab[r, c, 2] for r, c in walk], [lab[r, c, 1] for r, c in walk]))
    steps = np.mod(np.diff(np.append(hue, hue[0])), 360.0)
    assert np.all(steps > 0.0)
    assert np.all(steps < 30.0)
    assert steps.sum() == pytest.approx(360.0)


def test_r1_yellow_at_the_top_and_blue_at_the_bottom() -> None:
    board = Board.standard()
    # Pure yellow falls between A15 and A16, the top centre.
    assert board.hex(board.cell("A15"))[:3] == "#ff" and board.hex(board.cell("A15"))[3] == "f"
    assert board.hex(board.cell("A16"))[1] == "f" and board.hex(board.cell("A16"))[3:] == "ff00"
    r, g, b = board.srgb[board.cell("P17").row, board.cell("P17").col]
    assert b == 1.0 and r < 0.1 and g < 0.3


def test_r1_chroma_falls_to_a_near_neutral_centre() -> None:
    lab = Board.standard().lab
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    assert chroma[7:9, 14:16].max() < 5.0  # H15, H16, I15, I16
    assert min(chroma[r, c] for r, c in _edge_walk(16, 30)) > 40.0
    rows, cols = np.indices(chroma.shape)
    ring = np.minimum.reduce([rows, cols, 15 - rows, 29 - cols])
    means = [chroma[ring == k].mean() for k in range(8)]
    assert all(a > b for a, b in itertools.pairwise(means))


def test_r1_lightness_falls_from_top_to_bottom() -> None:
    lightness = Board.standard().lab[..., 0]
    assert lightness[:8].mean() > lightness[8:].mean() + 15.0
    assert lightness[0].mean() > lightness[-1].mean() + 25.0


@pytest.mark.slow
def test_r1_palette_model_is_deterministic_and_sized(generated: NDArray[np.uint8]) -> None:
    small = standard_palette(PaletteModel(rows=7, cols=9))
    assert small.shape == (7, 9, 3)
    assert small.dtype == np.uint8
    np.testing.assert_array_equal(small, standard_palette(PaletteModel(rows=7, cols=9)))
    assert generated.shape == (16, 30, 3)


# -- CSV boards --------------------------------------------------------------------------------


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "board.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _square_lines(rows: int, cols: int) -> list[str]:
    return [
        f"{'ABCDEFGHIJKLMNOP'[r]},{c + 1},{10 * r},{10 * c},{100}"
        for r in range(rows)
        for c in range(cols)
    ]


def test_r1_csv_round_trip(tmp_path: Path) -> None:
    board = Board.standard()
    path = tmp_path / "copy.csv"
    board.to_csv(path)
    again = Board.from_csv(path, id="copy")
    assert again.shape == board.shape
    np.testing.assert_array_equal(again.srgb, board.srgb)
    np.testing.assert_allclose(again.lab, board.lab)
    assert path.read_text(encoding="utf-8") == SHIPPED_CSV.read_text(encoding="utf-8")


def test_r1_csv_small_board_in_any_order(tmp_path: Path) -> None:
    lines = _square_lines(2, 3)
    path = _write(tmp_path, ["row,column,red,green,blue", *reversed(lines)])
    board = Board.from_csv(path)
    assert board.shape == (2, 3)
    assert board.hex(Cell.parse("B3", rows=2, cols=3)) == "#0a1464"
    assert board.id.startswith("rgb-2x3-")
    assert board.source == str(path)


def test_r1_csv_wrong_column_count_names_the_line(tmp_path: Path) -> None:
    lines = _square_lines(2, 2)
    lines[2] = "B,1,0,0"
    path = _write(tmp_path, ["row,column,red,green,blue", *lines])
    with pytest.raises(ValueError, match=r"line 4: expected 5 columns"):
        Board.from_csv(path)


def test_r1_csv_duplicate_square_names_the_line(tmp_path: Path) -> None:
    lines = _square_lines(2, 2)
    path = _write(tmp_path, ["row,column,red,green,blue", *lines, "A,2,1,2,3"])
    with pytest.raises(ValueError, match=r"line 6: square A2 appears twice"):
        Board.from_csv(path)


@pytest.mark.parametrize("bad", ["?,1,0,0,0", "1,1,0,0,0", "AB,1,0,0,0", "A,0,0,0,0", "A,x,0,0,0"])
def test_r1_csv_bad_square_names_the_line(tmp_path: Path, bad: str) -> None:
    lines = _square_lines(2, 2)
    path = _write(tmp_path, ["row,column,red,green,blue", bad, *lines])
    with pytest.raises(ValueError, match=r"line 2"):
        Board.from_csv(path)


@pytest.mark.parametrize("bad", ["A,1,256,0,0", "A,1,-1,0,0", "A,1,red,0,0", "A,1,0.5,0,0"])
def test_r1_csv_bad_colour_names_the_line(tmp_path: Path, bad: str) -> None:
    lines = _square_lines(2, 2)[1:]
    path = _write(tmp_path, ["row,column,red,green,blue", bad, *lines])
    with pytest.raises(ValueError, match=r"line 2"):
        Board.from_csv(path)


def test_r1_csv_missing_square_is_named(tmp_path: Path) -> None:
    lines = [line for line in _square_lines(3, 3) if not line.startswith("B,2,")]
    path = _write(tmp_path, ["row,column,red,green,blue", *lines])
    with pytest.raises(ValueError, match=r"1 squares are missing \(first: B2\)"):
        Board.from_csv(path)


def test_r1_csv_needs_a_square(tmp_path: Path) -> None:
    path = _write(tmp_path, ["row,column,red,green,blue"])
    with pytest.raises(ValueError, match="at least one square"):
        Board.from_csv(path)


# -- array boards ------------------------------------------------------------------------------


def test_r1_from_rgb_reads_integers_as_0_to_255() -> None:
    rgb = np.array([[[0, 128, 255], [255, 255, 255]]], dtype=np.int64)
    board = Board.from_rgb(rgb)
    assert board.shape == (1, 2)
    np.testing.assert_allclose(board.srgb, rgb / 255.0)
    assert board.hex(Cell(0, 0)) == "#0080ff"
    assert Board.from_rgb(rgb.astype(np.uint8)).id == board.id  # same colours, same id


def test_r1_from_rgb_reads_floats_as_0_to_1() -> None:
    rgb = np.array([[[0.0, 0.5, 1.0]], [[1.0, 1.0, 1.0]]])
    board = Board.from_rgb(rgb, id="mine", source="a test")
    assert (board.id, board.source, board.shape) == ("mine", "a test", (2, 1))
    np.testing.assert_allclose(board.srgb, rgb)
    np.testing.assert_allclose(board.lab[1, 0], [100.0, 0.0, 0.0], atol=1e-2)


@pytest.mark.parametrize(
    "rgb",
    [
        np.full((2, 2, 3), 1.5),
        np.full((2, 2, 3), -0.1),
        np.full((2, 2, 3), np.nan),
        np.full((2, 2, 3), 256),
        np.full((2, 2, 3), -1),
    ],
)
def test_r1_from_rgb_refuses_values_out_of_range(rgb: NDArray[np.float64]) -> None:
    with pytest.raises(ValueError, match="must lie in"):
        Board.from_rgb(rgb)


@pytest.mark.parametrize(
    ("value", "said"),
    [(300, "green 300 at B3"), (-1, "green -1 at B3"), (1.5, "green 1.5 at B3"),
     (np.nan, "green nan at B3"), (-0.25, "green -0.25 at B3")],
)  # fmt: skip
def test_r1_from_rgb_names_the_value_its_channel_and_square(value: float, said: str) -> None:
    rgb = np.zeros((3, 4, 3), dtype=type(value))
    rgb[1, 2, 1] = value  # row B, column 3, green
    with pytest.raises(ValueError, match=f"{said} is outside"):
        Board.from_rgb(rgb)


@pytest.mark.parametrize("shape", [(4, 3), (2, 2, 4), (2, 2, 3, 1), (0, 2, 3), (27, 2, 3)])
def test_r1_from_rgb_refuses_wrong_shapes(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"shape|rows"):
        Board.from_rgb(np.zeros(shape))


def test_r1_from_rgb_refuses_other_types() -> None:
    with pytest.raises(TypeError):
        Board.from_rgb(np.full((1, 1, 3), "x"))


def test_r1_neighbouring_squares_differ_less_than_distant_ones() -> None:
    """Neighbours are perceptually close: much closer than squares far apart on the board."""
    lab = Board.standard().lab
    near = delta_e_2000(lab[:, 1:], lab[:, :-1]).mean()
    far = delta_e_2000(lab[:, 15:], lab[:, :15]).mean()
    assert far > 5 * near


def test_r1_cielab_conversion_equals_colour_science() -> None:
    """The board's sRGB -> CIELAB is done in numpy (no colour-science import to load a board);
    it must equal colour-science's sRGB_to_XYZ + XYZ_to_Lab (D65)."""
    # the reference conversion is a private helper kept only to check the numpy one: tested here
    from huescues.colour._convert import _srgb_to_lab_colour_science

    rgb = np.random.default_rng(0).random((500, 3))
    rgb[:5] = 0.0
    rgb[5:10] = 1.0
    rgb[10:15] = 0.02  # the linear part of the sRGB curve
    assert np.allclose(srgb_to_lab(rgb), _srgb_to_lab_colour_science(rgb), atol=1e-9)


def test_boards_pickle_to_the_same_board_with_read_only_colours() -> None:
    import pickle

    # The standard board travels as its name (workers get their own copy of the same board,
    # not 30 KB of colours with every task); another board travels whole.
    standard = Board.standard()
    data = pickle.dumps(standard)
    assert len(data) < 200 and pickle.loads(data) is standard
    other = Board.from_rgb(standard.srgb[:4, :5], id="small", source="a test")
    back = pickle.loads(pickle.dumps(other))
    assert back == other and back.source == "a test" and back.shape == (4, 5)
    assert np.array_equal(back.lab, other.lab) and np.array_equal(back.srgb, other.srgb)
    assert not back.lab.flags.writeable and not back.srgb.flags.writeable
    # A board with the standard id but other colours is not taken for the standard one.
    lookalike = Board.from_rgb(standard.srgb[::-1], id=standard.id)
    assert not np.array_equal(pickle.loads(pickle.dumps(lookalike)).srgb, standard.srgb)


def test_r1_a_square_off_the_board_or_no_square_has_no_colour() -> None:
    board = Board.standard()
    assert board.hex(Cell(0, 0)).startswith("#")
    with pytest.raises(ValueError, match=r"not a square of board .* \(16 x 30, R1\)"):
        board.hex(Cell(16, 0))
    with pytest.raises(TypeError, match="takes a Cell"):
        board.hex("A1")  # type: ignore[arg-type]


def test_r1_a_board_csv_with_a_header_and_only_blank_rows_is_refused_by_name(
    tmp_path: Path,
) -> None:
    path = tmp_path / "blank.csv"
    path.write_text("row,column,red,green,blue\n\n , , , , \n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"blank\.csv: a header row and at least one square"):
        Board.from_csv(path)
