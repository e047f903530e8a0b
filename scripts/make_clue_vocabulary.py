"""Write src/huescues/data/clue_vocabulary.txt: the words the clue givers choose from.

Words people would give as colour clues, each with attested colour evidence:

1. Words people use to name colours and that are common English: every word of the XKCD and
   color-name-list names that appears in at least two names, is in the common-word list of the
   clue rules (SCOWL sizes 10-35), has three letters or more; the 5,000 most used.
2. The single words the project's authors rated (``knowledge/ratings``, common English words,
   and names from culture), after those; but not the words of ``wordnet-more.txt``, WordNet's
   remainder, nor of ``culture-more.txt``, more names from culture, rated so that the guessers
   read what they meet, not for the givers to say (many are words no one gives as a clue:
   ``circuitry``, ``mandible``; a name the givers say is one more name people may read apart).

Of these, the words that pass the standard clue rules (R18-R22), are not on the short list below
of words unfit for a family game, and whose evidence in the shipped knowledge model
(``ObjectColourModel.default().evidence``) is at least ``GIVER_EVIDENCE``: a word known only
from its vector, or from a few paint names that disagree ("boyfriend", "fiasco"), is left out.
``--check`` exits non-zero if the shipped file differs.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from huescues.engine import IllegalClue, common_words, validate_clue
from huescues.language import GIVER_EVIDENCE, ObjectColourModel, colornames, words_of, xkcd_names

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "huescues" / "data" / "clue_vocabulary.txt"
RATINGS = ROOT / "knowledge" / "ratings"
#: Rated to be read, not said (``knowledge/vocabulary``: make_rating_vocabulary.py ``--more``'s
#: list, and the names of culture-more.txt).
READ_ONLY = tuple(
    ROOT / "knowledge" / "vocabulary" / f for f in ("wordnet-more.txt", "culture-more.txt")
)
SIZE = 5000
#: The least ``shared`` rating (0-5) of a word added from the authors' ratings: 3, "clear
#: typical colours".
MIN_SHARED = 3
#: Words a clue giver in a family game should not say, whatever their colour (sexual, violent,
#: morbid or political words; "blood", "wine" or "nude" name colours and stay).
UNFIT = frozenset(
    # sexual or violent words from paint names
    ("babe", "climax", "kinky", "lust", "lusty", "murder", "naked", "naughty", "opium",
     "seduction", "sensual",
     # and from the authors' ratings: death, violence, crime, sex, bodily fluids, drugs,
     # disease, and politics
     "abuse", "aggression", "aids", "artillery", "asylum", "attack", "attacking", "bombing",
     "brutality", "burial", "cancer", "cocaine", "coffin", "combat", "communism", "communist",
     "corpse", "crap", "deathbed", "demise", "democrat", "democrats", "destruction", "diarrhea",
     "die", "droppings", "dung", "execution", "famine", "feces", "fetish", "fetus", "funeral",
     "genocide", "grave", "grenade", "guerrilla", "gunpowder", "hatred", "hepatitis", "heroin",
     "holocaust", "infection", "injured", "injury", "intestine", "jail", "kidnapping", "kill",
     "killer", "killing", "lethal", "manure", "marijuana", "massacre", "missile", "mortality",
     "murdered", "orphanage", "pistol", "placenta", "plague", "pregnancy", "prison",
     "prisoner", "pus", "rape", "rebellion", "republican", "republicans", "rifle", "rioting",
     "sadism", "semen", "sensuality", "sewage", "sex", "shotgun", "shrapnel", "slum", "socialist",
     "sperm", "stab", "suicide", "terror", "terrorism", "terrorist", "torture", "tortured",
     "toxin", "trump", "urine", "uterus", "vagina", "violence", "violent", "weapon",
     "weaponry", "womb", "wound", "wreckage")
)  # fmt: skip


def make() -> str:
    """The vocabulary, one word per line, most used first (ties alphabetical)."""
    counts: Counter[str] = Counter()
    for source in (xkcd_names(), colornames()):
        for name in source.names:
            counts.update(set(words_of(name)))
    common = common_words()
    named = []
    for word, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if n < 2 or len(word) < 3 or not word.isalpha() or word not in common:
            continue
        named.append(word)
        if len(named) == SIZE:
            break
    read_only = {
        w
        for path in READ_ONLY
        for w in path.read_text(encoding="utf-8").splitlines()
        if w and not w.startswith("#")
    }
    rated = []
    for path in sorted(RATINGS.glob("authors-*.tsv")):
        if path.stem.endswith("-es"):
            continue  # Spanish words rated as Spanish: the Spanish pack's
        culture = "culture" in path.stem
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            word, *values = line.split("\t")
            # A rated word with clear typical colours (shared 3 or more, knowledge/PROTOCOL.md).
            if int(values[-1]) < MIN_SHARED or len(word) < 3 or not word.isalpha():
                continue
            if word in read_only:
                continue
            if culture or word in common:
                rated.append(word)
    knowledge = ObjectColourModel.default()
    chosen = []
    for word in dict.fromkeys(named + rated):
        if word in UNFIT or knowledge.evidence(word) < GIVER_EVIDENCE:
            continue
        try:
            validate_clue(word)
        except IllegalClue:
            continue
        chosen.append(word)
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
