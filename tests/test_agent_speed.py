"""The players' fast paths decide exactly as the plain computations they replace (issue 13): the
second clue's screening of the vocabulary, the guessers' kept readings, the pawns' evidence and
the ring sums. Speed itself is measured in benchmarks/bench_agents.py, not here."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues import (
    Cell,
    GameState,
    GiveClue,
    IllegalClue,
    Pass,
    Phase,
    new_game,
    play_game,
    validate_clue,
)

# the players' private fast paths are what this file checks against the plain computations
from huescues.agents import (
    DEFAULT_GIVER_MODELS,
    DEFAULT_PAIR_FROM,
    EmbeddingClueGiver,
    EmbeddingGuesser,
    Player,
    RandomAgent,
    Readings,
    alike_chance,
    attested,
    default_agent,
    expected_points,
    naming_agent,
)
from huescues.agents._belief import log_l0
from huescues.agents._giver import _best_first
from huescues.agents._legal_words import legal_mask
from huescues.agents._listener import pawn_log_likelihood
from huescues.agents._models import models_of as _models
from huescues.agents._points import ring_kernel, ring_sums
from huescues.agents._screening import _kth_legal, alike_places, near, target_of
from huescues.agents._vocabulary import board_reading
from huescues.engine import Rules, View

RNG = np.random.default_rng(0)
#: The readings the players here share (the process's).
KEPT = Readings.shared()


def _second_clue_view(seed: int, rounds: int) -> View:
    """The giver's view at a second clue, after ``rounds`` earlier rounds of naming players."""
    agent = naming_agent()
    state: GameState = new_game(4, seed=seed)
    seen = 0
    while True:
        if state.phase is Phase.SECOND_CLUE:
            if seen == rounds:
                return state.view(state.giver)
            seen += 1
        seat = state.current_player or 0
        view = state.view(seat)
        act = {
            Phase.CHOOSE_TARGET: agent.choose_target,
            Phase.FIRST_CLUE: agent.give_clue,
            Phase.SECOND_CLUE: agent.give_second_clue,
        }.get(state.phase, agent.place_pawn)
        state = state.apply(act(view, RNG))


def _plain_second_clue(giver: EmbeddingClueGiver, view: View) -> GiveClue | Pass:
    """The second clue as it was computed before the screening: every word valued exactly."""
    target = target_of(view)
    board = view.board
    models = giver.listeners()
    empty = np.ones(board.size, dtype=bool)
    for c in view.occupied:
        empty[c.row * board.cols + c.col] = False
    frame_idx, ring_pts = near(KEPT, target, board, view.rules.points_by_distance)

    def value_of(log_second: list[np.ndarray]) -> np.ndarray:
        total = np.zeros(len(log_second[0]))
        for model, log_p in zip(models, log_second, strict=True):
            joint = log_p + log_l0(KEPT, model, board, view.clues[0]).ravel()
            joint = joint - joint.max(axis=-1, keepdims=True)
            weight = np.exp(joint) * empty
            weight /= weight.sum(axis=-1, keepdims=True)
            total += giver._value(view, weight[..., frame_idx].sum(axis=-1), weight @ ring_pts)
        return total / len(models)

    def legal(text: str) -> bool:
        try:
            validate_clue(text, second=True, rules=view.rules, previous=view.clues_given)
        except IllegalClue:
            return False
        return True

    readings = [board_reading(KEPT, m, board, giver.words) for m in models]
    # A second clue is true of the target read alone (a mask over the vocabulary).
    mask = giver._true_of(board, target) if giver.attested_only else None
    position = {w: i for i, w in reversed(list(enumerate(readings[0].words)))}

    def true_of(word: str) -> bool:
        return mask is None or bool(mask[position[word]])

    def sayable(word: str) -> bool:  # people picture it alike (the giver's alike_from)
        cut = giver.alike_from
        return cut is None or alike_chance(word, view.rules.language) >= cut

    words = readings[0].words
    value = value_of([r.log_belief.reshape(len(words), -1).astype(np.float64) for r in readings])
    candidates: list[tuple[float, str]] = []
    singles: list[str] = []
    for i in np.argsort(-value, kind="stable"):
        if legal(words[int(i)]) and true_of(words[int(i)]) and sayable(words[int(i)]):
            candidates.append((float(value[int(i)]), words[int(i)]))
            singles.append(words[int(i)])
            if len(singles) >= max(1, giver.pair_from):
                break
    for a_i, a in enumerate(singles if view.rules.second_clue_words >= 2 else ()):
        for b in singles[a_i + 1 :]:
            if legal(f"{a} {b}") and (not giver.attested_only or attested(f"{a} {b}")):
                v = value_of([log_l0(KEPT, m, board, f"{a} {b}").ravel()[None, :] for m in models])
                candidates.append((float(v[0]), f"{a} {b}"))
    best_value, best = max(candidates, key=lambda vc: vc[0])
    if giver.competitive and view.rules.second_clue_may_pass and best_value <= 0.0:
        return Pass()
    return GiveClue(best)


