"""One row per pick (pick_table) and paired comparisons of two players (compare), worked by hand
on a few picks, then checked against human_agreement's own figures."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import ArrayLike, NDArray

from huescues import Board, Cell
from huescues.language import Prediction
from huescues.research import (
    Comparison,
    Estimate,
    HumanResponses,
    compare,
    human_agreement,
    pick_table,
)
from point_models import PointModel

BOARD = Board.standard()


class ByClue:
    """A colour-term model that reads each clue as its own square's colour."""

    def __init__(self, squares: dict[str, str], spread: float = 15.0) -> None:
        self.models = {clue: PointModel(square, spread) for clue, square in squares.items()}

    def predict(self, text: str) -> Prediction:
        return self.models[text].predict(text)

    def score(self, text: str, lab: ArrayLike) -> NDArray[np.float64]:
        return self.models[text].score(text, lab)


class RankOnly:
    def rank(self, board: Board, clues: list[str]) -> list[Cell]:
        return list(board.cells())


PICKS = (
    "clue,square,participant,category\n"
    "sky,H10,p1,up\nsky,H12,p2,up\nsky,H10,p3,up\n"
    "grass,C20,p1,down\ngrass,C21,p2,down\ngrass,F25,p3,down\n"
)


@pytest.fixture
def picks(tmp_path: Path) -> HumanResponses:
    path = tmp_path / "picks.csv"
    path.write_text(PICKS, encoding="utf-8")
    return HumanResponses.from_csv(path, BOARD)


def test_one_row_per_pick_by_hand(picks: HumanResponses, tmp_path: Path) -> None:
    table = pick_table(PointModel("H10"), picks, calibrated=False)
    assert len(table) == 6 and table.k == 5 and not table.calibrated
    first, second = table.rows[:2]
    assert (first.participant, first.clue, str(first.square), first.category) == (
        "p1",
        "sky",
        "H10",
        "up",
    )
    # The model's square is H10 for every clue: 3 points on H10, 1 on H12 (distance 2), 0 on
    # C20 (R15).
    assert [r.points for r in table.rows] == [3.0, 1.0, 3.0, 0.0, 0.0, 0.0]
    assert first.top_k == 1.0 and table.rows[3].top_k == 0.0
    assert first.probability is not None and first.log_probability is not None
    assert first.probability == pytest.approx(np.exp(first.log_probability))
    assert first.probability > second.probability  # type: ignore[operator]
    # The same numbers as human_agreement's, summed per clue.
    agreement = human_agreement(PointModel("H10"), picks, n_boot=0, calibrated=False)
    assert agreement.per_clue[0].model_points == pytest.approx(7 / 3)
    assert agreement.per_clue[0].log_likelihood == pytest.approx(
        np.mean([r.log_probability for r in table.rows[:3]])
    )
    assert table.estimate("points", n_boot=0) == Estimate(7 / 6, n=6)

    path = tmp_path / "rows.csv"
    table.to_csv(path)
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == [
        "participant",
        "clue",
        "square",
        "category",
        "probability",
        "log_probability",
        "points",
        "top_k",
        "line",
    ]
    assert rows[1]["square"] == "H12" and float(rows[1]["points"]) == 1.0
    assert float(rows[0]["probability"]) == first.probability  # every digit written


def test_the_rows_load_into_pandas(picks: HumanResponses) -> None:
    frame = pick_table(PointModel("H10"), picks).to_pandas()
    assert frame.shape == (6, 9)
    assert frame.groupby("clue")["points"].mean().to_dict() == pytest.approx(
        {"sky": 7 / 3, "grass": 0.0}
    )
    assert frame["participant"].nunique() == 3


def test_a_ranking_player_has_rows_but_no_probability(picks: HumanResponses) -> None:
    table = pick_table(RankOnly(), picks)
    assert table.rows[0].probability is None and table.calibration is None
    with pytest.raises(TypeError, match="RankOnly only ranks squares"):
        table.estimate("loglik")


