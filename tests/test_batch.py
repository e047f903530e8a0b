"""The batched engine (huescues.batch) against the reference engine: every batched game is a
game of GameState (R2-R27), dealt as new_game deals for its seed (R3, R6, R27)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from huescues import Action, Board, GameRecord, GameState, Rules, new_game
from huescues.agents import Agent
from huescues.batch import (
    PHASES,
    ClueVocabulary,
    FinishedGame,
    GameBatch,
    play_random_batch,
    random_actions,
    random_batch_games,
)
from huescues.engine import IllegalAction, IllegalClue, Phase, validate_clue
from huescues.testing import check_games


def variants(n: int) -> list[Rules]:
    """The standard rules for ``n`` players and variants of every setting (R6-R25)."""
    return [
        Rules.standard(n),
        # R6 random first giver, R12 same order, R11 no pass, R25 one tie-breaker at most.
        Rules.standard(
            n,
            first_giver="random",
            second_guess_order="same",
            second_clue_may_pass=False,
            max_tiebreak_rounds=1,
        ),
        # R9 two-word first clues, R11 up to three words, R22 repeats allowed.
        Rules.standard(n, first_clue_words=2, second_clue_words=3, refuse_repeated_clues=False),
        # R15 and R16 tables, R7 rounds per giver, R6 the last seat first, no tie-breakers.
        Rules.standard(
            n,
            points_by_distance=(5, 3, 2, 1),
            giver_points_per_pawn=3,
            rounds_per_giver=1,
            first_giver=n - 1,
            max_tiebreak_rounds=0,
        ),
        # R15 a flat table (many ties, R25), R16 no giver points, R11 one word at most.
        Rules.standard(
            n,
            points_by_distance=(1, 1),
            giver_points_per_pawn=0,
            second_clue_words=1,
            rounds_per_giver=3,
        ),
        # R19 and R21 longer lists that refuse some of the vocabulary's words.
        Rules.standard(
            n,
            banned_terms=("red", "ocean", "sky", "rose"),
            relative_words=("darker", "frost", "jade"),
            max_tiebreak_rounds=30,
        ),
    ]


ALL_VARIANTS = [rules for n in range(3, 11) for rules in variants(n)]


def check_replays(games: Sequence[FinishedGame]) -> None:
    """Each game's record replays in GameState to the batch's scores and winners (R24-R27)."""
    for game in games:
        state = game.record().replay()
        assert state.is_terminal, game.seed
        result = state.result
        assert result is not None
        assert (result.scores, result.winners, result.tiebreak_rounds) == (
            game.scores,
            game.winners,
            game.tiebreak_rounds,
        ), (game.rules, game.seed)


def test_play_random_batch_returns_records_of_consecutive_seeds() -> None:
    records = play_random_batch(12, 5, seed=40)
    assert [r.seed for r in records] == list(range(40, 52))
    assert all(isinstance(r, GameRecord) for r in records)
    assert all(r.replay().is_terminal for r in records)  # R24


def test_play_random_batch_is_reproducible() -> None:
    """R27: the same arguments give the same games."""
    assert play_random_batch(6, 4, seed=3) == play_random_batch(6, 4, seed=3)


@pytest.mark.parametrize("rules", ALL_VARIANTS[::5], ids=lambda r: f"{r.n_players}p")
def test_batched_games_replay_to_the_same_result_quick(rules: Rules) -> None:
    check_replays(random_batch_games(15, rules.n_players, seed=7, rules=rules, batch_size=8))


@pytest.mark.slow
def test_batched_games_replay_to_the_same_result_10000_games() -> None:
    """10,032 games: every player count 3-10 and six rules variants each, 209 games a variant."""
    played = 0
    for i, rules in enumerate(ALL_VARIANTS):
        games = random_batch_games(209, rules.n_players, seed=1000 * i, rules=rules)
        assert [g.seed for g in games] == list(range(1000 * i, 1000 * i + 209))
        check_replays(games)
        played += len(games)
    assert played >= 10_000


def test_a_batch_deals_what_new_game_deals() -> None:
    """R3, R6, R27: each row's deck order, first giver and first card are new_game's."""
    rules = Rules.standard(5, first_giver="random")
    batch = GameBatch(rules, 6, range(20, 26))
    for row, seed in enumerate(range(20, 26)):
        state = new_game(5, seed=seed, rules=rules)
        assert batch.seed[row] == seed
        assert tuple(batch.order[row]) == state.setup.order[: batch.order.shape[1]]
        assert batch.giver[row] == state.giver == batch.current_player[row]
        cols = batch.board.cols
        assert tuple(batch.card[row]) == tuple(c.row * cols + c.col for c in state.card)


def _mirror(batch: GameBatch, state: GameState, row: int) -> None:
    """The row's arrays say what the engine's state says."""
    assert PHASES[batch.phase[row]] is state.phase
    assert batch.current_player[row] == state.current_player
    assert batch.round[row] == state.round
    assert batch.giver[row] == state.giver
    assert tuple(batch.scores[row]) == state.scores
    assert tuple(batch.guessers[row, : batch.n_guessers[row]]) == state.guessers
    cols = batch.board.cols
    occupied = {int(s) for s in np.flatnonzero(batch.occupied[row])}
    assert occupied == {c.row * cols + c.col for c in state.occupied}
    if state.target is not None:
        assert batch.target[row] == state.target.row * cols + state.target.col
    legal = batch.legal_actions()[row]
    listed = {batch.space.code(a) for a in state.legal_actions()}
    assert listed == set(np.flatnonzero(legal[: batch.space.first_clue]).tolist())


@pytest.mark.slow
@pytest.mark.parametrize("rules", [ALL_VARIANTS[1], ALL_VARIANTS[16], ALL_VARIANTS[-2]])
def test_every_step_mirrors_the_engine(rules: Rules) -> None:
    """Phase, turn (R10, R12, R25), scores (R15-R17), occupancy (R13) and the listed legal
    actions agree with GameState after every step, and each code is one apply accepts."""
    n = rules.n_players
    batch = GameBatch(rules, 4, range(4))
    states = [new_game(n, seed=s, rules=rules) for s in range(4)]
    rng = np.random.Generator(np.random.PCG64(5))
    while True:
        for row, state in enumerate(states):
            _mirror(batch, state, row)
        codes = random_actions(batch, rng)
        legal = batch.legal_actions()
        assert all(legal[row, codes[row]] for row in range(4) if batch.phase[row] != 5)
        old = batch.seed.copy()
        batch.step(codes)
        for row in range(4):
            if not states[row].is_terminal:
                states[row] = states[row].apply(batch.space.action(int(codes[row])))
        if any(s.is_terminal for s in states):
            break
    done = {g.seed: g for g in batch.finished}
    for row, state in enumerate(states):
        if state.is_terminal:
            assert state.result is not None
            assert done[int(old[row])].scores == state.result.scores


def test_an_illegal_code_is_refused_and_changes_nothing() -> None:
    batch = GameBatch(Rules.standard(4), 3, range(3))
    before = batch.phase.copy(), batch.n_actions.copy()
    with pytest.raises(IllegalAction, match="R8"):
        batch.step(np.array([0, 9, 1]))  # 9 is no square of the card
    assert np.array_equal(batch.phase, before[0]) and np.array_equal(batch.n_actions, before[1])
    batch.step(np.zeros(3, dtype=np.int64))
    space = batch.space
    batch.step(np.full(3, space.first_clue))  # the first word, a legal first clue (R9)
    batch.step(np.full(3, space.first_pawn))  # a pawn on A1 in each game
    with pytest.raises(IllegalAction, match="R13"):
        batch.step(np.full(3, space.first_pawn))  # A1 again (R13)


def test_a_clue_is_not_given_twice_in_a_game() -> None:
    """R22: a repeat is refused by the batch, and random players never give one."""
    rules = Rules.standard(3)
    for game in random_batch_games(40, 3, seed=1, rules=rules, batch_size=16):
        clues = [c for c in game.codes if c >= game.space.first_clue]
        assert len(clues) == len(set(clues))


def test_action_codes_round_trip() -> None:
    space = GameBatch(Rules.standard(3), 1, [0]).space
    assert space.size == 5 + 480 + len(ClueVocabulary.standard())
    for code in range(space.size):
        assert space.code(space.action(code)) == code


def test_the_vocabulary_verdicts_are_validate_clue_s() -> None:
    """R9, R11, R18-R21: standard rules allow every word as a first clue, pairs only second."""
    vocab = ClueVocabulary.standard()
    first, second = vocab.verdicts(Rules.standard(4))
    words = np.array(vocab.word_counts) == 1
    assert first[words].all() and not first[~words].any()
    assert second.all()


class _Replayer:
    """Plays a record's actions in order, whichever seat is asked (to hand a batched game to
    the independent checker)."""

    def __init__(self, actions: Iterator[Action]) -> None:
        self.next = actions.__next__

    def choose_target(self, view: object, rng: object) -> Action:
        return self.next()

    give_clue = give_second_clue = place_pawn = choose_target


def check_with_checker(records: Sequence[GameRecord]) -> None:
    for record in records:

        def agents(n: int, record: GameRecord = record) -> list[Agent]:
            actions = iter(record.actions)
            return [_Replayer(actions) for _ in range(n)]  # type: ignore[misc]

        report = check_games(record.rules, games=1, seed=record.seed, agents=agents)
        assert report.actions == len(record.actions)


def test_the_checker_accepts_batched_games_quick() -> None:
    rules = ALL_VARIANTS[10]
    check_with_checker(play_random_batch(3, rules.n_players, seed=2, rules=rules))


@pytest.mark.slow
def test_the_checker_accepts_batched_games_of_every_variant() -> None:
    """huescues.testing's own checks (turns, legality, scoring, records, R27) on two games of
    every variant."""
    for i, rules in enumerate(ALL_VARIANTS):
        check_with_checker(play_random_batch(2, rules.n_players, seed=i, rules=rules))


def test_rows_without_seeds_stay_over() -> None:
    batch = GameBatch(Rules.standard(3), 4, range(2))
    assert batch.playing == 2
    assert list(batch.seed) == [0, 1, -1, -1]
    rng = np.random.Generator(np.random.PCG64(0))
    for _ in itertools.count():
        if not batch.playing:
            break
        batch.step(random_actions(batch, rng))
    assert sorted(g.seed for g in batch.finished) == [0, 1]
    assert (batch.phase == PHASES.index(Phase.GAME_OVER)).all()


def test_a_batch_on_another_board_replays_on_it() -> None:
    """R1, R3: a small custom board and its generated deck; records replay given the board."""
    board = Board.from_rgb(np.random.default_rng(0).random((8, 10, 3)), id="tiny-8x10")
    batch = GameBatch(Rules.standard(4), 5, range(5), board=board)
    assert batch.space.first_clue == 5 + 80
    rng = np.random.Generator(np.random.PCG64(1))
    while batch.playing:
        batch.step(random_actions(batch, rng))
    for game in batch.finished:
        result = game.record().replay(board=board).result
        assert result is not None
        assert (result.scores, result.winners) == (game.scores, game.winners)


def test_ended_marks_the_rows_whose_game_ended_in_the_step() -> None:
    """R24: a game that ends in a step is flagged with its final totals as its row resets."""
    batch = GameBatch(Rules.standard(3), 6, itertools.count(), keep_finished=True)
    rng = np.random.Generator(np.random.PCG64(2))
    seen = 0
    while seen < 10:
        seeds = batch.seed.copy()
        batch.step(random_actions(batch, rng))
        done = {game.seed: game for game in batch.finished}
        assert len(done) == seen + np.count_nonzero(batch.ended)
        for row in np.flatnonzero(batch.ended).tolist():
            assert seeds[row] != batch.seed[row]  # the row holds the next game
            assert tuple(batch.ended_scores[row]) == done[int(seeds[row])].scores
            seen += 1


def test_step_where_moves_only_the_chosen_rows() -> None:
    """Rows left out of ``where`` keep their pending decision; the others play on (R8)."""
    batch = GameBatch(Rules.standard(4), 4, range(4))
    rows = np.array([True, False, True, False])
    assert batch.step(np.zeros(4, dtype=np.int64), where=rows) == 2
    assert batch.phase.tolist() == [1, 0, 1, 0]
    assert batch.target_index.tolist() == [0, -1, 0, -1]
    with pytest.raises(ValueError, match="mask of 4 rows"):
        batch.step(np.zeros(4, dtype=np.int64), where=[True])


def test_a_refused_step_keeps_the_ended_flags() -> None:
    """A refused code changes nothing, the flags of the games that ended in the last step
    included (R24: their final totals stay readable)."""
    batch = GameBatch(Rules.standard(3), 4, itertools.count())
    rng = np.random.Generator(np.random.PCG64(3))
    while not batch.ended.any():
        batch.step(random_actions(batch, rng))
    ended, ended_scores = batch.ended.copy(), batch.ended_scores.copy()
    illegal = np.where(batch.legal_actions(), -1, np.arange(batch.space.size)).max(axis=1)
    with pytest.raises(IllegalAction):
        batch.step(illegal)
    assert np.array_equal(batch.ended, ended)
    assert np.array_equal(batch.ended_scores, ended_scores)


@pytest.mark.parametrize("bad", [-4, 2**63, 2.5, True, "7"])
def test_a_bad_seed_to_come_refuses_a_step_whole(bad: object) -> None:
    """A seed is checked (R27) before the step that may deal it applies anything: a bad one
    refuses that step and changes nothing (it used to be found while a finished game's row
    was being dealt, the step's actions already applied)."""
    batch = GameBatch(Rules.standard(3), 2, [1, 2, 3, bad, 5])  # type: ignore[list-item]
    rng = np.random.Generator(np.random.PCG64(3))
    arrays = ("phase", "scores", "n_actions", "ended", "seed", "log")
    before = {name: getattr(batch, name).copy() for name in arrays}
    with pytest.raises(
        ValueError, match=r"seed .* refused: .* whole numbers from 0 to 2\*\*63 - 1"
    ):
        batch.step(random_actions(batch, rng))
    for name in arrays:
        assert np.array_equal(getattr(batch, name), before[name]), name
    assert batch.finished == []


def test_every_seed_is_played_once_though_drawn_ahead() -> None:
    """Seeds drawn ahead (to be checked before a step) are each dealt once (R27)."""
    batch = GameBatch(Rules.standard(3), 2, range(10, 16))
    rng = np.random.Generator(np.random.PCG64(5))
    while batch.seed.max() >= 0:
        batch.step(random_actions(batch, rng))
    assert sorted(g.seed for g in batch.finished) == list(range(10, 16))  # each once


@pytest.mark.parametrize(
    "codes",
    [
        np.full(3, 0.7),  # a float would be cut to 0, a legal target (R8)
        ["0", "0", "0"],
        [2**70] * 3,  # too big for an int64: was an OverflowError from numpy
        [True, True, True],
    ],
)
def test_step_refuses_codes_that_are_not_whole_numbers(codes: object) -> None:
    batch = GameBatch(Rules.standard(4), 3, range(3))
    with pytest.raises(TypeError, match="action codes are whole numbers"):
        batch.step(codes)  # type: ignore[arg-type]
    assert batch.phase.tolist() == [0, 0, 0] and batch.n_actions.tolist() == [0, 0, 0]


def test_step_where_is_a_boolean_mask() -> None:
    """Row numbers given for ``where`` are refused, not read as a mask (R8)."""
    batch = GameBatch(Rules.standard(4), 2, range(2))
    with pytest.raises(TypeError, match="boolean mask"):
        batch.step(np.zeros(2, dtype=np.int64), where=[0, 1])
    assert batch.phase.tolist() == [0, 0]


def test_action_space_refuses_codes_outside_it() -> None:
    """``actions`` refuses what ``action`` refuses: a negative code read from the end, a code
    past the end, a code that is no whole number; ``code`` refuses what is no action."""
    space = GameBatch(Rules.standard(3), 1, [0]).space
    for bad in (-1, space.size):
        with pytest.raises(ValueError, match=f"no action has code {bad}"):
            space.actions([0, bad])
        with pytest.raises(ValueError, match=f"no action has code {bad}"):
            space.action(bad)
    for bad in (1.5, "3", None):
        with pytest.raises(TypeError, match="code"):
            space.action(bad)  # type: ignore[arg-type]
    assert space.action(np.int64(3)) == space.action(3)
    with pytest.raises(TypeError, match="not an action"):
        space.code(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_games": 2.5}, TypeError, "n_games"),
        ({"n_games": True}, TypeError, "n_games"),
        ({"seed": True}, ValueError, r"seed.*R27"),  # was played as seed 1
        ({"seed": 1.5}, ValueError, r"seed.*R27"),
        ({"seed": 2**63}, ValueError, r"seed.*R27"),  # was an OverflowError
        ({"seed": 2**63 - 1, "n_games": 2}, ValueError, r"seed.*R27"),
        ({"rules": "standard"}, TypeError, "rules"),  # was an AttributeError
    ],
)
def test_random_batches_refuse_bad_arguments_by_name(
    kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    args: dict[str, object] = {"n_games": 1, "n_players": 4} | kwargs
    with pytest.raises(error, match=match):
        play_random_batch(**args)  # type: ignore[arg-type]


def test_a_batch_refuses_bad_arguments_by_name() -> None:
    with pytest.raises(TypeError, match="rules"):
        GameBatch("standard", 2, range(2))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="size"):
        GameBatch(Rules.standard(4), 2.0, range(2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"seed.*R27"):
        GameBatch(Rules.standard(4), 1, [2**64])
    assert len(play_random_batch(np.int64(2), np.int64(4), seed=np.int64(2**63 - 2))) == 2


@pytest.mark.parametrize("p", [float("nan"), -0.1, 1.5, "0.5", True])
def test_random_actions_refuse_a_pass_probability_that_is_none(p: object) -> None:
    """R11's pass is drawn with a probability: NaN never passed, and 1.5 always did."""
    batch = GameBatch(Rules.standard(3), 2, range(2))
    with pytest.raises(ValueError, match="pass_probability is a probability from 0 to 1"):
        random_actions(batch, np.random.default_rng(0), pass_probability=p)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pass_probability"):
        random_batch_games(2, 3, pass_probability=p)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "rules",
    [
        Rules.standard(4),
        Rules.standard(4, refuse_named_colours=True),
        Rules.standard(4, language="es"),
        Rules.standard(4, language="es", refuse_named_colours=True),
    ],
    ids=["english", "named-colours", "spanish", "spanish-named-colours"],
)
def test_r18_r21_the_batch_refuses_the_clues_the_engine_refuses_under_every_setting(
    rules: Rules,
) -> None:
    """The batched games check clues as the engine does (R18-R21): the named-colours house rule
    refuses 'indigo', Spanish rules refuse 'izquierda' (R20), 'veinte' (R20) and 'rojiza'
    (R19), as validate_clue does under the same rules."""
    texts = ("indigo", "izquierda", "veinte", "rojiza", "sky", "azul", "deep sea", "very red")
    first, second = ClueVocabulary(texts).verdicts(rules)
    for verdicts, is_second in ((first, False), (second, True)):
        expected = []
        for text in texts:
            try:
                validate_clue(text, second=is_second, rules=rules)
            except IllegalClue:
                expected.append(False)
            else:
                expected.append(True)
        assert verdicts.tolist() == expected, (rules.language, is_second)
    # (What the engine refuses here: not a list the batch was told.)
    if rules.language == "es":
        assert not any(first[1:4])
    elif rules.refuse_named_colours:
        assert not first[0]
