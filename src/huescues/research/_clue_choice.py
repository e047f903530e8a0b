"""How well a clue giver chooses among clues people have read: for a target square, the giver
picks the clue its own beliefs say will bring pawns nearest, and people's real picks for that
clue say how near they came (R15). Its intervals resample the clues, so that they hold for
other clues."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.agents import best_squares
from huescues.engine import Board, Cell, Rules
from huescues.language import ColourTermModel, default_model
from huescues.stats import Estimate, crossed_weights, weighted_interval

from ._agreement import check_bootstrap, checked_inputs
from ._reading import reader
from ._responses import HumanResponses

__all__ = ["ClueChoiceAgreement", "ClueChoiceResamples", "TargetChoice", "clue_choice_agreement"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class TargetChoice:
    """One target: the clue the giver chose for it, and the mean R15 points people's picks for
    that clue earn against it (``best``: the most any clue of the file earns)."""

    target: Cell
    clue: str
    points: float
    best_clue: str
    best: float


@dataclass(frozen=True, slots=True)
class ClueChoiceAgreement:
    """The measure of :func:`clue_choice_agreement`: mean R15 points over the targets of the
    giver's chosen clue, of a clue drawn at random, and of the best clue in hindsight, each
    with a percentile bootstrap interval over the clues (:class:`ClueChoiceResamples`)."""

    giver: str
    targets: int
    clues: int
    chosen: Estimate
    random: Estimate
    best: Estimate
    per_target: tuple[TargetChoice, ...]
    level: float
    n_boot: int

    def table(self, spec: str = ".3f") -> str:
        """The three figures as a Markdown table."""
        return "\n".join(
            [
                f"**{self.giver}** choosing among {self.clues} clues for {self.targets} targets "
                f"(mean R15 points of people's picks for the chosen clue; "
                f"{self.level:.0%} bootstrap interval over clues)",
                "",
                "| clue chosen by | points |",
                "|---|---:|",
                f"| the giver | {self.chosen.format(spec)} |",
                f"| a random clue | {self.random.format(spec)} |",
                f"| the best clue in hindsight | {self.best.format(spec)} |",
            ]
        )

    def chosen_clues(self) -> dict[str, int]:
        """How many targets each clue was chosen for, most first."""
        counts: dict[str, int] = {}
        for t in self.per_target:
            counts[t.clue] = counts.get(t.clue, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _points_between(board: Board, rules: Rules) -> FloatArray:
    """The R15 points of a pawn on every square against a target on every square (Chebyshev
    distance): a (squares, squares) symmetric table."""
    rows, cols = np.indices(board.shape)
    r, c = rows.ravel(), cols.ravel()
    dist = np.maximum(np.abs(r[:, None] - r[None, :]), np.abs(c[:, None] - c[None, :]))
    table = np.array([rules.points_at(int(d)) for d in range(int(dist.max()) + 1)], np.float64)
    out: FloatArray = table[dist]
    return out


class ClueChoiceResamples:
    """Bootstrap resamples of the clue-choice measure's targets, drawn over the clues: the
    file's clues resampled with replacement, and each target counted by the mean count of the
    clues whose picks make it a target, weighted by their picks on it (3 picks of ``a`` and 1 of
    ``b`` on a square: ``(3 * count_a + count_b) / 4``). Targets of one clue are alike, so
    resampling the targets themselves (as the measure did before) gave intervals too narrow for
    other clues. The giver's choices are not made again in a resample: it chooses among the
    file's clues, so an interval holds for other targets like these, given those clues to
    choose from. With one clue there is nothing to resample, and no interval.

    The people are not resampled: a target is scored by its clue's picks, among them the pick
    that made it a target, and a person drawn twice would count twice on both sides (this
    raised the best clue's bootstrap mean by 0.026 on the dev clues). An interval over people
    needs the measure in a leave-one-out form; resampling only the readers of the chosen clue
    widened the dev clues' interval by under 0.01 a side (docs/knowledge.md).

    ``values`` in :meth:`interval` are one number per target, in the order of ``targets``
    (squares numbered in reading order); a paired difference is the interval of the
    difference of two such arrays."""

    def __init__(
        self,
        responses: HumanResponses,
        *,
        n_boot: int = 2000,
        seed: int = 0,
        rules: Rules | None = None,
    ) -> None:
        groups, board, r15 = checked_inputs(responses, n_boot, 0.95, rules, seed=seed)
        self.clues: tuple[str, ...] = tuple(groups)
        squares = [[p.square.row * board.cols + p.square.col for p in ps] for ps in groups.values()]
        self.targets: tuple[int, ...] = tuple(sorted({t for picks in squares for t in picks}))
        column = {t: i for i, t in enumerate(self.targets)}
        # Kept for clue_choice_agreement, which reads the giver on the same board and points.
        self._board, self._rules = board, r15
        self._points = points = _points_between(board, r15)
        #: (clues, targets): the mean R15 points of each clue's picks against each target.
        self.people: FloatArray = np.stack(
            [points[picks][:, self.targets].mean(axis=0) for picks in squares]
        )
        made = np.zeros((len(squares), len(self.targets)))  # picks of clue k on target t
        for k, picks in enumerate(squares):
            for t in picks:
                made[k, column[t]] += 1.0
        counts = crossed_weights([np.arange(len(squares))], n_boot, np.random.default_rng(seed))
        #: (n_boot, targets): each target's count in each resample.
        self.counts: FloatArray = (counts @ made) / made.sum(axis=0)

    def interval(self, values: FloatArray, level: float = 0.95) -> Estimate:
        """The mean of ``values`` (one per target) with the central ``level`` percentile
        interval of its weighted means over the resamples."""
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (len(self.targets),):
            raise ValueError(
                f"values need one number per target ({len(self.targets)}), not shape {values.shape}"
            )
        estimate = weighted_interval(values, self.counts, level)
        if len(self.clues) < 2:  # every resample is the one clue: no interval to speak of
            return Estimate(estimate.mean, n=len(self.targets), blocks=len(self.clues))
        return Estimate(
            estimate.mean, estimate.low, estimate.high, n=len(self.targets), blocks=len(self.clues)
        )


def clue_choice_agreement(
    responses: HumanResponses,
    giver: object | None = None,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    rules: Rules | None = None,
    name: str | None = None,
) -> ClueChoiceAgreement:
    """How well ``giver`` chooses clues that people read as meant, on any responses file.

    Every square some person picked for one of the file's clues is a target, once. For each
    target the giver picks one of the file's clues by its own prediction: the expected R15
    points of a pawn drawn from its belief about the clue (its belief over the board's
    squares). The score is the mean R15 points that people's own picks for the chosen clue earn
    against the target. Reported beside a clue drawn uniformly at random (its expectation) and
    the best clue in hindsight, with ``level`` percentile bootstrap intervals from ``n_boot``
    resamples (``seed``) of the clues (:class:`ClueChoiceResamples`).

    ``giver`` is a :class:`~huescues.language.ColourTermModel` (its scores normalised over the
    board; :func:`~huescues.language.default_model` when None), a guesser with
    ``belief(board, clues)``, or a clue giver or seat whose listener models are averaged (the
    ``model`` of an :class:`~huescues.agents.EmbeddingClueGiver`). ``rules`` give the points
    (standard for 4 players when None). A clue giver that leaves unsaid the words people read
    apart (``alike_from``, :func:`~huescues.agents.alike_chance` in the language of ``rules``, or
    when None of the giver's models: Spanish for ``default_agent("es")``) chooses only among the
    file's clues it would say, as in a game (among all of them if it would say none). Unlike
    :func:`~huescues.research.points_by_giver`, which measures people guessing a giver's
    clues, this needs only people's guesses for a fixed list of clues.
    """
    check_bootstrap(n_boot, level, seed)
    boot = ClueChoiceResamples(responses, n_boot=n_boot, seed=seed, rules=rules)
    board, clues, targets = boot._board, list(boot.clues), list(boot.targets)
    label, beliefs = _beliefs_of(giver, board, boot._rules, clues)
    expected = (beliefs @ boot._points)[:, targets]  # the giver's expectation
    language = rules.language if rules is not None else _language_of(giver)
    said = _sayable(giver, clues, language)
    if said is not None and said.any():
        expected[~said] = -np.inf  # clues the giver leaves unsaid, it does not choose
    people = boot.people
    cells = board.cells()
    # Ties go to the first clue; "tie" up to rounding, as one matrix product may round its
    # rows differently (numpy's kernels block rows by the CPU's vector width).
    chosen = _first_best(expected)
    best = _first_best(people)
    column = np.arange(len(targets))
    got = people[chosen, column]
    per_target = tuple(
        TargetChoice(cells[t], clues[int(k)], float(g), clues[int(b)], float(people[int(b), i]))
        for i, t, k, g, b in zip(column, targets, chosen, got, best, strict=True)
    )
    return ClueChoiceAgreement(
        giver=name or label,
        targets=len(targets),
        clues=len(clues),
        chosen=boot.interval(got, level),
        random=boot.interval(people.mean(axis=0), level),
        best=boot.interval(people[best, column], level),
        per_target=per_target,
        level=level,
        n_boot=n_boot,
    )


def _beliefs_of(
    giver: object | None, board: object, rules: Rules, clues: Sequence[str]
) -> tuple[str, FloatArray]:
    """The giver's name and its belief over the squares for each clue, shape (clues, squares)."""
    from huescues.agents import resolve_model

    if giver is None:
        giver = default_model()
    if hasattr(giver, "giver") and not isinstance(giver, ColourTermModel):
        giver = giver.giver  # a seat playing both roles: its clue giver
    listeners = getattr(giver, "listeners", None)
    if callable(listeners) and not isinstance(giver, ColourTermModel):
        # A clue giver that names its listener models (pooled or not): their beliefs averaged.
        parts = [_beliefs_of(m, board, rules, clues)[1] for m in listeners()]
        return f"{type(giver).__name__}({getattr(giver, 'model', None)!r})", np.mean(parts, axis=0)
    spec = getattr(giver, "model", None)
    if (
        spec is not None
        and not callable(getattr(giver, "belief", None))
        and not isinstance(giver, ColourTermModel)
    ):
        # A clue giver: its listener models, averaged.
        specs = spec if isinstance(spec, tuple) else (spec,)
        models = [resolve_model(s) for s in specs]
        parts = [_beliefs_of(m, board, rules, clues)[1] for m in models]
        return f"{type(giver).__name__}({spec!r})", np.mean(parts, axis=0)
    label, read = reader(giver, board, rules)  # type: ignore[arg-type]
    out = []
    for clue in clues:
        log_b = read(clue).log_belief
        if log_b is None:
            raise TypeError(
                f"{label} only ranks squares; clue_choice_agreement needs a belief over them"
            )
        b = np.exp(np.asarray(log_b, dtype=np.float64)).ravel()
        out.append(b / b.sum())
    return label, np.stack(out)


def _sayable(giver: object | None, clues: Sequence[str], language: str) -> NDArray[np.bool_] | None:
    """Which ``clues`` a clue giver with ``alike_from`` would say; ``None`` for any other
    giver (a model, a guesser, a giver that may say any word)."""
    from huescues.agents import alike_chances

    if hasattr(giver, "giver") and not isinstance(giver, ColourTermModel):
        giver = giver.giver  # a seat playing both roles: its clue giver
    least = getattr(giver, "alike_from", None)
    if least is None or isinstance(giver, ColourTermModel):
        return None
    out: NDArray[np.bool_] = alike_chances(list(clues), language) >= least
    return out


def _language_of(giver: object | None) -> str:
    """The language a clue giver's models read (a model reading another language through a
    table names it), else English."""
    from huescues.agents import resolve_model
    from huescues.engine import DEFAULT_LANGUAGE

    if hasattr(giver, "giver") and not isinstance(giver, ColourTermModel):
        giver = giver.giver
    spec = getattr(giver, "model", None)
    if spec is None or isinstance(giver, ColourTermModel):
        return DEFAULT_LANGUAGE
    for one in spec if isinstance(spec, tuple) else (spec,):
        language = getattr(resolve_model(one), "language", None)
        if isinstance(language, str):
            return language
    return DEFAULT_LANGUAGE


def _first_best(values: np.ndarray) -> np.ndarray:
    """Per column, the first row within rounding of the column's largest
    (:func:`~huescues.agents.best_squares`, as the players choose)."""
    first: np.ndarray = best_squares(values.T)
    return first
