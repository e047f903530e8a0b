"""The second rater's sample (issue 34): words already rated once by the authors, drawn with a
fixed seed, written as a bare word list for a rater who sees only it and knowledge/PROTOCOL.md.

``python scripts/draw_second_rating.py`` writes ``knowledge/work/second-rater.words`` (300 words
from ``knowledge/ratings/authors-*.tsv``, in a shuffled order, so that a list's neighbours do not
hint at its topic). The second rater writes ``knowledge/ratings/second-rater.tsv`` by the
protocol, blind to the first ratings; ``scripts/compare_raters.py`` reports the agreement. The
words are drawn from the rating files there were then (``FIRST_FILES``), so the draw stays the
same as files are added.

``--remainder`` draws 200 of the words of WordNet's remainder (``knowledge/vocabulary/
wordnet-more.txt``, rated later) the same way, into ``knowledge/work/second-rater-remainder.words``,
for ``knowledge/ratings/second-rater-remainder.tsv``; ``--culture`` draws 150 of the more names
from culture (``culture-more.txt``) into ``knowledge/work/second-rater-culture.words``, for
``knowledge/ratings/second-rater-culture.tsv``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WORDS = ROOT / "knowledge" / "work" / "second-rater.words"
REMAINDER_WORDS = ROOT / "knowledge" / "work" / "second-rater-remainder.words"
REMAINDER = ROOT / "knowledge" / "vocabulary" / "wordnet-more.txt"
CULTURE_WORDS = ROOT / "knowledge" / "work" / "second-rater-culture.words"
CULTURE = ROOT / "knowledge" / "vocabulary" / "culture-more.txt"
SAMPLE = 300
REMAINDER_SAMPLE = 200
CULTURE_SAMPLE = 150
SEED = 34
#: The English rating files when the first sample was drawn (authors-extra-en.tsv came after).
FIRST_FILES = (*(f"authors-batch-{n}.tsv" for n in range(1, 7)), "authors-culture.tsv")


def listed(path: Path = REMAINDER) -> list[str]:
    """A list's words, sorted: WordNet's remainder (``wordnet-more.txt``) or the more names
    from culture (``culture-more.txt``), each rated after the first draw."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return sorted({w for w in lines if w and not w.startswith("#")})


def rated_words() -> list[str]:
    """The first draw's population: the words of the rating files there were then."""
    words: set[str] = set()
    for name in FIRST_FILES:
        lines = (ROOT / "knowledge" / "ratings" / name).read_text(encoding="utf-8").splitlines()
        words |= {line.split("\t", 1)[0] for line in lines[1:] if line.strip()}
    return sorted(words)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--remainder", action="store_true", help="draw from WordNet's remainder")
    which.add_argument("--culture", action="store_true", help="draw from culture-more.txt")
    args = ap.parse_args()
    if args.remainder:
        words, size, out = listed(REMAINDER), REMAINDER_SAMPLE, REMAINDER_WORDS
    elif args.culture:
        words, size, out = listed(CULTURE), CULTURE_SAMPLE, CULTURE_WORDS
    else:
        words, size, out = rated_words(), SAMPLE, WORDS
    rng = np.random.default_rng(SEED)
    chosen = [words[int(i)] for i in rng.choice(len(words), size, replace=False)]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(chosen) + "\n", encoding="utf-8")
    print(f"wrote {len(chosen)} of {len(words)} rated words to {out}")


if __name__ == "__main__":
    main()
