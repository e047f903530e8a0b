"""Write the standard deck of 100 cue cards (R3) to src/huescues/data/standard_deck.json.

The deck is fixed data, the same in every game; this script is how it was made:
``python scripts/make_standard_deck.py`` (``--check`` exits non-zero if the shipped file differs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from huescues.engine import STANDARD_DECK_ID, Deck

OUT = Path(__file__).resolve().parents[1] / "src" / "huescues" / "data" / "standard_deck.json"


def make() -> str:
    """The standard deck's JSON: a generated deck for the 16 x 30 board, renamed."""
    deck = Deck.generate(16, 30, n_cards=100, seed=2026)
    lines = [json.dumps([str(c) for c in card]) for card in deck.cards]
    return f'{{"id": "{STANDARD_DECK_ID}", "cards": [\n' + ",\n".join(lines) + "\n]}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = parser.parse_args()
    text = make()
    if args.check:
        same = OUT.read_text() == text
        print("standard deck is up to date" if same else "standard deck differs", file=sys.stderr)
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
