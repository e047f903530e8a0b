"""Write tests/golden/random-4p-seed-2041.json: the full record of one fixed game.

The golden game catches unintended changes to the engine, the deck, the seeding or the random
agent. Regenerate it (``python scripts/make_golden_game.py``) only when a change is meant, and
bump ``ENGINE_VERSION`` when the rules' behaviour changed.
"""

from __future__ import annotations

import json
from pathlib import Path

from huescues.agents import RandomAgent, play_game

OUT = Path(__file__).resolve().parents[1] / "tests" / "golden" / "random-4p-seed-2041.json"
SEED = 2041  # a game with six tie-breaker rounds (R25)
PLAYERS = 4


def make() -> dict[str, object]:
    """The golden game: its record, and its final scores and winners."""
    record, state = play_game([RandomAgent() for _ in range(PLAYERS)], seed=SEED)
    assert state.result is not None
    return {
        "record": record.to_dict(),
        "scores": list(state.scores),
        "winners": list(state.result.winners),
        "tiebreak_rounds": state.result.tiebreak_rounds,
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(make(), indent=1) + "\n")
    print(f"wrote {OUT}")
