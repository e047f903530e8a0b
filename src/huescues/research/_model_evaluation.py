"""Held-out evaluation of colour-term models: names the model did not see while fitting, judged
by colour error, a reference game, and points on the board (R15). It lives here, above the
language package, because the last measure needs a board and the rules."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues.agents import best_squares
from huescues.colour import delta_e_2000
from huescues.engine import Board, Rules, points_array
from huescues.language import N_FOLDS, ModelFactory, as_lab, fold_of, normalise_name

__all__ = ["Evaluation", "ModelScores", "evaluate"]

FloatArray = NDArray[np.float64]

#: CIEDE2000 bands for the reference game's distractors: near, middling and far.
DEFAULT_BANDS: tuple[tuple[float, float], ...] = ((5.0, 15.0), (15.0, 30.0), (30.0, 60.0))


@dataclass(frozen=True, slots=True)
class ModelScores:
    """One model's held-out figures."""

    model: str
    #: Held-out names judged.
    n: int
    #: CIEDE2000 between ``predict(name)`` and the named colour.
    median_delta_e: float
    mean_delta_e: float
    #: Reference game: the share of names whose colour the model picks out among it and
    #: distractors in each CIEDE2000 band (ties count as a fair draw). Key: ``"5-15"``.
    reference_accuracy: dict[str, float] = field(default_factory=dict)
    #: On the board: mean R15 points of the model's best square (the one with the most
    #: expected points under its own belief) against the square nearest the named colour.
    board_points: float = math.nan
    #: Share of held-out names the model said it knew (``Prediction.known``).
    known: float = math.nan
    #: The predictions' CIELAB chroma over the named colours', both averaged over the names the
    #: model knew: below 1, its predictions are duller than the names (they regress to grey).
    chroma_ratio: float = math.nan


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The result of :func:`evaluate`: one row per model."""

    rows: tuple[ModelScores, ...]
    folds: int
    board_id: str
    n_distractors: int
    bands: tuple[tuple[float, float], ...]
    #: What a random pick scores in the reference game (1 / (distractors + 1)).
    chance: float

    def table(self) -> str:
        """A Markdown table of the figures."""
        bands = [_band_key(b) for b in self.bands]
        head = (
            "| model | names | median ΔE00 | mean ΔE00 | "
            + " | ".join(f"ref. game {b}" for b in bands)
            + " | board points (R15) | known |"
        )
        rule = (
            "| --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in bands) + " | ---: | ---: |"
        )
        lines = [head, rule]
        for r in self.rows:
            accs = " | ".join(f"{r.reference_accuracy.get(b, math.nan):.2f}" for b in bands)
            lines.append(
                f"| {r.model} | {r.n} | {r.median_delta_e:.1f} | {r.mean_delta_e:.1f} | {accs} | "
                f"{r.board_points:.2f} | {r.known:.0%} |"
            )
        lines.append("")
        lines.append(
            f"Held out by name in {self.folds} folds; reference game: the named colour among "
            f"{self.n_distractors} distractors per band (chance {self.chance:.2f}); board "
            f"{self.board_id}."
        )
        return "\n".join(lines)


def _band_key(band: tuple[float, float]) -> str:
    return f"{band[0]:g}-{band[1]:g}"


def evaluate(
    models: Mapping[str, ModelFactory],
    names: Sequence[str],
    lab: ArrayLike,
    *,
    folds: int = N_FOLDS,
    board: Board | None = None,
    n_distractors: int = 3,
    bands: Sequence[tuple[float, float]] = DEFAULT_BANDS,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> Evaluation:
    """Evaluate models on named colours they did not see while fitting.

    ``names`` and ``lab`` are the named colours to hold out (for instance the XKCD names). For
    each of ``folds`` folds (by :func:`fold_of`), each factory in ``models`` is called with the
    fold's names and must return a model fitted without them; the model is then judged on each
    held-out name by the error of ``predict``, a reference game against distractors drawn from
    the other named colours at CIEDE2000 distances in ``bands``, and the R15 points of its best
    square on ``board`` (the standard board by default).
    """
    if folds < 2:
        raise ValueError(f"evaluation needs at least 2 folds, not {folds}")
    norm = [normalise_name(n) for n in names]
    colours = as_lab(lab).reshape(-1, 3)
    if len(norm) != len(colours):
        raise ValueError(f"{len(norm)} names for {len(colours)} colours")
    board = Board.standard() if board is None else board
    squares = board.lab.reshape(-1, 3)
    cells = np.array([(c.row, c.col) for c in board.cells()])
    # R15 points of every square against every target square.
    points = points_array(Rules.standard(4), cells[:, None, :], cells[None, :, :]).astype(float)
    nearest_square = np.argmin(delta_e_2000(colours[:, None, :], squares[None, :, :]), axis=1)
    pairwise = delta_e_2000(colours[:, None, :], colours[None, :, :])
    rng = np.random.default_rng(seed)
    distractors = _draw_distractors(pairwise, n_distractors, tuple(bands), rng)
    fold = np.array([fold_of(n, folds) for n in norm])

    rows = []
    for label, factory in models.items():
        errors = np.full(len(norm), np.nan)
        known = np.zeros(len(norm))
        earned = np.full(len(norm), np.nan)
        chroma = np.full(len(norm), np.nan)
        wins: dict[str, list[float]] = {_band_key(b): [] for b in bands}
        for k in range(folds):
            held = np.flatnonzero(fold == k)
            if progress is not None:
                progress(f"{label}: fold {k + 1}/{folds} ({len(held)} names)")
            model = factory(frozenset(norm[i] for i in held))
            for i in held:
                pred = model.predict(norm[i])
                errors[i] = float(delta_e_2000(pred.lab, colours[i]))
                known[i] = pred.known
                chroma[i] = float(np.hypot(*np.asarray(pred.lab, dtype=float)[1:]))
                for band in bands:
                    others = distractors[_band_key(band)].get(int(i))
                    if others is not None:
                        candidates = colours[[int(i), *others]]
                        wins[_band_key(band)].append(_fair_win(model.score(norm[i], candidates)))
                belief = _posterior(model.score(norm[i], squares))
                best = int(best_squares(points @ belief))
                earned[i] = points[best, nearest_square[i]]
        rows.append(
            ModelScores(
                label,
                len(norm),
                float(np.median(errors)),
                float(np.mean(errors)),
                {b: float(np.mean(v)) if v else math.nan for b, v in wins.items()},
                float(np.mean(earned)),
                float(np.mean(known)),
                _chroma_ratio(chroma, colours, known > 0),
            )
        )
    return Evaluation(
        tuple(rows), folds, board.id, n_distractors, tuple(bands), 1 / (n_distractors + 1)
    )


def _chroma_ratio(predicted: FloatArray, colours: FloatArray, known: NDArray[np.bool_]) -> float:
    """Mean predicted chroma over mean named chroma, over the known names (NaN if none)."""
    if not known.any():
        return math.nan
    named = np.hypot(colours[known, 1], colours[known, 2])
    return float(np.mean(predicted[known]) / np.mean(named))


def _draw_distractors(
    pairwise: FloatArray,
    n: int,
    bands: tuple[tuple[float, float], ...],
    rng: np.random.Generator,
) -> dict[str, dict[int, list[int]]]:
    """For each band and each colour, ``n`` other colours at a CIEDE2000 distance in the band
    (colours with too few such neighbours are left out of that band)."""
    out: dict[str, dict[int, list[int]]] = {}
    for band in bands:
        chosen: dict[int, list[int]] = {}
        for i in range(len(pairwise)):
            pool = np.flatnonzero((pairwise[i] >= band[0]) & (pairwise[i] < band[1]))
            if len(pool) >= n:
                chosen[i] = [int(j) for j in rng.choice(pool, size=n, replace=False)]
        out[_band_key(band)] = chosen
    return out


def _fair_win(scores: NDArray[np.float64]) -> float:
    """1 when the first candidate scores highest alone, 1/k when it ties with k-1 others."""
    top = scores.max()
    if scores[0] < top:
        return 0.0
    return 1.0 / int(np.sum(scores == top))


def _posterior(log_likelihood: FloatArray) -> FloatArray:
    """Normalised probabilities over squares from log-likelihoods (a flat prior)."""
    z = log_likelihood - log_likelihood.max()
    p = np.exp(z)
    out: FloatArray = p / p.sum()
    return out
