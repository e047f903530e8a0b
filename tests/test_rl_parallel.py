"""The PettingZoo Parallel adapter over one batched game (huescues.rl.ParallelGameEnv,
docs/rl.md): PettingZoo's own API and seed checks, the masks, R8 and the rewards."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test, parallel_seed_test

from huescues import Board, IllegalAction, new_game
from huescues.colour import hue_lightness_palette
from huescues.rl import ParallelGameEnv

BOARD = Board.from_rgb(hue_lightness_palette(6, 10), id="rl-test-6x10")
DICT_WARNINGS = ["ignore:Observation space for each agent probably should be:UserWarning"]


@pytest.mark.filterwarnings(*DICT_WARNINGS)
def test_parallel_api_test_passes() -> None:
    parallel_api_test(ParallelGameEnv(4, board=BOARD), num_cycles=1000)
    parallel_api_test(ParallelGameEnv(3, board=BOARD), num_cycles=1000)


def test_parallel_seed_test_passes() -> None:
    # The seed test samples actions without the mask, so illegal ones fall back to random.
    parallel_seed_test(lambda: ParallelGameEnv(4, board=BOARD, on_illegal="random"))


def play(env: ParallelGameEnv, seed: int) -> tuple[dict[str, float], list[int]]:
    """A game of masked random actions; each agent's total reward and the codes played."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    codes = []
    while env.agents:
        for agent in env.agents:
            space = env.observation_space(agent)
            assert space.contains(obs[agent])
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        (mover,) = [a for a in env.agents if obs[a]["observation"][0] == 1]
        codes.append(actions[mover])
        obs, rewards, *_ = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    return totals, codes


def test_one_agent_acts_and_only_the_giver_sees_the_card() -> None:
    """R8: the guessers' card and target are -1; the others' only action is wait."""
    env = ParallelGameEnv(4, board=BOARD)
    obs, _ = env.reset(seed=6)
    acting = [a for a in env.agents if obs[a]["observation"][0] == 1]
    assert len(acting) == 1
    giver = acting[0]  # a round opens with the giver choosing a target
    for agent in env.agents:
        o = obs[agent]
        card = o["observation"][6:10]
        if agent == giver:
            assert (
                (card >= 0).all() and o["action_mask"][:4].all() and not o["action_mask"][4:].any()
            )
        else:
            assert (card == -1).all() and o["action_mask"].tolist().index(1) == env.wait


def test_rewards_are_the_final_scores_and_the_game_replays() -> None:
    env = ParallelGameEnv(3, board=BOARD)
    totals, codes = play(env, seed=9)
    (game,) = env.env.batch.finished
    assert game.seed == 9 and list(game.codes) == codes
    assert tuple(totals.values()) == game.scores
    state = game.record().replay(board=BOARD)
    assert state.result is not None and state.result.scores == game.scores
    assert new_game(3, seed=9, board=BOARD).setup.order == state.setup.order  # R27


def test_an_illegal_action_raises_or_is_replaced() -> None:
    env = ParallelGameEnv(3, board=BOARD)
    obs, _ = env.reset(seed=1)
    (mover,) = [a for a in env.agents if obs[a]["observation"][0] == 1]
    with pytest.raises(IllegalAction):
        env.step({mover: env.wait})
    lenient = ParallelGameEnv(3, board=BOARD, on_illegal="random")
    lenient.reset(seed=1)
    *_, infos = lenient.step({mover: env.wait})
    assert infos[mover] == {"illegal": True}
