"""Colour-vision plates that screen for the common deficiencies: each plate shows four swatches,
three of one board square's colour and one of another's, two colours that normal vision tells
apart at once but that a protan, a deutan or a tritan observer sees as (nearly) the same.

The confusion is simulated with Machado, Oliveira and Fernandes (2009), "A Physiologically-based
Model for Simulation of Color Vision Deficiency" (IEEE TVCG 15(6)): a 3 x 3 matrix per deficiency
at severity 1 (dichromacy), applied to linear sRGB. The matrices are the paper's published values
(the same as colour-science's ``matrix_cvd_Machado2009``). A pair is a plate's when its CIEDE2000
difference is at least :data:`NORMAL_APART` for normal vision and at most
:data:`SIMULATED_ALIKE` in the deficiency's simulated view, and its lightness differs by at most
:data:`LIGHTNESS` (so that lightness alone does not give the odd swatch away). A pair confusable
only for one deficiency screens for it; the numbers are :func:`plate_validation`'s."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues.colour import delta_e_2000, srgb_to_lab
from huescues.engine import Board

__all__ = [
    "DEFICIENCIES",
    "LIGHTNESS",
    "MACHADO_2009",
    "NORMAL_APART",
    "SIMULATED_ALIKE",
    "PlateCheck",
    "plate_pairs",
    "plate_validation",
    "simulate",
]

#: The deficiencies a plate screens for, in the order plates cycle through them.
DEFICIENCIES = ("protan", "deutan", "tritan")

#: Machado et al. (2009), severity 1.0, linear RGB in and out.
MACHADO_2009: dict[str, NDArray[np.float64]] = {
    "protan": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deutan": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritan": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}

#: CIEDE2000 at least this apart for normal vision: the odd swatch is plain to see.
NORMAL_APART = 15.0
#: CIEDE2000 at most this apart in the deficiency's simulated view: the two look the same.
SIMULATED_ALIKE = 3.0
#: CIELAB lightness at most this apart, for normal vision and in the simulated view.
LIGHTNESS = 4.0


def _linear(srgb: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def _encoded(linear: NDArray[np.float64]) -> NDArray[np.float64]:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def simulate(srgb: NDArray[np.float64], deficiency: str) -> NDArray[np.float64]:
    """sRGB colours (in [0, 1], last axis RGB) as an observer with ``deficiency`` sees them."""
    matrix = MACHADO_2009[deficiency]
    return _encoded(_linear(np.asarray(srgb, dtype=np.float64)) @ matrix.T)


@dataclass(frozen=True, slots=True)
class PlateCheck:
    """A deficiency's plates on a board, checked by simulation: how many pairs of squares
    qualify, and over them the CIEDE2000 for normal vision and in each deficiency's view
    (median and range)."""

    deficiency: str
    pairs: int
    normal: tuple[float, float, float]
    simulated: dict[str, tuple[float, float, float]]


def plate_pairs(board: Board, deficiency: str) -> NDArray[np.int64]:
    """The pairs of squares (flat indices, shape ``(n, 2)``) whose colours make a plate that
    screens for ``deficiency`` on ``board``."""
    if deficiency not in MACHADO_2009:
        raise ValueError(f"deficiency {deficiency!r}: one of {', '.join(DEFICIENCIES)}")
    srgb = board.srgb.reshape(-1, 3)
    lab = board.lab.reshape(-1, 3)
    seen = srgb_to_lab(simulate(srgb, deficiency))
    i, j = np.triu_indices(len(srgb), k=1)
    normal = delta_e_2000(lab[i], lab[j])
    alike = delta_e_2000(seen[i], seen[j])
    keep = (
        (normal >= NORMAL_APART)
        & (alike <= SIMULATED_ALIKE)
        & (np.abs(lab[i, 0] - lab[j, 0]) <= LIGHTNESS)
        & (np.abs(seen[i, 0] - seen[j, 0]) <= LIGHTNESS)
    )
    # A plate screens for one deficiency: pairs that the others confuse too are left out.
    for other in DEFICIENCIES:
        if other != deficiency:
            theirs = srgb_to_lab(simulate(srgb, other))
            keep &= delta_e_2000(theirs[i], theirs[j]) > SIMULATED_ALIKE
    return np.stack([i[keep], j[keep]], axis=1).astype(np.int64)


def plate_validation(board: Board) -> list[PlateCheck]:
    """Each deficiency's plates on ``board`` checked by simulation (the docs' numbers)."""
    srgb = board.srgb.reshape(-1, 3)
    lab = board.lab.reshape(-1, 3)
    views = {d: srgb_to_lab(simulate(srgb, d)) for d in DEFICIENCIES}
    out = []
    for deficiency in DEFICIENCIES:
        pairs = plate_pairs(board, deficiency)
        a, b = pairs[:, 0], pairs[:, 1]

        def spread(values: NDArray[np.float64]) -> tuple[float, float, float]:
            if not len(values):
                return (float("nan"),) * 3
            return (float(np.median(values)), float(values.min()), float(values.max()))

        out.append(
            PlateCheck(
                deficiency,
                len(pairs),
                spread(delta_e_2000(lab[a], lab[b])),
                {d: spread(delta_e_2000(views[d][a], views[d][b])) for d in DEFICIENCIES},
            )
        )
    return out
