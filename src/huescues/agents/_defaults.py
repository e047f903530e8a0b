"""The library's players, ready to seat: the default player and the baselines and bound around
it, each a :class:`~huescues.agents.Player` of a clue giver and a guesser."""

from __future__ import annotations

from ._giver import ModelClueGiver
from ._guesser import ModelGuesser
from ._languages import names_in, player_languages, players_pack
from ._player import OracleGuesser, Player
from ._random import RandomAgent

__all__ = [
    "DEFAULT_PAIR_FROM",
    "combined_agent",
    "default_agent",
    "embedding_agent",
    "naming_agent",
    "oracle_agent",
    "random_agent",
    "spanish_default_agent",
]

#: The default clue giver's second clue is one word or two of its 8 best words together (the
#: phrases read in one batch per model, docs/agents.md): the English pack's.
DEFAULT_PAIR_FROM = players_pack("en").pair_from


def default_agent(language: str = "en") -> Player:
    """The library's best player of both roles (settings chosen in ``docs/agents.md``): a new
    one each call, so that no two seats or tables share a player (what it reads from the
    models is shared, kept in the process's :class:`~huescues.agents.Readings`).

    ``language``: the language of its clues and of the clues it reads, ``"en"`` (the default),
    ``"es"`` or any language whose pack has a ``players.json`` (another is a ValueError). The
    pack names its listener models (:data:`DEFAULT_GIVER_MODELS` in English; in Spanish each
    model reads Spanish through the shipped Spanish-to-English table) and its vocabulary
    (``clue_vocabulary(language)``, whose words pass that language's clue rules) and, where
    adjectives agree with nouns, its grammar: the Spanish player's two-word second clue is a
    noun and then its adjective in its gender (``bosque profundo``, ``agua turbia``), said only
    if the pair read in English is one people say. See ``docs/languages.md``."""
    try:
        pack = players_pack(language)
    except ValueError:
        raise ValueError(
            f"unknown language {language!r}: the default player speaks "
            f"{', '.join(map(repr, player_languages()))}"
        ) from None
    giver = names_in(pack.giver_models, language)
    return Player(
        ModelClueGiver(
            model=giver,
            pair_from=pack.pair_from,
            pool=pack.giver_pool,
            grammar=pack.grammar,
            alike_from=pack.alike_from,
        ),
        ModelGuesser(
            model=names_in(pack.guesser_models, language),
            pragmatic=True,
            speakers=tuple(names_in(s, language) for s in pack.speakers),
        ),
    )


def spanish_default_agent() -> Player:
    """``default_agent("es")``, by its name before factories took a language (kept: a
    tournament's or a program's factory may name it)."""
    return default_agent("es")


def combined_agent(language: str = "en") -> Player:
    """Both roles on ``default_model()`` alone: one listener model each, no ensembles, a literal
    guesser (:class:`ModelClueGiver` and :class:`ModelGuesser` as they come). The name is the
    default players' before the ensembles, when the default model was the combined one; the
    players read with whatever ``default_model()`` is now (the blend)."""
    return _on("default", language)


def naming_agent(language: str = "en") -> Player:
    """A baseline: the same players on the naming data alone (no word vectors)."""
    return _on("naming", language)


def embedding_agent(language: str = "en") -> Player:
    """The same players on word vectors alone (no naming data)."""
    return _on("embedding", language)


def oracle_agent(language: str = "en") -> Player:
    """The upper bound: :func:`combined_agent`'s clue giver (``default_model()`` alone) and an
    :class:`OracleGuesser`."""
    return Player(combined_agent(language).giver, OracleGuesser())


def random_agent(language: str = "en") -> RandomAgent:
    """A :class:`RandomAgent`, which gives its clues in the game's language, whatever
    ``language`` (the catalogue's factories take one)."""
    players_pack(language)
    return RandomAgent()


def _on(name: str, language: str) -> Player:
    """Both roles on the model called ``name`` alone, in ``language``."""
    grammar = players_pack(language).grammar  # (an unknown language is a ValueError)
    model = names_in(name, language)
    return Player(ModelClueGiver(model=model, grammar=grammar), ModelGuesser(model=model))
