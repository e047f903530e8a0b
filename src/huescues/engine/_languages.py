"""Language packs: the words the clue rules need in one language (R19-R21), read as data.

A pack is a folder ``huescues/data/languages/<code>/`` holding ``pack.json`` (the basic colour
terms, how their forms are spelt, the position, number and relative words) and the common-word
list of R19 (c). The engine reads packs and knows no language itself; docs/languages.md says how
to add one.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

__all__ = [
    "DEFAULT_LANGUAGE",
    "Compound",
    "LanguagePack",
    "Respelling",
    "available_languages",
    "language_pack",
]

#: The language of a game whose rules do not say (records made before packs are English).
DEFAULT_LANGUAGE = "en"

_PACK_FILE = "pack.json"


@dataclass(frozen=True, slots=True)
class Respelling:
    """R19 (b): a term that matches ``match`` (a regular expression) is respelt by putting
    ``stem`` (a replacement, ``\\1`` allowed) in place of the match, then takes each ending."""

    match: re.Pattern[str]
    stem: str
    endings: tuple[str, ...]

    def forms(self, term: str) -> tuple[str, ...]:
        """The forms of ``term`` this respelling makes (none when it does not match)."""
        if self.match.search(term) is None:
            return ()
        stem = self.match.sub(self.stem, term, count=1)
        return tuple(stem + e for e in self.endings)


@dataclass(frozen=True, slots=True)
class Compound:
    """R19 (d): a compound that ends in a colour term: a stem of at least ``min_stem`` letters,
    the ``joiner``, then any refused form of a term, its first letter doubled when it is one of
    ``doubled`` (Spanish: ``pel`` + ``i`` + ``rrojo``, ``oj`` + ``i`` + ``verde``)."""

    joiner: str
    min_stem: int
    doubled: frozenset[str]

    def colour_parts(self, word: str) -> tuple[tuple[str, str], ...]:
        """Every way to read ``word`` (folded) as stem + joiner + rest, as ``(stem, rest)``
        with the rest spelt as the term's form is spelt alone (``rrojo`` is ``rojo``). A rest
        that starts with a letter of ``doubled`` written once is not such a compound
        (``mentirosa`` is no ``rosa``)."""
        out: list[tuple[str, str]] = []
        j = len(self.joiner)
        start = word.find(self.joiner, self.min_stem)
        while start != -1:
            stem, rest = word[:start], word[start + j :]
            if stem.isalpha() and len(rest) > 1:
                if rest[0] in self.doubled:
                    if rest[1] == rest[0]:
                        out.append((stem, rest[1:]))
                else:
                    out.append((stem, rest))
            start = word.find(self.joiner, start + 1)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class LanguagePack:
    """What the clue rules need in one language (R19-R21). Words are lowercase; in a pack that
    folds accents they are compared with accents and tildes dropped (``púrpura`` = ``purpura``)."""

    #: The language's code (``"en"``, ``"es"``): the folder's name and ``Rules.language``.
    code: str
    #: The language's name, in itself.
    name: str
    #: Whether words are compared with accents dropped (Spanish: yes; English: no).
    fold_accents: bool
    #: R19 (a): the basic colour terms (the default of ``Rules.banned_terms``).
    basic_colour_terms: tuple[str, ...]
    #: R19 (b): endings added to any banned term as it is (``reds``).
    colour_endings: tuple[str, ...]
    #: R19 (b): endings added to a respelt term (``reddish``, ``bluish``; ``roja``, ``azules``).
    respellings: tuple[Respelling, ...]
    #: R19 (b): words derived from a basic term (``rojizo``), by folded term; each is refused
    #: with the same endings and respellings as a term.
    derived_forms: tuple[tuple[str, tuple[str, ...]], ...]
    #: R20: words that name places on the board, folded.
    position_words: frozenset[str]
    #: R20: number words up to thirty, folded.
    number_words: frozenset[str]
    #: R21: relative words of the second clue (the default of ``Rules.relative_words``).
    relative_words: tuple[str, ...]
    #: R19 (c): the common word after a colour term has at least this many letters.
    min_rest: int
    #: R19 (c): the file, in the pack's folder, of the common words (gzip, one a line, folded).
    common_words_file: str
    #: R19 (d): how the language makes compounds that end in a colour term (Spanish
    #: ``pelirrojo``), or ``()`` (English writes ``redhead``, which (c) refuses).
    compounds: tuple[Compound, ...] = ()

    def fold(self, text: str) -> str:
        """``text`` as this pack compares words: lowercase, and folded if the pack says so."""
        return _fold(text, self.fold_accents)

    def fold_keeping_letters(self, text: str) -> str:
        """``text`` folded as :meth:`fold` does, but with ``ñ`` kept: a letter of its own in
        Spanish, not an ``n`` with a mark (``uña``, a nail, is not ``una``, a number word)."""
        return "ñ".join(self.fold(piece) for piece in text.lower().split("ñ"))

    def derived(self, term: str) -> tuple[str, ...]:
        """The listed words derived from ``term`` (folded), or ``()``."""
        key = self.fold(term)
        for base, words in self.derived_forms:
            if base == key:
                return words
        return ()

    def common_words(self) -> frozenset[str]:
        """R19 (c): the common words, read once."""
        return _common_words(self.code)


def _fold(text: str, fold_accents: bool) -> str:
    """``text`` lowercase and, if ``fold_accents``, without accents or tildes (``púrpura`` is
    ``purpura``, ``montaña`` is ``montana``)."""
    text = text.lower()
    if not fold_accents:
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    )


def _root() -> Traversable:
    # Through the top package, so that reading a pack imports no other (huescues.data).
    return resources.files("huescues").joinpath("data").joinpath("languages")


def _folder(code: str) -> Traversable:
    return _root().joinpath(code)


@functools.cache
def available_languages() -> tuple[str, ...]:
    """The codes of the packs that ship (a folder with a ``pack.json``), sorted."""
    root = _root()
    return tuple(
        sorted(d.name for d in root.iterdir() if d.is_dir() and d.joinpath(_PACK_FILE).is_file())
    )


def _words(data: dict[str, Any], key: str) -> tuple[str, ...]:
    words = data[key]
    if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
        raise ValueError(f"language pack {data.get('code')!r}: {key} is a list of words")
    return tuple(words)


@functools.cache
def language_pack(code: str) -> LanguagePack:
    """The pack of language ``code`` (``"en"``, ``"es"``), read once; ValueError if none ships."""
    if not isinstance(code, str) or code not in available_languages():
        codes = ", ".join(available_languages())
        raise ValueError(f"no language pack {code!r}: the packs are {codes} (R19-R21)")
    data = json.loads(_folder(code).joinpath(_PACK_FILE).read_text(encoding="utf-8"))
    fold_accents = bool(data["fold_accents"])

    def fold(text: str) -> str:
        return _fold(text, fold_accents)

    respellings = tuple(
        Respelling(re.compile(r["match"]), r["stem"], tuple(r["endings"]))
        for r in data["respellings"]
    )
    derived = tuple(
        (fold(term), tuple(fold(w) for w in words)) for term, words in data["derived_forms"].items()
    )
    compounds = tuple(
        Compound(fold(c["joiner"]), int(c["min_stem"]), frozenset(fold(x) for x in c["doubled"]))
        for c in data.get("compounds", [])
    )
    common = data["common_words"]
    return LanguagePack(
        code=code,
        name=str(data["name"]),
        fold_accents=fold_accents,
        basic_colour_terms=_words(data, "basic_colour_terms"),
        colour_endings=_words(data, "colour_endings") if data["colour_endings"] else (),
        respellings=respellings,
        derived_forms=derived,
        position_words=frozenset(fold(w) for w in _words(data, "position_words")),
        number_words=frozenset(fold(w) for w in _words(data, "number_words")),
        relative_words=_words(data, "relative_words"),
        min_rest=int(common["min_rest"]),
        common_words_file=str(common["file"]),
        compounds=compounds,
    )


@functools.cache
def _common_words(code: str) -> frozenset[str]:
    pack = language_pack(code)
    raw = _folder(code).joinpath(pack.common_words_file).read_bytes()
    return frozenset(gzip.decompress(raw).decode("utf-8").split())
