"""Reading against the colours in view: each basic term relative to how well the board's squares
fit it (``in_view``), as the players read every clue; ``score`` itself reads colours alone."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.agents import default_agent
from huescues.agents._listener import log_literal, on_board
from huescues.engine import Board
from huescues.language import (
    BASIC_TERMS,
    BlendedModel,
    ObjectColourModel,
    default_model,
    in_view,
    model_cache_key,
)
from huescues.research import HumanResponses, human_agreement


def _rated(q: dict[str, float]) -> np.ndarray:
    return np.array([q.get(t, 0.0) for t in BASIC_TERMS])


@pytest.fixture(scope="module")
def shade() -> ObjectColourModel:
    """The shipped knowledge's grid and settings, with three rated words: a black thing with some
    grey (a gorilla's ratings), a grey one and a white one."""
    q = np.stack(
        [_rated({"black": 5, "gray": 3}), _rated({"gray": 5}), _rated({"white": 5, "gray": 1})]
    )
    return ObjectColourModel.default().with_knowledge(
        ["shade", "ash", "snowdrift"],
        q,
        tone=np.full((3, 2), np.nan),
        evidence=np.ones(3),
        sources=np.zeros(3, dtype=np.int64),
    )


def _peak(model: object, text: str, board: Board) -> np.ndarray:
    lab = board.lab.reshape(-1, 3)
    return lab[int(np.argmax(model.score(text, lab)))]  # type: ignore[attr-defined]


def test_a_black_thing_reads_as_the_darkest_squares_of_a_board_with_no_black(
    shade: ObjectColourModel,
) -> None:
    # No square of the retail board is black or white as people name colours (c3), so alone the
    # black thing's reading peaks where its lesser colour, grey, fits best: a mid grey.
    board = Board.retail()
    lab = board.lab.reshape(-1, 3)
    darkest = np.sort(lab[:, 0])[10]
    assert _peak(shade, "shade", board)[0] > 40
    viewed = shade.in_view(board.lab)
    assert _peak(viewed, "shade", board)[0] <= darkest
    # A grey thing stays grey, and a white thing reads as a light grey (the lightest squares
    # are yellows).
    assert np.hypot(*_peak(viewed, "ash", board)[1:]) < 12
    white = _peak(viewed, "snowdrift", board)
    assert white[0] > 70 and np.hypot(*white[1:]) < 12


def test_colours_that_include_black_read_a_black_thing_as_black(
    shade: ObjectColourModel,
) -> None:
    colours = np.array([[2.0, 0.0, 0.0], [50.0, 0.0, 0.0], [30.0, 20.0, 20.0], [95.0, 0.0, 0.0]])
    alone = shade.score("shade", colours)
    viewed = shade.in_view(colours).score("shade", colours)
    assert int(np.argmax(viewed)) == 0
    assert viewed.shape == alone.shape and np.all(np.isfinite(viewed))


def test_score_alone_is_unchanged_and_context_free(shade: ObjectColourModel) -> None:
    # Each colour is read alone: a colour's score does not depend on the others asked with it.
    board = Board.retail()
    lab = board.lab.reshape(-1, 3)
    model = default_model()
    assert model.other.view is None  # type: ignore[union-attr]
    whole = model.score("gorilla", lab)
    assert np.allclose(
        [model.score("gorilla", lab[i : i + 1])[0] for i in (0, 77, 300)], whole[[0, 77, 300]]
    )
    assert shade.view is None
    assert shade.in_view(lab).view is not None and shade.view is None  # the copy's own


def test_a_new_view_replaces_the_old(shade: ObjectColourModel) -> None:
    retail, standard = Board.retail().lab, Board.standard().lab
    lab = standard.reshape(-1, 3)
    twice = shade.in_view(retail).in_view(standard)
    assert np.array_equal(twice.score("shade", lab), shade.in_view(standard).score("shade", lab))


def test_the_view_is_part_of_the_scores_name_and_survives_a_pickle() -> None:
    retail, standard = Board.retail(), Board.standard()
    model = default_model()
    alone = model_cache_key(model)
    here = in_view(model, retail.lab)
    assert isinstance(here, BlendedModel) and here is not model
    key = model_cache_key(here)
    assert alone is not None and key is not None and "@view-" in key and key != alone
    assert model_cache_key(in_view(model, retail.lab)) == key
    assert model_cache_key(in_view(model, standard.lab)) not in (key, alone)
    back = pickle.loads(pickle.dumps(here))
    lab = retail.lab.reshape(-1, 3)
    assert model_cache_key(back) == key
    assert np.array_equal(back.score("penguin", lab), here.score("penguin", lab))


def test_a_model_with_no_name_in_view_has_none(shade: ObjectColourModel) -> None:
    assert model_cache_key(shade) is None
    assert model_cache_key(shade.in_view(Board.retail().lab)) is None


def test_spanish_reads_in_view_too() -> None:
    board = Board.retail()
    model = default_model("es")
    here = in_view(model, board.lab)
    key = model_cache_key(here)
    assert key is not None and key.count("@view-") >= 2  # its own knowledge and the English
    lab = board.lab.reshape(-1, 3)
    assert here.score("GORILA", lab).shape == (len(lab),)


def test_a_model_that_reads_no_view_is_itself() -> None:
    class Plain:
        def score(self, text: str, lab: object) -> np.ndarray:
            return np.zeros(np.asarray(lab).shape[:-1])

        def predict(self, text: str) -> object:
            raise NotImplementedError

    plain = Plain()
    assert in_view(plain, Board.retail().lab) is plain  # type: ignore[arg-type]

    class Mine(BlendedModel):
        pass

    mine = Mine(default_model().base, ObjectColourModel.default(), 4.0)
    assert mine.in_view(Board.retail().lab) is mine  # a subclass may score otherwise


@pytest.mark.parametrize(
    ("lab", "says"),
    [
        (np.zeros((0, 3)), "none"),
        ([[50.0, 0.0, float("nan")]], "finite"),
        ([[50.0, 0.0]], "last axis of 3"),
    ],
)
def test_bad_colours_in_view_get_a_clear_error(
    shade: ObjectColourModel, lab: object, says: str
) -> None:
    colours = Board.retail().lab.reshape(-1, 3)
    before = shade.score("shade", colours)
    with pytest.raises(ValueError, match=says):
        shade.in_view(lab)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=says):
        in_view(default_model(), lab)  # type: ignore[arg-type]
    assert np.array_equal(shade.score("shade", colours), before)


