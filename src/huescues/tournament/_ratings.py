"""Plackett-Luce ratings from final scores: openskill's ``PlackettLuce().rate`` (version 6, its
defaults) for games of one-player teams, done in a tight loop with the same arithmetic in the same
order, so the same numbers to the last bit, about ten times faster (openskill deep-copies the
teams and builds several objects per game). openskill stays the reference: the tests rate games
with both and compare.

What openskill does for teams of one, ``ranks`` given, no scores or weights, and that is done
here: every sigma is widened by ``tau`` first; the teams are sorted by rank (stably); with
``c = sqrt(sum(sigma_i^2 + beta^2))`` and ``sum_q`` the sum of ``exp(mu_i / c)`` over the teams
ranked no better than ``q``, team ``i`` gains ``omega`` (over the teams ``q`` ranked no worse than
``i``, ``(1 - p)/a_q`` for itself and ``-p/a_q`` for the others, ``p = exp(mu_i / c) / sum_q``,
``a_q`` the teams sharing ``q``'s rank) times ``sigma_i^2 / c``, and its sigma shrinks by
``sqrt(max(1 - delta, kappa))``. openskill's averaging of the change over tied teams compares each
player with itself (it changes the players in place), so it changes nothing, and nothing is done
for it here. What depends only on a game's ranking (the order, the ties, which teams each sum
and term takes) is worked out once per pattern of scores (for games of up to 5 seats, written out
as a function of its own), and the lineup's seats by entrant once per lineup.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["MU", "SIGMA", "PlackettLuce"]

#: openskill's defaults; an entrant that played no finished game keeps them.
MU, SIGMA = 25.0, 25.0 / 3.0
_BETA = 25.0 / 6.0
_KAPPA = 0.0001
_TAU = 25.0 / 300.0


#: A game's plan, worked out once per ranking of its seats: the seats in rank order (stably);
#: per seat in that order, the seats (in that order) ranked no better, whose ``exp(mu / c)``
#: make its ``sum_q``; and per seat, the ``(q, a_q, q is the seat)`` of each seat ``q`` ranked
#: no worse, the terms of its ``omega`` and ``delta``.
_Plan = tuple[
    tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int, bool], ...], ...]
]
#: Plans (and lineups' seats by entrant) kept at most: a report has a few score patterns.
_KEPT = 4096


def _plan(ranks: Sequence[int]) -> _Plan:
    n = len(ranks)
    order = tuple(sorted(range(n), key=ranks.__getitem__))  # openskill's _unwind
    rank = [int(ranks[i]) for i in order]
    sharing: dict[int, int] = {}
    for r in rank:
        sharing[r] = sharing.get(r, 0) + 1
    a = [sharing[r] for r in rank]
    below = tuple(tuple(i for i in range(n) if rank[i] >= rank[q]) for q in range(n))
    terms = tuple(
        tuple((q, a[q], q == i) for q in range(n) if rank[q] <= rank[i]) for i in range(n)
    )
    return order, below, terms


#: New ratings from old (in the seats' order), tau squared and beta squared.
_Rater = Callable[[Sequence[tuple[float, float]], float, float], list[tuple[float, float]]]


#: Games of up to this many seats are rated by a function of their ranking's own (at most 541
#: rankings of 5 seats, each made once); larger ones by looping over their plan.
_WRITTEN_OUT = 5


@functools.lru_cache(maxsize=_KEPT)
def _rater(ranks: tuple[int, ...]) -> _Rater:
    """The rating of a game with ``ranks`` as a function of its own, its plan's steps written
    out one after another (a game's rating is a few dozen float operations, and looping over
    the plan took most of its time): the same operations in the same order."""
    plan = _plan(ranks)
    order, below, terms = plan
    n = len(order)
    if n > _WRITTEN_OUT:
        return functools.partial(_rate, plan)
    lines = ["def rate(ratings, tau_squared, beta_squared):"]
    for k, i in enumerate(order):
        lines.append(f"    mu{k}, sigma{k} = ratings[{i}]")
        lines.append(f"    sigma{k} = sqrt(sigma{k} * sigma{k} + tau_squared)")
        lines.append(f"    s2_{k} = sigma{k} ** 2")  # openskill: (sigma * 1.0) ** 2
    lines.append("    total = 0.0")
    lines += [f"    total += s2_{k} + beta_squared" for k in range(n)]
    lines.append("    c = sqrt(total)")
    lines += [f"    e{k} = exp(mu{k} / c)" for k in range(n)]
    # sum_q: for each q, exp(mu_i / c) added in order over the i ranked no better (from 0.0).
    for q, members in enumerate(below):
        lines.append(f"    sum{q} = 0.0")
        lines += [f"    sum{q} += e{i}" for i in members]
    lines.append("    c_squared = c ** 2")
    for i, seat_terms in enumerate(terms):
        lines += ["    omega = 0.0", "    delta = 0.0"]
        for q, a_q, itself in seat_terms:
            lines.append(f"    p = e{i} / sum{q}")
            lines.append(f"    delta += p * (1 - p) / {a_q}")
            lines.append(f"    omega += (1 - p) / {a_q}" if itself else f"    omega -= p / {a_q}")
        lines.append(f"    omega *= s2_{i} / c")
        lines.append(f"    delta *= s2_{i} / c_squared")
        lines.append(f"    delta *= sqrt(s2_{i}) / c")
        lines.append(f"    share = sigma{i} ** 2 / s2_{i}")
        # (openskill multiplies by 1.0 where omega >= 0 and divides by it otherwise: x)
        lines.append(f"    mu{i} += share * omega")
        lines.append(f"    sigma{i} *= sqrt(max(1 - share * delta, KAPPA))")
    back = sorted(range(n), key=order.__getitem__)  # each seat's place in rank order
    lines.append(f"    return [{', '.join(f'(mu{k}, sigma{k})' for k in back)}]")
    space: dict[str, Any] = {"sqrt": math.sqrt, "exp": math.exp, "KAPPA": _KAPPA}
    exec(compile("\n".join(lines), f"<rating of ranks {ranks}>", "exec"), space)
    rate: _Rater = space["rate"]
    return rate


def _rate(
    plan: _Plan, ratings: Sequence[tuple[float, float]], tau_squared: float, beta_squared: float
) -> list[tuple[float, float]]:
    """A game's rating, its plan looped over (see :func:`_rater`)."""
    order, below, terms = plan
    mus = [ratings[i][0] for i in order]
    sigmas = [math.sqrt(ratings[i][1] * ratings[i][1] + tau_squared) for i in order]
    sigma_squared = [s**2 for s in sigmas]  # openskill: (sigma * 1.0) ** 2
    total = 0.0
    for s2 in sigma_squared:
        total += s2 + beta_squared
    c = math.sqrt(total)
    exps = [math.exp(mu / c) for mu in mus]
    # sum_q: for each q, the sum over i (in order) of exp(mu_i / c) where rank_i >= rank_q
    # (starting from 0.0 changes nothing: 0.0 + x is x).
    sum_q = []
    for members in below:
        t = 0.0
        for i in members:
            t += exps[i]
        sum_q.append(t)
    c_squared = c**2
    out = [(0.0, 0.0)] * len(order)
    for i, seat_terms in enumerate(terms):
        omega = 0.0
        delta = 0.0
        e = exps[i]
        for q, a_q, itself in seat_terms:
            p = e / sum_q[q]
            delta += p * (1 - p) / a_q
            if itself:
                omega += (1 - p) / a_q
            else:
                omega -= p / a_q
        s2 = sigma_squared[i]
        omega *= s2 / c
        delta *= s2 / c_squared
        delta *= math.sqrt(s2) / c
        sigma = sigmas[i]
        share = sigma**2 / s2
        # (openskill multiplies by 1.0 where omega >= 0 and divides by it otherwise: x)
        mu = mus[i] + share * omega
        sigma *= math.sqrt(max(1 - share * delta, _KAPPA))
        out[order[i]] = (mu, sigma)
    return out


