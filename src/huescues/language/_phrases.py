"""Two-word clues in a form people say (R11's second clue): an adjective before the name of a
thing (``deep forest``, ``pale sky``), a noun before a colour name (``ocean teal``), a degree
word only before an adjective; never a word beside its own form (``dark darkest``). A rule
about words, read from WordNet's word classes as the English pack ships them
(``scripts/make_word_classes.py``)."""

from __future__ import annotations

import functools
import gzip
from importlib import resources

from ._data import xkcd_names
from ._naming import name_key

__all__ = ["PHRASE_FAULTS", "phrase_fault", "survey_names"]

#: What :func:`phrase_fault` finds wrong with a two-word clue, in the order it looks.
PHRASE_FAULTS = (
    "a word beside its own form",
    "a degree word before a word that is no adjective",
    "a first word that is neither an adjective nor a noun before a colour name",
    "a last word that names no thing",
)
#: The classes of a word missing from the shipped file: a name of a thing (``pikachu``).
_NAME = "nt"
#: Endings stripped to find a word's stem (a word beside its own form: ``dark darkest``).
_ENDINGS = (
    ("iest", "y"),
    ("ier", "y"),
    ("ies", "y"),
    ("ness", ""),
    ("est", ""),
    ("ish", ""),
    ("er", ""),
    ("ly", ""),
    ("ed", ""),
    ("es", ""),
    ("s", ""),
    ("y", ""),
)


@functools.cache
def _classes() -> dict[str, str]:
    """Each English word's classes (``scripts/make_word_classes.py`` says which)."""
    raw = (
        resources.files("huescues")
        .joinpath("data", "languages", "en", "word_classes.tsv.gz")
        .read_bytes()
    )
    out: dict[str, str] = {}
    for line in gzip.decompress(raw).decode("ascii").splitlines():
        word, tags = line.split("\t")
        out[word] = tags
    return out


def word_classes(word: str) -> str:
    """An English word's classes, as ``scripts/make_word_classes.py`` writes them: ``n`` a noun,
    ``t`` a noun of a thing with a colour of its own, ``a`` an adjective, ``r`` an adverb, ``d``
    a degree word; ``-`` a common word of none; ``nt`` a word the file lacks (a name of a thing,
    ``pikachu``)."""
    return _classes().get(word, _NAME)


@functools.cache
def survey_names() -> frozenset[str]:
    """The names people gave colours in the XKCD survey (not the paint names of
    color-name-list, many of them made up: ``possessed eggplant``), as :func:`name_key` writes
    them."""
    return frozenset(name_key(n) for n in xkcd_names().names)


def _stem(word: str) -> str:
    """The word less one ending (``darkest``: ``dark``, ``reddish``: ``red``) and a final e."""
    for end, base in _ENDINGS:
        if word.endswith(end) and len(word) - len(end) + len(base) >= 3:
            word = word[: len(word) - len(end)] + base
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # a doubled consonant: reddish, sunny
            break
    return word.removesuffix("e") if len(word) > 3 else word


def phrase_fault(text: str) -> str | None:
    """What keeps a two-word English clue from being a phrase people say (one of
    :data:`PHRASE_FAULTS`), or ``None``: it is one (a name people gave a colour in the XKCD
    survey, an adjective before the name of a thing or a colour, a noun before a colour name,
    a degree word before an adjective), or it is not two words (a single word has no form to
    check).

    The words' classes are WordNet's (a name WordNet lacks, ``pikachu``, is a thing); the
    thing a clue names is what has a colour, so ``marine truth`` names none and ``very ink``
    puts a degree word before a noun."""
    words = name_key(text).split()
    if len(words) != 2:
        return None
    first, last = words
    if first == last or _stem(first) == _stem(last):
        return PHRASE_FAULTS[0]
    if name_key(text) in survey_names():
        return None
    classes = _classes()
    a, b = classes.get(first, _NAME), classes.get(last, _NAME)
    if "d" in a:
        return None if "a" in b else PHRASE_FAULTS[1]
    colour = last in survey_names()
    if "a" not in a:
        return None if "n" in a and colour else PHRASE_FAULTS[2]
    return None if "t" in b or colour else PHRASE_FAULTS[3]
