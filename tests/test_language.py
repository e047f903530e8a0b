"""The language layer's public face: the default (combined) model's contract, the evaluation
harness and the ``huescues clue`` command."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from huescues import Board
from huescues.agents import top_squares
from huescues.colour import delta_e_2000, srgb_to_lab
from huescues.language import (
    FLAT_LOG_DENSITY,
    ColourTermModel,
    CombinedModel,
    EmbeddingModel,
    MeanColourModel,
    NamingModel,
    NearestNameModel,
    combined_model,
    default_model,
    fold_of,
    standard_models,
    xkcd_names,
)
from huescues.research import evaluate


def hue_angle(lab: np.ndarray) -> float:
    return math.degrees(math.atan2(lab[2], lab[1])) % 360


@pytest.fixture(scope="module")
def model() -> CombinedModel:
    return combined_model()


def test_every_model_follows_the_protocol(model: CombinedModel) -> None:
    for m in (model, model.naming, model.embedding, MeanColourModel([[50, 0, 0], [60, 5, 5]])):
        assert isinstance(m, ColourTermModel)


@pytest.mark.parametrize("shape", [(3,), (480, 3), (16, 30, 3), (2, 5, 7, 3)])
def test_score_has_the_leading_shape_and_is_finite(
    model: CombinedModel, shape: tuple[int, ...]
) -> None:
    lab = np.random.default_rng(0).uniform([0, -80, -80], [100, 80, 80], size=shape)
    for text in ("pumpkin", "pale avocado", "lemon sky", "zzqx", "🙂", "sky-blue!"):
        s = model.score(text, lab)
        assert s.shape == shape[:-1]
        assert np.all(np.isfinite(s))


def test_unknown_text_gets_the_flat_answer(model: CombinedModel) -> None:
    lab = Board.standard().lab
    assert np.all(model.score("🙂", lab) == FLAT_LOG_DENSITY)
    assert not model.predict("🙂").known
    # A nonsense word has word pieces but no meaning: known=False, and a spread as wide as
    # the data's, far wider than a colour word's.
    nonsense = model.predict("zzqxj")
    assert not nonsense.known
    assert np.linalg.det(nonsense.cov) > 10 * np.linalg.det(model.predict("red").cov)


@pytest.mark.parametrize("bad", ["", "   ", "x" * 201])
def test_bad_text_is_a_clear_error(model: CombinedModel, bad: str) -> None:
    with pytest.raises(ValueError, match=r"word|long"):
        model.score(bad, [50.0, 0.0, 0.0])


@pytest.mark.parametrize("bad", [[[50.0, np.nan, 0.0]], [[1.0, 2.0]], 5.0])
def test_bad_colours_are_a_clear_error(model: CombinedModel, bad: object) -> None:
    with pytest.raises(ValueError, match="CIELAB"):
        model.score("red", bad)  # type: ignore[arg-type]


def test_non_text_is_a_type_error(model: CombinedModel) -> None:
    with pytest.raises(TypeError):
        model.predict(7)  # type: ignore[arg-type]


def pumpkin_is_orange(board: Board) -> None:
    best = top_squares(default_model(), "pumpkin", board, 5)
    for cell, _ in best:
        lab = board.lab[cell.row, cell.col]
        assert 35 <= hue_angle(lab) <= 80, f"{cell} is not orange: {lab}"
        assert math.hypot(lab[1], lab[2]) > 40


def test_pumpkin_is_highest_among_the_oranges_of_the_standard_board() -> None:
    pumpkin_is_orange(Board.standard())


def test_pumpkin_on_a_board_read_from_csv(tmp_path: Path) -> None:
    # A measured-style board: the standard palette jittered and written as CSV.
    rgb = np.round(Board.standard().srgb * 255).astype(int)
    rgb = np.clip(rgb + np.random.default_rng(3).integers(-6, 7, size=rgb.shape), 0, 255)
    path = tmp_path / "measured.csv"
    Board.from_rgb(rgb).to_csv(path)
    pumpkin_is_orange(Board.from_csv(path))


def test_banana_scores_a_yellow_above_a_navy(model: CombinedModel) -> None:
    yellow, navy = srgb_to_lab([[1.0, 0.9, 0.2], [0.0, 0.0, 0.5]])
    s = model.score("banana", np.array([yellow, navy]))
    assert s[0] > s[1]


@pytest.mark.parametrize(
    ("word", "lo", "hi"), [("avocado", 90, 140), ("flamingo", 340, 400), ("espresso", 20, 90)]
)
def test_words_no_colour_table_names_land_where_a_person_looks(
    model: CombinedModel, word: str, lo: float, hi: float
) -> None:
    h = hue_angle(model.predict(word).lab)
    assert lo <= h <= hi or lo <= h + 360 <= hi


def test_a_modifier_shifts(model: CombinedModel) -> None:
    plain, pale = model.predict("flamingo"), model.predict("pale flamingo")
    assert pale.lab[0] > plain.lab[0] + 5  # pale: lighter
    assert math.hypot(*pale.lab[1:]) < math.hypot(*plain.lab[1:])  # and less chroma
    dark = model.predict("dark pumpkin")
    assert dark.lab[0] < model.predict("pumpkin").lab[0] - 5


def test_two_nouns_intersect(model: CombinedModel) -> None:
    from huescues.language import Prediction
    from huescues.language._combined import _product  # private: how nouns combine

    a = Prediction(np.array([60.0, 40.0, 50.0]), np.diag([100.0, 200.0, 200.0]))
    b = Prediction(np.array([60.0, -40.0, 50.0]), np.diag([100.0, 200.0, 200.0]))
    both = _product([a, b])
    assert np.allclose(both.lab, [60.0, 0.0, 50.0])  # where the two agree
    assert np.linalg.det(both.cov) < np.linalg.det(a.cov)  # and surer than either
    # In the model: two nouns that name no colour together land between them.
    mixed = model.predict("pumpkin moss").lab
    pumpkin, moss = model.predict("pumpkin").lab, model.predict("moss").lab
    assert min(pumpkin[1], moss[1]) <= mixed[1] <= max(pumpkin[1], moss[1])


def test_score_many_matches_score(model: CombinedModel) -> None:
    lab = Board.standard().lab
    texts = ["pumpkin", "pale sky", "zzqx"]
    many = model.score_many(texts, lab)
    assert many.shape == (3, 16, 30)
    for i, t in enumerate(texts):
        assert np.allclose(many[i], model.score(t, lab))


def test_combined_model_is_one_object_and_pickles(model: CombinedModel) -> None:
    import pickle

    assert combined_model() is model
    # The default model reads with it, blended with the object colours.
    assert default_model().base is model
    again = pickle.loads(pickle.dumps(model))
    lab = Board.standard().lab
    assert np.allclose(again.score("pumpkin", lab), model.score("pumpkin", lab))


@pytest.mark.slow
def test_evaluate_ranks_a_real_model_above_the_mean_colour() -> None:
    xkcd = xkcd_names()
    names, lab = list(xkcd.names[:300]), xkcd.lab[:300]

    def keep(held: frozenset[str]) -> list[int]:
        return [i for i, n in enumerate(names) if n not in held]

    result = evaluate(
        {
            "mean": lambda held: MeanColourModel(lab[keep(held)]),
            "nearest": lambda held: NearestNameModel(
                [names[i] for i in keep(held)], lab[keep(held)]
            ),
        },
        names,
        lab,
        folds=3,
    )
    mean, nearest = result.rows
    assert mean.n == nearest.n == 300
    assert nearest.median_delta_e < mean.median_delta_e
    assert nearest.board_points > mean.board_points
    table = result.table()
    assert "| mean |" in table and "ref. game 5-15" in table
    with pytest.raises(ValueError, match="folds"):
        evaluate({}, names, lab, folds=1)


def test_evaluate_reports_how_dull_the_predictions_are() -> None:
    """The chroma ratio by hand: a model that predicts each named colour with its a and b
    scaled by k has k times the chroma of every name, so the ratio is k; names it does not know
    are left out of it."""
    from huescues.language import ColourTermModelBase, Prediction

    names = [f"colour {i}" for i in range(12)]
    lab = np.array([[50.0, 10.0 * (i - 6), 4.0 * i - 20] for i in range(12)])
    truth = dict(zip(names, lab, strict=True))

    class Dull(ColourTermModelBase):
        def __init__(self, k: float) -> None:
            self.k = k

        def predict(self, text: str) -> Prediction:
            known = text != "colour 0"
            centre = truth[text] * [1.0, self.k, self.k] if known else np.array([50.0, 90, 90])
            return Prediction(centre, np.eye(3) * 25.0, known=known)

        def score(self, text: str, lab: object) -> np.ndarray:
            return -np.asarray(delta_e_2000(np.asarray(lab), self.predict(text).lab))

    result = evaluate({"half": lambda held: Dull(0.5), "same": lambda held: Dull(1.0)}, names, lab)
    half, same = result.rows
    assert half.chroma_ratio == pytest.approx(0.5)
    assert same.chroma_ratio == pytest.approx(1.0)
    assert half.known == pytest.approx(11 / 12)


@pytest.mark.parametrize("name", ["Evaluation", "ModelScores", "evaluate", "standard_evaluation"])
def test_the_board_aware_evaluation_says_where_it_moved(name: str) -> None:
    import huescues.language

    with pytest.raises(AttributeError, match=f"huescues.research.{name}"):
        getattr(huescues.language, name)


@pytest.mark.slow
def test_held_out_accuracy_floor_of_the_default_model() -> None:
    """Fold 2 of the XKCD names held out from every source. Measured (docs/language.md): median
    CIEDE2000 of about 9 across folds; the mean colour about 32. The floor of 13 leaves margin."""
    xkcd = xkcd_names()
    held = frozenset(n for n in xkcd.names if fold_of(n) == 2)
    model = standard_models()["combined"](held)
    rows = [i for i, n in enumerate(xkcd.names) if n in held]
    pred = np.array([model.predict(xkcd.names[i]).lab for i in rows])
    errors = delta_e_2000(pred, xkcd.lab[rows])
    assert np.median(errors) < 13.0


@pytest.mark.slow
def test_clue_command_prints_the_best_squares(tmp_path: Path) -> None:
    out = tmp_path / "banana.png"
    done = subprocess.run(
        [sys.executable, "-m", "huescues.cli", "clue", "banana", "--top", "3", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "'banana'" in done.stdout and " 1. " in done.stdout and " 3. " in done.stdout
    assert out.read_bytes().startswith(b"\x89PNG")
    bad = subprocess.run(
        [sys.executable, "-m", "huescues.cli", "clue", "   "],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode != 0 and "Traceback" not in bad.stderr and "error" in bad.stderr


def test_naming_and_embedding_are_both_used(model: CombinedModel) -> None:
    assert isinstance(model.naming, NamingModel)
    assert isinstance(model.embedding, EmbeddingModel)
    assert model.predict("pumpkin").source.startswith("name")


def test_the_baselines_refuse_data_they_would_read_as_nan() -> None:
    # One colour has no spread: the mean model's scores were all NaN; a spread of 0 was
    # numpy's LinAlgError, and a negative one was squared into a positive one.
    for lab in (np.zeros((0, 3)), [[50.0, 0.0, 0.0]]):
        with pytest.raises(ValueError, match="needs at least 2 colours"):
            MeanColourModel(lab)
    with pytest.raises(ValueError, match="needs at least 2 names, not 1"):
        NearestNameModel(["red"], [[50.0, 60.0, 40.0]])
    for spread in (0.0, -15.0, math.nan):
        with pytest.raises(ValueError, match="spread must be a positive number"):
            NearestNameModel(["red", "blue"], [[50, 60, 40], [30, 10, -50]], spread=spread)
    two = NearestNameModel(["red", "blue"], [[50, 60, 40], [30, 10, -50]])
    assert np.all(np.isfinite(two.score("zzqxj", Board.standard().lab)))
