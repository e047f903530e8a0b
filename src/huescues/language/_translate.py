"""Reading a clue in another language by carrying it to English: a Spanish word for a thing
reads as its English counterpart where the translation is sure (``docs/languages.md``)."""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np
from numpy.typing import ArrayLike

from ._capabilities import ColourTermModelBase, model_cache_key, with_capabilities
from ._protocol import ColourTermModel, FloatArray, Prediction, as_lab, check_text

__all__ = ["LANGUAGES", "SPANISH_TABLE", "TranslatedModel", "Translation", "fold", "spanish_table"]

#: The languages the library reads clues in (ISO 639-1 codes); English is the default.
LANGUAGES = ("en", "es")
#: The shipped Spanish-to-English table, relative to the package's data folder
#: (built by ``scripts/build_spanish.py``).
SPANISH_TABLE = "languages/es/spanish_english.tsv.gz"

_LETTERS = re.compile(r"[a-zñ]+")
#: Words a Spanish phrase is joined by: not read themselves.
_JOINERS = frozenset({"el", "la", "los", "las", "un", "una", "unos", "unas", "lo", "y", "e"})
#: "X de Y" is "Y X" in English (monstruo de las galletas: cookie monster).
_OF = frozenset({"de", "del"})


def fold(text: str) -> str:
    """``text`` as Spanish words are matched: lower case, accents and diaereses dropped, the
    tilde of ``ñ`` kept (``año`` is not ``ano``), anything but letters turned into spaces."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    out: list[str] = []
    for i, ch in enumerate(decomposed):
        if unicodedata.combining(ch):
            if ch == "\u0303" and i > 0 and decomposed[i - 1] == "n":
                out[-1] = "ñ"
            continue
        out.append(ch)
    return " ".join(_LETTERS.findall("".join(out)))


@dataclass(frozen=True, slots=True)
class Translation:
    """A text carried to English: the English ``text`` read in its place and the translation's
    ``confidence`` (0-1; 1 when no word was translated, and the text is read as it is)."""

    text: str
    confidence: float
    #: The words of the original that were translated.
    translated: tuple[str, ...] = ()


class TranslatedModel(ColourTermModelBase):
    """Reads a clue in another language with an English model: each word (or the whole phrase)
    found in ``table`` (folded word -> English text and confidence) is replaced by its English
    counterpart, plural and feminine forms are looked up by their singular masculine, ``X de
    Y`` becomes ``Y X``, and a word not found is read as it is (names such as ``Pikachu`` are
    the same in both). The English reading is tempered by the translation's confidence:
    ``confidence * base.score(english)``, a broader belief where the translation is unsure."""

    def __init__(
        self, base: ColourTermModel, table: Mapping[str, tuple[str, float]], language: str
    ) -> None:
        self.base = base
        self.table = dict(table)
        self.language = language
        self._hash: str | None = None
        self._translate = functools.lru_cache(maxsize=1 << 14)(self._translate_key)

    def __repr__(self) -> str:
        return f"TranslatedModel({self.language!r}, {len(self.table)} words)"

    @property
    def cache_key(self) -> str | None:
        """``translated-<language>-v1@<table hash>(base key)`` when the base has a key, else
        ``None``: readings kept on disk are stale once the table changes."""
        if type(self) is not TranslatedModel:
            return None
        base = model_cache_key(self.base)
        if base is None:
            return None
        return f"translated-{self.language}-v1@{self._table_hash()}({base})"

    def _table_hash(self) -> str:
        kept = self._hash
        if kept is None:
            digest = hashlib.sha256()
            for spanish in sorted(self.table):
                english, confidence = self.table[spanish]
                digest.update(f"{spanish}\t{english}\t{confidence!r}\n".encode())
            kept = self._hash = digest.hexdigest()[:12]
        return kept

    def translate(self, text: str) -> Translation:
        """The English text read for ``text`` and the translation's confidence."""
        return self._translate(fold(check_text(text)))

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """``confidence * base.score(english)``, shape ``lab.shape[:-1]``."""
        t = self.translate(text)
        out: FloatArray = np.asarray(self.base.score(t.text, as_lab(lab)), dtype=np.float64)
        return out if t.confidence == 1.0 else t.confidence * out

    def score_many(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts, by the base model's ``score_many``."""
        ts = [self.translate(x) for x in texts]
        out = with_capabilities(self.base).score_many([t.text for t in ts], as_lab(lab))
        conf = np.array([t.confidence for t in ts], dtype=np.float64)
        return np.asarray(out, dtype=np.float64) * conf.reshape(-1, *([1] * (out.ndim - 1)))

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score_many` by the base model's ``score_batch``."""
        ts = [self.translate(x) for x in texts]
        out = with_capabilities(self.base).score_batch([t.text for t in ts], as_lab(lab))
        conf = np.array([t.confidence for t in ts], dtype=np.float64)
        return np.asarray(out, dtype=np.float64) * conf.reshape(-1, *([1] * (out.ndim - 1)))

    def evidence(self, text: str) -> float:
        """The base model's evidence for the English text, times the confidence."""
        t = self.translate(text)
        graded = getattr(self.base, "evidence", None)
        base = graded(t.text) if callable(graded) else self.base.predict(t.text).evidence
        return float(base or 0.0) * t.confidence

    def predict(self, text: str) -> Prediction:
        """The base model's reading of the English text, its spread widened by
        1 / confidence and its evidence lowered by the confidence."""
        t = self.translate(text)
        p = self.base.predict(t.text)
        evidence = None if p.evidence is None else float(p.evidence) * t.confidence
        return Prediction(p.lab, p.cov / t.confidence, p.known, p.source, evidence)

    # -- translation --------------------------------------------------------------------
    def _word(self, word: str) -> tuple[str, float] | None:
        for form in _forms(word):
            found = self.table.get(form)
            if found is not None:
                return found
        return None

    def _translate_key(self, key: str) -> Translation:
        if not key:
            return Translation(key, 1.0)
        whole = self.table.get(key)
        if whole is not None:
            return Translation(whole[0], whole[1], (key,))
        # Groups of words between "de"s, read last first: "X de Y" -> "Y X".
        groups: list[list[str]] = [[]]
        for w in key.split():
            if w in _OF:
                groups.append([])
            elif w not in _JOINERS:
                groups[-1].append(w)
        english: list[str] = []
        confidence = 1.0
        done: list[str] = []
        for group in reversed([g for g in groups if g]):
            for w in group:
                found = self._word(w)
                if found is None:
                    english.append(w)
                else:
                    english.append(found[0])
                    confidence = min(confidence, found[1])
                    done.append(w)
        text = " ".join(english) if english else key
        return Translation(text, confidence, tuple(done))


def _forms(word: str) -> list[str]:
    """The word, then its singular and masculine forms (``galletas`` -> ``galleta``; ``rojas``
    -> ``roja``, ``rojo``; ``limones`` -> ``limon``)."""
    forms = [word]
    if word.endswith("es") and len(word) > 4:
        forms.append(word[:-2])
    if word.endswith("s") and len(word) > 3:
        forms.append(word[:-1])
    for f in list(forms):
        if f.endswith("a") and len(f) > 3:
            forms.append(f[:-1] + "o")
    return forms


def spanish_table(*, without_glossary: Sequence[str] = ()) -> dict[str, tuple[str, float]]:
    """The shipped Spanish-to-English table: folded Spanish word -> (English text,
    confidence). See ``data/languages/es/README.md`` for how it was made and its sources.

    ``without_glossary``: Spanish words whose authors' translation is left out (the encoder's
    match is kept where it has one), to measure on words the glossary was written knowing."""
    left_out = {fold(w) for w in without_glossary}
    out: dict[str, tuple[str, float]] = {}
    for spanish, english, confidence, source, auto, auto_confidence in _table_rows():
        if source == "glossary" and spanish in left_out:
            if auto:
                out[spanish] = (auto, float(auto_confidence))
        else:
            out[spanish] = (english, float(confidence))
    return out


@functools.cache
def _table_rows() -> tuple[tuple[str, ...], ...]:
    path = resources.files("huescues.data").joinpath(SPANISH_TABLE)
    with resources.as_file(path) as p, gzip.open(p, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()[1:]
    return tuple(tuple(line.split("\t")) for line in lines)


def check_language(language: str) -> str:
    """``language`` if the library reads it, else a ValueError that names it."""
    if language not in LANGUAGES:
        raise ValueError(
            f"unknown language {language!r}: the library reads {', '.join(map(repr, LANGUAGES))}"
        )
    return language
