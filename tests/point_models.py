"""Small colour-term models for the research tests: a reading of every text as one square."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues import Board
from huescues.language import Prediction, as_lab
from huescues.language._protocol import gaussian_log_density  # private: a quick test model

BOARD = Board.standard()


class PointModel:
    """A colour-term model that reads every text as one square's colour, with a spread."""

    def __init__(self, square: str, spread: float = 1.0) -> None:
        cell = BOARD.cell(square)
        self.lab = BOARD.lab[cell.row, cell.col].copy()
        self.cov = spread**2 * np.eye(3)

    def predict(self, text: str) -> Prediction:
        return Prediction(self.lab, self.cov)

    def score(self, text: str, lab: ArrayLike) -> NDArray[np.float64]:
        return gaussian_log_density(as_lab(lab), self.lab, self.cov)
