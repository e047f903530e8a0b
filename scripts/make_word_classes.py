"""Write the English pack's word classes from WordNet 3.0: which words are nouns of things, which
adjectives, which degree adverbs; what the rule of two-word second clues people say reads
(``huescues.language.phrase_fault``, R11).

The output is ``src/huescues/data/languages/en/word_classes.tsv.gz``: one line a word, the word
and its classes, for every single lowercase word WordNet has that is in the pack's common words
(``common_words("en")``), the clue vocabulary or the naming data's modifiers. The classes:

- ``n``: a noun; ``t``: a noun of a thing with a colour of its own (a sense in one of WordNet's
  lexicographer files of things: animals, artifacts, the body, food, natural objects, places,
  natural phenomena, plants, substances, times of day such as ``sunset``); ``truth`` or ``anger``
  are nouns but no thing;
- ``a``: an adjective (any sense);
- ``r``: an adverb; ``d``: a degree word, an adverb first of all (its adverb senses are tagged in
  WordNet's corpus at least as often as any other part of speech's: ``very``, ``really``; not
  ``bright`` or ``deep``, adjectives first);
- an inflected form has its base's classes (``roses`` a noun's, ``darkest`` an adjective's; a
  verb's participle is an adjective, ``whipped``);
  ``-``: a common word of none (a verb, ``ran``); a word neither in WordNet nor common is a name
  of a thing (``pikachu``: ``nt``), and so is a word not in the file.

Install WordNet first (Debian or Ubuntu, as root)::

    apt-get update && apt-get install -y wordnet-base

then run, from the repository root, ``python scripts/make_word_classes.py`` (``--check`` exits
non-zero if the shipped file differs). The output is byte-for-byte reproducible (sorted words,
gzip without a time stamp). Nothing is read from WordNet at run time.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

from huescues.engine import common_words
from huescues.language import NamingModel

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "huescues" / "data" / "languages" / "en" / "word_classes.tsv.gz"
VOCABULARY = ROOT / "src" / "huescues" / "data" / "clue_vocabulary.txt"
WORDNET = Path("/usr/share/wordnet")
#: WordNet's lexicographer files of nouns whose senses are things with a colour of their own
#: (WordNet 3.0's lexnames: 05 animal, 06 artifact, 08 body, 13 food, 15 location, 17 object,
#: 19 phenomenon, 20 plant, 27 substance, 28 time).
THING_FILES = frozenset({5, 6, 8, 13, 15, 17, 19, 20, 27, 28})


def read_index(path: Path) -> dict[str, tuple[int, list[int]]]:
    """Each lemma of a WordNet index file: its tagged sense count and its synsets' offsets."""
    out: dict[str, tuple[int, list[int]]] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue  # the licence header
        f = line.split()
        synsets, pointers = int(f[2]), int(f[3])
        tagged = int(f[5 + pointers])
        out[f[0]] = (tagged, [int(x) for x in f[6 + pointers : 6 + pointers + synsets]])
    return out


def lexfiles(path: Path) -> dict[int, int]:
    """Each synset offset of a WordNet data file: its lexicographer file number."""
    out: dict[int, int] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        f = line.split(maxsplit=2)
        out[int(f[0])] = int(f[1])
    return out


#: WordNet's rules of detachment (morphy's): an inflected form's ending and its base's.
NOUN_ENDINGS = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
                ("shes", "sh"), ("men", "man"), ("ies", "y"))  # fmt: skip
ADJ_ENDINGS = (("er", ""), ("est", ""), ("er", "e"), ("est", "e"))
#: A verb's participles, which stand before nouns as adjectives do (``whipped``, ``shimmering``).
PARTICIPLE_ENDINGS = (("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))


def read_exceptions(path: Path) -> dict[str, list[str]]:
    """A WordNet exception file: each irregular form's bases (``mice``: ``mouse``)."""
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        form, *bases = line.split()
        out.setdefault(form, []).extend(bases)
    return out


def lemma_classes(word: str, index: dict[str, dict[str, tuple[int, list[int]]]],
                  noun_files: dict[int, int]) -> str:  # fmt: skip
    """The classes of a lemma of WordNet (see the module's doc); "" when it has none."""
    tags = ""
    if word in index["noun"]:
        tags += "n"
        if any(noun_files[o] in THING_FILES for o in index["noun"][word][1]):
            tags += "t"
    if word in index["adj"]:
        tags += "a"
    if word in index["adv"]:
        tags += "r"
        adverb = index["adv"][word][0]
        others = [index[p][word][0] for p in ("noun", "verb", "adj") if word in index[p]]
        if all(adverb >= n for n in others):
            tags += "d"
    return tags


def classes(words: set[str], common: frozenset[str], wordnet: Path) -> dict[str, str]:
    """The classes of each word (see the module's doc): a lemma's own; an inflected form's
    from its base (a plural a noun's, ``roses``: ``nt``; a comparative or superlative an
    adjective's, ``darkest``: ``a``; a verb's participle an adjective's, ``whipped``: ``a``);
    ``-`` for a common word of none of these classes (a verb's form, ``ran``); ``nt`` for a
    word that is neither in WordNet nor common (a name: ``pikachu``)."""
    index = {pos: read_index(wordnet / f"index.{pos}") for pos in ("noun", "verb", "adj", "adv")}
    noun_files = lexfiles(wordnet / "data.noun")
    noun_exc = read_exceptions(wordnet / "noun.exc")
    adj_exc = read_exceptions(wordnet / "adj.exc")
    out: dict[str, str] = {}
    for word in sorted(words):
        tags = lemma_classes(word, index, noun_files)
        if not tags:
            nouns = noun_exc.get(word, []) + [
                word[: len(word) - len(end)] + base
                for end, base in NOUN_ENDINGS
                if word.endswith(end)
            ]
            if any(b in index["noun"] for b in nouns):
                tags = "".join(
                    sorted(
                        {c for b in nouns for c in lemma_classes(b, index, noun_files)}
                        & {"n", "t"},
                        key="nt".index,
                    )
                )
            adjectives = adj_exc.get(word, []) + [
                word[: len(word) - len(end)] + base
                for end, base in ADJ_ENDINGS
                if word.endswith(end)
            ]
            participles = [
                word[: len(word) - len(end)] + base
                for end, base in PARTICIPLE_ENDINGS
                if word.endswith(end)
            ]
            # a doubled consonant before the ending: whipped
            participles += [b[:-1] for b in participles if len(b) > 3 and b[-1] == b[-2]]
            if any(b in index["adj"] for b in adjectives) or any(
                b in index["verb"] for b in participles
            ):
                tags += "a"
        out[word] = tags or ("-" if word in common else "nt")
    return out


def make(wordnet: Path = WORDNET) -> bytes:
    """The gzipped file's bytes."""
    common = common_words("en")
    words = set(common)
    words |= set(VOCABULARY.read_text(encoding="utf-8").split())
    words |= set(NamingModel.default().modifiers())
    words = {w for w in words if w.isascii() and w.isalpha() and w.islower()}
    table = classes(words, common, wordnet)
    text = "".join(f"{w}\t{t}\n" for w, t in table.items())
    return gzip.compress(text.encode("ascii"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wordnet", type=Path, default=WORDNET)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    data = make(args.wordnet)
    if args.check:
        if not OUT.exists() or OUT.read_bytes() != data:
            print(f"{OUT} differs from what WordNet gives", file=sys.stderr)
            return 1
        return 0
    OUT.write_bytes(data)
    print(f"{len(gzip.decompress(data).splitlines())} words written to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
