"""The guessing role as a PettingZoo AEC environment: every seat is an agent that places pawns;
the clue giver's role is played inside the environment by a bot (R8-R12)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from huescues.agents import RANDOM_CLUE_WORDS, ClueGiver, Table, clue_vocabulary
from huescues.engine import (
    Board,
    GameState,
    Phase,
    PlacePawn,
    RoundResult,
    Rules,
    describe_game,
    new_game,
    pawn_points,
)

_pettingzoo: Any = importlib.import_module("pettingzoo")
_spaces: Any = importlib.import_module("gymnasium.spaces")

__all__ = ["GuessingEnv", "clue_indices", "default_clue_vocabulary"]

#: Word index for "no word here" in the ``"clues"`` observation.
NO_WORD = 0
#: Word index for a word outside the clue vocabulary.
UNKNOWN_WORD = 1
#: Scalars at the end of the flat observation: second guess, tie-breaker, I am the giver.
_N_FLAGS = 3


@functools.cache
def default_clue_vocabulary() -> tuple[str, ...]:
    """The shipped clue vocabulary (``clue_vocabulary()``) followed by the random agent's clue
    words not already in it: every word the built-in clue givers say."""
    words = dict.fromkeys(clue_vocabulary())
    words.update(dict.fromkeys(w.lower() for w in RANDOM_CLUE_WORDS))
    return tuple(words)


def clue_indices(
    clues: Iterable[str], index: dict[str, int], slots: Sequence[int]
) -> NDArray[np.int64]:
    """The clues' words as vocabulary indices: clue ``k`` fills ``slots[k]`` places, word ``j``
    of the vocabulary is ``j + 2``, an unknown word ``1`` and an empty place ``0``."""
    out = np.zeros(sum(slots), dtype=np.int64)
    start = 0
    clue_list = list(clues)
    for k, n in enumerate(slots):
        if k < len(clue_list):
            for j, word in enumerate(clue_list[k].lower().split()[:n]):
                out[start + j] = index.get(word, UNKNOWN_WORD - 2) + 2
        start += n
    return out


class GuessingEnv(_pettingzoo.AECEnv):  # type: ignore[misc]
    """Hues and Cues for guessers, as a PettingZoo AEC environment.

    Agents ``"player_0"`` ... ``"player_{n-1}"`` are the seats. Whoever is clue giver in a round
    has that role played by ``giver`` (default: :func:`huescues.agents.default_agent`), inside
    the environment; the agents act only to place pawns (R10, R12).

    - Action: ``Discrete(rows * cols)``, the square's index (``board.cells()[i]``).
    - Observation: a dict with ``"observation"`` (float32: the board's CIELAB / 100 flattened,
      then the occupancy of every square, then this agent's own pawns, then three flags:
      second guess, tie-breaker round, this agent is the giver), ``"clues"`` (the clues' words
      as indices into ``clue_vocabulary``, see :func:`clue_indices`) and ``"action_mask"``
      (int8, 1 on empty squares, R13).
    - Reward: at each reveal, the R15 points of the agent's own pawns (the giver's R16 points
      are not rewards: the environment trains guessing).
    - Termination: every agent at the end of the game (R24-R26). No truncation.
    - ``reset(seed=s)`` plays the game of seed ``s`` (R27): the deck, the first giver and the
      giver bot's choices all come from it.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "name": "huescues_guessing_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        n_players: int = 4,
        *,
        board: Board | None = None,
        giver: ClueGiver | None = None,
        clue_vocabulary: Sequence[str] | None = None,
        rules: Rules | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.rules = Rules.standard(n_players) if rules is None else rules
        if self.rules.n_players != n_players:
            raise ValueError(f"the rules are for {self.rules.n_players} players, not {n_players}")
        self.n_players = n_players
        self.board = Board.standard() if board is None else board
        self._giver = giver
        words = default_clue_vocabulary() if clue_vocabulary is None else clue_vocabulary
        #: The words of the ``"clues"`` observation: word ``j`` is index ``j + 2``.
        self.clue_vocabulary: tuple[str, ...] = tuple(w.lower() for w in words)
        self._word_index = {w: j for j, w in enumerate(self.clue_vocabulary)}
        self._slots = (self.rules.first_clue_words, self.rules.second_clue_words)

        self.possible_agents: list[str] = [f"player_{i}" for i in range(n_players)]
        self.agents: list[str] = []
        size = self.board.size
        n_obs = size * 3 + size * 2 + _N_FLAGS
        obs_space = _spaces.Dict(
            {
                "observation": _spaces.Box(-2.0, 2.0, shape=(n_obs,), dtype=np.float32),
                "clues": _spaces.MultiDiscrete(
                    np.full(sum(self._slots), len(self.clue_vocabulary) + 2, dtype=np.int64)
                ),
                "action_mask": _spaces.Box(0, 1, shape=(size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: _spaces.Discrete(size) for a in self.possible_agents}
        self._lab = (self.board.lab.reshape(-1) / 100.0).astype(np.float32)
        self._index = {cell: i for i, cell in enumerate(self.board.cells())}
        self._seeds = np.random.default_rng()
        #: The game being played (the full state, target included: not for the agents).
        self.game: GameState | None = None
        self._loop: Table | None = None

    # -- PettingZoo API ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        """The same ``Dict`` space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """``Discrete(rows * cols)``: the square to place a pawn on."""
        return self.action_spaces[agent]

    @property
    def giver(self) -> ClueGiver:
        """The bot that plays the clue giver's role (made on first use)."""
        if self._giver is None:
            from huescues.agents import default_agent

            self._giver = default_agent()
        return self._giver

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start the game of ``seed`` (R27); without one, a fresh seed is drawn."""
        if seed is None:
            seed = int(self._seeds.integers(2**63))
        else:
            self._seeds = np.random.default_rng(seed)
        self.game = new_game(self.n_players, seed=seed, rules=self.rules, board=self.board)
        # The giver bot plays every seat's clue-giving turns, with that seat's generator (R27).
        giver: Any = self.giver
        # Guesses are the learning agents' (persons' decisions at the table), clues the bot's.
        self._loop = Table([giver] * self.n_players, seed=seed, persons_guess=True)
        self._loop.prepare(self.game)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._play_giver(0)
        self._select()

    def step(self, action: Any) -> None:
        """Place the selected agent's pawn on square ``action`` (R10, R12); the giver bot then
        plays until a guesser is to act. A masked square raises the engine's
        :class:`~huescues.OccupiedSquare` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise TypeError(f"an action is a square's index (an int), not {action!r}")
        index = int(action)
        if not 0 <= index < self.board.size:
            raise ValueError(f"action {index} is not a square: use 0-{self.board.size - 1}")
        seat = self.possible_agents.index(agent)
        cell = self.board.cells()[index]
        assert self._loop is not None
        self._loop.state = game
        # The table applies it as a person's action: it raises before anything changes.
        state = self._loop.act(seat, PlacePawn(cell))
        rounds_before = len(game.history)
        self.game = state
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._play_giver(rounds_before)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """What ``agent``'s seat may know (its view, R8), as arrays."""
        game = self._require_game()
        seat = self.possible_agents.index(agent)
        view = game.view(seat)
        size = self.board.size
        occupied = np.zeros(size, dtype=np.float32)
        mine = np.zeros(size, dtype=np.float32)
        for owner, cell in view.pawns:
            occupied[self._index[cell]] = 1.0
            if owner == seat:
                mine[self._index[cell]] = 1.0
        flags = np.array(
            [view.phase is Phase.SECOND_GUESS, view.tiebreak, view.is_giver], dtype=np.float32
        )
        return {
            "observation": np.concatenate([self._lab, occupied, mine, flags]),
            "clues": clue_indices(view.clues, self._word_index, self._slots),
            "action_mask": (1 - occupied).astype(np.int8),
        }

    def render(self) -> str | None:
        """The game so far as text (``"ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None or self.game is None:
            return None
        game = self.game
        text = describe_game(game)
        if not game.is_terminal:
            pawns = ", ".join(f"seat {s} on {c}" for s, c in game.pawns) or "no pawns"
            text += (
                f"\nround {game.round + 1}: clues {list(game.clues)}; {pawns}; "
                f"seat {game.current_player} to guess"
            )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -- inside the environment ----------------------------------------------------------------
    def _require_game(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() before playing")
        return self.game

    def _play_giver(self, rounds_before: int) -> None:
        """Let the giver bot act until a guesser is to act or the game is over; reward every
        round revealed meanwhile (R14, R15)."""
        game = self._require_game()
        assert self._loop is not None
        game = self._loop.run(game, until=_guessing)
        self.game = game
        for done in game.history[rounds_before:]:
            self._reward(done)

    def _reward(self, done: RoundResult) -> None:
        for seat, cell in done.pawns:
            agent = self.possible_agents[seat]
            self.rewards[agent] += float(pawn_points(self.rules, done.target, cell))

    def _select(self) -> None:
        game = self._require_game()
        if game.is_terminal:
            for agent in self.agents:
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
            return
        assert game.current_player is not None
        self.agent_selection = self.possible_agents[game.current_player]


def _guessing(state: GameState) -> bool:
    """Whether a guesser is to act: the agents' turn (R10, R12)."""
    return state.phase is Phase.FIRST_GUESS or state.phase is Phase.SECOND_GUESS
