"""The pragmatic guesser (Rational Speech Acts): it reads a clue as a giver would have meant it,
and learns during a game which reading fits each clue giver."""

from __future__ import annotations

import numpy as np
import pytest

from huescues import Board, Cell, ChooseTarget, GiveClue, RoundResult, new_game
from huescues.agents import EmbeddingClueGiver, EmbeddingGuesser, Readings, resolve_model

# the pragmatic reading's maths is private: tested here
from huescues.agents._speaker import log_pragmatic, speaker_reading

BOARD = Board.standard()


def test_the_pragmatic_reading_is_a_distribution_and_none_for_words_never_chosen() -> None:
    speaker = speaker_reading(Readings(), [resolve_model("naming")], BOARD)
    log_l1 = log_pragmatic(speaker, "Lemon ")
    assert log_l1 is not None and log_l1.shape == (BOARD.size,)
    assert np.isclose(np.exp(log_l1).sum(), 1.0)
    assert log_pragmatic(speaker, "zzyzx") is None


def test_knowing_why_the_giver_chose_a_word_finds_its_target_better() -> None:
    # The giver clues random card squares; the guesser imagining that giver puts more
    # probability on the true target than the literal reading does, on average.
    giver = EmbeddingClueGiver(model="naming")
    literal = EmbeddingGuesser(model="naming")
    pragmatic = EmbeddingGuesser(model="naming", pragmatic=True, speakers=("naming",))
    gains = []
    for seed in range(12):
        state = new_game(4, seed=seed)
        view = state.view(state.giver)
        state = state.apply(giver.choose_target(view, np.random.default_rng(0)))
        clue = giver.give_clue(state.view(state.giver), np.random.default_rng(0))
        target = state.target
        assert target is not None
        t = target.row * BOARD.cols + target.col
        p_literal = literal.belief(BOARD, [clue.text]).ravel()[t]
        # Weight only on the imagined giver's reading: what reasoning about it adds.
        only_giver = np.array([0.0, 1.0])
        p_pragmatic = pragmatic.belief(BOARD, [clue.text], weights=only_giver).ravel()[t]
        gains.append(np.log(p_pragmatic / p_literal))
    assert np.mean(gains) > 0.2, gains


def test_with_no_earlier_rounds_the_weights_are_the_prior() -> None:
    guesser = EmbeddingGuesser(model=("default", "naming"), pragmatic=True)
    state = new_game(4, seed=3).apply(ChooseTarget(0)).apply(GiveClue("ocean"))
    assert state.current_player is not None
    w = guesser.weights(state.view(state.current_player))
    assert np.allclose(w, guesser.prior()) and np.isclose(w.sum(), 1.0)
    assert len(w) == 2 + len(guesser.speakers)


def test_the_weights_move_to_the_reading_that_found_this_givers_targets() -> None:
    guesser = EmbeddingGuesser(model=("default", "naming"), pragmatic=True)
    state = new_game(4, seed=3).apply(ChooseTarget(0)).apply(GiveClue("ocean"))
    assert state.current_player is not None
    view = state.view(state.current_player)
    # Three earlier rounds by this giver whose targets sat where the naming data's literal
    # reading (index 1) peaks and the other readings do not.
    history = []
    for i, clue in enumerate(["lemon", "cherry", "grass"]):
        readings = guesser.readings(BOARD, clue)
        lift = np.log(readings[1]) - np.log(np.mean(readings, axis=0))
        t = int(np.argmax(lift))
        target = Cell(t // BOARD.cols, t % BOARD.cols)
        history.append(RoundResult(i, view.giver, False, target, (clue,), (), (0, 0, 0, 0)))
    # Another giver's rounds say nothing about this one.
    other = (view.giver + 1) % 4
    theirs = RoundResult(3, other, False, Cell(0, 0), ("snow",), (), (0, 0, 0, 0))
    prior = guesser.prior()
    assert np.allclose(guesser.weights(view._replace(history=(theirs,))), prior)
    history.append(theirs)
    w = guesser.weights(view._replace(history=tuple(history)))
    assert int(np.argmax(w / prior)) == 1
    assert w[1] > prior[1]


def test_weights_of_the_wrong_length_are_a_clear_error() -> None:
    guesser = EmbeddingGuesser(model=("default", "naming"), pragmatic=True)
    with pytest.raises(ValueError, match="give 6 non-negative weights"):
        guesser.belief(BOARD, ["ocean"], weights=np.ones(2))
    with pytest.raises(ValueError, match="not all zero"):
        guesser.belief(BOARD, ["ocean"], weights=np.zeros(6))


def test_outside_a_game_a_pragmatic_guesser_reads_literally() -> None:
    # rank() and human_agreement() have no giver to reason about: people's clues are read
    # literally, as the same guesser without the pragmatic step reads them.
    pragmatic = EmbeddingGuesser(model=("default", "naming"), pragmatic=True)
    literal = EmbeddingGuesser(model=("default", "naming"))
    for clue in (["dandelion"], ["lagoon", "deep"]):
        assert np.allclose(pragmatic.belief(BOARD, clue), literal.belief(BOARD, clue))
        assert pragmatic.rank(BOARD, clue)[:5] == literal.rank(BOARD, clue)[:5]
    # In a game the imagined givers count from the first round (the prior).
    in_game = pragmatic.belief(BOARD, ["dandelion"], weights=pragmatic.prior())
    assert not np.allclose(in_game, literal.belief(BOARD, ["dandelion"]))
