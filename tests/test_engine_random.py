"""The engine's seeded streams (R27): the same numbers as numpy's SeedSequence children."""

from __future__ import annotations

import pickle

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.engine import seat_generators
from huescues.engine._random import engine_stream  # the deck's stream is private: tested here


def _numpy_child(seed: int, index: int) -> np.random.PCG64:
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,)))


@settings(max_examples=300, deadline=None)
@given(seed=st.one_of(st.integers(0, 2**40), st.integers(0, 2**300)), n=st.integers(3, 10))
def test_streams_are_numpys_seed_sequence_children(seed: int, n: int) -> None:
    # R27: the seed decides the deck and every seat's generator exactly as numpy's children of
    # SeedSequence(seed) would (the state is worked out without making them, for speed).
    assert engine_stream(seed).state == _numpy_child(seed, 0).state
    for i, rng in enumerate(seat_generators(seed, n)):
        assert rng.bit_generator.state == _numpy_child(seed, 1 + i).state


def test_seat_generators_spawn_pickle_and_show_their_seed_sequence() -> None:
    rng = seat_generators(7, 4)[2]
    ours = rng.bit_generator.seed_seq
    real = np.random.SeedSequence(7, spawn_key=(3,))
    assert (ours.entropy, ours.spawn_key) == (real.entropy, real.spawn_key)
    assert repr(ours) == repr(real)
    want = np.random.Generator(np.random.PCG64(real))
    # A spawned generator is the real SeedSequence's child; a pickled one goes on the same.
    assert [g.random() for g in rng.spawn(2)] == [g.random() for g in want.spawn(2)]
    copy = pickle.loads(pickle.dumps(rng))
    assert copy.random(5).tolist() == rng.random(5).tolist() == want.random(5).tolist()
    assert copy.bit_generator.seed_seq.n_children_spawned == 2
