"""Hypothesis: any sequence of actions, legal or not, keeps the engine's invariants; the text
agent's parsers read what their docstrings promise and never return an illegal move; a board
written to CSV reads back the same; and CIELAB converts back to sRGB."""

from __future__ import annotations

import csv
import functools
import string
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from huescues import (
    BASIC_COLOUR_TERMS,
    Action,
    Board,
    Cell,
    ChooseTarget,
    GiveClue,
    IllegalAction,
    IllegalClue,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    new_game,
    validate_clue,
)
from huescues.agents import RANDOM_CLUE_WORDS, parse_clue, parse_square, parse_target
from huescues.colour import lab_to_srgb, srgb_to_lab

T = TypeVar("T")

actions = st.one_of(
    st.builds(ChooseTarget, st.integers(-1, 5)),
    st.builds(GiveClue, st.sampled_from(RANDOM_CLUE_WORDS[:40])),
    st.builds(
        GiveClue,
        st.tuples(st.sampled_from(RANDOM_CLUE_WORDS[:40]), st.sampled_from(RANDOM_CLUE_WORDS)).map(
            " ".join
        ),
    ),
    st.builds(GiveClue, st.sampled_from(["red", "F12", "darker sea", "", "three", "left"])),
    st.just(Pass()),
    st.builds(PlacePawn, st.builds(Cell, st.integers(0, 17), st.integers(0, 31))),
)


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 10), st.integers(0, 10**6), st.lists(actions, max_size=120))
def test_any_action_sequence_keeps_the_invariants(n: int, seed: int, tried: list[Action]) -> None:
    state = new_game(n, seed=seed)
    for action in tried:
        before = state.to_dict()
        legal = state.is_legal(action)
        listed = state.legal_actions()
        try:
            after = state.apply(action)
        except IllegalAction:
            assert not legal
            assert state.to_dict() == before  # a refused action changes nothing
            assert action not in listed
            continue
        assert legal
        if not isinstance(action, GiveClue):
            assert action in listed  # every finite legal action is listed
        assert all(b >= a for a, b in zip(state.scores, after.scores, strict=True))  # R17
        assert len(after.occupied) == len(after.pawns)  # R13
        assert after.actions == (*state.actions, action)
        if after.phase in (Phase.FIRST_GUESS, Phase.SECOND_GUESS):
            assert after.current_player in after.guessers
            assert after.current_player != after.giver  # R13: the giver places no pawn
        state = after


# -- the text agent's parsers ----------------------------------------------------------------------


def _outcome(parse: Callable[[], T]) -> tuple[T | None, str]:
    """What a parser returns, or ``None`` and the message of the ``ValueError`` it raises."""
    try:
        return parse(), ""
    except ValueError as e:
        return None, str(e)


@functools.cache
def _board(rows: int, cols: int) -> Board:
    return (
        Board.standard()
        if (rows, cols) == (16, 30)
        else Board.from_rgb(np.zeros((rows, cols, 3), np.int64))
    )


#: Boards of several sizes: the standard one, a small one, and ones with 26 rows or 3-digit columns.
boards = st.sampled_from([(16, 30), (4, 5), (26, 12), (2, 150)]).map(lambda rc: _board(*rc))
#: Chatter: words of letters only, so that it never names a square or a number.
chatter_words = st.text(string.ascii_letters, min_size=1, max_size=8)


@st.composite
def squares_of(draw: st.DrawFn, board: Board) -> Cell:
    """A square of ``board``."""
    return Cell(draw(st.integers(0, board.rows - 1)), draw(st.integers(0, board.cols - 1)))


def _name(cell: Cell, lower: bool) -> str:
    return str(cell).lower() if lower else str(cell)


#: Ways to write an answer alone on its line (the ``{}`` is the answer).
ALONE = ("{}", "**{}**", "Answer: {}", "`{}`", "- {}.", "> {}!", "Final answer = {}")


@st.composite
def names_off(draw: st.DrawFn, board: Board) -> str:
    """A square's name off ``board``: a row below its last, or a column 0 or beyond its last."""
    row = draw(st.integers(0, 25))
    if row < board.rows:
        col = draw(st.one_of(st.just(0), st.integers(board.cols + 1, 999)))
    else:
        col = draw(st.integers(0, 999))
    letter = string.ascii_uppercase[row]
    return (letter.lower() if draw(st.booleans()) else letter) + str(col)


