"""Write your own agent, check it with the public checker, and play it against random agents.

This one guesses greedily from the pawns already placed this round: if anyone has guessed, it
places next to the first pawn (people who read the clue before you are evidence of where the
target is); otherwise it guesses at random.
"""

from __future__ import annotations

import numpy as np

import huescues as hc
from huescues.agents import RandomAgent
from huescues.testing import check_games
from huescues.tournament import run_tournament


class FollowerAgent(RandomAgent):
    """Places its pawn on the empty square nearest the round's first pawn."""

    def place_pawn(self, view: hc.View, rng: np.random.Generator) -> hc.PlacePawn:
        if not view.pawns:
            return super().place_pawn(view, rng)
        _, first = view.pawns[0]
        empty = [c for c in view.board.cells() if c not in view.occupied]
        return hc.PlacePawn(min(empty, key=first.distance))


def main() -> None:
    report = check_games(n_players=4, games=10, agents=lambda n: [FollowerAgent()] * n)
    print(f"checker: {report}")
    # Enter it in a tournament by its module:factory path (this script is the module __main__).
    results = run_tournament([f"follower={__name__}:FollowerAgent", "random"], games=8, workers=1)
    results.report().print()
    wins = 0
    for seed in range(50):
        agents = [FollowerAgent(), RandomAgent(), RandomAgent(), RandomAgent()]
        _, final = hc.play_game(agents, seed=seed)
        assert final.result is not None
        wins += 0 in final.result.winners
    print(f"FollowerAgent in seat 0 won or shared {wins} of 50 games against three random agents")


if __name__ == "__main__":
    main()
