"""The report's Plackett-Luce ratings (``huescues.tournament._ratings``) against openskill's, the
reference: the same games rated by both give the same numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from openskill.models import PlackettLuce as OpenSkill

from huescues.tournament._ratings import MU, SIGMA, PlackettLuce


def _openskill_game(
    model: OpenSkill, ratings: dict[str, tuple[float, float]], seats: list[str], scores: list[float]
) -> None:
    """One game rated by openskill, as the report did before it had its own loop."""
    ranks = [1 + sum(o > x for o in scores) for x in scores]
    teams = [[model.rating(mu=ratings[e][0], sigma=ratings[e][1], name=e)] for e in seats]
    new = model.rate(teams, ranks=ranks)
    updates: dict[str, list[tuple[float, float]]] = {}
    for e, team in zip(seats, new, strict=True):
        updates.setdefault(e, []).append((float(team[0].mu), float(team[0].sigma)))
    for e, values in updates.items():
        ratings[e] = (
            math.fsum(v[0] for v in values) / len(values),
            math.fsum(v[1] for v in values) / len(values),
        )


@pytest.mark.slow
def test_ratings_are_openskills() -> None:
    """3,000 games of 2 to 10 seats among five entrants (some in several seats of a game), with
    many ties (scores drawn from a few values): every rating after every game equal to
    openskill's to 1e-9 (in fact to the last bit)."""
    rng = np.random.default_rng(23)
    names = ["a", "b", "c", "d", "e"]
    model = OpenSkill()
    reference = dict.fromkeys(names, (MU, SIGMA))
    ours = PlackettLuce(names)
    worst = 0.0
    for _ in range(3000):
        n = int(rng.integers(2, 11))
        seats = [names[i] for i in rng.integers(0, len(names), size=n)]
        scores = [float(x) for x in rng.integers(0, 4 if rng.random() < 0.5 else 30, size=n)]
        _openskill_game(model, reference, seats, scores)
        ours.add(seats, scores)
        for e in names:
            worst = max(
                worst,
                abs(ours.ratings[e][0] - reference[e][0]),
                abs(ours.ratings[e][1] - reference[e][1]),
            )
    assert worst <= 1e-9
    assert ours.ratings == reference  # the same arithmetic in the same order
    assert all(r != (MU, SIGMA) for r in ours.ratings.values())


def test_one_seat_changes_nothing() -> None:
    ours = PlackettLuce(["a"])
    ours.add(["a"], [3.0])
    assert ours.ratings == {"a": (MU, SIGMA)}