@st.composite
def square_replies(draw: st.DrawFn) -> tuple[str, Board, Cell]:
    """A reply of lines, some only a square's name and some sentences naming squares on and off
    the board, and the square the docstring says it names: the last line that is only a name of
    a square of the board, else the first such square named anywhere."""
    board = draw(boards)
    lines: list[str] = []
    alone: list[Cell] = []
    anywhere: list[Cell] = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            cell = draw(squares_of(board))
            lines.append(draw(st.sampled_from(ALONE)).format(_name(cell, draw(st.booleans()))))
            alone.append(cell)
            anywhere.append(cell)
            continue
        words: list[tuple[str, Cell | None]] = [
            (w, None) for w in draw(st.lists(chatter_words, min_size=1, max_size=5))
        ]
        for _ in range(draw(st.integers(0, 4))):
            named: tuple[str, Cell | None]
            if draw(st.booleans()):
                cell = draw(squares_of(board))
                named = (f"{_name(cell, draw(st.booleans()))},", cell)
            else:
                named = (draw(names_off(board)), None)
            words.insert(draw(st.integers(0, len(words))), named)
        lines.append(" ".join(w for w, _ in words))
        anywhere += [c for _, c in words if c is not None]
    assume(anywhere)
    return "\n".join(lines), board, (alone[-1] if alone else anywhere[0])


@settings(max_examples=200, deadline=None)
@given(square_replies())
@pytest.mark.slow
def test_parse_square_reads_the_square_its_docstring_names(reply: tuple[str, Board, Cell]) -> None:
    text, board, square = reply
    assert parse_square(text, board) == square


@settings(max_examples=200, deadline=None)
@given(boards.flatmap(lambda b: st.tuples(st.just(b), squares_of(b))), st.data())
@pytest.mark.slow
def test_parse_square_finds_a_name_in_any_chatter(
    board_cell: tuple[Board, Cell], data: st.DataObject
) -> None:
    board, cell = board_cell
    before = data.draw(st.lists(st.one_of(chatter_words, names_off(board)), max_size=6))
    after = data.draw(st.lists(st.one_of(chatter_words, names_off(board)), max_size=6))
    name = _name(cell, data.draw(st.booleans()))
    sep = data.draw(st.sampled_from([" ", "\n", " ... ", ", "]))
    assert parse_square(sep.join([*before, f"**{name}**", *after]), board) == cell


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    boards,
    st.lists(
        st.one_of(st.text(max_size=12), st.from_regex(r"[A-Za-z][0-9]{1,3}", fullmatch=True)),
        max_size=8,
    ).map(" ".join),
    st.data(),
)
def test_parse_square_never_returns_a_square_a_pawn_may_not_take(
    board: Board, reply: str, data: st.DataObject
) -> None:
    occupied = set(data.draw(st.lists(squares_of(board), max_size=6)))
    cell, refusal = _outcome(lambda: parse_square(reply, board, occupied))
    if cell is None:
        assert "(R1)" in refusal or "(R13)" in refusal or "names no square" in refusal
    else:
        assert cell in board and cell not in occupied  # R1, R13


@settings(max_examples=100, deadline=None)
@given(boards, st.lists(chatter_words, max_size=8).map(" ".join))
def test_parse_square_refuses_a_reply_without_a_square(board: Board, reply: str) -> None:
    with pytest.raises(ValueError, match="names no square"):
        parse_square(reply, board)


@settings(max_examples=100, deadline=None)
@given(
    boards.flatmap(lambda b: st.tuples(st.just(b), st.lists(names_off(b), min_size=1, max_size=4)))
)
@pytest.mark.slow
def test_parse_square_refuses_names_off_the_board(board_names: tuple[Board, list[str]]) -> None:
    board, names = board_names
    with pytest.raises(ValueError, match=r"is not a square of this board.*\(R1\)"):
        parse_square(" or ".join(names), board)


