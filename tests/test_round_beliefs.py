"""The guesser's belief kept for a round (ROUND_BELIEFS): every pawn placed from it is the pawn
placed from a belief made afresh, bit for bit, whatever filled the readings before."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from huescues import PlacePawn, View
from huescues.agents import EmbeddingGuesser, Readings, default_agent, naming_agent
from huescues.agents._guesser import ROUND_BELIEFS  # private: the kind of reading tested
from huescues.agents._points import expected_points
from recorded_views import guesser_views

RNG = np.random.default_rng(0)


def _views() -> list[View]:
    return guesser_views((3, 4))


def _fresh(guesser: EmbeddingGuesser, view: View) -> tuple[np.ndarray, PlacePawn]:
    """place_pawn's belief and pawn as it made them before the memo (nothing kept)."""
    others = [c for s, c in view.pawns if s != view.seat]
    belief = guesser.belief(view.board, view.clues, others, weights=guesser.weights(view))
    flat = expected_points(belief, view.rules).ravel().copy()
    for c in view.occupied:
        flat[c.row * view.board.cols + c.col] = -np.inf
    return belief, PlacePawn(view.board.cells()[int(np.argmax(flat))])


@pytest.mark.slow
def test_a_kept_round_belief_is_the_belief_made_afresh() -> None:
    played = _views()
    # Rounds of givers with earlier rounds (then the weights are not the prior), both guesses.
    assert any(r.giver == v.giver for v in played for r in v.history)
    assert {len(v.clues) for v in played} == {1, 2}
    # The same clues and pawns after other earlier rounds: other weights.
    views = played + [v._replace(history=v.history[1::2]) for v in played if v.history]
    guessers = [
        default_agent().guesser,
        naming_agent().guesser,
        EmbeddingGuesser(pragmatic=True, use_pawns=False),
        EmbeddingGuesser(model=("default", "naming")),  # the default's models, not pragmatic
    ]
    store = Readings()
    # Each view's belief taken after others' (of other games, rounds and guessers) are kept.
    order = RNG.permutation(len(views))
    for shared in guessers:
        assert isinstance(shared, EmbeddingGuesser)
        guesser = dataclasses.replace(shared, store=store)
        for i in order:
            view = views[int(i)]
            others = [c for s, c in view.pawns if s != view.seat]
            belief, pawn = _fresh(guesser, view)
            # The kept clues' belief, read for the crowd (issue 34) as place_pawn reads it.
            joint = guesser._for_crowd(view.board, guesser._round_joint(view, view.clues))
            kept = guesser._with_pawns(view.board, joint, others)
            assert np.array_equal(kept, belief)
            assert guesser.place_pawn(view, RNG) == pawn
    assert store.count(ROUND_BELIEFS) > 0
