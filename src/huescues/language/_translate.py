"""Reading a clue in another language: a word the language's pack rates itself reads by that
knowledge (a Spanish speaker's ``rosa`` is pink), any other word for a thing as its English
counterpart where the translation is sure, and the words of a phrase in the language's order
(``docs/languages.md``)."""

from __future__ import annotations

import bisect
import functools
import gzip
import hashlib
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np
from numpy.typing import ArrayLike

from ._capabilities import ColourTermModelBase, in_view, model_cache_key, with_capabilities
from ._objects import (
    BASIC_TERMS,
    KNOWLEDGE_SOURCES,
    SPELLING_MIN,
    ObjectColourModel,
    _common_words,
    _one_edit,
    without_hints,
)
from ._protocol import ColourTermModel, FloatArray, Prediction, as_lab, check_text

__all__ = [
    "LANGUAGES",
    "OWN_KNOWLEDGE_WEIGHT",
    "SPANISH_KNOWLEDGE",
    "SPANISH_TABLE",
    "TranslatedModel",
    "Translation",
    "fold",
    "spanish_knowledge",
    "spanish_table",
]

#: The languages the library reads clues in (ISO 639-1 codes); English is the default.
LANGUAGES = ("en", "es")
#: The shipped Spanish-to-English table, relative to the package's data folder
#: (built by ``scripts/build_spanish.py``).
SPANISH_TABLE = "languages/es/spanish_english.tsv.gz"
#: The Spanish pack's own knowledge: Spanish words rated as Spanish (knowledge/PROTOCOL.md),
#: built from ``knowledge/ratings/*-es.tsv`` by ``scripts/build_spanish.py --knowledge``.
SPANISH_KNOWLEDGE = "languages/es/knowledge.tsv"
#: How sharply a word the pack knows is read: its knowledge's reading times this. Fixed as the
#: median ratio, over 30 English colour words, of the English default reading's spread to its
#: knowledge model's alone (4.0 to 5.1, median 4.3), so that ``marfil`` reads as sharply as
#: ``ivory``; measured on English words only.
OWN_KNOWLEDGE_WEIGHT = 4.3

_LETTERS = re.compile(r"[a-zñ]+")
#: The confidence of the table's glossary entries (``scripts/build_spanish.py``'s
#: ``GLOSSARY_CONFIDENCE``): with the own knowledge's words, what a misspelt word may be put
#: right to.
SURE = 0.95
#: The fewest letters a misspelt word may have to be put right by how it sounds (by one edit,
#: :data:`SPELLING_MIN`): sounding alike is rarer than lying one edit apart.
SOUND_MIN = 4
#: The letters of a folded Spanish word (a misspelt word's edits are made of them).
_SPANISH_LETTERS = "abcdefghijklmnopqrstuvwxyzñ"
#: Words a Spanish phrase is joined by: not read themselves.
_JOINERS = frozenset({"el", "la", "los", "las", "un", "una", "unos", "unas", "lo"})
#: "X y Y": things side by side, read in their order (epi y blas).
_AND = frozenset({"y", "e"})
#: "X de Y" is "Y X" in English (monstruo de las galletas: cookie monster).
_OF = frozenset({"de", "del"})
#: The version of the rules that read a phrase's words, in the readings' cache key: 2 since
#: adjectives put before the noun keep their place, 3 since words cut short are read whole, 4
#: since a known phrase is found without its small words, 5 since words are cut only in capitals
#: and a known phrase only loses small words the text lacks, 6 since a rated word votes with its
#: table twin, 7 since a phrase the English knowledge knows as it is keeps it (``names``), 8
#: since a card's hint in brackets is no part of the clue, 9 since a misspelt word is put right,
#: 10 since also by how it sounds.
#: Bump it with any change to these rules (_CUT, CUT_LETTERS, CUT_AGREEMENT, _SHORTENED,
#: _DROPPED, the vote, the names, the hints, the spelling), or readings kept on disk stay.
ORDER_RULES = 10
#: A word cut short, as a study prints a long name on a small card (``MONST. GALLETA``): three
#: letters or more, then a full stop, in a text in capitals (elsewhere a full stop ends a
#: sentence: ``Venus.``).
_CUT = re.compile(r"([^\W\d_]{3,})\.")
#: A word cut to fewer letters begins too many words to stand for one alone (``STA.``, a
#: contraction); it may still stand for a word of a known phrase (``BOB ESP.``).
CUT_LETTERS = 4
#: A cut word reads as the word it stands for when the readings of the words it may stand for
#: agree this much (their weights' share); else it is read as it is.
CUT_AGREEMENT = 0.5
#: The full forms of the adjectives Spanish shortens before a masculine noun (primer amor).
_SHORTENED = {
    "buen": "bueno",
    "mal": "malo",
    "gran": "grande",
    "primer": "primero",
    "tercer": "tercero",
    "san": "santo",
    "algun": "alguno",
    "ningun": "ninguno",
    "cualquier": "cualquiera",
}
#: Adjectives Spanish puts before their noun, as English does (buena suerte: good luck, último
#: baile: last dance): a thing that starts with one is already in English order. The shortened
#: forms (buen, gran, primer) only ever stand there; the rest are the common ones that do.
_BEFORE_NOUN = frozenset(
    {"buen", "mal", "gran", "primer", "tercer", "san", "algun", "ningun"}
    | {
        f"{stem}{end}"
        for stem in ("buen", "mal", "primer", "tercer", "ultim", "otr", "mism")
        for end in ("o", "a", "os", "as")
    }
    | {"mejor", "mejores", "peor", "peores", "santo", "santa"}
)


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
    #: The words that were translated: the original's, or what it stands for where a word was
    #: cut short or a phrase's small words dropped (``monstruo``, ``algodon de azucar``).
    translated: tuple[str, ...] = ()
    #: The words read by the language's own knowledge instead (as it knows them: ``rosas`` is
    #: ``rosa``), in English order; ``text`` is then the rest, or ``""``.
    own: tuple[str, ...] = ()


