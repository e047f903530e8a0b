"""How a player reads one clue on a board, for the measures: its belief over the squares (a
guesser's posterior, or a colour-term model's scores normalised), the squares best first, and
the squares tied for the most expected R15 points.

A measure scores a tie as the expectation over the tied squares: a belief that knows nothing
ties the board's interior squares, and scoring only the first of them (the square a player
puts its pawn on, ties broken to the first) would reward ignorance with whatever that square
happens to earn. The player's own move is unchanged."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.agents import expected_points
from huescues.engine import Board, Cell, Rules
from huescues.language import ColourTermModel, in_view

__all__ = ["Reading", "player_name", "reader", "tie_points"]

FloatArray = NDArray[np.float64]

#: The smallest probability a square is given, so that log-likelihoods stay finite.
TINY = 1e-300
#: Expected points within this (relative) of the best are a tie: one sum may round
#: differently from another of the same numbers in another order.
TIE_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class Reading:
    """One clue read by a player: ``log_belief`` (natural log of a distribution over the
    board's squares, shape ``(rows, cols)``; None for a player that only ranks squares),
    ``order`` (the squares best first: ``order[0]`` is the square the player chooses),
    ``points`` (each square's expected R15 points under the belief; None for a ranking) and
    the board's ``shape``."""

    log_belief: FloatArray | None
    order: tuple[Cell, ...]
    points: FloatArray | None
    shape: tuple[int, int]

    @property
    def best(self) -> tuple[Cell, ...]:
        """The squares tied for the most expected points (the player's square first); the
        ranking's first square alone for a player that only ranks."""
        if self.points is None:
            return self.order[:1]
        top = float(self.points.max())
        rows, cols = np.nonzero(self.points >= top - TIE_TOLERANCE * max(1.0, abs(top)))
        first = self.order[0]
        tied = (Cell(int(r), int(c)) for r, c in zip(rows, cols, strict=True))
        return (first, *(c for c in tied if c != first))

    def top_k(self, k: int) -> FloatArray:
        """Each square's chance of being among the ``k`` best when ties are broken at random
        (shape ``(rows, cols)``, summing to ``k``): 1 above the ``k``-th best value, an equal
        share of the slots left for the squares tied with it, 0 below."""
        if self.points is None:
            out = np.zeros(self.shape)
            for cell in self.order[:k]:
                out[cell.row, cell.col] = 1.0
            return out
        values = self.points.ravel()
        kth = float(np.sort(values)[::-1][min(k, len(values)) - 1])
        tol = TIE_TOLERANCE * max(1.0, abs(kth))
        above = values > kth + tol
        tied = (values >= kth - tol) & ~above
        flat = above.astype(np.float64)
        flat[tied] = (min(k, len(values)) - int(above.sum())) / int(tied.sum())
        return flat.reshape(self.shape)


def tie_points(rules: Rules, best: Sequence[Cell], targets: Sequence[Cell]) -> FloatArray:
    """For each target, the mean R15 points of a pawn on one of the squares ``best`` (the
    squares tied for the most expected points), each equally likely."""
    pawns = np.array([(c.row, c.col) for c in best])
    aims = np.array([(t.row, t.col) for t in targets]).reshape(-1, 2)
    distance = np.abs(pawns[None, :, :] - aims[:, None, :]).max(axis=2)
    table = np.array([rules.points_at(d) for d in range(int(distance.max()) + 1)], np.float64)
    out: FloatArray = table[distance].mean(axis=1)
    return out


Reader = Callable[[str], Reading]


def player_name(player: object) -> str:
    """A short name of a player for reports: its class, its model and whether it is
    pragmatic."""
    name = type(player).__name__
    model = getattr(player, "model", None)
    if model is not None:
        name += f"({model!r})" if isinstance(model, str | tuple) else f"({type(model).__name__})"
    if getattr(player, "pragmatic", False):
        name += ", pragmatic"
    return name


def reader(player: object, board: Board, rules: Rules) -> tuple[str, Reader]:
    """How ``player`` reads a clue on ``board``: a guesser's belief (or ranking), or a
    colour-term model's scores read against the board's squares
    (:func:`~huescues.language.in_view`) and normalised over them; a seat playing both roles is read
    by its guesser. A :class:`TypeError` for anything else."""
    if (
        not callable(getattr(player, "belief", None))
        and not callable(getattr(player, "rank", None))
        and not isinstance(player, ColourTermModel)
        and hasattr(player, "guesser")
    ):
        player = player.guesser  # a seat playing both roles: measure its guesser
    name = player_name(player)
    cells = board.cells()

    def of_belief(b: FloatArray, log_b: FloatArray | None = None) -> Reading:
        points = expected_points(b, rules)
        order = tuple(cells[int(i)] for i in np.argsort(-points, axis=None, kind="stable"))
        log_b = np.log(np.maximum(b, TINY)) if log_b is None else log_b
        return Reading(log_b, order, points, board.shape)

    belief_of = getattr(player, "belief", None)
    if callable(belief_of):

        def read_guesser(clue: str) -> Reading:
            b = np.asarray(belief_of(board, [clue]), dtype=np.float64)
            total = float(b.sum())
            if b.shape != (board.rows, board.cols) or not 0.0 < total < math.inf or b.min() < 0:
                raise ValueError(
                    f"{name}'s belief for {clue!r} is no distribution over the board's squares "
                    f"(shape {b.shape}, sum {total}; a {board.rows} x {board.cols} array of "
                    "weights at least 0 with a positive, finite sum is needed)"
                )
            return of_belief(b / total)

        return name, read_guesser
    if isinstance(player, ColourTermModel):
        term_model = in_view(player, board.lab)  # against the board's squares, as players read

        def read_model(clue: str) -> Reading:
            s = np.asarray(term_model.score(clue, board.lab), dtype=np.float64)
            if not np.all(np.isfinite(s)):
                raise ValueError(
                    f"{name} scored {clue!r} NaN or infinity on the board (a colour-term "
                    "model's scores are finite)"
                )
            s = s - s.max()
            log_b = s - math.log(float(np.exp(s).sum()))
            return of_belief(np.exp(log_b), log_b)

        return name, read_model
    rank = getattr(player, "rank", None)
    if callable(rank):

        def read_ranking(clue: str) -> Reading:
            return Reading(None, tuple(rank(board, [clue])), None, board.shape)

        return name, read_ranking
    raise TypeError(
        f"cannot measure a {type(player).__name__}: give a guesser with belief(board, clues) "
        "or rank(board, clues), or a ColourTermModel"
    )
