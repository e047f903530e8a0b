"""Write src/huescues/data/languages/es/clue_vocabulary.tsv: the Spanish clue givers' vocabulary.

It is the English giver vocabulary (``data/clue_vocabulary.txt``) carried to Spanish by
inverting the shipped Spanish-to-English table (``data/languages/es/spanish_english.tsv.gz``, the
one the Spanish reading uses): for each English word, the Spanish words the table translates to
it with confidence at least :data:`MIN_CONFIDENCE`, spelt as Debian's ``wspanish`` spells them
(with accents: the table holds folded words; a glossary's word as the glossary writes it), kept
when

- the Spanish reading (``default_model("es").translate``) of the spelt word gives that English
  word back (so plural or feminine look-ups do not lead elsewhere), or reads it by the pack's
  own knowledge (its Spanish colour words, read as Spanish);
- it is a common Spanish word: Zipf frequency at least :data:`MIN_ZIPF` in ``wordfreq``
  (the table's encoder matches many rare words to common English ones: ``sorriego`` for
  ``smile``; a common word is the one people say and the match more often right);
- it passes the Spanish clue rules as a first clue and as a second (R18-R22,
  ``validate_clue(language="es")``).

Of those, the most frequent is the English word's Spanish clue; an English word without one is
left out. The file is in the English vocabulary's order (most used first), one word a line, with
the English word, the table's confidence and the Zipf frequency beside it for readers.

Build-time tools: ``pip install wordfreq`` (Apache-2.0; its data CC BY-SA 4.0, only used to
choose words, not shipped) and ``apt-get install wspanish`` (public domain). Run from the source
tree::

    PYTHONPATH=src python scripts/make_clue_vocabulary_es.py

A new vocabulary needs its words in ``data/languages/es/grammar.tsv`` too (each word's kind and
gender, for the two-word clues; a test checks that the two are in step).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from build_spanish import glossary_entries  # scripts/, beside this one
from wordfreq import zipf_frequency

from huescues.agents import clue_vocabulary
from huescues.engine import IllegalClue, validate_clue
from huescues.language import default_model
from huescues.language._translate import fold, spanish_table

WORD_LIST = Path("/usr/share/dict/spanish")
OUT = Path(__file__).resolve().parents[1] / "src/huescues/data/languages/es/clue_vocabulary.tsv"
#: The least confidence of the table's translation (its median is 0.83, the glossary's 0.95; at 0.8
#: many wrong matches came in: pluma for plum, tramo for sunset).
MIN_CONFIDENCE = 0.85
#: The least Zipf frequency in Spanish (3: about once in a million words).
MIN_ZIPF = 3.0

#: Spanish words a clue giver in a family game should not say, though the English word the
#: table reads them as is fit (``morón`` is read as "morn", and is an insult; ``vomitar`` was
#: given at a Spanish table): insults and bodily words, as the English list leaves out its own.
UNFIT_ES = frozenset(
    ("caca", "estúpido", "idiota", "imbécil", "mierda", "morón", "tonto", "vomitar", "vómito")
)


#: Whether each word of the vocabulary means the English word it stands for, judged by a helper
#: session from general knowledge of Spanish (``mendigo`` "beggar" does not mean "indigo"): only
#: a pair judged ``yes`` is chosen, so a new pair is judged (added to the file) before it ships.
CHECK = Path(__file__).resolve().parents[1] / "knowledge/spanish/vocabulary-check.tsv"


def judged() -> dict[tuple[str, str], bool]:
    """``knowledge/spanish/vocabulary-check.tsv``: (Spanish, English) -> whether it means it."""
    rows = [
        line.split("\t")
        for line in CHECK.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    return {(s, e): means == "yes" for s, e, means in rows[1:]}


def legal(word: str) -> bool:
    try:
        validate_clue(word, language="es")
        validate_clue(word, language="es", second=True)
    except IllegalClue:
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    spellings: dict[str, list[str]] = defaultdict(list)
    for line in WORD_LIST.read_text(encoding="utf-8").split():
        if line == line.lower():
            spellings[fold(line)].append(line)
    # A glossary's word is spelt as its authors wrote it: "té" (tea), not "te" (you).
    for folded, (written, _) in glossary_entries().items():
        spellings[folded] = [written]
    reader = default_model("es")
    table = spanish_table()
    by_english: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for spanish, (english, confidence) in table.items():
        if confidence >= MIN_CONFIDENCE and " " not in spanish:
            by_english[english].append((spanish, confidence))
    means = judged()
    rows: list[tuple[str, str, float, float]] = []
    used: set[str] = set()
    for english in clue_vocabulary():
        best: tuple[float, str, float] | None = None
        for folded, confidence in by_english.get(english, ()):
            for word in spellings.get(folded, [folded]):
                zipf = zipf_frequency(word, "es")
                if zipf < MIN_ZIPF or word in used or word in UNFIT_ES:
                    continue
                if not means.get((word, english), False):  # judged no, or not judged yet
                    continue
                read = reader.translate(word)
                # The pack's own knowledge reads its Spanish colour words as Spanish (no
                # translation): those stand for their English word as the table says.
                if (read.text != english and not read.own) or not legal(word):
                    continue
                if best is None or (zipf, word) > (best[0], best[1]):
                    best = (zipf, word, confidence)
        if best is not None:
            used.add(best[1])
            rows.append((best[1], english, best[2], best[0]))
    lines = ["spanish\tenglish\tconfidence\tzipf"]
    lines += [f"{s}\t{e}\t{c:.3f}\t{z:.2f}" for s, e, c, z in rows]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{args.out.name}: {len(rows)} words of {len(clue_vocabulary())} English words")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
