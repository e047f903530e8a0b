"""Evaluation of players you can rerun: points per pawn for guessers and per round for clue
givers, in self-play and cross-play, with bootstrap confidence intervals over games."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

import numpy as np

from huescues.engine import Board, Rules
from huescues.stats import Estimate, ratio_interval, resample

from ._loop import play_game
from ._player import Player
from ._protocol import ClueGiver, Guesser

__all__ = ["AgentEvaluation", "PairResult", "evaluate"]


@dataclass(frozen=True, slots=True)
class PairResult:
    """Games where every clue giver is ``giver`` and every guesser is ``guesser``."""

    giver: str
    guesser: str
    games: int
    #: The clue giver's R16 points per regular round.
    giver_points_per_round: Estimate
    #: A guesser's R15 points per pawn.
    guesser_points_per_pawn: Estimate
    #: Per game, in seed order: the giver's points per round and the guessers' per pawn.
    per_game: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True, slots=True)
class AgentEvaluation:
    """The result of :func:`evaluate`."""

    pairs: tuple[PairResult, ...]
    n_players: int
    board_id: str
    seeds: tuple[int, int]

    def pair(self, giver: str, guesser: str) -> PairResult:
        """The result for one clue giver with one guesser (names as given to :func:`evaluate`)."""
        for p in self.pairs:
            if (p.giver, p.guesser) == (giver, guesser):
                return p
        names = sorted({(p.giver, p.guesser) for p in self.pairs})
        raise KeyError(f"no pair ({giver!r}, {guesser!r}) in this evaluation; it has {names}")

    def difference(self, a: tuple[str, str], b: tuple[str, str]) -> tuple[Estimate, Estimate]:
        """Pair ``a`` minus pair ``b`` (each ``(giver, guesser)``), game by game on the same
        seeds: the giver's points per round and the guessers' points per pawn, with 95%
        bootstrap intervals over the games. Pairing removes what the seeds share (the cards,
        the order of givers), so it shows smaller differences than two separate intervals."""
        pa, pb = self.pair(*a), self.pair(*b)
        da = np.asarray(pa.per_game) - np.asarray(pb.per_game)
        return _bootstrap(list(da[:, 0]), self.seeds[0]), _bootstrap(list(da[:, 1]), self.seeds[0])

    def table(self) -> str:
        """A Markdown table, self-play first."""
        rows = sorted(self.pairs, key=lambda p: (p.giver != p.guesser, p.giver, p.guesser))
        lines = [
            "| clue giver | guessers | games | giver points / round | guesser points / pawn |",
            "| --- | --- | ---: | ---: | ---: |",
        ]
        for p in rows:
            lines.append(
                f"| {p.giver} | {p.guesser} | {p.games} | {p.giver_points_per_round} | "
                f"{p.guesser_points_per_pawn} |"
            )
        lines.append("")
        lines.append(
            f"{self.n_players} players on board {self.board_id}, seeds {self.seeds[0]} to "
            f"{self.seeds[1]}; 95% bootstrap intervals over games."
        )
        return "\n".join(lines)


def evaluate(
    givers: Mapping[str, Callable[[], ClueGiver]],
    guessers: Mapping[str, Callable[[], Guesser]],
    *,
    games: int = 20,
    n_players: int = 4,
    seed: int = 0,
    board: Board | None = None,
    pairs: Collection[tuple[str, str]] | None = None,
    progress: Callable[[str], None] | None = None,
) -> AgentEvaluation:
    """Play ``games`` games (seeds ``seed`` to ``seed + games - 1``, the same for every pair) for
    each clue giver with each guesser, every seat playing that pair, and measure both roles.

    Self-play is a giver with the guesser built on the same model; cross-play pairs a giver with
    listeners it was not built with. ``pairs``: only these ``(giver, guesser)`` names.
    """
    if games < 2:
        raise ValueError(f"evaluation needs at least 2 games, not {games}")
    if pairs is not None:
        unknown = [p for p in pairs if p[0] not in givers or p[1] not in guessers]
        if unknown:
            raise ValueError(f"pairs {unknown} name a giver or guesser not given to evaluate")
    rules = Rules.standard(n_players)
    board = Board.standard() if board is None else board
    out = []
    for g_name, make_giver in givers.items():
        for l_name, make_guesser in guessers.items():
            if pairs is not None and (g_name, l_name) not in pairs:
                continue
            if progress is not None:
                progress(f"{g_name} with {l_name}")
            per_round: list[float] = []
            per_pawn: list[float] = []
            for s in range(seed, seed + games):
                seats = [Player(make_giver(), make_guesser()) for _ in range(n_players)]
                _, state = play_game(seats, seed=s, rules=rules, board=board)
                regular = [r for r in state.history if not r.tiebreak]
                given = [r.points[r.giver] for r in regular]
                pawns = sum(len(r.pawns) for r in regular)
                points = sum(sum(r.points) - r.points[r.giver] for r in regular)
                per_round.append(float(np.mean(given)))
                per_pawn.append(points / pawns)
            out.append(
                PairResult(
                    g_name,
                    l_name,
                    games,
                    _bootstrap(per_round, seed),
                    _bootstrap(per_pawn, seed),
                    tuple(zip(per_round, per_pawn, strict=True)),
                )
            )
    return AgentEvaluation(tuple(out), n_players, board.id, (seed, seed + games - 1))


def _bootstrap(values: list[float], seed: int, n: int = 2000) -> Estimate:
    data = np.asarray(values, dtype=np.float64)
    draws = resample(len(data), n, np.random.default_rng(seed))
    return ratio_interval(data, np.ones_like(data), draws)
