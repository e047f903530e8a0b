"""Print the clues the default clue giver gives in self-play, as a Markdown table, for people to
judge (docs/knowledge.md shows 200 of them).

Games of four ``default_agent()`` players on fresh seeds (``--seed``, one game a seed, the next
seed until ``--clues`` clues are given); for each clue: the seed, the round, first or second
clue, the target square's colour (sRGB hex) and the clue. Run:
``python scripts/sample_clues.py --clues 200 --seed 18000``.
"""

from __future__ import annotations

import argparse

from huescues.agents import default_agent, play_game
from huescues.engine import Board, ChooseTarget, GiveClue, Pass, new_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clues", type=int, default=200)
    ap.add_argument("--seed", type=int, default=18000)
    args = ap.parse_args()
    board = Board.standard()
    rows: list[str] = []
    seed = args.seed
    while len(rows) < args.clues:
        record, _ = play_game([default_agent()] * 4, seed=seed)
        # Walk the game again to know each clue's target.
        s = new_game(4, seed=seed)
        target = None
        round_no = 0
        nth = 0
        for action in record.actions:
            if isinstance(action, ChooseTarget):
                round_no += 1
                nth = 0
                s = s.apply(action)
                target = s.target
                continue
            if isinstance(action, GiveClue | Pass):
                nth += 1
                if isinstance(action, GiveClue) and target is not None:
                    r, g, b = (round(255 * float(v)) for v in board.srgb[target.row, target.col])
                    which = "first" if nth == 1 else "second"
                    rows.append(
                        f"| {seed} | {round_no} | {which} | {target} "
                        f"`#{r:02x}{g:02x}{b:02x}` | {action.text} |"
                    )
            s = s.apply(action)
        seed += 1
    print("| seed | round | clue | target | text |")
    print("|---:|---:|---|---|---|")
    print("\n".join(rows[: args.clues]))


if __name__ == "__main__":
    main()
