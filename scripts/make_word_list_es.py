"""Rebuild the Spanish pack's common words (R19 (c)) from Debian's ``wspanish`` word list.

The clue checker refuses a word that starts with a banned colour term followed by a common word
(``azulgrana``, ``verdemontaña``). In Spanish "common" means: in the word list of Debian's
``wspanish`` package (public domain), lowercase, four letters or more, written as the checker
reads words: accents and the tilde dropped (``montaña`` is ``montana``), letters a-z only.

Why four, where English has three: Spanish plurals and genders end ordinary words in short words
(``moradores`` is ``morado`` + ``res``, ``rosales`` is ``rosa`` + ``les``, ``naranjales``,
``cafetos``), so the pack's ``min_rest`` is 4 and shorter words are not shipped. A few rare words
of four letters or more are left out too (:data:`LEFT_OUT`): each is the tail of an ordinary word
after a colour term, and would refuse it (``rosaleda`` is ``rosa`` + ``leda``). The docs list the
misses that remain (``verdemar`` passes).

Install the word list first (Debian or Ubuntu, as root)::

    apt-get update && apt-get install -y wspanish

then run, from the repository root::

    python scripts/make_word_list_es.py

It also copies the package's copyright notice to the pack's ``WSPANISH-LICENSE.txt``. The output
is byte-for-byte reproducible (sorted words, gzip without a time stamp).
"""

from __future__ import annotations

import argparse
import gzip
import sys
import unicodedata
from pathlib import Path

WORD_LIST = Path("/usr/share/dict/spanish")
COPYRIGHT = Path("/usr/share/doc/wspanish/copyright")
MIN_LENGTH = 4  # the pack's min_rest
#: Rare words whose only effect would be to refuse an ordinary word after a colour term.
LEFT_OUT = ("leda", "lera", "rina", "rona", "tero")
#: The list must include these (the compounds of docs/languages.md) and exclude the fragments.
MUST_HAVE = ("grana", "cielo", "agua", "mesa", "casa", "montana")
MUST_NOT_HAVE = ("izo", "uzco", "ento", *LEFT_OUT)

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "src" / "huescues" / "data" / "languages" / "es"


def fold(word: str) -> str:
    """``word`` as the Spanish pack reads it: lowercase, accents and tildes dropped."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def read_words(path: Path) -> list[str]:
    """The folded a-z words of 4+ letters in the list at ``path`` (names left out), sorted."""
    words: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.strip()
        if not word or not word.islower():  # proper names start with a capital
            continue
        folded = fold(word)
        if len(folded) >= MIN_LENGTH and folded.isascii() and folded.isalpha():
            words.add(folded)
    return sorted(words - set(LEFT_OUT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--word-list", type=Path, default=WORD_LIST)
    parser.add_argument("--out-dir", type=Path, default=PACK)
    args = parser.parse_args(argv)
    if not args.word_list.is_file():
        print(f"{args.word_list} not found: apt-get install wspanish", file=sys.stderr)
        return 1
    words = read_words(args.word_list)
    have = set(words)
    missing = [w for w in MUST_HAVE if w not in have]
    unwanted = [w for w in MUST_NOT_HAVE if w in have]
    if missing or unwanted:
        print(f"word list check failed: missing {missing}, unwanted {unwanted}", file=sys.stderr)
        return 1
    out = args.out_dir / "common_words.txt.gz"
    data = ("\n".join(words) + "\n").encode("ascii")
    out.write_bytes(gzip.compress(data, mtime=0))
    notice = (
        "The file common_words.txt.gz in this directory is derived from the word list of\n"
        "Debian's wspanish package (folded to a-z, rare fragments left out) by\n"
        "scripts/make_word_list_es.py. The package's copyright file says of the list:\n"
        "'Word list license: Public Domain.' It follows in full.\n\n"
    )
    if COPYRIGHT.is_file():
        notice += COPYRIGHT.read_text(encoding="utf-8")
    (args.out_dir / "WSPANISH-LICENSE.txt").write_text(notice, encoding="utf-8")
    print(f"{len(words)} words written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
