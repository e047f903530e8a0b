"""The players' side of each language pack, as data: the clue givers' vocabulary and the default
player's listener models (``data/languages/CODE/players.json``). Adding a language is adding
its pack (and the language layer's reading of it, :func:`~huescues.language.named_model`): no
player code names a language.

The packs are read when this module is imported (two small files a language), so that each
vocabulary is one tuple for the whole process."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from ._alike import is_chance
from ._grammar import Grammar, read_grammar
from ._pooled import Pooled

__all__ = ["PlayersPack", "clue_vocabulary", "names_in", "player_languages", "players_pack"]

_FILE = "players.json"

#: A listener model of a player, by name, or an ensemble of them.
Names = str | tuple[str, ...]
#: A clue giver a guesser imagines, by its listener models' names: averaged, or pooled
#: (a :class:`~huescues.agents.Pooled` of names).
Speaker = Names | Pooled


@dataclass(frozen=True, slots=True)
class PlayersPack:
    """What the players need in one language: the givers' vocabulary (most used first), and the
    default player's listener models by name (:data:`~huescues.language.MODEL_NAMES`, read in
    this language: :func:`names_in`) and how many of its best words its second clue pairs."""

    code: str
    vocabulary: tuple[str, ...]
    giver_models: tuple[str, ...]
    guesser_models: tuple[str, ...]
    #: The clue givers the default guesser imagines: each a giver's listener models by name,
    #: averaged, or pooled with weights (``{"models": [...], "pool": [...]}`` in the file).
    speakers: tuple[Speaker, ...]
    pair_from: int
    #: How the giver's listener models are combined: one weight a model, their beliefs pooled
    #: geometrically (:func:`~huescues.agents.pooled_model`), or ``None``: averaged.
    giver_pool: tuple[float, ...] | None = None
    #: How its second clue's two words go together (a noun, then its adjective agreeing:
    #: :class:`~huescues.agents.Grammar`), from the file's ``grammar``; ``None``: the better of
    #: the two words first, as English pairs them.
    grammar: Grammar | None = None
    #: The default giver says only words people picture alike at least this likely
    #: (:func:`~huescues.agents.alike_chance`), from the file's ``alike_from``; ``None``: any
    #: word of the vocabulary.
    alike_from: float | None = None


def names_in(names: Speaker, language: str) -> Speaker:
    """Model names as a player in ``language`` gives them: the names themselves in English,
    ``"NAME-CODE"`` otherwise (``"naming-es"``: the naming data reading Spanish); a pool's
    names so, its weights kept."""
    if language == "en":
        return names
    if isinstance(names, Pooled):
        models = names.models if isinstance(names.models, tuple) else (names.models,)
        named = tuple(f"{n}-{language}" for n in models if isinstance(n, str))
        if len(named) != len(models):
            raise ValueError(f"a pool of models by name, not {names!r}")
        return Pooled(named if isinstance(names.models, tuple) else named[0], names.weights)
    if isinstance(names, str):
        return f"{names}-{language}"
    return tuple(f"{n}-{language}" for n in names)


def _names(value: Any, where: str) -> Names:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(n, str) for n in value):
        return tuple(value)
    raise ValueError(f"{where}: a model's name or a list of names, not {value!r}")


def _speaker(value: Any, where: str) -> Speaker:
    """A ``speakers`` entry: names (averaged), or ``{"models": [...], "pool": [...]}``."""
    if isinstance(value, dict):
        if set(value) != {"models", "pool"}:
            raise ValueError(
                f"{where}: a pooled speaker is {{'models': [...], 'pool': [...]}}, not {value!r}"
            )
        models = _names(value["models"], where)
        weights = _pool(value["pool"], len(models) if isinstance(models, tuple) else 1, where)
        assert weights is not None
        return Pooled(models, weights)
    return _names(value, where)


def _vocabulary(path: str) -> tuple[str, ...]:
    """The words of a vocabulary file of the package's data folder: a ``.tsv`` file's first
    column under its header, or the words of any other file."""
    text = resources.files("huescues").joinpath("data", *path.split("/")).read_text("utf-8")
    if path.endswith(".tsv"):
        return tuple(line.split("\t")[0] for line in text.splitlines()[1:] if line)
    return tuple(text.split())


def _read(code: str, raw: str) -> PlayersPack:
    data = json.loads(raw)
    player = data["default_player"]
    where = f"data/languages/{code}/{_FILE}"
    giver, guesser = _names(player["giver_models"], where), _names(player["guesser_models"], where)
    return PlayersPack(
        code=code,
        vocabulary=_vocabulary(str(data["vocabulary"])),
        giver_models=(giver,) if isinstance(giver, str) else giver,
        guesser_models=(guesser,) if isinstance(guesser, str) else guesser,
        speakers=tuple(_speaker(s, where) for s in player["speakers"]),
        pair_from=int(player["pair_from"]),
        giver_pool=_pool(
            player.get("giver_pool"), len(giver) if isinstance(giver, tuple) else 1, where
        ),
        grammar=read_grammar(str(data["grammar"])) if "grammar" in data else None,
        alike_from=_share(player.get("alike_from"), where),
    )


def _share(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if is_chance(value):
        return float(value)
    raise ValueError(f"{where}: alike_from is a chance from 0 to 1, not {value!r}")


def _pool(value: Any, n: int, where: str) -> tuple[float, ...] | None:
    if value is None:
        return None
    if (
        isinstance(value, list)
        and len(value) == n
        and all(isinstance(w, int | float) and w >= 0 for w in value)
        and value[0] > 0
    ):
        return tuple(float(w) for w in value)
    raise ValueError(
        f"{where}: a pool (giver_pool) is one weight for each of the {n} models (none below zero, "
        f"the first above), not {value!r}"
    )


def _packs() -> Mapping[str, PlayersPack]:
    root = resources.files("huescues").joinpath("data", "languages")
    found = {}
    for folder in sorted(root.iterdir(), key=lambda f: f.name):
        pack = folder.joinpath(_FILE)
        if folder.is_dir() and pack.is_file():
            found[folder.name] = _read(folder.name, pack.read_text(encoding="utf-8"))
    return MappingProxyType(found)


#: Every players' pack that ships, by language code.
PACKS = _packs()


def player_languages() -> tuple[str, ...]:
    """The languages the players speak: those whose pack has a ``players.json``, sorted."""
    return tuple(PACKS)


def players_pack(language: str) -> PlayersPack:
    """The players' pack of ``language``; a ValueError names the languages otherwise."""
    pack = PACKS.get(language)
    if pack is None:
        raise ValueError(
            f"unknown language {language!r}: the players speak "
            f"{', '.join(map(repr, player_languages()))}"
        )
    return pack


def clue_vocabulary(language: str = "en") -> tuple[str, ...]:
    """The shipped vocabulary of the clue givers in ``language``, one tuple per language.
    English (the default): 3,395 common English words people use in colour names, most used
    first (made by ``scripts/make_clue_vocabulary.py``). Spanish (``"es"``): 774 common Spanish
    words, each the Spanish reading's translation of one of the English words, in their order
    (made by ``scripts/make_clue_vocabulary_es.py``, docs/languages.md). Another language is a
    ValueError."""
    pack = PACKS.get(language)
    if pack is None:
        raise ValueError(
            f"unknown language {language!r}: the givers speak "
            f"{', '.join(map(repr, player_languages()))}"
        )
    return pack.vocabulary
