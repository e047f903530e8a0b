"""The bots a web table may seat. They play at a guarded :class:`~huescues.agents.Table` (a
bot that raises, answers illegally or stalls loses that decision to the random agent's move,
as in tournaments); their decisions run off the event loop.

A table has a language (``Rules.language``): a bot that speaks it (the catalogue's
:attr:`~huescues.agents.CatalogueEntry.languages`: ``default`` and ``random`` speak Spanish) is
built for it; the others read and give English clues, which the table's rules still judge, and
the page labels them so (:func:`bot_choices`).
"""

from __future__ import annotations

from collections.abc import Callable

from huescues.agents import CATALOGUE, Agent, catalogue_names
from huescues.engine import DEFAULT_LANGUAGE

from ._pages import page_texts

__all__ = [
    "BOT_KINDS",
    "STAND_IN",
    "bot_choices",
    "bot_languages",
    "build_bot",
    "seat_name",
    "speaks",
]

#: The bot that plays for a person who is away: the table language's default player.
STAND_IN = "default"

#: The bots a seat can hold, by the name the page and the API use: every fair player of the
#: catalogue (the oracle sees the target: never at a table of people).
BOT_KINDS: dict[str, Callable[[], Agent]] = {
    name: CATALOGUE[name].factory for name in catalogue_names(sees_target=False)
}


def bot_languages(kind: str, languages: tuple[str, ...]) -> list[str]:
    """The table languages, of ``languages``, whose clues ``kind`` reads and gives."""
    speaks = CATALOGUE[kind].languages if kind in CATALOGUE else (DEFAULT_LANGUAGE,)
    return [code for code in languages if code in speaks]


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
    """A new bot of ``kind`` (one of :data:`BOT_KINDS`) for a table in ``language``: the
    player for that language where it speaks it, else its English self."""
    entry = CATALOGUE.get(kind)
    if entry is not None and language in entry.languages:
        return entry.build(language)
    return BOT_KINDS[kind]()


def speaks(kind: str, language: str) -> bool:
    """Whether the bot ``kind`` reads and gives clues in ``language``."""
    return bool(bot_languages(kind, (language,)))


def seat_name(kind: str, seat: int, language: str = DEFAULT_LANGUAGE) -> str:
    """A seat's name when none was given, in the table's language: "Player 3", "Jugador 3",
    "Default bot 2", "Bot predeterminado 2"."""
    texts = page_texts(language)
    if kind == "person":
        return str(texts.get("index.player", "Player {n}")).format(n=seat + 1)
    label = str(texts.get(f"bot.kind.{kind}", kind.title()))
    return str(texts.get("seat.bot", "{kind} bot {n}")).format(kind=label, n=seat + 1)
