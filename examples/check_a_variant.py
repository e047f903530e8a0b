"""Define a house-rules variant and check that the engine plays it correctly."""

from __future__ import annotations

import huescues as hc
from huescues.testing import check_games


def main() -> None:
    house = hc.Rules.standard(
        6,
        points_by_distance=(4, 2, 1),  # R15: 4 points for the target itself
        second_guess_order="same",  # R12: second guesses in the same order as the first
        banned_terms=(*hc.BASIC_COLOUR_TERMS, "teal", "navy", "beige"),  # R19: a stricter list
        max_tiebreak_rounds=3,  # R25
    )
    report = check_games(house, games=25, seed=11)
    print(f"house rules: {report}")
    try:
        hc.validate_clue("tealish", rules=house)
    except hc.IllegalClue as e:
        print(f"refused as expected: {e}")


if __name__ == "__main__":
    main()
