"""The one catalogue of the library's players: every name a front end accepts (a tournament's
``--entrants``, a web table's bots, the terminal game's opponents, a study's ``--giver``, the
research's players) is an entry here, with what a front end needs to know of it. Adding a player
is one entry; a front end that offers a subset chooses it by the entries' fields."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from ._defaults import (
    combined_agent,
    default_agent,
    embedding_agent,
    naming_agent,
    oracle_agent,
    random_agent,
)
from ._languages import player_languages
from ._protocol import Agent

__all__ = [
    "CATALOGUE",
    "ROLES",
    "CatalogueEntry",
    "catalogue_entry",
    "catalogue_help",
    "catalogue_names",
]

#: A role at the table: the clue giver (R8-R11) or a guesser (R10, R12).
Role = Literal["giver", "guesser"]
#: Both roles, in the order of a round.
ROLES: tuple[Role, ...] = ("giver", "guesser")


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """One player of the catalogue.

    ``factory`` takes the language of the player's clues (``factory()`` is the English player,
    ``factory(language="es")`` the Spanish one) and returns a player (an
    :class:`~huescues.agents.Agent`) for one seat: every player it makes is frozen and keeps no
    game state, so tables, games and seats share nothing through it (what it reads is kept in
    the process's :class:`~huescues.agents.Readings`, by model and board). ``roles`` are the
    roles it plays; ``slow`` marks a player that takes long enough over a game (about half a
    second or more, with its readings cached) that tests play it in few games;
    ``sees_target`` marks the oracle, which is shown the target (an upper bound, never a fair
    entrant nor offered by default); ``description`` is one line for help texts.

    ``speaks``: the languages the factory takes, or ``None`` for every language whose pack
    has a ``players.json`` (a language added as a pack is spoken with no change here).
    """

    name: str
    factory: Callable[..., Agent]
    description: str
    roles: tuple[Role, ...] = ROLES
    slow: bool = False
    sees_target: bool = False
    speaks: tuple[str, ...] | None = ("en",)

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip() or " " in self.name:
            raise ValueError(f"a player's name is one word, not {self.name!r}")
        if not self.roles or any(r not in ROLES for r in self.roles):
            raise ValueError(f"{self.name}: roles are among {ROLES}, not {self.roles!r}")
        if not self.description or "\n" in self.description:
            raise ValueError(f"{self.name}: the description is one line")

    @property
    def path(self) -> str:
        """The factory's public ``module:callable`` path, for a worker process to import."""
        return _path(self.factory)

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages the player gives and reads clues in, English first."""
        codes = player_languages() if self.speaks is None else self.speaks
        return ("en", *(c for c in codes if c != "en"))

    @property
    def other_languages(self) -> tuple[tuple[str, Callable[[], Agent]], ...]:
        """The player for clues in each language but English, as (language code, factory)
        pairs: kept from before the factories took a language."""
        return tuple((code, self.factory_for(code)) for code in self.languages[1:])

    def factory_for(self, language: str = "en") -> Callable[[], Agent]:
        """A factory of no arguments for the player of clues in ``language``; a ValueError when
        it does not speak it."""
        if language not in self.languages:
            raise ValueError(
                f"the {self.name} player speaks only {', '.join(self.languages)}, not {language!r}"
            )
        return self.factory if language == "en" else functools.partial(self.factory, language)

    def path_for(self, language: str = "en") -> str:
        """:attr:`path`: a worker builds the player for another language by giving the factory
        the language (:meth:`build`)."""
        self.factory_for(language)
        return self.path

    def build(self, language: str = "en") -> Agent:
        """A player from the factory (for clues in ``language``: a ValueError when the player
        does not speak it)."""
        return self.factory_for(language)()


def _path(factory: Callable[..., Agent]) -> str:
    return f"{factory.__module__}:{factory.__qualname__}"


def _entries(*entries: CatalogueEntry) -> Mapping[str, CatalogueEntry]:
    return MappingProxyType({e.name: e for e in entries})


#: Every player of the library by name, in the order help texts list them.
CATALOGUE: Mapping[str, CatalogueEntry] = _entries(
    CatalogueEntry(
        "default",
        default_agent,
        "the library's best player, on default_model() with ensembles of listeners, a pragmatic "
        "guesser and two-word second clues; speaks Spanish too (a noun and its adjective)",
        slow=True,
        speaks=None,
    ),
    CatalogueEntry(
        "naming",
        naming_agent,
        "a baseline, the same kind of players on the naming data alone, without word vectors",
    ),
    CatalogueEntry(
        "random",
        random_agent,
        "a baseline, with random targets, clue words and squares; speaks Spanish too",
        speaks=None,
    ),
    CatalogueEntry(
        "embedding",
        embedding_agent,
        "the same kind of players on word vectors alone, without the naming data",
    ),
    CatalogueEntry(
        "combined",
        combined_agent,
        "both roles on default_model() alone, one listener model each and no ensembles, literal "
        "guesses",
    ),
    CatalogueEntry(
        "oracle",
        oracle_agent,
        "an upper bound, not a fair player: a guesser shown the target, with the combined "
        "player's clue giver",
        sees_target=True,
    ),
)


def catalogue_entry(name: str) -> CatalogueEntry:
    """The entry called ``name``; a ``ValueError`` names every player otherwise."""
    try:
        return CATALOGUE[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"no player named {name!r}; choose one of {', '.join(CATALOGUE)}"
        ) from None


def catalogue_names(
    *,
    role: Role | None = None,
    sees_target: bool | None = False,
    slow: bool | None = None,
    language: str | None = None,
) -> tuple[str, ...]:
    """The names of the entries that play ``role`` (None: any), with ``sees_target`` and
    ``slow`` as given (None: either) and that speak ``language`` (None: any), in catalogue
    order. By default every fair player: the oracle, which sees the target, only when asked for
    (``sees_target=None`` or ``True``)."""
    return tuple(
        e.name
        for e in CATALOGUE.values()
        if (role is None or role in e.roles)
        and (sees_target is None or e.sees_target == sees_target)
        and (slow is None or e.slow == slow)
        and (language is None or language in e.languages)
    )


def catalogue_help(names: Iterable[str] | None = None) -> str:
    """Each player of ``names`` (None: every one) with its description, ``"name (what); ..."``,
    for a command's help."""
    chosen = CATALOGUE if names is None else [catalogue_entry(n).name for n in names]
    return "; ".join(f"{n} ({CATALOGUE[n].description})" for n in chosen)
