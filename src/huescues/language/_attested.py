"""Clues a person would give: words whose colour the library knows from evidence, not only
from word vectors, and two-word clues that people use or that read together as one colour. The
players' clue givers say only these (``huescues.agents.attested`` is this one)."""

from __future__ import annotations

import functools

from ._data import colornames
from ._named import named_model
from ._naming import NamingModel, name_key
from ._objects import ObjectColourModel
from ._phrases import phrase_fault, survey_names
from ._translate import TranslatedModel, check_language

__all__ = ["ATTESTED_CONFIDENCE", "GIVER_EVIDENCE", "attested"]

#: The least evidence (``ObjectColourModel.evidence``: the held-out chance that a reading's main
#: colour is people's) a word needs before a clue giver says it. At 0.5 a word is more often
#: right than wrong; words known only from their vectors sit near 0.25.
GIVER_EVIDENCE = 0.5


@functools.cache
def _naming() -> NamingModel:
    return NamingModel.default()


#: The least confidence of a translation for a clue in another language to count as attested:
#: that of the words the givers' vocabularies keep (``scripts/make_clue_vocabulary_es.py``).
ATTESTED_CONFIDENCE = 0.85


def attested(text: str, language: str = "en") -> bool:
    """Whether a clue giver may say ``text``, as people would: one word whose evidence in the
    knowledge model (:meth:`~huescues.language.ObjectColourModel.evidence`) is at least
    :data:`GIVER_EVIDENCE`; or two words that people put together: a colour name of the XKCD
    survey (``ocean blue``), or a modifier the naming data learned (``pale``, ``deep``) before an
    attested word, in a form people say (:func:`phrase_fault`: not ``very ink``, ``marine
    truth`` or ``dark darkest``), when the two are a colour's name in the naming data, people's
    or paint makers' (``deep forest``, ``berry wine``, ``fluorescent lime``; not ``twilight
    night`` or ``silver milk``). Two words that each have a colour but are no phrase (``throne
    spleen``) are refused, as is a word known only from its vector (``boyfriend``).

    In another ``language`` (``"es"``), a text is attested when the language's reading carries
    it to English with a sure translation (:data:`ATTESTED_CONFIDENCE`; a name the table does
    not hold is read as it is) and the English is attested, in the language's own order:
    ``bosque profundo`` is "deep forest", but ``profundo bosque`` reads "forest deep", not a
    phrase people say. A word the language's own knowledge reads (``oscuro``) is a word of
    that language alone: one is attested, a phrase with one is not (nothing says which English
    phrase it would be)."""
    if language == "en":
        return _attested(text)
    return _attested_in(text, check_language(language))


#: How many texts' answers :func:`attested` keeps (a second clue asks of up to 28 pairs).
ATTESTED_KEPT = 65536


@functools.lru_cache(maxsize=ATTESTED_KEPT)
def _attested(text: str) -> bool:
    """:func:`attested`, kept per text: its answer depends only on the text and the shipped
    data (the default naming and knowledge models, loaded once a process)."""
    key = name_key(text)
    if not key:
        return False
    naming = _naming()
    if key in survey_names():
        return True
    words = key.split()
    if len(words) == 1:
        return ObjectColourModel.default().evidence(key) >= GIVER_EVIDENCE
    return (
        len(words) == 2
        and key in _colour_names()
        and naming.is_modifier(words[0])
        and _attested(words[1])
        and phrase_fault(key) is None
    )


@functools.cache
def _colour_names() -> frozenset[str]:
    """Every colour's name in the naming data, people's (the XKCD survey) and paint makers'
    (color-name-list), as :func:`~huescues.language.name_key` writes them: the two-word clues a
    giver may say. A modifier before any attested word reads as a phrase, but few such phrases
    are ones a person would give for a colour (``twilight night``, ``silver milk``, ``pure
    depression`` were given in self-play before this rule: docs/agents.md)."""
    return survey_names() | frozenset(name_key(n) for n in colornames().names)


def _reader(language: str) -> TranslatedModel:
    """The language's reading, for its translations only: the naming data's in that language,
    which the players have loaded (no model's scores are asked for here)."""
    model = named_model("naming", language)
    assert isinstance(model, TranslatedModel)
    return model


@functools.lru_cache(maxsize=ATTESTED_KEPT)
def _attested_in(text: str, language: str) -> bool:
    """:func:`attested` in a language other than English, kept per text."""
    t = _reader(language).translate(text)
    if t.own:
        return not t.text and len(t.own) == 1 and " " not in t.own[0]
    # A word the table does not carry is read as it is (a name: pikachu), as English.
    return t.confidence >= ATTESTED_CONFIDENCE and _attested(t.text)