@settings(max_examples=100, deadline=None)
@given(boards.flatmap(lambda b: st.tuples(st.just(b), squares_of(b))), st.sampled_from(ALONE))
def test_parse_square_refuses_an_occupied_square(board_cell: tuple[Board, Cell], form: str) -> None:
    board, cell = board_cell
    with pytest.raises(ValueError, match=r"occupied.*\(R13\)"):
        parse_square(form.format(cell), board, {cell})


cards = st.lists(squares_of(Board.standard()), min_size=4, max_size=4, unique=True)


@st.composite
def target_replies(draw: st.DrawFn) -> tuple[str, tuple[Cell, ...], int]:
    """A reply naming the card's squares by index or name among other numbers and squares, and
    the index the docstring says it chooses: the last line that is only a valid choice, else
    the first valid choice anywhere (other numbers and squares are passed over)."""
    card = tuple(draw(cards))
    names = {str(c) for c in card}

    def choice() -> tuple[str, int | None]:
        kind = draw(st.sampled_from(["index", "name", "number", "square"]))
        if kind == "index":
            i = draw(st.integers(0, 3))
            return str(i), i
        if kind == "name":
            i = draw(st.integers(0, 3))
            return _name(card[i], draw(st.booleans())), i
        if kind == "number":
            return str(draw(st.integers(4, 999))), None
        other = draw(squares_of(Board.standard()).filter(lambda c: str(c) not in names))
        return _name(other, draw(st.booleans())), None

    lines: list[str] = []
    alone: list[int] = []
    anywhere: list[int] = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            token, index = choice()
            lines.append(draw(st.sampled_from(ALONE)).format(token))
            if index is not None:
                alone.append(index)
                anywhere.append(index)
            continue
        words: list[tuple[str, int | None]] = [
            (w, None) for w in draw(st.lists(chatter_words, min_size=1, max_size=5))
        ]
        for _ in range(draw(st.integers(0, 3))):
            words.insert(draw(st.integers(0, len(words))), choice())
        lines.append(" ".join(w for w, _ in words))
        anywhere += [i for _, i in words if i is not None]
    assume(anywhere)
    return "\n".join(lines), card, (alone[-1] if alone else anywhere[0])


@settings(max_examples=200, deadline=None)
@given(target_replies())
@pytest.mark.slow
def test_parse_target_reads_the_choice_its_docstring_names(
    reply: tuple[str, tuple[Cell, ...], int],
) -> None:
    text, card, index = reply
    assert parse_target(text, card) == index


@settings(max_examples=200, deadline=None)
@given(cards, st.text(max_size=40))
def test_parse_target_returns_an_index_of_the_card_or_refuses(card: list[Cell], reply: str) -> None:
    index, refusal = _outcome(lambda: parse_target(reply, card))
    if index is None:
        assert "(R8)" in refusal
    else:
        assert 0 <= index < len(card)


@settings(max_examples=100, deadline=None)
@given(cards, st.lists(st.one_of(chatter_words, st.integers(4, 999).map(str)), max_size=8))
def test_parse_target_refuses_a_reply_without_a_choice(card: list[Cell], words: list[str]) -> None:
    with pytest.raises(ValueError, match="R8"):
        parse_target(" ".join(words), card)


