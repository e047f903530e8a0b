"""huescues.research: human responses read into a dataset, and model-versus-human measures."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import ArrayLike, NDArray

from huescues import Board, Cell
from huescues.agents import EmbeddingGuesser, Player
from huescues.language import FlatModel, MeanColourModel, as_lab, default_model
from huescues.research import (
    Agreement,
    Estimate,
    HumanResponses,
    Response,
    agreement_by_category,
    human_agreement,
    synthetic_responses,
)
from point_models import PointModel

ROOT = Path(__file__).resolve().parents[1]
BOARD = Board.standard()


class RankOnly:
    """A guesser that only ranks squares (no belief): always the given squares first."""

    def __init__(self, *squares: str) -> None:
        self.first = [BOARD.cell(s) for s in squares]

    def rank(self, board: Board, clues: list[str]) -> list[Cell]:
        return self.first + [c for c in board.cells() if c not in self.first]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "responses.csv"
    path.write_text(text, encoding="utf-8")
    return path


SAME = "clue,square,participant\n" + "".join(f"sky,H10,P{i}\n" for i in range(4))


# -- loading ---------------------------------------------------------------------------------
def test_rows_are_read_into_typed_responses(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "clue,square,participant,language,colour_blind\n"
        " Sky  Blue ,h10,P1,en,no\n"
        "banana,B17,,de,yes\n",
    )
    data = HumanResponses.from_csv(path, BOARD)
    assert data.board == BOARD and data.skipped == () and len(data) == 2
    first, second = data.rows
    assert first == Response(
        "sky blue", Cell.parse("H10"), "P1", {"language": "en", "colour_blind": "no"}, 2
    )
    assert second.participant is None and second.extra["colour_blind"] == "yes"
    assert data.clues() == ("sky blue", "banana")
    assert data.participants() == ("P1",)


def test_clues_are_grouped_without_case_or_spacing(tmp_path: Path) -> None:
    data = HumanResponses.from_csv(
        write(tmp_path, "clue,square\nSky,A1\nsky ,A2\nSKY,A3\ngrass,C20\n"), BOARD
    )
    groups = data.by_clue()
    assert list(groups) == ["sky", "grass"]
    assert [str(r.square) for r in groups["sky"]] == ["A1", "A2", "A3"]


def test_bad_rows_are_skipped_and_counted_with_line_and_reason(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "clue,square,participant\n"
        "sky,H10,P1\n"
        "sky,Q99,P2\n"  # line 3: not on a 16 x 30 board
        "  ,H10,P3\n"  # line 4: empty clue
        "sky,,P4\n"  # line 5: no square
        "sky,H10\n"  # line 6: a value missing
        "\n"  # blank lines are not rows
        "sky,Z1,P5\n"  # line 8
        "sky,A31,P6\n",  # line 9
    )
    data = HumanResponses.from_csv(path, BOARD)
    assert len(data) == 1
    lines = [n for n, _ in data.skipped]
    assert lines == [3, 4, 5, 6, 8, 9]
    reasons = dict(data.skipped)
    assert "unknown square 'Q99'" in reasons[3]
    assert reasons[4] == "empty clue"
    assert reasons[5] == "no square given"
    assert reasons[6] == "2 values for 3 columns"
    report = data.skip_report()
    assert report.startswith("1 responses read, 6 rows skipped")
    assert "line 3: unknown square 'Q99'" in report


def test_strict_mode_names_the_first_bad_row(tmp_path: Path) -> None:
    path = write(tmp_path, "clue,square\nsky,H10\n,H10\nsky,Q99\n")
    with pytest.raises(ValueError, match=r"line 3: empty clue"):
        HumanResponses.from_csv(path, BOARD, strict=True)
    good = write(tmp_path, SAME)
    assert len(HumanResponses.from_csv(good, BOARD, strict=True)) == 4


def test_a_table_without_the_named_columns_is_a_clear_error(tmp_path: Path) -> None:
    path = write(tmp_path, "word,cell\nsky,H10\n")
    with pytest.raises(ValueError, match=r"no column named 'clue', 'square'.*'word', 'cell'"):
        HumanResponses.from_csv(path, BOARD)
    data = HumanResponses.from_csv(path, BOARD, clue_column="word", square_column="cell")
    assert data.rows[0].clue == "sky" and data.rows[0].square == Cell.parse("H10")
    with pytest.raises(ValueError, match="empty"):
        HumanResponses.from_csv(write(tmp_path, ""), BOARD)


def test_records_and_filters() -> None:
    data = HumanResponses.from_records(
        [{"clue": "sky", "square": "H10", "cb": "yes"}, {"clue": "sky", "square": "H11"}], BOARD
    )
    assert [r.line for r in data.rows] == [1, 2]
    assert len(data.where(lambda r: r.extra.get("cb") == "yes")) == 1
    with pytest.raises(ValueError, match=r"records, row 1: unknown square"):
        HumanResponses.from_records([{"clue": "sky", "square": "Q1"}], BOARD, strict=True)


def test_a_missing_value_in_records_is_no_clue_not_the_word_none(tmp_path: Path) -> None:
    data = HumanResponses.from_records([{"clue": None, "square": "H10"}], BOARD)
    assert data.rows == () and data.skipped == ((1, "empty clue"),)  # was the clue "none"
    with pytest.raises(TypeError, match="row 1 names a column 1, not text"):
        HumanResponses.from_records([{1: "sky", "clue": "sky", "square": "H10"}], BOARD)
    huge = write(tmp_path, "clue,square\n" + "x" * 200_000 + ",H10\n")
    with pytest.raises(ValueError, match=r"responses\.csv, line 2: not readable CSV"):
        HumanResponses.from_csv(huge, BOARD)


# -- agreement, by hand ------------------------------------------------------------------------
def test_all_humans_agree_and_a_model_on_their_square_matches_them(tmp_path: Path) -> None:
    data = HumanResponses.from_csv(write(tmp_path, SAME), BOARD)
    on = human_agreement(PointModel("H10"), data, n_boot=200)
    assert on.human_points.mean == 3.0 and on.model_points.mean == 3.0
    assert on.gap.mean == 0.0
    assert on.per_clue[0].model_square == Cell.parse("H10")
    assert on.top_k.mean == 1.0
    off = human_agreement(PointModel("H12"), data, n_boot=200)  # 2 away: R15 gives 1
    assert off.model_points.mean == 1.0 and off.human_points.mean == 3.0
    assert off.gap.mean == -2.0
    assert off.log_likelihood is not None and on.log_likelihood is not None
    assert on.log_likelihood.mean > off.log_likelihood.mean


def test_leave_one_out_points_by_hand(tmp_path: Path) -> None:
    # A1-A2 at distance 1 (2 points), A1-A4 at 3 (0), A2-A4 at 2 (1): (2 + 0 + 1) * 2 / 6 = 1.
    text = "clue,square\nx,A1\nx,A2\nx,A4\nlone,P30\n"
    data = HumanResponses.from_csv(write(tmp_path, text), BOARD)
    agreement = human_agreement(RankOnly("A2"), data, n_boot=100)
    x, lone = agreement.per_clue
    assert x.human_points == 1.0 and lone.human_points is None
    # The model's A2 against A1, A2, A4: 2 + 3 + 1 = 6 over 3 picks; against P30: 0.
    assert x.model_points == 2.0 and lone.model_points == 0.0
    assert agreement.model_points.mean == pytest.approx(6 / 4)
    assert agreement.human_points.mean == 1.0  # only clues with two picks or more
    assert agreement.gap.mean == pytest.approx(1.0)  # paired on clue x: 2 - 1
    assert agreement.log_likelihood is None and x.log_likelihood is None
    assert x.top_k == 1.0  # the 5 best: A2, then A1, A3, A4, A5
    top_1 = human_agreement(RankOnly("A2"), data, k=1, n_boot=100)
    assert top_1.per_clue[0].top_k == pytest.approx(1 / 3)
    assert top_1.top_k.mean == pytest.approx(1 / 4)


def test_a_flat_belief_scores_a_random_interior_square_not_the_first(tmp_path: Path) -> None:
    # A flat belief ties the 12 x 26 = 312 squares whose whole R15 frame (distance 2) lies on
    # the board. Against H10, the 25 squares within distance 2 are all interior: 3 + 8 * 2 +
    # 16 * 1 = 35 points over 312 squares. Against A1 only C3 (distance 2) is interior: 1 point.
    data = HumanResponses.from_csv(write(tmp_path, "clue,square\nx,H10\nx,A1\n"), BOARD)
    flat = human_agreement(FlatModel(), data, n_boot=0)
    (clue,) = flat.per_clue
    assert clue.tied == 312 and clue.model_square == Cell.parse("C3")  # the player's own move
    assert flat.model_points.mean == pytest.approx((35 + 1) / 312 / 2)
    # Not what C3 alone earns (1 point against A1, 0 against H10), which rewarded ignorance
    # wherever people's picks gather near the board's top left corner.
    assert flat.model_points.mean != pytest.approx(0.5)
    # The top-5 squares: 5 slots shared by the 312 tied squares; H10 is one of them, A1 not.
    assert flat.top_k.mean == pytest.approx(5 / 312 / 2)
    assert flat.log_likelihood is not None
    assert flat.log_likelihood.mean == pytest.approx(flat.uniform_log_likelihood)
    # The same per category: the random interior square, next to a random square of the board
    # (14 points against A1 and 35 against H10, over 480 squares).
    report = agreement_by_category(data, {"flat": FlatModel()}, n_boot=0)
    assert report.overall.player("flat").mean == pytest.approx((35 + 1) / 312 / 2)
    assert report.overall.random.mean == pytest.approx((35 + 14) / 480 / 2)


def test_a_guesser_a_seat_and_a_model_agree_on_the_same_reading(tmp_path: Path) -> None:
    data = HumanResponses.from_csv(write(tmp_path, SAME + "sky,H11,P9\n"), BOARD)
    model = PointModel("H10", spread=8.0)
    by_model = human_agreement(model, data, n_boot=100)
    guesser = EmbeddingGuesser(model=model, use_pawns=False)
    by_guesser = human_agreement(guesser, data, n_boot=100)
    by_seat = human_agreement(Player(guesser=guesser), data, n_boot=100)
    assert by_model.log_likelihood is not None and by_guesser.log_likelihood is not None
    assert by_guesser.log_likelihood.mean == pytest.approx(by_model.log_likelihood.mean)
    assert by_guesser.per_clue == by_seat.per_clue
    assert by_guesser.per_clue[0].model_square == by_model.per_clue[0].model_square
    assert by_guesser.player.startswith("ModelGuesser")  # EmbeddingGuesser, by its honest name


def test_a_model_that_predicts_the_picks_beats_the_mean_colour_baseline(tmp_path: Path) -> None:
    data = HumanResponses.from_csv(write(tmp_path, SAME + "sky,H11,P9\nsky,G10,P8\n"), BOARD)
    good = human_agreement(PointModel("H10", spread=6.0), data, n_boot=100)
    base = human_agreement(MeanColourModel(BOARD.lab), data, n_boot=100)
    assert good.log_likelihood is not None and base.log_likelihood is not None
    assert good.log_likelihood.mean > base.log_likelihood.mean
    assert good.log_likelihood.mean > good.uniform_log_likelihood
    assert good.top_k.mean >= base.top_k.mean
    assert good.uniform_log_likelihood == pytest.approx(-math.log(480))


def test_non_players_and_bad_settings_are_clear_errors(tmp_path: Path) -> None:
    data = HumanResponses.from_csv(write(tmp_path, SAME), BOARD)
    with pytest.raises(TypeError, match="cannot measure a str"):
        human_agreement("default", data)
    with pytest.raises(ValueError, match="k must be"):
        human_agreement(PointModel("H10"), data, k=0)
    with pytest.raises(ValueError, match="no responses"):
        human_agreement(PointModel("H10"), data.where(lambda r: False))


def test_a_player_reading_no_distribution_is_named_not_an_estimates_nan(tmp_path: Path) -> None:
    # Such players gave "an estimate's mean must be finite or None, not nan", or numpy's words.
    data = HumanResponses.from_csv(write(tmp_path, SAME), BOARD)

    class Nowhere:
        def __init__(self, belief: NDArray[np.float64]) -> None:
            self.values = belief

        def belief(self, board: Board, clues: list[str]) -> NDArray[np.float64]:
            return self.values

    for belief in (np.zeros((16, 30)), np.full((16, 30), np.nan), np.ones(5)):
        with pytest.raises(ValueError, match="Nowhere's belief for 'sky' is no distribution"):
            human_agreement(Nowhere(belief), data, n_boot=10)

    class Infinite(PointModel):
        def score(self, text: str, lab: ArrayLike) -> NDArray[np.float64]:
            return np.full(as_lab(lab).shape[:-1], -np.inf)

    with pytest.raises(ValueError, match="Infinite scored 'sky' NaN or infinity"):
        human_agreement(Infinite("H10"), data, n_boot=10)
    for n_boot in (2.5, "200"):
        with pytest.raises(ValueError, match="n_boot must be a whole number"):
            human_agreement(PointModel("H10"), data, n_boot=n_boot)  # type: ignore[arg-type]
    # The seed and k (numpy's or a slice's errors before).
    for seed in (-1, 1.5, True):
        with pytest.raises(ValueError, match="bootstrap's seed must be a whole number"):
            human_agreement(PointModel("H10"), data, n_boot=10, seed=seed)  # type: ignore[arg-type]
    for k in (0, 2.5, True):
        with pytest.raises(ValueError, match="k must be at least 1: the top-k hit rate's k"):
            human_agreement(PointModel("H10"), data, n_boot=10, k=k)  # type: ignore[arg-type]


# -- the synthetic dataset -------------------------------------------------------------------
@pytest.fixture(scope="module")
def synthetic() -> HumanResponses:
    return synthetic_responses()


@pytest.fixture(scope="module")
def measured(synthetic: HumanResponses) -> Agreement:
    return human_agreement(default_model(), synthetic, n_boot=500)


def test_the_shipped_synthetic_file_is_the_scripts_output() -> None:
    path = ROOT / "scripts" / "make_synthetic_responses.py"
    spec = importlib.util.spec_from_file_location("make_synthetic_responses", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.main(["--check"]) == 0


def test_the_synthetic_dataset_loads_with_its_bad_rows_reported(synthetic: HumanResponses) -> None:
    assert len(synthetic.clues()) == 40 and len(synthetic.participants()) == 12
    assert len(synthetic.skipped) == 3
    assert {r.extra["colour_blind"] for r in synthetic.rows} == {"yes", "no"}
    with pytest.raises(ValueError, match="unknown square 'Q99'"):
        synthetic_responses(strict=True)


def test_intervals_are_deterministic_and_contain_the_mean(
    synthetic: HumanResponses, measured: Agreement
) -> None:
    again = human_agreement(default_model(), synthetic, n_boot=500)
    assert again == measured
    assert measured.log_likelihood is not None
    for est in (
        measured.model_points,
        measured.human_points,
        measured.gap,
        measured.log_likelihood,
        measured.top_k,
    ):
        assert isinstance(est, Estimate)
        assert est.low <= est.mean <= est.high
        assert est.high - est.low > 0
    other = human_agreement(default_model(), synthetic, n_boot=500, seed=1)
    assert other.model_points.mean == measured.model_points.mean
    assert other.model_points.low != measured.model_points.low
    bare = human_agreement(default_model(), synthetic, n_boot=0)
    assert bare.model_points.low is None and bare.model_points.mean is not None


def test_the_model_reads_the_synthetic_picks_better_than_chance(measured: Agreement) -> None:
    assert measured.n_clues == 40 and measured.n_picks == sum(r.n for r in measured.per_clue)
    assert measured.log_likelihood is not None
    assert measured.log_likelihood.low > measured.uniform_log_likelihood
    assert measured.model_points.low > 0.5
    assert 0.0 < measured.top_k.mean < 1.0


def test_table_and_csv(measured: Agreement, tmp_path: Path) -> None:
    table = measured.table(max_rows=3)
    assert "| model points (R15) |" in table and "| banana |" in table
    assert "37 more clues" in table
    path = tmp_path / "per_clue.csv"
    measured.to_csv(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "clue,n,model_square,model_points,human_points,log_likelihood,top_5"
    assert len(lines) == 41 and lines[1].startswith("banana,")


def test_blank_rows_before_the_header_are_skipped(tmp_path: Path) -> None:
    # A spreadsheet's export may start with blank rows: "the columns are []" before.
    plain = HumanResponses.from_csv(write(tmp_path, SAME), BOARD)
    padded = tmp_path / "padded.csv"
    padded.write_text("\n,,\n" + SAME, encoding="utf-8")
    read = HumanResponses.from_csv(padded, BOARD).rows
    assert [(r.clue, r.square, r.participant) for r in read] == [
        (r.clue, r.square, r.participant) for r in plain.rows
    ]
    assert plain.rows and [r.line for r in read] == [
        r.line + 2 for r in plain.rows
    ]  # as in the file
    empty = tmp_path / "empty.csv"
    empty.write_text("\n , \n", encoding="utf-8")
    with pytest.raises(ValueError, match="the table is empty"):
        HumanResponses.from_csv(empty, BOARD)
