"""A vectorised environment over the batched engine: a policy plays chosen seats, in either role
or both, in B games at once; the other decisions are played by batched bots (R8-R17)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues.batch import ActionSpace, GameBatch, random_actions
from huescues.engine import Board, Rules

__all__ = ["ROLES", "BatchedEnv", "Bot"]

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
#: Batched players: one legal action code per row where they are asked to act.
Bot = Callable[[GameBatch, np.random.Generator], IntArray]
Role = Literal["giver", "guesser"]
#: The two roles a learner may play: the clue giver's decisions (target, clues, pass) and the
#: guessers' (pawns).
ROLES: tuple[Role, ...] = ("giver", "guesser")
_OVER = 5
_GIVER_PHASES = (0, 1, 3)


class BatchedEnv:
    """``size`` games of ``rules`` in which a policy plays the seats ``learners`` in the roles
    ``roles`` and ``bot`` (default: the batched random players, :func:`random_actions`) plays
    every other decision.

    After :meth:`reset` and each :meth:`step`, every row holding a game awaits a learner's
    decision: :meth:`observe` says whose (``"seat"``) and what that seat may know (R8), with
    ``"action_mask"`` over the batch's action codes. :meth:`step` takes one code per row,
    then lets the bots play until a learner is to act again. Rewards are every seat's change
    of score over the step, ``(size, n_players)``: a game that ended in the step counts its
    final totals and its row already holds the next game (auto-reset).
    """

    def __init__(
        self,
        rules: Rules,
        size: int,
        *,
        learners: Sequence[int] = (0,),
        roles: Sequence[Role] = ROLES,
        bot: Bot = random_actions,
        board: Board | None = None,
    ) -> None:
        n = rules.n_players
        if not learners or any(not 0 <= s < n for s in learners):
            raise ValueError(f"learners must be seats 0-{n - 1}, not {tuple(learners)}")
        if not roles or any(r not in ROLES for r in roles):
            raise ValueError(f"roles must be among {ROLES}, not {tuple(roles)}")
        self.rules, self.size, self.board = rules, size, board
        self.learners = tuple(sorted(set(learners)))
        self.roles: tuple[Role, ...] = tuple(r for r in ROLES if r in roles)
        self.bot = bot
        self._is_learner = np.zeros(n + 1, dtype=bool)  # index -1 (game over) is False
        self._is_learner[list(self.learners)] = True
        self._giver_phase = np.isin(np.arange(6), _GIVER_PHASES)
        self._guess_phase = np.isin(np.arange(6), (2, 4))
        self.batch = GameBatch(rules, size, [], board=board, keep_finished=False)
        self._rng = np.random.default_rng()
        self._start = np.zeros((size, n), dtype=np.int64)

    # -- the environment -------------------------------------------------------------------
    @property
    def space(self) -> ActionSpace:
        """The batch's :class:`~huescues.batch.ActionSpace`: what each code means."""
        return self.batch.space

    def reset(
        self, seed: int | None = None, *, game_seeds: Iterable[int] | None = None
    ) -> dict[str, NDArray[np.generic]]:
        """Deal new games and play the bots up to the learners' first decisions; return the
        observation. ``seed`` fixes everything (the games dealt and the bots' draws): the games
        get seeds drawn from it, or ``game_seeds`` in order if given (a row with none left
        stays over, R27)."""
        seq = np.random.SeedSequence(seed)
        deal, play = seq.spawn(2)
        self._rng = np.random.default_rng(play)
        seeds: Iterator[int]
        if game_seeds is None:
            dealer = np.random.default_rng(deal)
            seeds = (int(dealer.integers(2**62)) for _ in itertools.count())
        else:
            seeds = iter(game_seeds)
        self.batch = GameBatch(
            self.rules, self.size, seeds, board=self.board, keep_finished=game_seeds is not None
        )
        self._start[:] = 0
        self._advance(*self._tallies())
        return self.observe()

    def step(
        self, actions: ArrayLike
    ) -> tuple[dict[str, NDArray[np.generic]], NDArray[np.float64], BoolArray, IntArray]:
        """Play one code per row for the learner to act (ignored where no game is left); an
        illegal code raises :class:`~huescues.IllegalAction` and changes nothing. Then the bots
        play until a learner is to act again.

        Returns ``(observation, rewards, ended, final_scores)``: ``rewards`` is ``(size, n)``,
        each seat's points in the step (R15-R17); ``ended`` the rows whose game ended in the
        step (their rows now hold the next game) and ``final_scores`` those games' totals
        (zeros elsewhere)."""
        batch = self.batch
        self._start[:] = batch.scores
        rewards, ended, final = self._tallies()
        batch.step(actions)
        self._collect(rewards, ended, final)
        self._advance(rewards, ended, final)
        rewards += batch.scores - self._start
        return self.observe(), rewards, ended, final

    def learner_to_act(self) -> BoolArray:
        """``(size,)``: the rows where a learner's decision is pending."""
        b = self.batch
        role_ok = np.zeros(6, dtype=bool)
        if "giver" in self.roles:
            role_ok |= self._giver_phase
        if "guesser" in self.roles:
            role_ok |= self._guess_phase
        learner: BoolArray = self._is_learner[b.current_player] & role_ok[b.phase]
        return learner

    def observe(self, seats: ArrayLike | None = None) -> dict[str, NDArray[np.generic]]:
        """What ``seats`` (one per row; default: the seat to act) may know, as arrays with one
        row per game (copies). A guesser does not see the card or the target: ``card``,
        ``target_index`` and ``target`` are -1 in its rows (R8). ``action_mask`` is the legal
        codes in rows where that seat is to act, all false elsewhere (R8-R13, R18-R22)."""
        b = self.batch
        seat = b.current_player.copy() if seats is None else np.asarray(seats, dtype=np.int64)
        giving = (seat == b.giver) & (b.phase != _OVER)
        hide = ~giving[:, None]
        mask = b.legal_actions() & (seat == b.current_player)[:, None]
        return {
            "seat": seat,
            "phase": b.phase.copy(),
            "giver": b.giver.copy(),
            "round": b.round.copy(),
            "card": np.where(hide, -1, b.card),
            "target_index": np.where(giving, b.target_index, -1),
            "target": np.where(giving, b.target, -1),
            "clue_ids": b.clue_ids.copy(),
            "occupied": b.occupied.copy(),
            "pawn_squares": b.pawn_squares.copy(),
            "pawn_seats": b.pawn_seats.copy(),
            "n_pawns": b.n_pawns.copy(),
            "scores": b.scores.copy(),
            "used": b.used.copy(),
            "action_mask": mask,
        }

    # -- inside ----------------------------------------------------------------------------
    def _tallies(self) -> tuple[NDArray[np.float64], BoolArray, IntArray]:
        """Empty rewards, ended rows and final scores, to be filled over a step."""
        n = self.rules.n_players
        return (
            np.zeros((self.size, n), dtype=np.float64),
            np.zeros(self.size, dtype=bool),
            np.zeros((self.size, n), dtype=np.int64),
        )

    def _advance(self, rewards: NDArray[np.float64], ended: BoolArray, final: IntArray) -> None:
        """Let the bots act in every row where no learner is to act, until one is in each."""
        b = self.batch
        while True:
            bots = (b.phase != _OVER) & ~self.learner_to_act()
            if not bots.any():
                return
            b.step(self.bot(b, self._rng), where=bots)
            self._collect(rewards, ended, final)

    def _collect(self, rewards: NDArray[np.float64], ended: BoolArray, final: IntArray) -> None:
        """Count the points of games that ended in the batch's last step; their new games
        start from zero."""
        b = self.batch
        if b.ended.any():
            rows = np.flatnonzero(b.ended)
            rewards[rows] += b.ended_scores[rows] - self._start[rows]
            self._start[rows] = b.scores[rows]  # 0 for a new game; the totals if none
            ended[rows] = True
            final[rows] = b.ended_scores[rows]
