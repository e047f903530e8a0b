"""A colour-naming system and the field's standard measures of it (Zaslavsky, Kemp, Regier and
Tishby 2018, "Efficient compression in color naming and its evolution", PNAS 115(31)): a naming
distribution q(term | chip) over a chart of colour chips, its complexity I(M; W) and accuracy
I(W; U) under the information bottleneck, its communicative cost (the expected KL divergence
between a speaker's meaning and the listener's reconstruction), and a term map over the chart.

A meaning is the speaker's belief about the colour: m_c(u) proportional to
exp(-|lab_c - lab_u|^2 / (2 sigma^2)) over the chart's chips, sigma^2 = 64 in CIELAB as in the
paper. Logs are base 2 (bits). The naming distribution comes from any colour-term model (Bayes
over a list of terms, each term's score being log p(colour | term)) or from counts of people's
names per chip (such as the World Color Survey's, which the library does not ship)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues.engine import Board, Cell
from huescues.language import BASIC_TERMS, ColourTermModel, with_capabilities

__all__ = [
    "MEANING_VARIANCE",
    "NamingMeasures",
    "NamingSystem",
    "naming_measures",
    "wcs_chips",
]

FloatArray = NDArray[np.float64]

#: sigma^2 of the meanings' Gaussians in CIELAB (Zaslavsky et al. 2018, after Regier et al.).
MEANING_VARIANCE = 64.0


def wcs_chips(board: Board) -> tuple[Cell, ...]:
    """The 330 squares of ``Board.wcs()`` that are chips of the World Color Survey: the neutral
    column (column 1, rows A-J) and the 40 hues of rows B-I (the board's rows A and J hold
    extra tints and shades that the survey did not have)."""
    if board.shape != (10, 41):
        raise ValueError(f"the WCS chips are on the 10 x 41 chart (Board.wcs()), not {board.shape}")
    return tuple(c for c in board.cells() if c.col == 0 or 1 <= c.row <= 8)


@dataclass(frozen=True, slots=True)
class NamingSystem:
    """A naming distribution over a chart: ``naming[c, w]`` is q(term ``terms[w]`` | chip c),
    each row summing to 1; ``lab`` the chips' CIELAB colours, ``prior`` p(c) (summing to 1),
    ``cells`` where the chips lie on ``board`` (for term maps; None for a bare list of
    colours) and ``source`` what named them."""

    terms: tuple[str, ...]
    lab: FloatArray
    naming: FloatArray
    prior: FloatArray
    cells: tuple[Cell, ...] | None = None
    board: Board | None = None
    source: str = ""

    def __post_init__(self) -> None:
        n = len(self.lab)
        if self.lab.shape != (n, 3) or self.naming.shape != (n, len(self.terms)):
            raise ValueError(
                f"a naming system needs {n} chips' CIELAB (shape (chips, 3), not "
                f"{self.lab.shape}) and a naming row per chip and term (not {self.naming.shape} "
                f"for {len(self.terms)} terms)"
            )
        if self.prior.shape != (n,) or abs(float(self.prior.sum()) - 1.0) > 1e-9:
            raise ValueError(f"the prior over chips needs {n} numbers summing to 1")
        if self.naming.min() < 0 or not np.allclose(self.naming.sum(axis=1), 1.0):
            raise ValueError(
                "each chip's naming distribution needs weights of at least 0 summing to 1"
            )
        for array in (self.lab, self.naming, self.prior):
            array.flags.writeable = False

    @classmethod
    def from_model(
        cls,
        model: ColourTermModel,
        *,
        board: Board | None = None,
        chips: Sequence[Cell] | None = None,
        terms: Sequence[str] = BASIC_TERMS,
        prior: ArrayLike | None = None,
    ) -> NamingSystem:
        """The naming distribution a colour-term model (a ``NamingModel``, the default model,
        your own) gives the chips: q(term | chip) proportional to exp(score(term, chip)), the
        terms equally likely before the colour is seen. The chart is ``board`` (by default
        ``Board.wcs()``, its 330 WCS chips), its squares ``chips`` (by default all of them, or
        the WCS chips on the WCS chart); the chips equally likely unless ``prior`` says."""
        if not terms:
            raise ValueError("a naming system needs at least one term")
        if board is None:
            board = Board.wcs()
            chips = wcs_chips(board) if chips is None else chips
        chosen = tuple(board.cells() if chips is None else chips)
        lab = np.array([board.lab[c.row, c.col] for c in chosen], dtype=np.float64)
        scores = with_capabilities(model).score_many(list(terms), lab).T  # (chips, terms)
        if not np.all(np.isfinite(scores)):
            raise ValueError(f"{type(model).__name__} scored a term NaN or infinity on the chart")
        z = np.exp(scores - scores.max(axis=1, keepdims=True))
        return cls(
            tuple(terms),
            lab,
            z / z.sum(axis=1, keepdims=True),
            _prior(prior, len(chosen)),
            chosen,
            board,
            f"{type(model).__name__} on {board.id}",
        )

    @classmethod
    def from_counts(
        cls,
        counts: ArrayLike,
        terms: Sequence[str],
        lab: ArrayLike,
        *,
        prior: ArrayLike | None = None,
        cells: Sequence[Cell] | None = None,
        board: Board | None = None,
        source: str = "counts",
    ) -> NamingSystem:
        """A naming system from how often people gave each term to each chip (``counts``, shape
        ``(chips, terms)``; a language of the World Color Survey, for instance), the chips'
        CIELAB ``lab``. A chip nobody named is an error, as is a negative count."""
        table = np.asarray(counts, dtype=np.float64)
        colours = np.asarray(lab, dtype=np.float64).reshape(-1, 3)
        if table.ndim != 2 or table.shape != (len(colours), len(terms)):
            raise ValueError(
                f"counts need a row per chip ({len(colours)}) and a column per term "
                f"({len(terms)}), not shape {table.shape}"
            )
        if not np.all(np.isfinite(table)) or table.min() < 0:
            raise ValueError("counts must be finite and at least 0")
        totals = table.sum(axis=1)
        if (totals == 0).any():
            raise ValueError(f"chip {int(np.argmax(totals == 0))} has no name counted")
        return cls(
            tuple(terms),
            colours,
            table / totals[:, None],
            _prior(prior, len(colours)),
            None if cells is None else tuple(cells),
            board,
            source,
        )

    def modal_terms(self) -> tuple[str, ...]:
        """Each chip's likeliest term (the first among ties)."""
        return tuple(self.terms[int(i)] for i in np.argmax(self.naming, axis=1))

    def term_map(self) -> str:
        """The chart as text, each chip by its likeliest term's letter (``.`` where the board
        has no chip), rows lettered and columns numbered as the board's; a legend of the letters
        below (only the terms that are some chip's likeliest). Needs a system made on a
        board."""
        if self.cells is None or self.board is None:
            raise ValueError("a term map needs the chips' places on a board (from_model does)")
        letters = "abcdefghijklmnopqrstuvwxyz0123456789"
        if len(self.terms) > len(letters):
            raise ValueError(
                f"a term map has letters for {len(letters)} terms, not {len(self.terms)}"
            )
        grid = [["."] * self.board.cols for _ in range(self.board.rows)]
        for cell, w in zip(self.cells, np.argmax(self.naming, axis=1), strict=True):
            grid[cell.row][cell.col] = letters[int(w)]
        # The columns' last digits over the map, each row's letter before it.
        lines = ["  " + "".join(str((c + 1) % 10) for c in range(self.board.cols))]
        lines += [f"{str(Cell(r, 0))[0]} " + "".join(row) for r, row in enumerate(grid)]
        used = sorted(set(np.argmax(self.naming, axis=1).tolist()))
        lines.append("")
        lines.append(", ".join(f"{letters[w]} {self.terms[w]}" for w in used))
        return "\n".join(lines)


