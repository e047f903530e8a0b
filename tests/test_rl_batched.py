"""The vectorised environment over the batched engine (huescues.rl.BatchedEnv), its naming giver
bot and the PettingZoo Parallel adapter (docs/rl.md): masks per role, what each seat may see
(R8), rewards that add up to the engine's scores (R15-R17, R24), seeds that reproduce (R27)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from huescues import Board, IllegalAction, Rules
from huescues.batch import GameBatch, NamingGiver, naming_ranking, random_actions
from huescues.colour import hue_lightness_palette
from huescues.rl import BatchedEnv

BOARD = Board.from_rgb(hue_lightness_palette(6, 10), id="rl-test-6x10")
GIVING, GUESSING = (0, 1, 3), (2, 4)


def random_policy(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """A uniform legal code per row (0 in rows with nothing to do)."""
    mask = obs["action_mask"]
    u = rng.random(mask.shape) * mask
    return np.asarray(u.argmax(axis=1), dtype=np.int64)


def test_every_row_awaits_a_learner_with_a_mask_of_its_role() -> None:
    env = BatchedEnv(Rules.standard(4), 32, learners=(1,), board=BOARD)
    obs = env.reset(seed=3)
    rng = np.random.default_rng(0)
    space = env.space
    seen = set()
    for _ in range(60):
        assert (obs["seat"] == 1).all()
        mask = obs["action_mask"]
        assert np.array_equal(mask, env.batch.legal_actions())  # R8-R13, R18-R22
        giving = np.isin(obs["phase"], GIVING)
        # A giver's codes are targets, pass and clues; a guesser's the empty squares (R13).
        assert not mask[giving, space.first_pawn : space.first_clue].any()
        assert not mask[~giving, : space.first_pawn].any()
        assert not mask[~giving, space.first_clue :].any()
        assert np.array_equal(
            mask[~giving, space.first_pawn : space.first_clue], ~obs["occupied"][~giving]
        )
        seen.update(obs["phase"].tolist())
        obs, *_ = env.step(random_policy(obs, rng))
    assert seen == {0, 1, 2, 3, 4}  # the learner plays both roles


def test_a_guesser_never_sees_the_card_or_the_target() -> None:
    """R8: the card and the chosen square are the giver's alone."""
    env = BatchedEnv(Rules.standard(3), 64, board=BOARD)
    obs = env.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(40):
        b = env.batch
        giver = obs["seat"] == b.giver
        assert (obs["card"][~giver] == -1).all() and (obs["target"][~giver] == -1).all()
        assert (obs["target_index"][~giver] == -1).all()
        assert np.array_equal(obs["card"][giver], b.card[giver])
        assert np.array_equal(obs["target"][giver], b.target[giver])
        # Any seat can be asked about: the giver's view of the same rows shows the card.
        seen = env.observe(b.giver)
        assert np.array_equal(seen["card"], b.card) and not seen["action_mask"][~giver].any()
        obs, *_ = env.step(random_policy(obs, rng))


@pytest.mark.parametrize(("roles", "phases"), [(("giver",), GIVING), (("guesser",), GUESSING)])
def test_one_role_leaves_the_other_to_the_bot(
    roles: tuple[str, ...], phases: tuple[int, ...]
) -> None:
    env = BatchedEnv(Rules.standard(4), 16, roles=roles, board=BOARD)  # type: ignore[arg-type]
    obs = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(30):
        assert np.isin(obs["phase"], phases).all()
        obs, *_ = env.step(random_policy(obs, rng))


def test_every_seat_learning_leaves_nothing_to_the_bot() -> None:
    def no_bot(batch: GameBatch, rng: np.random.Generator) -> np.ndarray:
        raise AssertionError("the bot was asked to act")

    env = BatchedEnv(Rules.standard(3), 8, learners=(0, 1, 2), bot=no_bot, board=BOARD)
    obs = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(200):
        assert (obs["seat"] == env.batch.current_player).all()
        obs, *_ = env.step(random_policy(obs, rng))