#: Lines of chatter too long to be a clue (three words or more, no quotes, labels or digits).
chatter_lines = st.lists(chatter_words, min_size=3, max_size=6).map(" ".join)
#: Ways to write a clue on the reply's last line (the ``{}`` is the clue).
CLUE_FORMS = ("{}", "**{}**", "{}.", "Clue: {}", "My clue: *{}*", 'I say "{}".', "`{}`!")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(chatter_lines, max_size=3),
    st.sampled_from(CLUE_FORMS),
    st.booleans(),
    st.lists(st.sampled_from(RANDOM_CLUE_WORDS), min_size=1, max_size=2),
    st.booleans(),
)
def test_parse_clue_finds_a_legal_clue_after_chatter(
    chatter: list[str], form: str, second: bool, words: list[str], upper: bool
) -> None:
    words = words if second else words[:1]
    clue = " ".join(w.capitalize() if upper else w for w in words)
    reply = "\n".join([*chatter, form.format(clue)])
    assert parse_clue(reply, second=second) == GiveClue(clue)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.lists(
            st.sampled_from([*RANDOM_CLUE_WORDS[:30], "red", "F12", "darker", "pass"]), max_size=4
        ).map(" ".join),
    ),
    st.booleans(),
    st.booleans(),
)
def test_parse_clue_never_returns_an_illegal_clue(reply: str, second: bool, may_pass: bool) -> None:
    rules = Rules.standard(4, second_clue_may_pass=may_pass)
    previous = ("ocean",)
    try:
        move = parse_clue(reply, second=second, rules=rules, previous=previous)
    except ValueError:
        return  # IllegalClue is a ValueError too
    if isinstance(move, Pass):
        assert second and may_pass  # R11
    else:
        validate_clue(move.text, second=second, rules=rules, previous=previous)  # R18-R22


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(BASIC_COLOUR_TERMS),
    st.sampled_from(["", "s", "ish", "y"]),
    st.sampled_from(CLUE_FORMS),
    st.booleans(),
)
def test_parse_clue_refuses_a_colour_term_naming_r19(
    term: str, ending: str, form: str, second: bool
) -> None:
    with pytest.raises(IllegalClue) as refused:
        parse_clue(form.format(term + ending), second=second)
    assert refused.value.rule == "R19"


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from(" \t\n.,;:!?*_`'\"#>-"), max_size=20), st.booleans())
def test_parse_clue_refuses_a_reply_without_words(reply: str, second: bool) -> None:
    with pytest.raises(ValueError, match="empty"):
        parse_clue(reply, second=second)


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(["pass", "PASS", "Pass", "pAsS"]),
    st.sampled_from([f for f in CLUE_FORMS if f != "Clue: {}"]),  # "Clue pass" is a clue
)
def test_parse_clue_reads_pass_only_where_the_rules_allow_it(word: str, form: str) -> None:
    reply = form.format(word)
    assert parse_clue(reply, second=True) == Pass()  # R11
    with pytest.raises(ValueError, match="R11"):
        parse_clue(reply, second=True, rules=Rules.standard(4, second_clue_may_pass=False))


# -- boards as CSV ---------------------------------------------------------------------------------

board_shapes = st.tuples(st.integers(1, 26), st.integers(1, 120)).filter(
    lambda rc: rc[0] * rc[1] <= 600
)


