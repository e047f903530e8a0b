"""Write src/huescues/data/clue_vocabulary.txt: the words the clue givers choose from.

Words people use to name colours and that are common English: every word of the XKCD and
color-name-list names that appears in at least two names, is in the common-word list of the clue
rules (SCOWL sizes 10-35), has three letters or more and passes the standard clue rules
(R18-R22) and is not on the short list below of words unfit for a family game; the 5,000 most
used. ``--check`` exits non-zero if the shipped file differs.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from huescues.engine import IllegalClue, common_words, validate_clue
from huescues.language import colornames, words_of, xkcd_names

OUT = Path(__file__).resolve().parents[1] / "src" / "huescues" / "data" / "clue_vocabulary.txt"
SIZE = 5000
#: Words from paint names that a clue giver in a family game should not say (sexual or violent
#: words with no colour of their own; "blood", "wine" or "nude" name colours and stay).
UNFIT = frozenset(
    ("babe", "climax", "kinky", "lust", "lusty", "murder", "naked", "naughty", "opium",
     "seduction", "sensual")
)  # fmt: skip


def make() -> str:
    """The vocabulary, one word per line, most used first (ties alphabetical)."""
    counts: Counter[str] = Counter()
    for source in (xkcd_names(), colornames()):
        for name in source.names:
            counts.update(set(words_of(name)))
    common = common_words()
    chosen = []
    for word, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if n < 2 or len(word) < 3 or not word.isalpha() or word not in common or word in UNFIT:
            continue
        try:
            validate_clue(word)
        except IllegalClue:
            continue
        chosen.append(word)
        if len(chosen) == SIZE:
            break
    return "\n".join(chosen) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    text = make()
    if parser.parse_args().check:
        same = OUT.read_text() == text
        print(
            "clue vocabulary is up to date" if same else "clue vocabulary differs", file=sys.stderr
        )
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT} ({text.count(chr(10))} words)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
