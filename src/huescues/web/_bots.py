"""The bots a web table may seat. They play at a guarded :class:`~huescues.agents.Table` (a
bot that raises, answers illegally or stalls loses that decision to the random agent's move,
as in tournaments); their decisions run off the event loop.

A table has a language (``Rules.language``): its ``default`` bot is
``default_agent(language=...)`` when the agents take a language (else the English default
agent, whose clues are English words: the Spanish rules still judge them), and ``random`` plays
as it does everywhere. The other bots read and give English clues; the page labels them so at a
table of another language (:func:`bot_choices`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from huescues.agents import CATALOGUE, Agent, catalogue_names, default_agent
from huescues.engine import DEFAULT_LANGUAGE

__all__ = ["BOT_KINDS", "bot_choices", "bot_languages", "build_bot", "default_speaks"]

#: The bots a seat can hold, by the name the page and the API use: every fair player of the
#: catalogue (the oracle sees the target: never at a table of people).
BOT_KINDS: dict[str, Callable[[], Agent]] = {
    name: CATALOGUE[name].factory for name in catalogue_names(sees_target=False)
}


def default_speaks() -> bool:
    """Whether ``default_agent`` takes a ``language`` (the Spanish player)."""
    try:
        return "language" in inspect.signature(default_agent).parameters
    except (TypeError, ValueError):  # pragma: no cover - not introspectable
        return False


def bot_languages(kind: str, languages: tuple[str, ...]) -> list[str]:
    """The table languages whose clues ``kind`` reads and gives: every one for ``random``
    (random words, in any language), every one for ``default`` once the agents take a
    language, else English only."""
    if kind == "random" or (kind == "default" and default_speaks()):
        return list(languages)
    return [DEFAULT_LANGUAGE]


def bot_choices(languages: tuple[str, ...] = (DEFAULT_LANGUAGE,)) -> list[dict[str, object]]:
    """The bots the page offers, in catalogue order: each kind's name, description and the
    table languages it speaks (:func:`bot_languages`)."""
    return [
        {
            "kind": kind,
            "description": CATALOGUE[kind].description if kind in CATALOGUE else "",
            "languages": bot_languages(kind, languages),
        }
        for kind in BOT_KINDS
    ]


def build_bot(kind: str, language: str = DEFAULT_LANGUAGE) -> Agent:
    """A new bot of ``kind`` (one of :data:`BOT_KINDS`) for a table in ``language``."""
    if kind == "default" and language != DEFAULT_LANGUAGE and default_speaks():
        build: Callable[..., Agent] = default_agent
        return build(language=language)
    return BOT_KINDS[kind]()