class TranslatedModel(ColourTermModelBase):
    """Reads a clue in another language with an English model: each word (or the whole phrase)
    found in ``table`` (folded word -> English text and confidence) is replaced by its English
    counterpart, plural and feminine forms are looked up by their singular masculine, ``X de
    Y`` becomes ``Y X``, the words of a group are read in English order (Spanish puts the
    modifier after the noun: ``cielo nocturno`` is ``night sky``) unless one of them is not
    found (a name keeps its order: ``rayo mcqueen``, ``darth vader``), and a word not found is
    read as it is (names such as ``Pikachu`` are the same in both). The English reading is tempered
    by the translation's confidence: ``confidence * base.score(english)``, a broader belief
    where the translation is unsure.

    With ``knowledge`` (the language's own words rated in that language,
    :func:`spanish_knowledge`), a word it knows is read by it, not translated (a Spanish
    speaker's ``rosa`` is pink, ``marfil`` ivory): ``knowledge_weight * knowledge.score(own)``
    is added to the English reading of the rest, a product of experts.

    With ``names`` (the English knowledge, :meth:`ObjectColourModel.default`), a phrase of two
    words or more that the table does not hold whole but ``names`` knows as it is (a name from
    culture, ``la vaca lola``, ``topo gigio``, ``costa rica``) is read as it is, not word by
    word ("cow lola", "taupe gigio", "rich coast")."""

    def __init__(
        self,
        base: ColourTermModel,
        table: Mapping[str, tuple[str, float]],
        language: str,
        *,
        knowledge: ObjectColourModel | None = None,
        knowledge_weight: float = OWN_KNOWLEDGE_WEIGHT,
        names: ObjectColourModel | None = None,
    ) -> None:
        if not (math.isfinite(knowledge_weight) and knowledge_weight > 0):
            raise ValueError(f"knowledge_weight must be a positive number, not {knowledge_weight}")
        self.base = base
        self.table = dict(table)
        self.language = language
        self.knowledge = knowledge
        self.knowledge_weight = float(knowledge_weight)
        self.names = names
        self._hash: str | None = None
        self._names_hash: str | None = None
        self._words: tuple[list[str], list[str]] | None = None
        self._content: dict[tuple[str, ...], list[str]] | None = None
        self._single_words: frozenset[str] | None = None
        self._sound_index: dict[str, frozenset[str]] | None = None
        self._translate = functools.lru_cache(maxsize=1 << 14)(self._translate_key)

    def __repr__(self) -> str:
        own = "" if self.knowledge is None else f", {len(self.knowledge.words)} own"
        return f"TranslatedModel({self.language!r}, {len(self.table)} words{own})"

    @property
    def cache_key(self) -> str | None:
        """``translated-<language>-v1-o10@<table hash>(base key)`` when the base has a key, else
        ``None`` (``-v2-o10@<table hash>+<knowledge hash>`` with the language's own knowledge;
        ``o10~<names hash>`` with ``names``): readings kept on disk are stale once the table, the
        knowledge, the names or the rules of reading words (``o10``: :data:`ORDER_RULES`)
        change."""
        if type(self) is not TranslatedModel:
            return None
        base = model_cache_key(self.base)
        if base is None:
            return None
        order = f"o{ORDER_RULES}"
        if self.names is not None:
            order += f"~{self._names_key()}"
        if self.knowledge is None:
            return f"translated-{self.language}-v1-{order}@{self._table_hash()}({base})"
        return (
            f"translated-{self.language}-v2-{order}@{self._table_hash()}+"
            f"{_knowledge_hash(self.knowledge)}{self.knowledge.view_tag}"
            f",{self.knowledge_weight!r}({base})"
        )

    def in_view(self, lab: ArrayLike) -> TranslatedModel:
        """The same pack with its English model and its own knowledge read against the colours
        in view (:func:`in_view`). This model itself for a
        subclass (which may score otherwise)."""
        if type(self) is not TranslatedModel:
            return self
        out = object.__new__(TranslatedModel)
        out.__dict__.update(self.__dict__)
        out.base = in_view(self.base, lab)
        if self.knowledge is not None:
            out.knowledge = self.knowledge.in_view(lab)
        # Its own cache of translations: one bound to this model would keep it alive.
        out._translate = functools.lru_cache(maxsize=1 << 14)(out._translate_key)
        return out

    def _names_key(self) -> str:
        """The words ``names`` knows, hashed (all the names rule reads of it), once."""
        kept = self._names_hash
        if kept is None and self.names is not None:
            words = "\n".join(sorted(self.names.words)).encode()
            kept = self._names_hash = hashlib.sha256(words).hexdigest()[:12]
        return kept or ""

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
        """The English text read for ``text``, the translation's confidence and the words the
        language's own knowledge reads. A word cut short (``MONST.``) is read as the word it
        stands for (:meth:`whole_word`). A card's hint in brackets is no part of the clue
        (``WOODY (TOY STORY)`` reads as ``woody``) unless the pack or ``names`` knows the whole
        or the hint adds a companion (``EPI (Y BLAS)``: the pair's), as
        :class:`ObjectColourModel` reads English cards."""
        key = _key(check_text(text))
        if "(" in text:
            outside = _key(without_hints(text, _AND))
            if outside and not self._whole(key):
                return self._translate(outside)
        return self._translate(key)

    def _whole(self, key: str) -> bool:
        """Whether the pack reads a phrase as one thing: its own knowledge or the table holds
        it, or ``names`` knows it."""
        return (
            self._own(key) is not None
            or key in self.table
            or (self.names is not None and self.names.knows(key))
        )

    def whole_word(self, cut: str) -> str:
        """The folded word that ``cut``, a word cut short (``monst``, with or without its full
        stop), stands for: the word itself if the pack knows it; else, if it has
        :data:`CUT_LETTERS` letters or more, the word the pack knows that :meth:`_stands_for`
        chooses among those that begin with it (``monstruo``); else ``cut`` as it is (folded),
        read as an unknown word."""
        start = fold(check_text(cut))
        if " " in start or not start:
            raise ValueError(f"a cut word is one word, not {cut!r}")
        if self._own(start) is not None or self._word(start) is not None:
            return start
        if len(start) < CUT_LETTERS:
            return start
        words = self._known(single=True)
        found = []
        for i in range(bisect.bisect_right(words, start), len(words)):
            if not words[i].startswith(start):
                break
            found.append(words[i])
        return self._stands_for(found) or start

    def _cut_phrase(self, words: list[str]) -> str | None:
        """The phrase the pack knows that ``words`` (some cut short, with their full stops)
        stand for, word by word (``bob esp.``: ``bob esponja``), or ``None``."""
        pattern = re.compile(
            " ".join(
                re.escape(w[:-1]) + "[a-zñ]*" if w.endswith(".") else re.escape(w) for w in words
            )
        )
        return self._stands_for([p for p in self._known(single=False) if pattern.fullmatch(p)])

    def _stands_for(self, candidates: Sequence[str]) -> str | None:
        """Of the words or phrases the pack knows that a cut text may stand for, those whose
        reading most of them share (by weight: the table's confidence, 1 for what the pack rates
        itself; a rated word shares its table twin's English, else is a reading of its own), if
        at least :data:`CUT_AGREEMENT` of the weight, and of those the weightiest, then the
        shortest; else ``None``."""
        weights: dict[str, float] = {}
        best: dict[str, tuple[float, int, str]] = {}
        for known in candidates:
            found = self.table.get(known)
            reading = "\0" + known if found is None else found[0]
            if self.knowledge is not None and self.knowledge.knows(known):
                weight = 1.0
            else:
                assert found is not None  # a candidate is the table's or the knowledge's
                weight = found[1]
            weights[reading] = weights.get(reading, 0.0) + weight
            rank = (-weight, len(known), known)
            best[reading] = min(best.get(reading, rank), rank)
        if not weights:
            return None
        reading = max(weights, key=lambda r: (weights[r], -best[r][1]))
        if weights[reading] < CUT_AGREEMENT * sum(weights.values()):
            return None
        return best[reading][2]

    def _by_content(self) -> dict[tuple[str, ...], list[str]]:
        """The known phrases by their content words (:func:`_content`)."""
        if self._content is None:
            index: dict[tuple[str, ...], list[str]] = {}
            for phrase in self._known(single=False):
                index.setdefault(_content(phrase), []).append(phrase)
            self._content = index
        return self._content

    def _known(self, *, single: bool) -> list[str]:
        """The words (``single``) or the phrases of the table and the own knowledge, sorted."""
        if self._words is None:
            own = () if self.knowledge is None else self.knowledge.words
            known = sorted({*self.table, *own})
            self._words = ([w for w in known if " " not in w], [w for w in known if " " in w])
        return self._words[0] if single else self._words[1]

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        """``confidence * base.score(english)`` plus ``knowledge_weight *
        knowledge.score(own)`` for the words the knowledge reads, shape ``lab.shape[:-1]``."""
        t = self.translate(text)
        colours = as_lab(lab)
        out: FloatArray | None = None
        if t.text or not t.own:
            out = np.asarray(self.base.score(t.text, colours), dtype=np.float64)
            if t.confidence != 1.0:
                out = t.confidence * out
        if t.own and self.knowledge is not None:
            own = self.knowledge_weight * self.knowledge.score(" ".join(t.own), colours)
            out = own if out is None else out + own
        assert out is not None
        return out

    def score_many(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score` for many texts, by the base model's ``score_many``."""
        return self._scores(texts, as_lab(lab), batch=False)

    def score_batch(self, texts: Sequence[str], lab: ArrayLike) -> FloatArray:
        """:meth:`score_many` by the base model's ``score_batch``."""
        return self._scores(texts, as_lab(lab), batch=True)

    def _scores(self, texts: Sequence[str], lab: FloatArray, *, batch: bool) -> FloatArray:
        ts = [self.translate(x) for x in texts]
        out = np.zeros((len(ts), *lab.shape[:-1]))
        english = [i for i, t in enumerate(ts) if t.text or not t.own]
        if english:
            base = with_capabilities(self.base)
            read = base.score_batch if batch else base.score_many
            got = np.asarray(read([ts[i].text for i in english], lab), dtype=np.float64)
            conf = np.array([ts[i].confidence for i in english], dtype=np.float64)
            out[english] = got * conf.reshape(-1, *([1] * (got.ndim - 1)))
        own = [i for i, t in enumerate(ts) if t.own]
        if own and self.knowledge is not None:
            phrases = [" ".join(ts[i].own) for i in own]
            if batch:
                got = np.asarray(self.knowledge.score_batch(phrases, lab), dtype=np.float64)
            else:  # the same numbers as score's, to the last bit
                got = np.stack([self.knowledge.score(p, lab) for p in phrases])
            out[own] += self.knowledge_weight * got
        return out

    def evidence(self, text: str) -> float:
        """The base model's evidence for the English text, times the confidence; the own
        knowledge's for the words it reads (the lower of the two when both read a part)."""
        t = self.translate(text)
        found: list[float] = []
        if t.own and self.knowledge is not None:
            found.append(self.knowledge.evidence(" ".join(t.own)))
        if t.text or not t.own:
            graded = getattr(self.base, "evidence", None)
            base = graded(t.text) if callable(graded) else self.base.predict(t.text).evidence
            found.append(float(base or 0.0) * t.confidence)
        return min(found)

    def predict(self, text: str) -> Prediction:
        """The own knowledge's reading when it reads every word; else the base model's reading
        of the English text, its spread widened by 1 / confidence and its evidence lowered by
        the confidence."""
        t = self.translate(text)
        if t.own and not t.text and self.knowledge is not None:
            return self.knowledge.predict(" ".join(t.own))
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

    def _own(self, word: str) -> str | None:
        """The form of ``word`` the own knowledge knows (``rosas``: ``rosa``), or ``None``."""
        if self.knowledge is None:
            return None
        for form in _forms(word):
            if self.knowledge.knows(form):
                return form
        return None

    def _read_word(self, word: str) -> tuple[str, str | None, tuple[str, float] | None]:
        """A word as the pack reads it: (the word, put right if it is misspelt; the form its own
        knowledge rates, or None; the table's English and confidence, or None)."""
        own, found = self._own(word), self._word(word)
        if own is None and found is None and (fixed := self._respelled(word)) is not None:
            return fixed, self._own(fixed), self._word(fixed)
        return word, own, found

    def _respelled(self, word: str) -> str | None:
        """A word the pack neither rates nor translates, put right as :meth:`ObjectColourModel.
        spelled` puts English right, if it is unknown to ``names`` too (English and names pass
        as they are) and no Spanish word in common use (R19's list: ``linterna`` is
        no typo, though the table lacks it): to the one word the pack knows surely
        (:meth:`_sure_words`) that it is one edit from (a letter left out, added or changed,
        two swapped; :data:`SPELLING_MIN` letters or more: ``zanaoria`` is ``zanahoria``), else
        to the one such word it sounds like (:func:`_sounds`; :data:`SOUND_MIN` letters or more:
        ``ceboya`` is ``cebolla``, ``ielo`` ``hielo``). A word, its plural and its feminine are
        one word. None where no one word is found."""
        if len(word) < SOUND_MIN or not word.isalpha():
            return None
        if self.names is not None and self.names.knows(word):
            return None
        if word.replace("ñ", "n") in _common_words("es"):  # a word, not a typo (linterna)
            return None
        sure = self._sure_words()
        edited = _one_word(
            {w for w in _one_edit(word, _SPANISH_LETTERS) if w in sure}
            if len(word) >= SPELLING_MIN
            else set()
        )
        return edited or _one_word(set(self._by_sound().get(_sounds(word), ())))

    def _by_sound(self) -> dict[str, frozenset[str]]:
        """The words a misspelt word may be put right to (:meth:`_sure_words`) by how they
        sound (:func:`_sounds`). Kept."""
        if self._sound_index is None:
            index: dict[str, set[str]] = {}
            for w in self._sure_words():
                index.setdefault(_sounds(w), set()).add(w)
            self._sound_index = {k: frozenset(v) for k, v in index.items()}
        return self._sound_index

    def _sure_words(self) -> frozenset[str]:
        """The single words a misspelt word may be put right to: those the own knowledge rates
        and those of the table's glossaries (confidence :data:`SURE`), not the
        encoder's guesses (``girada`` and ``plataneo`` lie one edit from ``girafa`` and
        ``platanno`` as ``jirafa`` and ``platano`` do). Kept."""
        if self._single_words is None:
            own = set() if self.knowledge is None else set(self.knowledge.words)
            self._single_words = frozenset(
                w
                for w in self._known(single=True)
                if w in own or self.table.get(w, ("", 0.0))[1] >= SURE
            )
        return self._single_words

    def _translate_key(self, key: str) -> Translation:
        if not key:
            return Translation(key, 1.0)
        if "." in key:  # words cut short: the phrase they stand for, else each word whole
            words = key.split()
            phrase = self._cut_phrase(words) if len(words) > 1 else None
            return self._translate(
                phrase or " ".join(self.whole_word(w) if w.endswith(".") else w for w in words)
            )
        if " " in key:  # a phrase known as a whole (a single word is looked up below)
            own_whole = self._own(key)
            if own_whole is not None:
                return Translation("", 1.0, (), (own_whole,))
            whole = self.table.get(key)
            if whole is not None:
                return Translation(whole[0], whole[1], (key,))
            if self.names is not None and self.names.knows(key):
                return Translation(key, 1.0)  # a name (la vaca lola), not its words
            # A known phrase with some of its small words dropped, as a card shortens it
            # (algodón azúcar: algodón de azúcar, cotton candy).
            words = key.split()
            fuller = self._stands_for(
                [p for p in self._by_content().get(_content(key), ()) if _drops_to(p, words)]
            )
            if fuller is not None:
                return self._translate(fuller)
        # Groups of words between "de"s, read last first: "X de Y" -> "Y X"; in a group, the
        # things joined by "y" in order, and each one's words in English order (modifier
        # first: "vino tinto" -> "tinto vino").
        groups: list[list[list[str]]] = [[[]]]
        for w in key.split():
            if w in _OF:
                groups.append([[]])
            elif w in _AND:
                groups[-1].append([])
            elif w not in _JOINERS:
                groups[-1][-1].append(w)
        english: list[str] = []
        own: list[str] = []
        confidence = 1.0
        done: list[str] = []
        for group in reversed(groups):
            for thing in group:
                read = [self._read_word(w) for w in thing]
                # A thing with a word the pack neither rates nor translates is a name, or
                # English already (darth vader, rayo mcqueen, capitán américa), and a thing led
                # by an adjective Spanish puts first (buena suerte) is in English order: their
                # words keep their order; the rest are read modifier first.
                if (
                    thing
                    and thing[0] not in _BEFORE_NOUN
                    and all(known is not None or found is not None for _, known, found in read)
                ):
                    read.reverse()
                for w, known, found in read:
                    if known is not None:
                        own.append(known)
                    elif found is None:
                        english.append(w)
                    else:
                        english.append(found[0])
                        confidence = min(confidence, found[1])
                        done.append(w)
        if not english and not own:
            return Translation(key, confidence, tuple(done))
        return Translation(" ".join(english), confidence, tuple(done), tuple(own))


def _one_word(near: set[str]) -> str | None:
    """The one word of ``near``, a word and its plural or feminine counted as one (``gatoo``:
    ``gato``, not also ``gatos``); None if there are none or several."""
    near = {w for w in near if not any(f in near for f in _forms(w)[1:])}
    return near.pop() if len(near) == 1 else None


def _sounds(word: str) -> str:
    """How a folded Spanish word sounds, as spelling by ear confuses it: a silent ``h`` left
    out; ``b`` and ``v``, ``ll`` and ``y``, ``z``, ``s``, ``x`` and ``c`` before ``e``/``i``,
    ``qu``, ``k`` and a hard ``c``, ``j`` and ``g`` before ``e``/``i`` each one sound; a doubled
    letter (``rr``) one letter. ``ceboya`` sounds as ``cebolla``, ``sanaoria`` as
    ``zanahoria``, ``girafa`` as ``jirafa``."""
    w = word.replace("ch", "\x01").replace("h", "")
    w = re.sub(r"qu(?=[ei])", "k", w)
    w = re.sub(r"gu(?=[ei])", "g\x02", w)  # a hard g before e or i
    w = re.sub(r"g(?=[ei])", "j", w).replace("\x02", "")
    w = re.sub(r"c(?=[ei])", "s", w)
    w = w.replace("c", "k").replace("z", "s").replace("x", "s")
    w = w.replace("ll", "y").replace("v", "b").replace("w", "b")
    return re.sub(r"(.)\1+", r"\1", w).replace("\x01", "ch")


def _key(text: str) -> str:
    """``fold(text)``, in a text in capitals each word cut short (:data:`_CUT`) keeping its
    full stop (``MONST. GALLETA``: ``monst. galleta``)."""
    text = unicodedata.normalize("NFC", text)  # an accent is then part of its letter
    if text != text.upper() or text == text.lower():
        return fold(text)
    parts = _CUT.split(text)  # the cut words at the odd places, without their stops
    words: list[str] = []
    for i, part in enumerate(parts):
        folded = fold(part).split()
        if i % 2 and folded:
            folded[-1] += "."
        words += folded
    return " ".join(words)


#: The small words a card may drop from a phrase (not "y": things joined by it keep it).
_DROPPED = _JOINERS | _OF


def _content(phrase: str) -> tuple[str, ...]:
    """A phrase's words but the small ones a card may drop (:data:`_DROPPED`), each less a
    plural's final s (``algodon de azucar``: ``algodon azucar``)."""
    return tuple(_singular(w) for w in phrase.split() if w not in _DROPPED)


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _drops_to(phrase: str, words: list[str]) -> bool:
    """Whether ``words``, which have ``phrase``'s content words (:func:`_content`), are its
    words with some of its small words dropped, in order (a plural's s aside), and no small word
    of their own: ``algodon azucar`` of ``algodon de azucar``, not ``la rana gustavo`` of
    ``rana gustavo``."""
    kept = phrase.split()
    i = 0
    for word in words:
        while i < len(kept) and kept[i] in _DROPPED and _singular(kept[i]) != _singular(word):
            i += 1
        if i == len(kept) or _singular(kept[i]) != _singular(word):
            return False
        i += 1
    return True


def _forms(word: str) -> list[str]:
    """The word, its full form if Spanish shortens it before a noun (``primer`` ->
    ``primero``), an infinitive without its ``se`` (``sentirse`` -> ``sentir``), then its
    singular and masculine forms (``galletas`` -> ``galleta``; ``rojas`` -> ``roja``,
    ``rojo``; ``limones`` -> ``limon``)."""
    forms = [word]
    if word in _SHORTENED:
        forms.append(_SHORTENED[word])
    if word.endswith(("arse", "erse", "irse")) and len(word) > 5:
        forms.append(word[:-2])
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
def spanish_knowledge() -> ObjectColourModel:
    """The Spanish pack's own knowledge: Spanish words rated as Spanish (``knowledge.tsv``,
    see ``data/languages/es/README.md``), read as the English knowledge reads its words
    (:meth:`ObjectColourModel.with_knowledge`). Loaded once."""
    path = resources.files("huescues.data").joinpath(SPANISH_KNOWLEDGE)
    lines = path.read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    if head[1:12] != list(BASIC_TERMS) or head[12:15] != ["lightness", "chroma", "evidence"]:
        raise ValueError(f"{SPANISH_KNOWLEDGE}: unexpected header {head}")
    rows = [line.split("\t") for line in lines[1:] if line.strip()]
    values = np.array([[float(x) for x in r[1:15]] for r in rows], dtype=np.float64)
    authors = 1 << KNOWLEDGE_SOURCES.index("authors")
    return ObjectColourModel.default().with_knowledge(
        [r[0] for r in rows],
        values[:, :11],
        tone=values[:, 11:13],
        evidence=values[:, 13],
        sources=np.full(len(rows), authors, dtype=np.int64),
    )


def _knowledge_hash(model: ObjectColourModel) -> str:
    digest = hashlib.sha256()
    for word in model.words:
        q = ",".join(f"{x:.4f}" for x in model.distribution(word))
        digest.update(f"{word}\t{q}\t{model.tone(word)}\t{model.evidence(word):.4f}\n".encode())
    return digest.hexdigest()[:12]


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
