"""Entrants: a name and the agent factory that builds the entrant's player, as a string, so that
only strings cross process boundaries and every worker builds its own agents. The built-in
entrants are the players of :data:`huescues.agents.CATALOGUE`."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from huescues.agents import CATALOGUE, Agent, embedding_agent

__all__ = [
    "BUILTIN_ENTRANTS",
    "Entrant",
    "build_agent",
    "embedding_agent",
    "entrant",
]

#: Entrants by name: every player of the catalogue, by its factory's ``module:callable`` path.
#: The oracle sees the target: an upper bound, never a default entrant.
BUILTIN_ENTRANTS: dict[str, str] = {name: e.path for name, e in CATALOGUE.items()}

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True, slots=True)
class Entrant:
    """A tournament entrant: its ``name`` in the results and a ``factory``, a built-in entrant's
    name or a ``"module:callable"`` path to a callable that takes no arguments and returns an
    :class:`~huescues.agents.Agent` (a class, a function or a ``functools.partial`` at module
    level, so that any worker can import it)."""

    name: str
    factory: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"an entrant's name is a non-empty string, not {self.name!r}")
        _factory_path(self.factory)


def _factory_path(factory: str) -> str:
    """The ``module:callable`` path of a factory string (a built-in name or a path)."""
    if not isinstance(factory, str):
        raise ValueError(f"an entrant factory is a string, not {factory!r}")
    if factory in BUILTIN_ENTRANTS:
        return BUILTIN_ENTRANTS[factory]
    module, sep, attr = factory.partition(":")
    if not sep or not _PATH.fullmatch(module) or not _PATH.fullmatch(attr):
        raise ValueError(
            f"no entrant is called {factory!r}: give a built-in entrant "
            f"({', '.join(sorted(BUILTIN_ENTRANTS))}) or a 'module:callable' path"
        )
    return factory


def entrant(spec: str) -> Entrant:
    """An entrant from a spec: a built-in name (``"random"``), a ``"module:callable"`` path
    (named by the path), or ``"name=module:callable"`` to name it. The factory is imported now,
    so that a bad spec fails before any game is played; the error names the spec."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"bad entrant {spec!r}: give a built-in name or a 'module:callable' path")
    spec = spec.strip()
    name, sep, factory = spec.partition("=")
    if not sep:
        name, factory = spec, spec
    name, factory = name.strip(), factory.strip()
    if not name or not _NAME.fullmatch(name.replace(":", "_")):
        raise ValueError(f"bad entrant {spec!r}: the name {name!r} is not usable")
    try:
        result = Entrant(name, factory)
        load_factory(result.factory)
    except (ValueError, ImportError, AttributeError) as e:
        raise ValueError(f"bad entrant {spec!r}: {e}") from e
    return result


def load_factory(factory: str) -> Callable[[], Agent]:
    """The callable a factory string names, imported (once per process)."""
    path = _factory_path(factory)
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ImportError(
            f"cannot import module {module_name!r} of entrant {factory!r}: {e}"
        ) from e
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AttributeError(f"module {module_name!r} has no {attr!r} (entrant {factory!r})")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{path!r} is not callable (entrant {factory!r})")
    fn: Callable[[], Agent] = obj
    return fn


def build_agent(factory: str, language: str = "en") -> Agent:
    """A fresh agent from a factory string (one per seat and game, so that no state is shared
    between games and results do not depend on which worker played what before), for clues in
    ``language``: a built-in entrant named by its catalogue name that speaks the language is
    built for it (:meth:`~huescues.agents.CatalogueEntry.build`); any other entrant is built as
    it is (an English-only player keeps giving English clues, which the game's rules judge)."""
    found = CATALOGUE.get(factory)
    if found is not None and language in found.languages:
        return found.build(language)
    return load_factory(factory)()