def test_rewards_add_up_to_the_games_scores() -> None:
    """Over a run, each seat's rewards are the final totals of the games that ended (R17, R24)
    plus the scores of those in progress: a game ended and reset in a step counts its end."""
    env = BatchedEnv(Rules.standard(4), 24, learners=(0, 2), board=BOARD)
    obs = env.reset(seed=8)
    rng = np.random.default_rng(8)
    total = np.zeros((24, 4))
    finals = np.zeros((24, 4))
    ends = 0
    for _ in range(400):
        obs, rewards, ended, final = env.step(random_policy(obs, rng))
        total += rewards
        finals += final
        assert not final[~ended].any()
        ends += int(ended.sum())
    assert ends > 24
    assert np.array_equal(total, finals + env.batch.scores)


def test_a_seed_reproduces_the_games_and_the_bots() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = BatchedEnv(Rules.standard(4), 8, board=BOARD)
        obs = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = []
        for _ in range(50):
            obs, rewards, *_ = env.step(random_policy(obs, rng))
            out += [obs["clue_ids"], obs["occupied"], rewards]
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_games_of_given_seeds_replay_in_the_engine() -> None:
    """R27: with game_seeds, every game the learner and the bots play replays in GameState."""
    env = BatchedEnv(Rules.standard(3), 4, board=BOARD, bot=random_actions)
    obs = env.reset(seed=0, game_seeds=range(100, 110))
    rng = np.random.default_rng(3)
    while env.batch.playing:
        obs, *_ = env.step(random_policy(obs, rng))
    assert sorted(g.seed for g in env.batch.finished) == list(range(100, 110))
    for game in env.batch.finished:
        result = game.record().replay(board=BOARD).result
        assert result is not None and result.scores == game.scores


def test_an_illegal_code_is_refused() -> None:
    env = BatchedEnv(Rules.standard(3), 2, board=BOARD)
    obs = env.reset(seed=1)
    bad = np.where(np.isin(obs["phase"], GIVING), env.space.first_pawn, 0)  # wrong role
    with pytest.raises(IllegalAction):
        env.step(bad)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="learners"):
        BatchedEnv(Rules.standard(3), 2, learners=(3,))
    with pytest.raises(ValueError, match="roles"):
        BatchedEnv(Rules.standard(3), 2, roles=("judge",))  # type: ignore[arg-type]


def test_the_naming_giver_says_the_best_ranked_fresh_word() -> None:
    """Its clues are legal (R9, R11, R22) and name the target's colour: the first clue is the
    square's best word unless already given."""
    batch = GameBatch(Rules.standard(4), 64, range(64))
    giver = NamingGiver.for_batch(batch)
    ranking = giver.ranking
    assert ranking.shape == (480, 16)
    words = batch.space.vocabulary.texts
    assert all(len(words[i].split()) == 1 for i in ranking.ravel())
    rng = np.random.default_rng(0)
    firsts = 0
    while batch.playing and firsts < 200:
        clue_rows = np.flatnonzero(batch.phase == 1)
        codes = giver(batch, rng)
        for row in clue_rows.tolist():
            best = next(i for i in ranking[batch.target[row]] if not batch.used[row, i])
            assert codes[row] == batch.space.first_clue + best
            firsts += 1
        batch.step(codes)  # legal, or this raises
    assert firsts >= 200


def test_naming_ranking_names_colours() -> None:
    board = Board.standard()
    batch = GameBatch(Rules.standard(3), 1, [0])
    ranking = naming_ranking(batch.space.vocabulary, board, top=3)
    texts = batch.space.vocabulary.texts
    best = {texts[i] for i in ranking[:, 0]}
    assert len(best) > 20 and {"lime", "cyan"} <= best


def test_batched_env_needs_no_pettingzoo(monkeypatch: pytest.MonkeyPatch) -> None:
    import huescues.rl

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "huescues.rl._parallel", raising=False)
    assert huescues.rl.BatchedEnv is BatchedEnv
    with pytest.raises(ImportError, match=r"huescues\[rl\]"):
        _ = huescues.rl.ParallelGameEnv
