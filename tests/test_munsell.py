"""The WCS-like Munsell chart (docs/munsell.md): layout, neutrals, gamut, and play."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from huescues import Board, Deck, Rules
from huescues.colour import (
    WCS_BOARD_ID,
    munsell_to_srgb,
    srgb_to_lab,
    wcs_palette,
    wcs_specifications,
)

# the chart's layout constants are private: tested here against the WCS chart
from huescues.colour._munsell import EDGE_ROW_MAX_CHROMA, WCS_HUES, WCS_VALUES, chart_csv
from huescues.testing import check_games

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_shipped_chart_is_what_the_script_makes() -> None:
    """The chart ships (colour-science's conversion takes a quarter of a minute): the file is
    the rule's chart, built afresh, and what ``wcs_palette`` and ``wcs_specifications`` read."""
    path = ROOT / "scripts" / "make_wcs_chart.py"
    spec = importlib.util.spec_from_file_location("make_wcs_chart", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.OUT.read_text(encoding="utf-8") == script.make()
    assert script.OUT.read_text(encoding="utf-8") == chart_csv(
        tuple(map(tuple, wcs_specifications())), wcs_palette()
    )


def test_layout_follows_the_wcs_chart() -> None:
    palette = wcs_palette()
    assert palette.shape == (10, 41, 3) and palette.dtype == np.uint8
    assert WCS_VALUES == (9.5, 9, 8, 7, 6, 5, 4, 3, 2, 1.5)
    assert len(WCS_HUES) == 40 and WCS_HUES[0] == "2.5R" and WCS_HUES[-1] == "10RP"
    specs = wcs_specifications()
    for row, value in zip(specs, WCS_VALUES, strict=True):
        assert row[0] == f"N{value:g}"
        for hue, spec in zip(WCS_HUES, row[1:], strict=True):
            assert spec == f"N{value:g}" or spec.startswith(f"{hue} {value:g}/")


def test_palette_is_cached_but_returned_as_a_copy() -> None:
    a = wcs_palette()
    a[0, 0] = 0
    assert wcs_palette()[0, 0].tolist() != [0, 0, 0]
    assert Board.wcs() is Board.wcs()


def test_neutral_column_is_achromatic() -> None:
    lab = srgb_to_lab(wcs_palette()[:, 0].astype(np.float64) / 255.0)
    assert np.all(np.hypot(lab[:, 1], lab[:, 2]) < 1.5)


def test_lightness_falls_with_value_row_by_row() -> None:
    lab = Board.wcs().lab
    assert np.all(np.diff(lab[:, 0, 0]) < 0)  # the neutral column
    assert np.all(np.diff(lab[..., 0].mean(axis=1)) < 0)  # every row on average
    # Munsell value is close to L*/10 (within a few units) in every square.
    expected = np.array(WCS_VALUES)[:, None] * 10
    assert np.all(np.abs(lab[..., 0] - expected) < 6)


@pytest.mark.slow
def test_chromatic_squares_are_the_highest_even_chroma_inside_srgb() -> None:
    specs = wcs_specifications()
    for r, row in enumerate(specs):
        for spec in row[1:]:
            if spec.startswith("N"):
                continue
            rgb = munsell_to_srgb(spec, encode=False)
            assert rgb.min() >= -1e-6 and rgb.max() <= 1 + 1e-6, spec
            chroma = int(spec.split("/")[1])
            assert chroma % 2 == 0
            if r in (0, len(specs) - 1):
                assert chroma <= EDGE_ROW_MAX_CHROMA
    # Spot-check maximality in the middle rows: two more chroma leaves sRGB (or the data).
    for spec in (specs[5][1], specs[3][12], specs[6][30]):
        hue, rest = spec.split(" ")
        value, top = rest.split("/")
        try:
            rgb = munsell_to_srgb(f"{hue} {value}/{int(top) + 2}", encode=False)
        except ValueError:
            continue
        assert rgb.min() < -1e-6 or rgb.max() > 1 + 1e-6


def test_most_squares_are_chromatic() -> None:
    lab = Board.wcs().lab[1:-1, 1:]
    assert np.mean(np.hypot(lab[..., 1], lab[..., 2]) > 10) > 0.9


def test_out_of_domain_specifications_raise_value_error() -> None:
    with pytest.raises(ValueError, match="cannot be converted"):
        munsell_to_srgb("5R 12/4")


@pytest.mark.slow
def test_board_plays_games_with_a_generated_deck() -> None:
    board = Board.wcs()
    assert board.id == WCS_BOARD_ID and board.shape == (10, 41)
    assert "approximation" in board.source
    deck = Deck.for_board(10, 41)
    assert deck.id.startswith("generated-10x41") and deck.extent[0] <= 10
    report = check_games(Rules.standard(4), board, games=2)
    assert report.games == 2
