"""The bots a web table may seat. They play at a guarded :class:`~huescues.agents.Table` (a
bot that raises, answers illegally or stalls loses that decision to the random agent's move,
as in tournaments); their decisions run off the event loop."""

from __future__ import annotations

from collections.abc import Callable

from huescues.agents import CATALOGUE, Agent, catalogue_names

__all__ = ["BOT_KINDS", "bot_choices", "build_bot"]

#: The bots a seat can hold, by the name the page and the API use: every fair player of the
#: catalogue (the oracle sees the target: never at a table of people).
BOT_KINDS: dict[str, Callable[[], Agent]] = {
    name: CATALOGUE[name].factory for name in catalogue_names(sees_target=False)
}


def bot_choices() -> list[dict[str, str]]:
    """The bots the page offers, in catalogue order: each kind's name and description."""
    return [
        {"kind": kind, "description": CATALOGUE[kind].description if kind in CATALOGUE else ""}
        for kind in BOT_KINDS
    ]


def build_bot(kind: str) -> Agent:
    """A new bot of ``kind`` (one of :data:`BOT_KINDS`)."""
    return BOT_KINDS[kind]()
