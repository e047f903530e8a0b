"""Rebuild the English pack's common words (R19) from Debian's SCOWL package.

The output is ``src/huescues/data/languages/en/common_words.txt.gz``.

The clue checker refuses a word that starts with a banned colour term followed by a *common
English word* of three letters or more (``bluebird``, ``redwood``). "Common" means: in SCOWL's
size 10, 20 or 35 lists (English words shared by every spelling, plus the American and the British
ones), lowercase, letters a-z only, three letters or more.

Why 35: up to that size SCOWL holds the most frequent words and those found in at least 11 of 12
dictionaries (its notice says so), and it gets every docs/rules.md example right (it has
``act``, ``wood``, ``bird``, ``berry``, ``berries``, ``house``, ``hound`` and lacks ``uce``,
``ery``, ``eem``, ``dit``). Sizes 50 and 60 would only add refusals of rare compounds
(``redshank``); 70 brings in fragments such as ``dit``; 80 such as ``emption``, ``olent`` and
``oes``, which would refuse ``redemption``, ``redolent`` and ``redoes``.

Install the word lists first (Debian or Ubuntu, as root)::

    apt-get update && apt-get install -y scowl

then run, from the repository root::

    python scripts/make_word_list.py

It also copies SCOWL's copyright and licence notice to the pack's ``SCOWL-LICENSE.txt``.
The output is byte-for-byte reproducible (sorted words, gzip without a time stamp).
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

SCOWL_DIR = Path("/usr/share/dict/scowl")
COPYRIGHT = Path("/usr/share/doc/scowl/copyright")
SIZES = (10, 20, 35)
VARIANTS = ("english", "american", "british")
MIN_LENGTH = 3
#: The word list must include these and exclude the fragments below (docs/rules.md R19 examples).
MUST_HAVE = ("act", "wood", "bird", "berry", "berries", "house", "hound", "one")
MUST_NOT_HAVE = ("uce", "dit", "eem", "ery")

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "huescues" / "data" / "languages" / "en"


def read_words(scowl_dir: Path, sizes: tuple[int, ...]) -> list[str]:
    """The lowercase a-z words of 3+ letters in SCOWL's lists of these sizes, sorted."""
    words: set[str] = set()
    for variant in VARIANTS:
        for size in sizes:
            path = scowl_dir / f"{variant}-words.{size}"
            # SCOWL's lists are Latin-1 in some releases, UTF-8 in others; both read as text here.
            raw = path.read_bytes()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            for line in text.splitlines():
                word = line.strip()
                if len(word) >= MIN_LENGTH and word.isascii() and word.isalpha() and word.islower():
                    words.add(word)
    return sorted(words)


def licence_text(copyright_file: Path) -> str:
    """The SCOWL part of Debian's copyright file (everything from the SCOWL paragraph on)."""
    text = copyright_file.read_text(encoding="utf-8")
    start = text.find("SCOWL (Spell Checker Oriented Word Lists)")
    if start < 0:
        raise SystemExit(f"no SCOWL notice found in {copyright_file}")
    header = (
        "The file common_words.txt.gz in this directory is derived from SCOWL (Spell Checker\n"
        "Oriented Word Lists), sizes "
        + ", ".join(map(str, SIZES))
        + " of the "
        + ", ".join(VARIANTS)
        + " word lists,\nas packaged by Debian (package 'scowl'), "
        "rebuilt by scripts/make_word_list.py.\n"
        "Its copyright and licence notice follows, as given in Debian's copyright file.\n\n"
    )
    return header + text[start:].rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scowl-dir", type=Path, default=SCOWL_DIR)
    parser.add_argument("--copyright", type=Path, default=COPYRIGHT)
    parser.add_argument("--out-dir", type=Path, default=DATA)
    args = parser.parse_args(argv)

    words = read_words(args.scowl_dir, SIZES)
    present = set(words)
    missing = [w for w in MUST_HAVE if w not in present]
    unwanted = [w for w in MUST_NOT_HAVE if w in present]
    if missing or unwanted:
        print(f"word list check failed: missing {missing}, unwanted {unwanted}", file=sys.stderr)
        return 1

    out_dir: Path = args.out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    payload = ("\n".join(words) + "\n").encode("ascii")
    # mtime=0 and no file name keep the archive reproducible.
    with (
        (out_dir / "common_words.txt.gz").open("wb") as raw_out,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw_out, compresslevel=9, mtime=0) as gz,
    ):
        gz.write(payload)
    (out_dir / "SCOWL-LICENSE.txt").write_text(licence_text(args.copyright), encoding="utf-8")
    print(f"{len(words)} words written to {out_dir / 'common_words.txt.gz'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