@settings(max_examples=60, deadline=None)
@given(
    board_shapes.flatmap(lambda rc: hnp.arrays(np.int64, (*rc, 3), elements=st.integers(0, 255))),
    st.randoms(use_true_random=False),
)
@pytest.mark.slow
def test_a_board_written_to_csv_reads_back_the_same(rgb: np.ndarray, order: object) -> None:
    board = Board.from_rgb(rgb)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.csv"
        board.to_csv(path)
        again = Board.from_csv(path)
        assert again == board  # the same id: made from the same colours
        assert again.shape == board.shape and again.cells() == board.cells()
        assert np.array_equal(again.srgb, board.srgb) and np.array_equal(again.lab, board.lab)
        # Squares may come in any order.
        with open(path, newline="", encoding="utf-8") as f:
            header, *rows = list(csv.reader(f))
        order.shuffle(rows)  # type: ignore[attr-defined]
        with open(path, "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows([header, *rows])
        shuffled = Board.from_csv(path)
        assert np.array_equal(shuffled.srgb, board.srgb)


@settings(max_examples=40, deadline=None)
@given(board_shapes.flatmap(lambda rc: hnp.arrays(np.float64, (*rc, 3), elements=st.floats(0, 1))))
def test_a_board_of_float_colours_reads_back_rounded_to_0_255(srgb: np.ndarray) -> None:
    board = Board.from_rgb(srgb)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.csv"
        board.to_csv(path)
        again = Board.from_csv(path)
    assert np.array_equal(again.srgb, np.round(srgb * 255.0) / 255.0)
    assert np.abs(again.srgb - board.srgb).max() <= 0.5 / 255.0 + 1e-12


# -- CIELAB back to sRGB ---------------------------------------------------------------------------

#: How closely lab_to_srgb inverts srgb_to_lab: the forward conversion uses the sRGB standard's
#: four-digit matrix, colour-science the exact one; 5e-4 is an eighth of a 0-255 step.
INVERSE_TOLERANCE = 5e-4

colour_shapes = st.sampled_from([(3,), (1, 3), (7, 3), (2, 3, 3), (0, 3)])
in_gamut = colour_shapes.flatmap(lambda s: hnp.arrays(np.float64, s, elements=st.floats(0, 1)))
any_lab = colour_shapes.flatmap(
    lambda s: hnp.arrays(np.float64, s, elements=st.floats(-128, 128)).map(
        lambda a: np.concatenate([np.abs(a[..., :1]) * 100 / 128, a[..., 1:]], axis=-1)
    )
)


@settings(max_examples=100, deadline=None)
@given(in_gamut)
def test_lab_to_srgb_inverts_srgb_to_lab_in_gamut(srgb: np.ndarray) -> None:
    back = lab_to_srgb(srgb_to_lab(srgb))
    assert back.shape == srgb.shape
    assert np.all(np.abs(back - srgb) <= INVERSE_TOLERANCE)
    clipped = lab_to_srgb(srgb_to_lab(srgb), clip=True)
    assert np.all(np.abs(clipped - srgb) <= INVERSE_TOLERANCE)  # clipping leaves them be


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(any_lab)
def test_lab_to_srgb_keeps_the_shape_and_clips_only_when_asked(lab: np.ndarray) -> None:
    rgb = lab_to_srgb(lab)
    clipped = lab_to_srgb(lab, clip=True)
    assert rgb.shape == clipped.shape == lab.shape
    assert np.all((clipped >= 0.0) & (clipped <= 1.0))
    assert np.array_equal(clipped, np.clip(rgb, 0.0, 1.0))
    outside = np.any((rgb < 0.0) | (rgb > 1.0), axis=-1)
    # What clipping changed was outside [0, 1] without it.
    assert np.all(outside[np.any(clipped != rgb, axis=-1)])
    # A colour out of gamut (no sRGB colour is within 1 unit of it) is outside [0, 1] unclipped.
    far = np.linalg.norm(srgb_to_lab(clipped) - lab, axis=-1) > 1.0
    assert np.all(outside[far])


def test_lab_to_srgb_leaves_out_of_gamut_colours_unclipped_by_default() -> None:
    vivid = np.array([50.0, 120.0, 0.0])  # far more saturated than any sRGB colour
    assert np.any((lab_to_srgb(vivid) < 0.0) | (lab_to_srgb(vivid) > 1.0))
    assert np.all((lab_to_srgb(vivid, clip=True) >= 0.0) & (lab_to_srgb(vivid, clip=True) <= 1.0))


@given(
    hnp.arrays(
        np.float64,
        st.integers(1, 40),
        elements=st.one_of(
            st.floats(-5, 5), st.just(-np.inf), st.just(np.nan), st.sampled_from([0.5, 1.5])
        ),
    ),
    st.integers(0, 6),
)
def test_best_squares_takes_the_first_square_within_rounding_of_the_best(
    values: np.ndarray, ulps: int
) -> None:
    """R27 on any machine: the square chosen is the first within POINTS_TIE (relative above 1)
    of the largest, never a NaN while a number is there, and the same when the values are a
    few last bits off (the ties are broken by reading order, not by the machine's rounding)."""
    from huescues.agents import POINTS_TIE, best_squares

    chosen = int(best_squares(values))
    finite = np.where(np.isnan(values), -np.inf, values)
    top = finite.max()
    if np.isfinite(top):
        tie = POINTS_TIE * max(1.0, abs(top))
        assert finite[chosen] >= top - tie
        assert all(finite[i] < top - tie for i in range(chosen))
        # Each value a few last bits off, as another machine's arithmetic leaves it: the same
        # square, unless a value sits right at the tolerance's edge.
        steps = np.random.default_rng(ulps).integers(-ulps, ulps + 1, size=values.shape)
        off = values * (1 + steps * np.finfo(np.float64).eps)
        edge = np.abs(np.abs(finite - top) - tie) < 1e-4 * tie
        if not edge.any():
            assert int(best_squares(off)) == chosen
    else:
        assert chosen == 0 or finite[chosen] == top
