"""The consent text a study shows, made from what the study stores (so it never promises what
the data contradict), and the check of a researcher's own text (``--consent FILE``) for the same:
what is stored and the text does not say."""

from __future__ import annotations

import re

from ._pages import page_texts
from ._study_config import StudyConfig

__all__ = ["consent_keys", "consent_text", "consent_warnings"]


def consent_keys(config: StudyConfig, kind: str) -> list[list[str]]:
    """The built-in consent text of a ``kind`` study (``guess``, ``give``, ``game``) as its
    paragraphs' sentences, by their keys in the language packs' pages (the page shows them in
    its reader's language): what the study is, what it stores (the answers and their timing;
    the answers to the checks, when it has any, and that they may end the study only when more
    attention checks can be missed than are allowed; the screen; the panel's ids, which are stored
    whenever the study's address carries them), that the questions are optional, how the data
    are used, and that taking part is voluntary."""
    stored = [f"consent.stored.{kind}"]
    if config.attention_checks > config.attention_misses_allowed:
        stored.append("consent.stored.checks")  # "... and they may end the study early"
    elif config.attention_checks or config.colour_plates:
        # Too few attention checks to miss more than allowed, and the plates end nothing.
        stored.append("consent.stored.checks_kept")
    stored += ["consent.stored.screen", "consent.stored.panel", "consent.optional", "consent.use"]
    return [[f"consent.intro.{kind}"], stored, ["consent.voluntary"]]


def consent_text(config: StudyConfig, kind: str, language: str = "en") -> tuple[str, ...]:
    """The built-in consent text's paragraphs in ``language``."""
    texts = page_texts(language)
    english = page_texts("en")
    return tuple(
        " ".join(str(texts.get(key, english[key])) for key in paragraph)
        for paragraph in consent_keys(config, kind)
    )


#: What a study stores, and words a consent text that says so uses.
_MENTIONS: tuple[tuple[str, str, str], ...] = (
    (
        "panel",
        r"panel|prolific|participant[ _-]?id|PROLIFIC_PID",
        "the panel's ids (PROLIFIC_PID, STUDY_ID, SESSION_ID, participant_id) when the "
        "study's address carries them",
    ),
    ("screen", r"screen|display|pantalla", "the screen's size, pixel density and colour depth"),
    ("timing", r"how long|time|tiempo|tardas|tardaste", "how long each answer took"),
)


def consent_warnings(config: StudyConfig, paragraphs: tuple[str, ...]) -> list[str]:
    """What a study stores that the researcher's consent text (``paragraphs``, from
    ``--consent``) never mentions; empty for the built-in text, which says it all."""
    if config.consent is None:
        return []
    text = " ".join(paragraphs)
    return [what for _, words, what in _MENTIONS if not re.search(words, text, re.IGNORECASE)]
