"""A game as text: round by round, then the result."""

from __future__ import annotations

from ._state import GameState

__all__ = ["describe_game"]


def describe_game(state: GameState) -> str:
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
    if result is None:
        lines.append(
            f"scores so far: {state.scores}; {state.phase.value}, seat {state.current_player}"
        )
        return "\n".join(lines)
    lines.append(
        "final scores: " + ", ".join(f"seat {s}: {v}" for s, v in enumerate(result.scores))
    )
    who = " and ".join(f"seat {w}" for w in result.winners)
    lines.append(
        f"{'shared win' if result.shared else 'winner'}: {who}"
        + (f" after {result.tiebreak_rounds} tie-breaker rounds" if result.tiebreak_rounds else "")
    )
    return "\n".join(lines)
