"""Whether people would picture one colour for a clue word: a rule about words, for a clue giver
whose clues people read as meant (issue 34, item 3).

A logistic regression from what the library knows of a word (its knowledge's evidence, how much
of its reading one colour holds, where the knowledge comes from, its word classes, whether it is
common or a colour name people gave) to the chance that people at a game night would picture the
same colour for it. It is fitted by ``scripts/fit_alike.py`` on blind judgements of half of the
English givers' vocabulary and measured on the other half (``docs/agents.md``); the pack's
``alike.json`` holds it. The judges are language-model sessions, not people.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

import numpy as np

from huescues.engine import common_words
from huescues.language import ObjectColourModel, survey_names, word_classes

__all__ = ["ALIKE_FEATURES", "AlikeRule", "alike_chance", "alike_features", "alike_rule"]

#: The features of a word the rule reads, in its order (see :func:`alike_features`).
ALIKE_FEATURES = (
    "evidence",
    "sources",
    "coda",
    "c3",
    "wordnet",
    "names",
    "authors",
    "culture",
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

    def chance(self, features: tuple[float, ...]) -> float:
        """The chance people picture one colour for a word of these features."""
        z = self.intercept + sum(
            w * (x - m) / s
            for w, x, m, s in zip(self.weights, features, self.mean, self.scale, strict=True)
        )
        e = math.exp(-abs(z))  # (no overflow either side)
        return 1.0 / (1.0 + e) if z >= 0 else e / (1.0 + e)

    def to_json(self) -> dict[str, object]:
        """The rule as ``alike.json`` holds it (beside the file's notes)."""
        return {
            "features": list(ALIKE_FEATURES),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "intercept": self.intercept,
        }


def alike_features(text: str) -> tuple[float, ...]:
    """The features of an English word the rule reads (:data:`ALIKE_FEATURES`): the knowledge's
    evidence; how many sources it has and which (``KNOWLEDGE_SOURCES``' bits); whether it is
    among the common words (``common_words("en")``); its word classes (an adjective, a noun of a
    thing, a noun: :func:`~huescues.language.word_classes`); the share of its reading's main
    basic colour and the reading's entropy (nats) over the 11; whether people gave it as a
    colour's name (XKCD)."""
    knowledge = ObjectColourModel.default()  # (loaded once by the language layer)
    d = np.asarray(knowledge.distribution(text), dtype=np.float64)
    d = d / d.sum()
    sources = set(knowledge.sources(text))
    classes = word_classes(text)
    entropy = float(-(d * np.log(np.maximum(d, 1e-12))).sum())
    return (
        float(knowledge.evidence(text)),
        float(len(sources)),
        *(float(s in sources) for s in ("coda", "c3", "wordnet", "names", "authors", "culture")),
        float(text in common_words("en")),
        float("a" in classes),
        float("t" in classes),
        float("n" in classes),
        float(d.max()),
        entropy,
        float(text in survey_names()),
    )


def _read(language: str, raw: str) -> AlikeRule:
    data = json.loads(raw)
    if tuple(data["features"]) != ALIKE_FEATURES:
        raise ValueError(
            f"{language}/{_FILE}: features {data['features']} are not {ALIKE_FEATURES}"
        )
    return AlikeRule(
        language=language,
        mean=tuple(float(x) for x in data["mean"]),
        scale=tuple(float(x) for x in data["scale"]),
        weights=tuple(float(x) for x in data["weights"]),
        intercept=float(data["intercept"]),
    )


def _rules() -> Mapping[str, AlikeRule]:
    root = resources.files("huescues").joinpath("data", "languages")
    found = {}
    for folder in sorted(root.iterdir(), key=lambda f: f.name):
        path = folder.joinpath(_FILE)
        if folder.is_dir() and path.is_file():
            found[folder.name] = _read(folder.name, path.read_text(encoding="utf-8"))
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


def alike_chance(text: str, language: str = "en") -> float:
    """The chance that people at a game night would picture one colour for the clue ``text``
    (``0.98`` for ``tomato``, ``0.01`` for ``salon``), by the shipped rule of ``language``
    (:func:`alike_rule`; English only: its features read the English knowledge)."""
    return alike_rule(language).chance(alike_features(text))