def _prior(prior: ArrayLike | None, n: int) -> FloatArray:
    if prior is None:
        return np.full(n, 1.0 / n)
    p = np.asarray(prior, dtype=np.float64)
    if p.shape != (n,) or not np.all(np.isfinite(p)) or p.min() < 0 or p.sum() <= 0:
        raise ValueError(f"a prior over chips needs {n} weights of at least 0, not shape {p.shape}")
    out: FloatArray = p / p.sum()
    return out


@dataclass(frozen=True, slots=True)
class NamingMeasures:
    """A naming system's measures, in bits: ``complexity`` I(M; W), the information the names
    keep about the speaker's meaning; ``accuracy`` I(W; U), what they tell the listener about
    the colour; ``max_accuracy`` I(M; U), what a name per chip would tell; ``cost`` the
    communicative cost E[KL(m_c || m_w)] = I(M; U) - I(W; U); ``terms_used`` the terms that are
    some chip's likeliest."""

    complexity: float
    accuracy: float
    max_accuracy: float
    cost: float
    terms_used: int


def meanings(lab: FloatArray, variance: float = MEANING_VARIANCE) -> FloatArray:
    """m_c(u): for each chip c (row), a Gaussian of ``variance`` over the chips u, normalised."""
    d2 = ((lab[:, None, :] - lab[None, :, :]) ** 2).sum(axis=-1)
    m = np.exp(-(d2 - d2.min(axis=1, keepdims=True)) / (2.0 * variance))
    out: FloatArray = m / m.sum(axis=1, keepdims=True)
    return out


def _bits(p: FloatArray, q: FloatArray) -> FloatArray:
    """p * log2(p / q), 0 where p is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0) / q), 0.0)
    return out


def naming_measures(
    system: NamingSystem, *, variance: float = MEANING_VARIANCE, meaning: ArrayLike | None = None
) -> NamingMeasures:
    """The information-bottleneck measures of ``system`` (Zaslavsky et al. 2018), in bits. The
    meanings are Gaussians of ``variance`` over the chips (sigma^2 = 64), or the rows of
    ``meaning`` (chips by chips, each summing to 1) when given."""
    if not (isinstance(variance, int | float) and math.isfinite(variance) and variance > 0):
        raise ValueError(
            f"variance must be a positive number of squared CIELAB units, not {variance!r}"
        )
    m = meanings(system.lab, variance) if meaning is None else np.asarray(meaning, np.float64)
    n = len(system.lab)
    if m.shape != (n, n) or m.min() < 0 or not np.allclose(m.sum(axis=1), 1.0):
        raise ValueError(f"meanings need a distribution over the {n} chips for each chip")
    p_c, q = system.prior, system.naming
    p_u = p_c @ m
    q_w = p_c @ q
    complexity = float((p_c[:, None] * _bits(q, q_w[None, :])).sum())
    # q(c | w), then each term's reconstruction of the colour, m_w(u) = sum_c q(c | w) m_c(u).
    joint = p_c[:, None] * q
    used = q_w > 0
    q_c_w = joint[:, used] / q_w[used]
    m_w = q_c_w.T @ m
    accuracy = float((q_w[used][:, None] * _bits(m_w, p_u[None, :])).sum())
    max_accuracy = float((p_c[:, None] * _bits(m, p_u[None, :])).sum())
    return NamingMeasures(
        complexity=max(complexity, 0.0),
        accuracy=max(accuracy, 0.0),
        max_accuracy=max_accuracy,
        cost=max(max_accuracy - accuracy, 0.0),
        terms_used=len(set(np.argmax(q, axis=1).tolist())),
    )