@pytest.mark.parametrize("pair_from", [0, 3, 8])
@pytest.mark.parametrize(
    ("seed", "rounds"),
    [
        (1, 0),
        pytest.param(2, 3, marks=pytest.mark.slow),
        pytest.param(5, 6, marks=pytest.mark.slow),
    ],
)
def test_r11_the_screened_second_clue_is_the_plain_search_s_choice(
    seed: int, rounds: int, pair_from: int
) -> None:
    view = _second_clue_view(seed, rounds)
    for giver in (
        EmbeddingClueGiver(model="naming", pair_from=pair_from),
        EmbeddingClueGiver(model="naming", pair_from=pair_from, competitive=False),
    ):
        assert giver.give_second_clue(view, RNG) == _plain_second_clue(giver, view)


@pytest.mark.slow
def test_r11_the_default_giver_s_screened_choice_is_the_plain_one() -> None:
    view = _second_clue_view(3, 2)
    giver = EmbeddingClueGiver(model=DEFAULT_GIVER_MODELS, pair_from=DEFAULT_PAIR_FROM)
    assert giver.give_second_clue(view, RNG) == _plain_second_clue(giver, view)


@pytest.mark.parametrize("attested_only", [True, False])
@pytest.mark.slow
def test_r11_the_default_giver_pairs_words_as_the_plain_search_does_all_game(
    attested_only: bool,
) -> None:
    # Phrases are screened from batched readings; every second clue of a game of default
    # players must still be the one the plain search (each phrase read alone) chooses. The
    # default giver says few phrases (only those people use); without that rule it pairs
    # freely, which exercises the phrases' screening.
    default = default_agent().giver
    assert isinstance(default, EmbeddingClueGiver) and default.pair_from == DEFAULT_PAIR_FROM == 8
    giver = dataclasses.replace(default, attested_only=attested_only)
    agent = Player(giver, default_agent().guesser)
    rng = np.random.default_rng(0)
    state: GameState = new_game(4, seed=1)
    seconds: list[str] = []
    while not state.is_terminal:
        view = state.view(state.current_player or 0)
        if state.phase is Phase.SECOND_CLUE:
            action = agent.give_second_clue(view, rng)
            assert action == _plain_second_clue(giver, view)
            if isinstance(action, GiveClue):
                seconds.append(action.text)
        else:
            action = {
                Phase.CHOOSE_TARGET: agent.choose_target,
                Phase.FIRST_CLUE: agent.give_clue,
            }.get(state.phase, agent.place_pawn)(view, rng)
        state = state.apply(action)
    assert attested_only or any(len(c.split()) == 2 for c in seconds)


def test_a_vocabulary_with_a_repeated_word_never_repeats_a_said_clue() -> None:
    words = ("sky", "lagoon", "sky", "lemon", "cherry", "grass", "navy")
    giver = EmbeddingClueGiver(model="naming", words=words)
    state = new_game(4, seed=2)
    for _ in range(2):
        view = state.view(state.giver)
        state = state.apply(giver.choose_target(view, RNG))
        clue = giver.give_clue(state.view(state.giver), RNG)
        state = state.apply(clue)
        assert clue.text not in state.view(state.giver).clues_given[:-1]
        while state.phase is Phase.FIRST_GUESS:
            state = state.apply(RandomAgent().place_pawn(state.view(state.current_player), RNG))
        state = state.apply(Pass())
        while state.phase is Phase.SECOND_GUESS:
            state = state.apply(RandomAgent().place_pawn(state.view(state.current_player), RNG))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_the_screening_s_threshold_is_the_kth_largest_legal_value(seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 300))
    values = rng.integers(-3, 8, n).astype(np.float64)  # many ties
    values[rng.random(n) < rng.random()] = -np.inf  # words left out
    legal = rng.random(n) >= rng.random()
    kept = zip(values, legal, strict=True)
    ordered = sorted((v for v, ok in kept if v > -np.inf and ok), reverse=True)
    expected = ordered[k - 1] if len(ordered) >= k else -np.inf
    assert _kth_legal(values, k, legal) == expected


@pytest.mark.parametrize("rounds", [0, 2, 5])
def test_r18_r22_the_legal_words_mask_is_validate_clue_s_verdict_on_each_word(
    rounds: int,
) -> None:
    view = _second_clue_view(11, rounds)
    words = board_reading(KEPT, _models("naming")[0], view.board).words
    # A said clue and a word of it in other case and spacing: R22 compares them normalised.
    said = view.clues_given[0] if view.clues_given else words[0]
    words = (*words[:400], said.upper(), f" {said} ", "two words", "")
    for second in (True, False):
        mask = legal_mask(KEPT, words, view, second=second)
        for w, ok in zip(words, mask, strict=True):
            try:
                validate_clue(w, second=second, rules=view.rules, previous=view.clues_given)
            except IllegalClue:
                assert not ok, w
            else:
                assert ok, w


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(3, 2, 1), (1, 1), (4, 0, 1)]))
def test_r15_ring_sums_on_one_board_are_the_loop_s_sums(seed: int, points: tuple[int, ...]) -> None:
    rng = np.random.default_rng(seed)
    belief = rng.random((16, 30)) ** 6
    belief /= belief.sum()
    # A batch of one board takes the plain loop; one board the gathered sums: the same bits.
    kernel = ring_kernel(16, 30, points)
    assert np.array_equal(ring_sums(belief, kernel), ring_sums(belief[None], kernel)[0])


