"""Whether people would picture one colour for a clue word: a rule about words, for a clue giver
whose clues people read as meant (issue 34, item 3).

A logistic regression from what the library knows of a word (its knowledge's evidence, how much
of its reading one colour holds, where the knowledge comes from, its word classes, whether it is
common or a colour name people gave) to the chance that people at a game night would picture the
same colour for it. It is fitted by ``scripts/fit_alike.py`` on blind judgements of half of the
English givers' vocabulary and measured on the other half (``docs/agents.md``); the pack's
``alike.json`` holds it. The judges are language-model sessions, not people. Spanish has no fit
of its own: its ``alike.json`` reads a text in English through the pack's table, then by
English's rule (measured on a blind judgement of the Spanish vocabulary, fitted on none of it).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

import numpy as np
from numpy.typing import NDArray

from huescues.engine import common_words
from huescues.language import (
    KNOWLEDGE_SOURCES,
    ObjectColourModel,
    in_english,
    name_key,
    survey_names,
    word_classes,
)

__all__ = [
    "ALIKE_FEATURES",
    "AlikeRule",
    "alike_chance",
    "alike_chances",
    "alike_features",
    "alike_rule",
]

FloatArray = NDArray[np.float64]

#: The knowledge's sources the rule reads, one feature each (the shipped ones it had when fitted).
_SOURCES = KNOWLEDGE_SOURCES[:6]
#: The features of a word the rule reads, in its order (see :func:`alike_features`).
ALIKE_FEATURES = (
    "evidence",
    "sources",
    *_SOURCES,
    "common",
    "adjective",
    "thing",
    "noun",
    "peak",
    "entropy",
    "survey_name",
)

_FILE = "alike.json"


@dataclass(frozen=True, slots=True)
class AlikeRule:
    """A fitted rule: each feature's mean and scale (of the words it was fitted on), its weight,
    and the intercept: the chance is ``1 / (1 + exp(-(intercept + sum(weight * (x - mean) /
    scale))))``."""

    language: str
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    #: The language whose words the rule was fitted on, when it is not ``language``: a text is
    #: read in it first (:func:`~huescues.language.in_english`), then by its rule; ``None``:
    #: the rule is the language's own.
    through: str | None = None

    def chance(self, features: tuple[float, ...]) -> float:
        """The chance people picture one colour for a word of these features."""
        return float(self.chances(np.array([features], dtype=np.float64))[0])

    def chances(self, features: FloatArray) -> FloatArray:
        """:meth:`chance` for each row of ``features`` (a row's sum is its own: the same
        figure for a word alone or among many)."""
        z = self.intercept + (
            (features - np.array(self.mean)) / np.array(self.scale) * np.array(self.weights)
        ).sum(axis=1)
        e = np.exp(-np.abs(z))  # (no overflow either side)
        out: FloatArray = np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
        return out

    def to_json(self) -> dict[str, object]:
        """The rule as ``alike.json`` holds it (beside the file's notes)."""
        return {
            "features": list(ALIKE_FEATURES),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "intercept": self.intercept,
        }


def is_chance(value: object) -> bool:
    """Whether ``value`` is a number from 0 to 1 (not a bool): what a cut (``alike_from``) is."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def alike_features(text: str) -> tuple[float, ...]:
    """The features of an English word the rule reads (:data:`ALIKE_FEATURES`): the knowledge's
    evidence; how many sources it has and which (``KNOWLEDGE_SOURCES``' bits); whether it is
    among the common words (``common_words("en")``); its word classes (an adjective, a noun of a
    thing, a noun: :func:`~huescues.language.word_classes`); the share of its reading's main
    basic colour and the reading's entropy (nats) over the 11; whether people gave it as a
    colour's name (XKCD)."""
    knowledge = ObjectColourModel.default()  # (loaded once by the language layer)
    q = knowledge.distribution(text).tolist()  # (it checks the text)
    key = name_key(text)  # (the word lists', as the knowledge's: ``Winter`` is winter)
    # A text with nothing to read (no letters) knows no colour: the flat distribution.
    total = sum(q)
    d = [p / total for p in q] if total > 0 else [1.0 / len(q)] * len(q)
    sources = set(knowledge.sources(text))
    classes = word_classes(key)
    entropy = -sum(p * math.log(max(p, 1e-12)) for p in d)
    return (
        float(knowledge.evidence(text)),
        float(len(sources)),
        *(float(s in sources) for s in _SOURCES),
        float(key in common_words("en")),
        float("a" in classes),
        float("t" in classes),
        float("n" in classes),
        max(d),
        entropy,
        float(key in survey_names()),
    )


def _read(language: str, raw: str, found: Mapping[str, AlikeRule]) -> AlikeRule:
    data = json.loads(raw)
    where = f"data/languages/{language}/{_FILE}"
    if "through" in data:
        # Another language's rule, read through this one's table: the features read the
        # English knowledge, so only English's can be gone through.
        if data["through"] != "en" or "en" not in found:
            raise ValueError(f"{where}: a rule is read through English's, not {data['through']!r}")
        return dataclasses.replace(found["en"], language=language, through="en")
    if tuple(data["features"]) != ALIKE_FEATURES:
        raise ValueError(f"{where}: features {data['features']} are not {ALIKE_FEATURES}")
    return AlikeRule(
        language=language,
        mean=tuple(float(x) for x in data["mean"]),
        scale=tuple(float(x) for x in data["scale"]),
        weights=tuple(float(x) for x in data["weights"]),
        intercept=float(data["intercept"]),
    )


def _rules() -> Mapping[str, AlikeRule]:
    root = resources.files("huescues").joinpath("data", "languages")
    found: dict[str, AlikeRule] = {}
    # English first: the others may be read through it.
    for folder in sorted(root.iterdir(), key=lambda f: (f.name != "en", f.name)):
        path = folder.joinpath(_FILE)
        if folder.is_dir() and path.is_file():
            found[folder.name] = _read(folder.name, path.read_text(encoding="utf-8"), found)
    return MappingProxyType(found)


#: The shipped rules, by language code (read when the module is imported: one small file a
#: language that has one).
RULES = _rules()


def alike_rule(language: str = "en") -> AlikeRule:
    """The shipped rule of ``language``'s pack (``data/languages/CODE/alike.json``); a
    ValueError names the languages that have one otherwise."""
    rule = RULES.get(language)
    if rule is None:
        raise ValueError(
            f"no rule of clue words people picture alike in {language!r}: the packs with one "
            f"are {', '.join(map(repr, RULES))}"
        )
    return rule


def alike_chances(texts: Sequence[str], language: str = "en") -> FloatArray:
    """:func:`alike_chance` of each text, at once (a vocabulary's)."""
    rule = alike_rule(language)
    if rule.through is not None:
        texts = [in_english(t, language) for t in texts]
    if not texts:
        return np.zeros(0)
    return rule.chances(np.array([alike_features(t) for t in texts], dtype=np.float64))


def alike_chance(text: str, language: str = "en") -> float:
    """The chance that people at a game night would picture one colour for the clue ``text``
    by the shipped rule of ``language`` (:func:`alike_rule`): English's own, fitted on English
    words; Spanish's is English's, the text read in English through the pack's table first."""
    return float(alike_chances([text], language)[0])