def test_a_player_against_itself_differs_by_nothing(picks: HumanResponses) -> None:
    same = compare(PointModel("H10"), PointModel("H10"), picks, n_boot=200)
    assert same.difference == Estimate(0.0, 0.0, 0.0, n=6)
    assert same.names[0] != same.names[1]  # told apart in tables


def test_a_paired_comparison_by_hand(picks: HumanResponses) -> None:
    # H10 earns 7 points on sky and 0 on grass; C20 earns 0 on sky and 3 + 2 + 0 on grass.
    found = compare(PointModel("H10"), PointModel("C20"), picks, n_boot=300, names=("h", "c"))
    assert isinstance(found, Comparison) and found.names == ("h", "c")
    assert found.a.mean == pytest.approx(7 / 6) and found.b.mean == pytest.approx(5 / 6)
    assert found.difference.mean == pytest.approx(2 / 6)
    assert found.units == "clues, participants" and found.participants == 3
    assert found.picks == 6 and found.clues == 2
    # Paired: a resample that drops a clue drops it for both, so the difference's interval
    # lies within what each resample's two means allow.
    assert found.difference.low is not None and found.difference.high is not None
    assert found.difference.low < found.difference.mean < found.difference.high
    assert found.verdict == "not settled"
    by_clues = compare(PointModel("H10"), PointModel("C20"), picks, n_boot=300, participants=False)
    assert by_clues.units == "clues"
    assert by_clues.difference.mean == found.difference.mean
    # The means are human_agreement's.
    alone = human_agreement(PointModel("H10"), picks, n_boot=0)
    assert found.a.mean == alone.model_points.mean
    text = found.table()
    assert "| difference | +0.333 [" in text and "clues, participants, paired" in text


def test_loglik_and_topk_are_compared_too(picks: HumanResponses) -> None:
    near = ByClue({"sky": "H10", "grass": "C20"})
    far = ByClue({"sky": "P1", "grass": "P30"})
    raw = compare(near, far, picks, measure="loglik", n_boot=100, calibrated=False)
    assert raw.difference.mean is not None and raw.difference.mean > 0
    agreement = human_agreement(near, picks, n_boot=0)
    assert agreement.calibration is not None and agreement.log_likelihood is not None
    assert raw.a.mean == pytest.approx(agreement.calibration.raw_log_likelihood.mean)
    # Calibrated (the default), each clue's temperature fitted on the other clue: as there.
    ll = compare(near, far, picks, measure="loglik", n_boot=100)
    assert ll.a.mean == pytest.approx(agreement.log_likelihood.mean)
    top = compare(near, far, picks, measure="topk", k=1, n_boot=100)
    # The best square: H10 for sky (two picks on it), C20 for grass (one): 3 of 6.
    assert top.a.mean == pytest.approx(3 / 6) and top.b.mean == 0.0


def test_bad_input_is_refused_with_the_bad_value_named(picks: HumanResponses) -> None:
    with pytest.raises(ValueError, match="measure must be one of points, loglik, topk, not 'll'"):
        compare(PointModel("H10"), RankOnly(), picks, measure="ll")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RankOnly only ranks squares"):
        compare(PointModel("H10"), RankOnly(), picks, measure="loglik")
    with pytest.raises(ValueError, match="n_boot must be a whole number"):
        compare(PointModel("H10"), RankOnly(), picks, n_boot=-5)
    with pytest.raises(ValueError, match="k must be at least 1"):
        compare(PointModel("H10"), RankOnly(), picks, k=0)
    anonymous = picks.where(lambda r: r.participant != "p2")
    anonymous = HumanResponses(
        BOARD,
        (*anonymous.rows, type(picks.rows[0])("sky", BOARD.cell("A1"), None, {}, 99)),
    )
    assert compare(PointModel("H10"), RankOnly(), anonymous, n_boot=10).units == "clues"
    with pytest.raises(ValueError, match="line 99: a pick names no participant"):
        compare(PointModel("H10"), RankOnly(), anonymous, participants=True)