def test_r15_expected_points_stay_a_fresh_array() -> None:
    belief = np.full((16, 30), 1 / 480)
    first = expected_points(belief, Rules.standard(4))
    first[:] = 0.0
    assert expected_points(belief, Rules.standard(4)).max() > 0


def test_pawn_evidence_is_the_sum_of_each_pawn_s_term_and_a_fresh_array() -> None:
    pawns = [Cell(3, 4), Cell(3, 5), Cell(10, 20)]
    both = pawn_log_likelihood(pawns, (16, 30), spread=2.5, floor=0.5)
    alone = [pawn_log_likelihood([p], (16, 30), spread=2.5, floor=0.5) for p in pawns]
    assert np.array_equal(both, alone[0] + alone[1] + alone[2])
    both[:] = 0.0
    again = pawn_log_likelihood(pawns, (16, 30), spread=2.5, floor=0.5)
    assert np.array_equal(again, alone[0] + alone[1] + alone[2])
    r, c = np.indices((16, 30))
    near = np.exp(-0.5 * ((r - 3) ** 2 + (c - 4) ** 2) / 2.5**2)
    assert np.allclose(alone[0], np.log(0.5 * near / near.sum() + 0.5 / 480))


def test_a_guesser_s_kept_readings_cannot_be_changed_by_a_caller() -> None:
    guesser = EmbeddingGuesser(model="naming", pragmatic=True, speakers=("naming",))
    board = new_game(4, seed=0).board
    first = guesser.readings(board, "lagoon")
    copy = [r.copy() for r in first]
    with pytest.raises(ValueError, match="read-only"):
        first[0][0] = 1.0
    first.clear()
    assert all(
        np.array_equal(a, b) for a, b in zip(guesser.readings(board, "lagoon"), copy, strict=True)
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=1, max_size=60),
    st.integers(1, 20),
)
def test_r9_the_first_clue_s_best_few_words_are_the_full_order_s_first(
    values: list[float], k: int
) -> None:
    column = np.array(values, dtype=np.float32)
    full = np.argsort(-column, kind="stable")
    for order in _best_first(column, k):
        assert np.array_equal(order, full[: len(order)])


def test_r9_the_first_clue_s_kept_orders_are_best_first_s_orders() -> None:
    for agent in (default_agent(), naming_agent()):
        giver = agent.giver
        assert isinstance(giver, EmbeddingClueGiver)
        board = new_game(4, seed=3).board
        _, by_square, _ = giver._by_square(board)
        for square in (0, 17, 250, board.size - 1):
            plain = list(_best_first(by_square[square], 16))
            for _ in range(2):  # made, then kept
                kept = list(giver._first_orders(board, square))
                assert len(kept) == len(plain)
                for a, b in zip(kept, plain, strict=True):
                    assert np.array_equal(a, b)


def test_r8_a_giver_whose_every_word_is_said_still_chooses_a_target() -> None:
    giver = EmbeddingClueGiver(model="naming", words=("sky", "lagoon", "sky", "lemon"))
    game = play_game([Player(giver, EmbeddingGuesser(model="naming"))] * 4, seed=1)
    assert game.state.is_terminal


@pytest.mark.slow
def test_r11_words_read_alike_are_worth_the_same_bits_as_each_valued_alone() -> None:
    # The naming data reads hundreds of unknown words alike: they share their numbers but for
    # the product with the points, whose bits depend on a row's place (and the order of equal
    # words on them). Every word's worth must be the bits of the plain valuation.
    shared = 0
    for seed, rounds in [(1, 0), (2, 1), (3, 2), (4, 3), (6, 1), (7, 4), (8, 2), (9, 5)]:
        view = _second_clue_view(seed, rounds)
        for giver in (EmbeddingClueGiver(model="naming"), default_agent().giver):
            assert isinstance(giver, EmbeddingClueGiver)
            models = giver.listeners()
            board = view.board
            empty = np.ones(board.size, dtype=bool)
            for c in view.occupied:
                empty[c.row * board.cols + c.col] = False
            _, ring_pts = near(KEPT, target_of(view), board, view.rules.points_by_distance)
            firsts = [log_l0(KEPT, m, board, view.clues[0]).ravel() for m in models]
            readings = [board_reading(KEPT, m, board, giver.words) for m in models]
            legal = legal_mask(KEPT, readings[0].words, view, second=True)
            # The shortlist, and every word (hundreds read alike).
            every = np.arange(len(readings[0].words))
            for shortlist in (giver._screen(view, readings, firsts, empty, ring_pts, legal), every):
                args = (view, readings, firsts, empty, shortlist)
                got = giver._worth_of_words(*args)
                want = giver._worth_of_words(*args, alike=False)
                assert got.tobytes() == want.tobytes()
                shared += (
                    alike_places(KEPT, models, board, readings, giver.words, shortlist) is not None
                )
    assert shared > 0
