"""Reading clues in the language people saw them in (issue 22): per category, the points of a
model reading the word each person was shown (``shown_word``, in ``shown_language``) beside the
model reading the study's English wording of the same clue."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues.engine import Rules
from huescues.language import ColourTermModel, Prediction, default_model, in_view

from ._categories import CategoryReport, agreement_by_category
from ._responses import HumanResponses, Response

__all__ = ["LANGUAGE_CODES", "agreement_by_language"]

FloatArray = NDArray[np.float64]

#: The study's names of languages and the library's codes.
LANGUAGE_CODES = {"spanish": "es", "english": "en"}


class _Via:
    """A colour-term model that reads each shown word as ``(model, text)`` says."""

    def __init__(self, readings: Mapping[str, tuple[ColourTermModel, str]]) -> None:
        self.readings = {k.casefold(): v for k, v in readings.items()}

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        model, said = self.readings[text.casefold()]
        return model.score(said, lab)

    def predict(self, text: str) -> Prediction:
        model, said = self.readings[text.casefold()]
        return model.predict(said)

    def in_view(self, lab: ArrayLike) -> _Via:
        """Each word's model read against the colours in view (each model once)."""
        viewed: dict[int, ColourTermModel] = {}
        for model, _ in self.readings.values():
            if id(model) not in viewed:
                viewed[id(model)] = in_view(model, lab)
        return _Via({k: (viewed[id(m)], said) for k, (m, said) in self.readings.items()})


def agreement_by_language(
    responses: HumanResponses,
    models: Mapping[str, ColourTermModel] | None = None,
    *,
    language: str | None = None,
    n_boot: int = 2000,
    seed: int = 0,
    rules: Rules | None = None,
) -> CategoryReport:
    """:func:`agreement_by_category` on the words people saw: the picks grouped by
    ``shown_word`` (``language``: only the picks shown in that language, ``"spanish"`` or
    ``"english"``), measured for two readings: ``"shown word"``, each word read by the model of
    the language it was shown in (``models``: language code -> model, by default
    ``default_model(code)``), and ``"English clue"``, the study's English ``clue`` read by the
    English model. Responses need ``shown_word`` and ``shown_language`` columns."""
    chosen = dict(models or {})
    rows: list[Response] = []
    shown: dict[str, tuple[ColourTermModel, str]] = {}
    english: dict[str, tuple[ColourTermModel, str]] = {}
    en_model = chosen.get("en") or default_model()
    for r in responses.rows:
        lang = str(r.extra.get("shown_language", "")).strip().lower()
        word = str(r.extra.get("shown_word", "")).strip()
        if not word or (language is not None and lang != language):
            continue
        code = LANGUAGE_CODES.get(lang)
        if code is None:
            raise ValueError(f"line {r.line}: unknown shown_language {lang!r}")
        model = chosen.get(code) or default_model(code)
        shown[word] = (model, word)
        english[word] = (en_model, r.clue)
        rows.append(Response(word, r.square, r.participant, r.extra, r.line))
    if not rows:
        raise ValueError("no responses with a shown word to measure")
    by_word = HumanResponses(responses.board, tuple(rows), source=responses.source)
    players = {"shown word": _Via(shown), "English clue": _Via(english)}
    return agreement_by_category(by_word, players, n_boot=n_boot, seed=seed, rules=rules)
