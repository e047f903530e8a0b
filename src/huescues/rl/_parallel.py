"""Both roles as a PettingZoo Parallel environment: one game of the batched engine, every seat an
agent that chooses targets, gives clues from the vocabulary and places pawns (R8-R13)."""

from __future__ import annotations

import functools
import importlib
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Board, IllegalAction, Rules

from ._batched import ROLES, BatchedEnv

_pettingzoo: Any = importlib.import_module("pettingzoo")
_spaces: Any = importlib.import_module("gymnasium.spaces")

__all__ = ["ParallelGameEnv"]


class ParallelGameEnv(_pettingzoo.ParallelEnv):  # type: ignore[misc]
    """Hues and Cues for every role, as a PettingZoo Parallel environment (one game per
    episode, played by :class:`BatchedEnv` over a batch of one).

    Agents ``"player_0"`` ... ``"player_{n-1}"`` are the seats; each step exactly one of them
    is to act (``obs[agent]["observation"][0] == 1``) and the others' actions are ignored.

    - Action: ``Discrete(codes + 1)``: the batch's action codes (:class:`ActionSpace`: target
      0-3, pass 4, a pawn per square, a clue per vocabulary id), then ``wait``, the only legal
      action of an agent not to act.
    - Observation: ``{"observation": int32 vector, "action_mask": int8 vector}``. The vector is
      ``to_act, giver, phase, round, target_index, target, card[4], clue_ids[2], scores[n],
      pawns[squares] (the seat of the pawn on each square, -1 for none), used[clues]`` (1 for
      clues given earlier, R22); -1 where there is nothing or the seat may not know it (the card
      and target for guessers, R8).
    - Reward: each seat's change of score in the step (R15-R17, the giver's R16 points too).
    - Termination: every agent when the game ends (R24-R26); no truncation.
    - ``reset(seed=s)`` deals the game of seed ``s`` (R27), the one :func:`new_game` deals.
    - An illegal action of the agent to act raises :class:`~huescues.IllegalAction` (default)
      or, with ``on_illegal="random"``, is replaced by a random legal one drawn from the
      episode's generator and reported in that agent's info as ``"illegal": True``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "name": "huescues_parallel_v0",
        "render_modes": [],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        n_players: int = 4,
        *,
        board: Board | None = None,
        rules: Rules | None = None,
        on_illegal: Literal["raise", "random"] = "raise",
    ) -> None:
        super().__init__()
        self.rules = Rules.standard(n_players) if rules is None else rules
        if self.rules.n_players != n_players:
            raise ValueError(f"the rules are for {self.rules.n_players} players, not {n_players}")
        if on_illegal not in ("raise", "random"):
            raise ValueError(f"on_illegal must be 'raise' or 'random', not {on_illegal!r}")
        self.on_illegal = on_illegal
        self.render_mode = None
        self.env = BatchedEnv(self.rules, 1, learners=range(n_players), roles=ROLES, board=board)
        space = self.env.space
        self.board = space.board
        #: The code of "wait", the action of an agent whose turn it is not.
        self.wait = space.size
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n_players)]
        self.agents: list[str] = []
        squares, clues = self.board.size, len(space.vocabulary)
        rounds = self.rules.regular_rounds + self.rules.max_tiebreak_rounds
        high = np.concatenate(
            [
                [1, 1, 5, rounds, 3, squares - 1],
                np.full(4, squares - 1),
                np.full(2, clues - 1),
                np.full(n_players, 10**6),
                np.full(squares, n_players - 1),
                np.ones(clues),
            ]
        ).astype(np.int32)
        self._obs_space = _spaces.Dict(
            {
                "observation": _spaces.Box(-1, high, dtype=np.int32),
                "action_mask": _spaces.Box(0, 1, shape=(self.wait + 1,), dtype=np.int8),
            }
        )
        self._action_space = _spaces.Discrete(self.wait + 1)
        self._seeds = np.random.default_rng()
        self._rng = np.random.default_rng()

    @functools.cache  # noqa: B019 - the same space object every call, as PettingZoo asks
    def observation_space(self, agent: str) -> Any:
        """The same ``Dict`` space for every agent."""
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> Any:
        """``Discrete(codes + 1)``: an action code, or ``wait``."""
        return self._action_space

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, NDArray[Any]]], dict[str, dict[str, Any]]]:
        """Deal the game of ``seed`` (R27); without one, a seed drawn from the last one's
        generator."""
        if seed is None:
            seed = int(self._seeds.integers(2**62))
        else:
            self._seeds = np.random.default_rng(seed)
        self._rng = np.random.default_rng(seed)
        self.env.reset(seed, game_seeds=[seed])
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, NDArray[Any]]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play the action of the agent to act; the others' are ignored."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        batch = self.env.batch
        seat = int(batch.current_player[0])
        agent = self.possible_agents[seat]
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        legal = batch.legal_actions()[0]
        code = actions.get(agent)
        if code is None or not 0 <= int(code) < legal.size or not legal[int(code)]:
            if self.on_illegal == "raise":
                raise IllegalAction(
                    f"{agent} is to act ({batch.space.action(int(np.argmax(legal)))!r} would "
                    f"be legal) and played {code!r}: not a legal code (R8-R13, R18-R22)"
                )
            code = int(self._rng.choice(np.flatnonzero(legal)))
            infos[agent]["illegal"] = True
        _, rewards, ended, _ = self.env.step([int(code)])
        observations = self._observations()
        reward = {a: float(rewards[0, i]) for i, a in enumerate(self.possible_agents)}
        over = bool(ended[0])
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        return observations, reward, terminations, truncations, infos

    def render(self) -> None:
        """No rendering: see :func:`huescues.describe_game` on the record."""

    def close(self) -> None:
        """Nothing to release."""

    def _observations(self) -> dict[str, dict[str, NDArray[Any]]]:
        batch = self.env.batch
        n = self.rules.n_players
        pawns = np.full(self.board.size, -1, dtype=np.int32)
        k = int(batch.n_pawns[0])
        pawns[batch.pawn_squares[0, :k]] = batch.pawn_seats[0, :k]
        legal = batch.legal_actions()[0]
        out: dict[str, dict[str, NDArray[Any]]] = {}
        for seat, agent in enumerate(self.possible_agents):
            obs = self.env.observe(np.full(1, seat))
            to_act = seat == batch.current_player[0]
            head = [
                int(to_act),
                int(seat == obs["giver"][0]),
                int(obs["phase"][0]),
                int(obs["round"][0]),
                int(obs["target_index"][0]),
                int(obs["target"][0]),
            ]
            vector = np.concatenate(
                [
                    head,
                    obs["card"][0],
                    obs["clue_ids"][0],
                    obs["scores"][0],
                    pawns,
                    obs["used"][0].astype(np.int32),
                ]
            ).astype(np.int32)
            mask = np.zeros(self.wait + 1, dtype=np.int8)
            if to_act:
                mask[:-1] = legal
            else:
                mask[-1] = 1
            out[agent] = {"observation": vector, "action_mask": mask}
        assert len(out) == n
        return out
