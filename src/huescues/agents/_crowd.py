"""A belief read for the crowd (issue 34): people's picks for a clue spread wider than a model's
literal reading, so the guesser's belief is raised to a temperature (below 1: broader) and
smoothed over the board (a Gaussian of some squares' width), both fitted to how people's picks
spread (the log-likelihood of the dev clues' picks, held out by clue:
``scripts/fit_crowd_reading.py``). The guesser then places where the expected R15 points
against that spread are highest."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ._readings import Kind, Readings

__all__ = ["CROWD_READINGS", "CrowdReading", "crowd_belief", "crowd_reading_of"]

FloatArray = NDArray[np.float64]

#: A (temperature, smoothing in squares) pair: how a guesser's belief is read for the crowd.
CrowdReading = tuple[float, float]

#: The crowd readings fitted for the shipped guessers, by their listener models' names
#: (``python scripts/fit_crowd_reading.py``: each pair the most log-likelihood of the 39 dev
#: clues' 1,461 picks on the grid the script searches). A model reading another language
#: (``"default-es"``) reads through its English model, so it is read for the crowd as that
#: model is (checked for Spanish on the Spanish speakers' picks, docs/people.md; a new
#: language's pack inherits the pair unmeasured). A guesser of other models reads as its
#: models do (temperature 1, no smoothing).
CROWD_READINGS: dict[tuple[str, ...], CrowdReading] = {
    ("default",): (0.25, 0.0),
    ("default", "naming"): (2.0**-0.5, 0.5),
}

#: The smoothing's matrices (rows, then columns), keyed by board shape and width (no models).
SMOOTHING: Kind[tuple[FloatArray, FloatArray]] = Kind("a crowd reading's smoothing", 8)


def crowd_reading_of(model: object) -> CrowdReading:
    """The fitted crowd reading of a guesser's ``model`` spec (a name or a tuple of names,
    ``"NAME-CODE"`` read as ``NAME``), or (1, 0) (its models' own reading) when none is fitted
    for it."""
    names = model if isinstance(model, tuple) else (model,)
    if all(isinstance(n, str) for n in names):
        # "NAME-CODE": NAME's model reading the language CODE through the table.
        return CROWD_READINGS.get(tuple(n.partition("-")[0] for n in names), (1.0, 0.0))
    return (1.0, 0.0)


def check_crowd_reading(temperature: object, smoothing: object) -> None:
    """A ValueError naming the bad value unless the temperature is a finite number above 0 and
    the smoothing a finite number of squares at least 0."""
    if isinstance(temperature, bool) or not isinstance(temperature, int | float):
        raise ValueError(f"temperature must be a number above 0, not {temperature!r}")
    if not (math.isfinite(temperature) and temperature > 0):
        raise ValueError(
            f"temperature {temperature!r} refused: a belief is raised to a finite power above 0 "
            "(below 1 broadens it, 1 leaves it)"
        )
    if isinstance(smoothing, bool) or not isinstance(smoothing, int | float):
        raise ValueError(f"smoothing must be a number of squares, not {smoothing!r}")
    if not (math.isfinite(smoothing) and smoothing >= 0):
        raise ValueError(
            f"smoothing {smoothing!r} refused: a Gaussian's width in squares, finite and at "
            "least 0 (0: none)"
        )


def _matrices(shape: tuple[int, int], width: float) -> tuple[FloatArray, FloatArray]:
    """The smoothing along rows and along columns: each square's share spread over the squares
    of its line by a Gaussian of ``width`` squares, kept on the board (each column sums to 1)."""

    def along(n: int) -> FloatArray:
        i = np.arange(n, dtype=np.float64)
        k = np.exp(-0.5 * ((i[:, None] - i[None, :]) / width) ** 2)
        out: FloatArray = k / k.sum(axis=0, keepdims=True)
        out.flags.writeable = False
        return out

    return along(shape[0]), along(shape[1])


def crowd_belief(
    readings: Readings,
    joint: FloatArray,
    shape: tuple[int, int],
    reading: CrowdReading,
) -> FloatArray:
    """``joint`` (a flat, unnormalised belief over the squares of a board of ``shape``) read for
    the crowd: normalised, raised to the temperature and normalised, then smoothed (a new flat
    array summing to 1). (1, 0) returns ``joint`` itself."""
    temperature, smoothing = reading
    if temperature == 1.0 and smoothing == 0.0:
        return joint
    with np.errstate(divide="ignore"):
        log_b = np.log(joint)
    z = np.exp(temperature * (log_b - log_b.max()))
    if smoothing > 0.0:
        rows, cols = readings.get(
            (), SMOOTHING, (shape, float(smoothing)), lambda: _matrices(shape, smoothing)
        )
        z = (rows @ z.reshape(shape) @ cols.T).ravel()
    out: FloatArray = z / z.sum()
    return out


def crowd_beliefs(
    readings: Readings,
    joints: Sequence[FloatArray],
    shape: tuple[int, int],
    reading: CrowdReading,
) -> FloatArray:
    """:func:`crowd_belief` of each row (the same operations, row by row: the same bits)."""
    return np.stack([crowd_belief(readings, j, shape, reading) for j in joints])
