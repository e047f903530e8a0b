"""Real guessers' views, recorded from played games: what the tests of the guessers' kept and
batched work compare the plain decisions with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from huescues import PlacePawn, View, play_game
from huescues.agents import Player, default_agent, naming_agent
from huescues.agents._protocol import Guesser


@dataclass(frozen=True)
class Recording:
    """A guesser that keeps every view it is asked about."""

    guesser: Guesser
    views: list[View]

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        self.views.append(view)
        return self.guesser.place_pawn(view, rng)


def guesser_views(seeds: Sequence[int]) -> list[View]:
    """Every guesser's view in games of default and naming players, one game per seed."""
    views: list[View] = []
    lineup = [default_agent(), naming_agent(), default_agent(), naming_agent()]
    players = [Player(p.giver, Recording(p.guesser, views)) for p in lineup]
    for seed in seeds:
        play_game(players, seed=seed)
    return views