class PlackettLuce:
    """``(mu, sigma)`` per entrant, updated one game at a time (see the module)."""

    __slots__ = ("_beta_squared", "_lineups", "_raters", "_tau_squared", "ratings")

    def __init__(self, entrants: Sequence[str]) -> None:
        self.ratings: dict[str, tuple[float, float]] = dict.fromkeys(entrants, (MU, SIGMA))
        self._beta_squared = _BETA**2
        self._tau_squared = _TAU * _TAU
        self._raters: dict[tuple[float, ...], _Rater] = {}
        self._lineups: dict[tuple[str, ...], list[tuple[str, list[int]]]] = {}

    def rate(
        self, ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
    ) -> list[tuple[float, float]]:
        """New ``(mu, sigma)`` of each team (in the order given) after a game with ``ranks``
        (1 the best; equal ranks are a tie), as openskill's ``rate(teams, ranks=ranks)``."""
        return _rater(tuple(ranks))(ratings, self._tau_squared, self._beta_squared)

    def add(self, seats: Sequence[str], scores: Sequence[float]) -> None:
        """Rate one finished game: every seat a team of one carrying its entrant's rating, ranked
        by score (equal scores share a rank: one more than the seats that scored more); an
        entrant in several seats takes the mean of its seats' new ratings, so it is rated once
        per game. A game of one seat changes nothing."""
        if len(seats) < 2:
            return
        ratings = self.ratings
        key = tuple(scores)
        rater = self._raters.get(key)
        if rater is None:
            if len(self._raters) >= _KEPT:
                self._raters.clear()
            ranks = tuple([1 + sum([o > x for o in scores]) for x in scores])
            rater = self._raters[key] = _rater(ranks)
        new = rater([ratings[e] for e in seats], self._tau_squared, self._beta_squared)
        lineup = tuple(seats)
        updates = self._lineups.get(lineup)
        if updates is None:
            if len(self._lineups) >= _KEPT:
                self._lineups.clear()
            by_entrant: dict[str, list[int]] = {}
            for k, e in enumerate(seats):
                by_entrant.setdefault(e, []).append(k)
            updates = self._lineups[lineup] = list(by_entrant.items())
        for e, where in updates:
            if len(where) == 1:
                ratings[e] = new[where[0]]
            elif len(where) == 2:  # two floats' sum is rounded once, as math.fsum's
                (mu_a, sigma_a), (mu_b, sigma_b) = new[where[0]], new[where[1]]
                ratings[e] = ((mu_a + mu_b) / 2, (sigma_a + sigma_b) / 2)
            else:
                values = [new[k] for k in where]
                ratings[e] = (
                    math.fsum(v[0] for v in values) / len(values),
                    math.fsum(v[1] for v in values) / len(values),
                )
