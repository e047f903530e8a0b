"""Real people's picks shipped with the package, the measures per category of clue, and the
scripts that print and draw them."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from huescues.agents import EmbeddingGuesser, Player
from huescues.engine import Board, Cell, Rules
from huescues.language import NamingModel
from huescues.research import (
    ALL_CATEGORIES,
    HumanResponses,
    agreement_by_category,
    dev_picks,
    library_players,
    retail_board,
)
from repo_scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
R15 = Rules.standard(4)


def _script(name: str) -> ModuleType:
    return load_script(name)


class FixedGuesser:
    """A guesser that always ranks ``square`` first, whatever the clue."""

    def __init__(self, square: str) -> None:
        self.square = square

    def rank(self, board: Board, clues: Sequence[str]) -> list[Cell]:
        first = board.cell(self.square)
        return [first, *(c for c in board.cells() if c != first)]


# -- the shipped picks ---------------------------------------------------------------------------
def test_the_dev_picks_load_with_their_board_and_every_column() -> None:
    responses, board = dev_picks()
    assert len(responses) == 1461 and len(responses.clues()) == 39
    assert responses.skipped == ()
    assert board.id == "retail" and board.shape == (16, 30) and responses.board is board
    first = responses.rows[0]
    assert (first.clue, str(first.square)) == ("flamingo", "C15")
    assert first.participant is not None
    assert set(first.extra) == {
        "shown_word",
        "shown_language",
        "category",
        "gender",
        "age_range",
        "colour_blind",
    }
    categories = {r.extra["category"] for r in responses.rows}
    assert categories == {"ANIMAL", "COMESTIBLE", "ENTORNO", "PIEDRA", "PLANTA", "POP", "SUBJETIVO"}
    # The board is the measured one, not the standard board.
    assert not np.array_equal(board.srgb, Board.standard().srgb)
    assert retail_board().id == "retail"


def test_the_picks_ship_with_their_licence() -> None:
    data = resources.files("huescues.data").joinpath("research")
    assert "Apache License" in data.joinpath("HUES-AND-CUES-PEOPLE-LICENSE.txt").read_text()
    assert "Alabau-Bosque" in data.joinpath("README.md").read_text()


# -- per category on a tiny file -----------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny() -> HumanResponses:
    records = [
        {"clue": "a", "square": "A1", "category": "X"},
        {"clue": "a", "square": "A2", "category": "X"},
        {"clue": "a", "square": "C5", "category": "X"},
        {"clue": "b", "square": "D4", "category": "Y"},
        {"clue": "b", "square": "D4", "category": "Y"},
        {"clue": "c", "square": "H10", "category": "Y"},  # one pick: no leave-one-out
    ]
    return HumanResponses.from_records(records, Board.standard(), strict=True)


def _loo_by_hand(squares: list[str]) -> float:
    """Each pick against every other pick of the clue, straight from the rules."""
    cells = [Cell.parse(s) for s in squares]
    pairs = [(a, b) for i, a in enumerate(cells) for j, b in enumerate(cells) if i != j]
    return sum(R15.points_at(a.distance(b)) for a, b in pairs) / len(pairs)


def test_a_persons_leave_one_out_points_per_category(tiny: HumanResponses) -> None:
    report = agreement_by_category(tiny, {"fixed": FixedGuesser("A1")}, n_boot=200)
    assert [r.category for r in report.rows] == ["X", "Y", ALL_CATEGORIES]
    x, y, overall = report.rows
    # a: A1-A2 are 1 apart (2 points each way), C5 is 3-4 away from both: 4 / 6.
    assert _loo_by_hand(["A1", "A2", "C5"]) == pytest.approx(2 / 3)
    assert x.person.mean == pytest.approx(2 / 3)
    assert y.person.mean == pytest.approx(3.0)  # c has one pick and is left out
    # Pick-weighted over the clues with two picks or more: (3 * 2/3 + 2 * 3) / 5.
    assert overall.person.mean == pytest.approx(1.6)
    assert (x.clues, x.picks, y.clues, y.picks, overall.picks) == (1, 3, 2, 3, 6)


def test_a_players_points_and_a_random_squares(tiny: HumanResponses) -> None:
    report = agreement_by_category(tiny, {"fixed": FixedGuesser("A1")}, n_boot=0)
    # From A1: A1 3, A2 2, C5 0 | D4 0, D4 0, H10 0.
    assert report.row("X").player("fixed").mean == pytest.approx(5 / 3)
    assert report.row("Y").player("fixed").mean == pytest.approx(0.0)
    assert report.overall.player("fixed").mean == pytest.approx(5 / 6)
    board = tiny.board
    cells = board.cells()

    def random_points(target: str) -> float:
        t = Cell.parse(target)
        return sum(R15.points_at(c.distance(t)) for c in cells) / len(cells)

    targets = [str(r.square) for r in tiny.rows]
    expected = sum(random_points(t) for t in targets) / len(targets)
    assert report.overall.random.mean == pytest.approx(expected)
    # A corner square has fewer neighbours, so fewer expected points, than one inside.
    assert random_points("A1") < random_points("H10")
    assert report.overall.random.low is None  # no resamples, no interval


def test_intervals_contain_the_mean_and_repeat(tiny: HumanResponses) -> None:
    players = {"fixed": FixedGuesser("D4")}
    report = agreement_by_category(tiny, players, n_boot=300, seed=3)
    assert report == agreement_by_category(tiny, players, n_boot=300, seed=3)
    for row in report.rows:
        for est in (row.person, row.random, *(e for _, e in row.players)):
            assert est.mean is not None and est.low is not None and est.high is not None
            assert est.low - 1e-12 <= est.mean <= est.high + 1e-12
    assert "| X | 1 | 3 |" in report.table()


def test_responses_without_a_category_fall_in_one(tiny: HumanResponses) -> None:
    report = agreement_by_category(tiny, {"f": FixedGuesser("A1")}, category_column="topic")
    assert [r.category for r in report.rows] == ["(none)", ALL_CATEGORIES]
    assert report.rows[0].person == report.overall.person


def test_bad_input_is_refused_with_a_clear_error(tiny: HumanResponses) -> None:
    players = {"f": FixedGuesser("A1")}
    with pytest.raises(ValueError, match="n_boot"):
        agreement_by_category(tiny, players, n_boot=-1)
    with pytest.raises(ValueError, match="level"):
        agreement_by_category(tiny, players, level=1.0)
    with pytest.raises(ValueError, match="no players"):
        agreement_by_category(tiny, {})
    with pytest.raises(ValueError, match="no responses"):
        agreement_by_category(tiny.where(lambda r: False), players)
    clash = HumanResponses.from_records(
        [{"clue": "a", "square": "A1", "category": ALL_CATEGORIES}], Board.standard()
    )
    with pytest.raises(ValueError, match="rename that category"):
        agreement_by_category(clash, players)
    report = agreement_by_category(tiny, players, n_boot=0)
    with pytest.raises(KeyError, match="no category 'Z'"):
        report.row("Z")
    with pytest.raises(KeyError, match="no player named 'g'"):
        report.overall.player("g")


def test_the_library_players_are_the_default_ones() -> None:
    players = library_players()
    assert list(players) == ["EmbeddingGuesser()", "default_agent()", "naming baseline"]
    assert players["EmbeddingGuesser()"] == EmbeddingGuesser()
    assert isinstance(players["default_agent()"], Player)
    naming = players["naming baseline"]
    assert isinstance(naming, Player) and naming.guesser == EmbeddingGuesser(model="naming")


def test_people_beat_a_random_square_on_the_dev_picks() -> None:
    responses, _ = dev_picks()
    some = responses.where(lambda r: r.clue in {"sky", "smurf"})
    report = agreement_by_category(some, {"naming model": NamingModel.default()}, n_boot=0)
    assert [r.category for r in report.rows] == ["ENTORNO", "POP", ALL_CATEGORIES]
    overall = report.overall
    assert overall.person.mean is not None and overall.random.mean is not None
    assert overall.random.mean < 0.1 < overall.person.mean


# -- the scripts ---------------------------------------------------------------------------------
def _small_files(tmp: Path) -> tuple[Path, Path]:
    """A 6 x 8 board running through the hues, and three picks on it."""
    board_csv = tmp / "board.csv"
    with open(board_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["row", "col", "r", "g", "b"])
        for r in range(6):
            for c in range(8):
                w.writerow(["ABCDEF"[r], c + 1, 255 - 40 * r, 30 * c, 20 + 30 * r])
    picks = tmp / "picks.csv"
    with open(picks, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["word", "cell", "topic"])
        w.writerows([["sky", "F8", "nature"], ["sky", "E8", "nature"], ["lemon", "A7", "food"]])
    return picks, board_csv


@pytest.mark.slow
def test_evaluate_people_runs_on_a_small_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picks, board_csv = _small_files(tmp_path)
    script = _script("evaluate_people")
    script.main(
        [
            "--responses",
            str(picks),
            "--board",
            str(board_csv),
            "--clue-column",
            "word",
            "--square-column",
            "cell",
            "--category-column",
            "topic",
            "--n-boot",
            "50",
            "--markdown",
        ]
    )
    out = capsys.readouterr().out
    assert "3 picks of 2 clues" in out
    assert "| nature | 1 | 2 |" in out and "| food | 1 | 1 |" in out
    assert "| all clues | 2 | 3 |" in out and "naming baseline" in out


@pytest.mark.slow
def test_draw_hard_clues_draws_the_named_clues(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    picks, board_csv = _small_files(tmp_path)
    renamed = tmp_path / "picks2.csv"
    renamed.write_text(picks.read_text().replace("word,cell,topic", "clue,square,category"))
    script = _script("draw_hard_clues")
    out = tmp_path / "images"
    script.main(
        [
            "--responses",
            str(renamed),
            "--board",
            str(board_csv),
            "--model",
            "naming",
            "--hardest",
            "1",
            "--out",
            str(out),
            "--tag",
            "Before",
        ]
    )
    drawn = sorted(p.name for p in out.iterdir())
    assert len(drawn) == 1 and drawn[0].startswith("people-before-")
    assert (out / drawn[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
