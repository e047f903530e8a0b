"""``python -m huescues``: random agents play one game on the defaults; the moves and the result
are printed. (The ``huescues tournament`` command replaces this as the main job later.)"""

from __future__ import annotations

import argparse

from huescues.agents import RandomAgent, play_game
from huescues.engine import GameState


def describe(state: GameState) -> str:
    """The game round by round, then the result, as text."""
    lines = [
        f"Hues and Cues: {state.n_players} players, board {state.board.id}, seed {state.seed}",
    ]
    for r in state.history:
        kind = "tie-breaker round" if r.tiebreak else "round"
        clues = " / ".join(repr(c) for c in r.clues) + (" (then passed)" if r.passed else "")
        lines.append(f"{kind} {r.round + 1}: seat {r.giver} gives {clues}; target {r.target}")
        placed = [f"{seat}:{cell}" for seat, cell in r.pawns]
        gains = " ".join(f"{s}:+{p}" for s, p in enumerate(r.points) if p)
        lines.append(f"    pawns {' '.join(placed)}   points {gains or 'none'}")
    result = state.result
    assert result is not None
    lines.append(
        "final scores: " + ", ".join(f"seat {s}: {v}" for s, v in enumerate(result.scores))
    )
    who = " and ".join(f"seat {w}" for w in result.winners)
    lines.append(
        f"{'shared win' if result.shared else 'winner'}: {who}"
        + (f" after {result.tiebreak_rounds} tie-breaker rounds" if result.tiebreak_rounds else "")
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m huescues", description=__doc__)
    parser.add_argument("--players", type=int, default=4, help="number of players, 3-10 (R2)")
    parser.add_argument("--seed", type=int, default=0, help="the game's seed (R27)")
    args = parser.parse_args(argv)
    agents = [RandomAgent() for _ in range(args.players)]
    _, state = play_game(agents, seed=args.seed)
    print(describe(state))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
