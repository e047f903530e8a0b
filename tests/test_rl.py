"""The PettingZoo guessing environment (docs/rl.md): API and seed checks, masks, rewards."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from huescues import Board, OccupiedSquare, Rules
from huescues.agents import RandomAgent
from huescues.colour import hue_lightness_palette
from huescues.rl import GuessingEnv, clue_indices, default_clue_vocabulary

# PettingZoo's checker warns about every Dict observation space and observation (except its own
# named environments), yet an action mask needs the Dict. Those two warnings are expected.
DICT_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]

BOARD = Board.from_rgb(hue_lightness_palette(6, 10), id="rl-test-6x10")


def small_env(n_players: int = 4, **kw: object) -> GuessingEnv:
    return GuessingEnv(n_players, board=BOARD, giver=RandomAgent(), **kw)  # type: ignore[arg-type]


def play_out(env: GuessingEnv, seed: int) -> dict[str, float]:
    """Play a game with random legal squares; the total reward of each agent."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.filterwarnings(*DICT_WARNINGS)
def test_api_test_passes() -> None:
    api_test(small_env(), num_cycles=300)
    api_test(small_env(3), num_cycles=300)


@pytest.mark.filterwarnings(*DICT_WARNINGS)
def test_seed_test_passes() -> None:
    seed_test(small_env, num_cycles=300)


def test_agents_spaces_and_observation() -> None:
    env = small_env()
    env.reset(seed=3)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.action_space("player_0").n == 60
    game = env.game
    assert game is not None and game.phase.value == "first_guess"
    assert env.agent_selection == f"player_{game.current_player}"
    obs = env.observe(env.agent_selection)
    assert env.observation_space("player_1").contains(obs)
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (60 * 5 + 3,)
    assert np.allclose(obs["observation"][:180], BOARD.lab.reshape(-1) / 100, atol=1e-5)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].all()
    # The first clue is in the observation as a vocabulary index.
    (clue,) = game.clues
    vocab = env.clue_vocabulary
    assert obs["clues"][0] == vocab.index(clue) + 2 and obs["clues"][1:].tolist() == [0, 0]


def test_clue_indices() -> None:
    index = {"sky": 0, "blue": 1}
    assert clue_indices(["sky", "deep blue"], index, (1, 2)).tolist() == [2, 1, 3]
    assert clue_indices([], index, (1, 2)).tolist() == [0, 0, 0]
    assert "ocean" in default_clue_vocabulary()


def test_masked_squares_are_refused() -> None:
    env = small_env()
    env.reset(seed=5)
    first = env.agent_selection
    env.step(7)
    second = env.agent_selection
    assert second != first and env.observe(second)["action_mask"][7] == 0
    before = env.game
    with pytest.raises(OccupiedSquare):
        env.step(7)
    assert env.game is before and env.agent_selection == second
    with pytest.raises(ValueError, match="not a square"):
        env.step(60)
    with pytest.raises(TypeError):
        env.step(1.5)


def test_rewards_are_the_engines_guesser_points() -> None:
    env = small_env()
    totals = play_out(env, seed=11)
    game = env.game
    assert game is not None and game.is_terminal and env.agents == []
    giver_points = [0] * 4
    for r in game.history:
        giver_points[r.giver] += r.points[r.giver]
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == game.scores[seat] - giver_points[seat]
    assert sum(totals.values()) > 0


def test_seed_decides_the_game() -> None:
    a, b = small_env(), small_env()
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.game == b.game
    b.reset(seed=10)
    assert a.game != b.game


def test_render_ansi() -> None:
    env = small_env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "to guess" in text


@pytest.mark.slow
def test_default_giver_plays() -> None:
    env = GuessingEnv(3, board=BOARD)
    env.reset(seed=2)
    game = env.game
    assert game is not None and len(game.clues) == 1
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        small_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="rules"):
        GuessingEnv(3, board=BOARD, rules=Rules.standard(4))


def test_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import huescues.rl

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "huescues.rl._env")
    with pytest.raises(ImportError, match=r"huescues\[rl\]"):
        _ = huescues.rl.GuessingEnv
