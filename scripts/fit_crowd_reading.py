"""Fit the guessers' crowd reading (issue 34) to people's picks, held out by clue: for each shipped
guesser, the belief's temperature and smoothing (``ModelGuesser(temperature=, smoothing=)``) that
give the dev clues' picks the most log-likelihood, on a grid; each clue's figures at the pair
fitted on the other 38 (leave-one-clue-out), beside its models' own reading (1, 0). Prints the
log-likelihood of the picks and the R15 points a pick (the square with the most expected points
under the belief, against each person), each with a 95% bootstrap interval over clues, and the
pair fitted on every clue (the one ``CROWD_READINGS`` ships).

    python scripts/fit_crowd_reading.py            # the 39 dev clues, about 10 s on 2 cores
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from huescues.agents import ModelGuesser, best_squares, default_agent, expected_points
from huescues.engine import Rules
from huescues.research import dev_picks
from huescues.stats import Estimate, ratio_interval, resample

#: The grid: temperatures 2^(i/4) from 1/8 to sqrt(2); smoothing widths in squares.
TEMPERATURES = tuple(2.0 ** (i / 4) for i in range(-12, 3))
SMOOTHING = (0.0, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)


@dataclass(frozen=True)
class Fitted:
    """One guesser's figures: each reading's log-likelihood and R15 points a pick (intervals over
    the clues), and the pair fitted on every clue."""

    readings: dict[str, tuple[Estimate, Estimate]]
    temperature: float
    smoothing: float


def fit(n_boot: int = 2000, seed: int = 0) -> tuple[dict[str, Fitted], float]:
    """Each shipped guesser's figures (guesser to :class:`Fitted`), and a uniform belief's
    log-likelihood a pick."""
    responses, board = dev_picks()
    groups = responses.by_clue()
    rules = Rules.standard(4)
    cols = board.cols
    picks = [np.array([r.square.row * cols + r.square.col for r in g]) for g in groups.values()]
    n = np.array([len(p) for p in picks], dtype=np.float64)
    draws = resample(len(groups), n_boot, np.random.default_rng(seed))
    guessers = {"EmbeddingGuesser()": "default", "default_agent().guesser": None}
    out = {}
    for name, spec in guessers.items():
        model = default_agent().guesser.model if spec is None else spec
        # ll[c, i, j], pts[c, i, j]: clue c's picks' sums at temperature i, smoothing j.
        ll = np.zeros((len(groups), len(TEMPERATURES), len(SMOOTHING)))
        pts = np.zeros_like(ll)
        for i, t in enumerate(TEMPERATURES):
            for j, s in enumerate(SMOOTHING):
                g = ModelGuesser(model=model, temperature=t, smoothing=s)
                for c, clue in enumerate(groups):
                    b = g.belief(board, [clue])
                    ll[c, i, j] = np.log(np.maximum(b.ravel()[picks[c]], 1e-300)).sum()
                    best = int(best_squares(expected_points(b, rules).ravel()))
                    d = np.maximum(
                        np.abs(picks[c] // cols - best // cols),
                        np.abs(picks[c] % cols - best % cols),
                    )
                    pts[c, i, j] = sum(rules.points_at(int(x)) for x in d)
        total = ll.sum(axis=0)
        held_ll = np.zeros(len(groups))
        held_pts = np.zeros(len(groups))
        for c in range(len(groups)):
            i, j = np.unravel_index(int(np.argmax(total - ll[c])), total.shape)
            held_ll[c], held_pts[c] = ll[c, i, j], pts[c, i, j]
        one = TEMPERATURES.index(1.0)
        fi, fj = np.unravel_index(int(np.argmax(total)), total.shape)
        rows = {
            "its models' own (1, 0)": (ll[:, one, 0], pts[:, one, 0]),
            "fitted on the other clues (held out)": (held_ll, held_pts),
            f"fitted on all ({TEMPERATURES[fi]:.3g}, {SMOOTHING[fj]:g}; in sample)": (
                ll[:, fi, fj],
                pts[:, fi, fj],
            ),
        }
        readings = {
            label: (ratio_interval(a, n, draws, 0.95), ratio_interval(p, n, draws, 0.95))
            for label, (a, p) in rows.items()
        }
        out[name] = Fitted(readings, TEMPERATURES[fi], SMOOTHING[fj])
    return out, float(-np.log(board.size))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-boot", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    fitted, uniform = fit(args.n_boot, args.seed)
    print("| guesser | reading | log-likelihood a pick | points a pick (R15) |")
    print("| --- | --- | ---: | ---: |")
    for name, got in fitted.items():
        for label, (la, pa) in got.readings.items():
            print(f"| {name} | {label} | {la.format('.3f')} | {pa.format('.3f')} |")
    print(f"\nuniform: {uniform:.3f} a pick")


if __name__ == "__main__":
    main()
