"""The second rater's sample (issue 34): words already rated once by the authors, drawn with a
fixed seed, written as a bare word list for a rater who sees only it and knowledge/PROTOCOL.md.

``python scripts/draw_second_rating.py`` writes ``knowledge/work/second-rater.words`` (300 words
from ``knowledge/ratings/authors-*.tsv``, in a shuffled order, so that a list's neighbours do not
hint at its topic). The second rater writes ``knowledge/ratings/second-rater.tsv`` by the
protocol, blind to the first ratings; ``scripts/compare_raters.py`` reports the agreement.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WORDS = ROOT / "knowledge" / "work" / "second-rater.words"
SAMPLE = 300
SEED = 34


def rated_words() -> list[str]:
    words: set[str] = set()
    for path in sorted((ROOT / "knowledge" / "ratings").glob("authors-*.tsv")):
        if path.stem.endswith("-es"):
            continue  # Spanish words rated as Spanish: the Spanish pack's
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            if line.strip():
                words.add(line.split("\t", 1)[0])
    return sorted(words)


def main() -> None:
    words = rated_words()
    rng = np.random.default_rng(SEED)
    chosen = [words[int(i)] for i in rng.choice(len(words), SAMPLE, replace=False)]
    WORDS.parent.mkdir(parents=True, exist_ok=True)
    WORDS.write_text("\n".join(chosen) + "\n", encoding="utf-8")
    print(f"wrote {len(chosen)} of {len(words)} rated words to {WORDS}")


if __name__ == "__main__":
    main()