def test_the_players_read_every_clue_in_view_of_their_board() -> None:
    board = Board.retail()
    model = default_model()
    here = on_board(model, board)
    assert on_board(model, board) is here  # made once per model and board
    s = here.score("gorilla", board.lab)
    expected = s - np.log(np.exp(s - s.max()).sum()) - s.max()
    assert np.allclose(log_literal(model, "gorilla", board), expected)
    # A guesser's literal belief puts the black thing on the darkest squares of this board.
    belief = np.asarray(default_agent().guesser.belief(board, ["gorilla"]), dtype=np.float64)
    top = board.lab.reshape(-1, 3)[int(np.argmax(belief))]
    assert top[0] <= np.sort(board.lab.reshape(-1, 3)[:, 0])[20]


def test_a_model_measured_against_people_is_read_in_view() -> None:
    board = Board.retail()
    responses = HumanResponses.from_records(
        [{"clue": "gorilla", "square": "A1"}, {"clue": "gorilla", "square": "F30"}], board=board
    )
    model = default_model()
    alone = human_agreement(model, responses, n_boot=0)
    viewed = human_agreement(in_view(model, board.lab), responses, n_boot=0)
    assert alone.log_likelihood.mean == viewed.log_likelihood.mean


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 100), st.floats(-100, 100), st.floats(-100, 100)),
        min_size=1,
        max_size=40,
    ),
    st.sampled_from(["shade", "ash", "snowdrift", "zebra crossing", "qwxz"]),
)
def test_any_view_reads_any_text_finite(
    shade: ObjectColourModel, view: list[tuple[float, float, float]], text: str
) -> None:
    colours = np.array(view, dtype=np.float64)
    out = shade.in_view(colours).score(text, colours)
    assert out.shape == (len(colours),) and np.all(np.isfinite(out))
