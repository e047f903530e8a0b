"""Paper output: any measure as a Markdown or LaTeX table (checked as text: no TeX here), and a
forest plot of players by category (the plot extra)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from huescues import Board
from huescues.research import (
    CategoryAgreement,
    CategoryReport,
    Estimate,
    HumanResponses,
    compare,
    forest_plot,
    human_agreement,
    latex_table,
    markdown_table,
    table_rows,
)

ROWS = {
    "mine_1": {"points": Estimate(1.0, 0.5, 1.5), "clues": 3},
    "50% & more": {"points": Estimate(-0.25, -0.5, 0.0), "note": "n/a"},
}


def test_a_markdown_table_by_hand() -> None:
    assert markdown_table(ROWS, spec=".2f", corner="model") == "\n".join(
        [
            "| model | points | clues | note |",
            "|---|---:|---:|---:|",
            "| mine_1 | 1.00 [0.50, 1.50] | 3 |  |",
            "| 50% & more | -0.25 [-0.50, 0.00] |  | n/a |",
        ]
    )


def test_a_latex_table_by_hand_escaped_with_minus_signs() -> None:
    assert latex_table(ROWS, spec=".2f") == "\n".join(
        [
            r"\begin{tabular}{lrrr}",
            r"\toprule",
            r" & points & clues & note \\",
            r"\midrule",
            r"mine\_1 & 1.00 [0.50, 1.50] & 3 &  \\",
            r"50\% \& more & $-$0.25 [$-$0.50, 0.00] &  & n/a \\",
            r"\bottomrule",
            r"\end{tabular}",
        ]
    )
    floated = latex_table(ROWS, caption="Points_per pick", label="tab:points")
    lines = floated.splitlines()
    assert lines[:4] == [
        r"\begin{table}",
        r"\centering",
        r"\caption{Points\_per pick}",
        r"\label{tab:points}",
    ]
    assert lines[-1] == r"\end{table}" and r"\begin{tabular}{lrrr}" in lines


@pytest.fixture
def picks(tmp_path: Path) -> HumanResponses:
    path = tmp_path / "picks.csv"
    path.write_text(
        "clue,square,participant\nsky,H10,a\nsky,H11,b\ngrass,C20,a\ngrass,C21,b\n",
        encoding="utf-8",
    )
    return HumanResponses.from_csv(path, Board.standard())


class Square:
    """A guesser that always believes in one square."""

    def __init__(self, square: str) -> None:
        self.cell = Board.standard().cell(square)

    def belief(self, board: Board, clues: list[str]) -> object:
        import numpy as np

        b = np.full(board.shape, 1e-6)
        b[self.cell.row, self.cell.col] = 1.0
        return b


def test_results_of_the_measures_make_rows(picks: HumanResponses) -> None:
    results = {
        "H10": human_agreement(Square("H10"), picks, n_boot=20),
        "C20": human_agreement(Square("C20"), picks, n_boot=20),
    }
    rows = table_rows(results)
    assert list(rows) == ["H10", "C20"]
    assert rows["H10"]["points (R15)"] == results["H10"].model_points
    text = markdown_table(results)
    assert text.splitlines()[0] == "|  | points (R15) | model - human | log-likelihood | top-5 |"
    comparison = compare(Square("H10"), Square("C20"), picks, n_boot=20, names=("h", "c"))
    (row,) = table_rows(comparison).values()
    assert row["difference"] == comparison.difference and row["h"] == comparison.a
    assert "difference" in latex_table(comparison)
    with pytest.raises(TypeError, match="cannot make a table of a int"):
        table_rows(3)
    with pytest.raises(TypeError, match="row 'x' is a int"):
        table_rows({"x": 3})


def report() -> CategoryReport:
    def row(name: str, a: float, b: float) -> CategoryAgreement:
        return CategoryAgreement(
            name,
            2,
            20,
            Estimate(0.5, 0.4, 0.6),
            (("mine", Estimate(a, a - 0.1, a + 0.1)), ("theirs", Estimate(b, b - 0.2, b + 0.2))),
            Estimate(0.07, 0.06, 0.08),
        )

    return CategoryReport(
        (row("animals", 0.8, 0.3), row("all clues", 0.6, 0.4)), ("mine", "theirs"), 0.95, 100
    )


def test_a_forest_plot_of_players_by_category(tmp_path: Path) -> None:
    path = tmp_path / "forest.png"
    fig = forest_plot(report(), path, title="by category")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_yticklabels()] == ["animals", "all clues"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["a person", "mine", "theirs", "random square"]  # not the counts
    with pytest.raises(ValueError, match="needs estimates"):
        forest_plot({"a": {"n": 3}})


def test_a_forest_plot_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.backends.backend_agg", None)
    with pytest.raises(ImportError, match=r"pip install 'huescues\[plot\]'"):
        forest_plot(report())
