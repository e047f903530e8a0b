"""The one catalogue of players: its entries and fields, and every front end's choices read from
it (the tournament's built-in entrants, the web's bots, the terminal's opponents, the study's
givers, the research's players), with every name and description in the help texts."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from huescues import agents
from huescues.agents import (
    CATALOGUE,
    ROLES,
    CatalogueEntry,
    Player,
    RandomAgent,
    catalogue_entry,
    catalogue_help,
    catalogue_names,
    combined_agent,
    default_agent,
    embedding_agent,
    naming_agent,
    oracle_agent,
    player_languages,
    random_agent,
    sees_target,
)
from huescues.research import DEFAULT_GUESSERS, library_players
from huescues.terminal import OPPONENTS
from huescues.tournament import BUILTIN_ENTRANTS, entrant
from huescues.tournament import embedding_agent as tournament_embedding_agent

NAMES = ("default", "naming", "random", "embedding", "combined", "oracle")


def test_the_catalogue_holds_the_players_by_name_with_their_factories() -> None:
    assert tuple(CATALOGUE) == NAMES
    factories = {e.name: e.factory for e in CATALOGUE.values()}
    assert factories == {
        "default": default_agent,
        "naming": naming_agent,
        "random": random_agent,
        "embedding": embedding_agent,
        "combined": combined_agent,
        "oracle": oracle_agent,
    }
    for name, entry in CATALOGUE.items():
        assert entry.name == name and catalogue_entry(name) is entry
        assert entry.roles == ROLES  # every player plays both roles, so far
        assert entry.description and "\n" not in entry.description
    with pytest.raises(TypeError):
        CATALOGUE["new"] = CATALOGUE["random"]  # type: ignore[index]


def test_the_factories_take_a_language_and_the_packs_say_which() -> None:
    # A language is data (a pack's players.json): the players that speak every language speak
    # each pack's, and each factory builds its player for a language it speaks.
    assert "en" in player_languages() and "es" in player_languages()
    for entry in CATALOGUE.values():
        for language in entry.languages:
            assert entry.factory(language=language) == entry.build(language)
        assert entry.factory() == entry.factory(language="en") == entry.build()
        assert dict(entry.other_languages).keys() == set(entry.languages) - {"en"}
        if entry.speaks is None:
            assert entry.languages == ("en", *(c for c in player_languages() if c != "en"))
    assert isinstance(random_agent("es"), RandomAgent)
    with pytest.raises(ValueError, match="'fr'"):
        naming_agent("fr")


def test_the_fields_say_which_player_is_slow_and_which_sees_the_target() -> None:
    assert catalogue_names(slow=True, sees_target=None) == ("default",)
    assert catalogue_names(sees_target=True) == ("oracle",)
    assert catalogue_names() == ("default", "naming", "random", "embedding", "combined")
    assert catalogue_names(role="giver", sees_target=None) == NAMES
    for entry in CATALOGUE.values():
        assert sees_target(entry.build()) is entry.sees_target


@pytest.mark.parametrize("name", NAMES)
def test_a_factory_makes_frozen_players_that_share_no_state(name: str) -> None:
    entry = CATALOGUE[name]
    a, b = entry.build(), entry.factory()
    assert a == b  # the same player every time: the same decisions
    for part in [a, *(getattr(a, role) for role in ROLES if isinstance(a, Player))]:
        params = getattr(type(part), "__dataclass_params__", None)
        assert params is not None and params.frozen, f"{name}: {type(part).__name__} is not frozen"


def test_the_embedding_players_live_in_agents_and_the_old_import_works() -> None:
    assert tournament_embedding_agent is embedding_agent
    assert embedding_agent.__module__ == "huescues.agents"
    assert entrant("huescues.tournament:embedding_agent").factory


def test_a_bad_name_lists_every_player() -> None:
    with pytest.raises(ValueError, match="choose one of default, naming, random"):
        catalogue_entry("wizard")


def test_an_entry_is_checked() -> None:
    with pytest.raises(ValueError, match="one word"):
        CatalogueEntry("two words", RandomAgent, "x")
    with pytest.raises(ValueError, match="roles"):
        CatalogueEntry("x", RandomAgent, "x", roles=("talker",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one line"):
        CatalogueEntry("x", RandomAgent, "a\nb")


def test_the_tournaments_built_in_entrants_are_the_catalogue() -> None:
    assert list(BUILTIN_ENTRANTS) == list(CATALOGUE)
    for name, path in BUILTIN_ENTRANTS.items():
        module, _, attr = path.partition(":")
        assert getattr(importlib.import_module(module), attr) is CATALOGUE[name].factory
        assert entrant(name).factory == name


def test_the_terminals_opponents_are_the_fair_players() -> None:
    assert catalogue_names(sees_target=False) == OPPONENTS
    assert "oracle" not in OPPONENTS


def test_the_webs_bots_and_the_studys_givers_are_from_the_catalogue() -> None:
    pytest.importorskip("starlette")
    from huescues.web._bots import BOT_KINDS, bot_choices
    from huescues.web._study_config import GIVERS

    assert {n: CATALOGUE[n].factory for n in catalogue_names()} == BOT_KINDS
    assert {n: CATALOGUE[n].factory for n in catalogue_names(role="giver")} == GIVERS
    assert [{k: b[k] for k in ("kind", "description")} for b in bot_choices()] == [
        {"kind": n, "description": CATALOGUE[n].description} for n in catalogue_names()
    ]


def test_the_research_players_are_from_the_catalogue() -> None:
    assert set(DEFAULT_GUESSERS) <= set(CATALOGUE)
    players = library_players()
    assert list(players) == ["EmbeddingGuesser()", "default_agent()", "naming baseline"]
    assert players["EmbeddingGuesser()"] == combined_agent().guesser
    assert players["default_agent()"] == default_agent()
    assert players["naming baseline"] == naming_agent()


def test_the_help_text_names_every_player_with_its_description() -> None:
    text = catalogue_help()
    for entry in CATALOGUE.values():
        assert f"{entry.name} ({entry.description})" in text
    assert catalogue_help(["random"]) == f"random ({CATALOGUE['random'].description})"


def _help(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "huescues", *args, "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return " ".join(done.stdout.split())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "names"),
    [
        (("tournament",), NAMES),
        (("play",), catalogue_names()),
        (("serve",), catalogue_names(role="giver")),
    ],
)
def test_every_commands_help_lists_its_players(
    command: tuple[str, ...], names: tuple[str, ...]
) -> None:
    text = _help(*command)
    for name in names:
        description = " ".join(CATALOGUE[name].description.split())
        # argparse wraps at hyphens too: compare without the spaces it may add.
        assert f"{name} ({description})".replace(" ", "") in text.replace(" ", "")


def test_the_agents_package_exports_the_catalogue() -> None:
    for name in ("CATALOGUE", "CatalogueEntry", "catalogue_entry", "catalogue_names"):
        assert name in agents.__all__


def test_the_web_page_reads_its_bots_and_bounds_from_the_server(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from huescues.engine import MAX_PLAYERS, MIN_PLAYERS
    from huescues.web import create_app

    with TestClient(create_app(str(tmp_path / "db.sqlite"))) as client:
        setup = client.get("/api/setup").json()
    from huescues.web._bots import bot_languages

    assert setup == {
        "bots": [
            {
                "kind": n,
                "description": CATALOGUE[n].description,
                "languages": bot_languages(n, ("en", "es")),
            }
            for n in catalogue_names()
        ],
        # The tables' languages (issue 22) and the server's default.
        "languages": ["en", "es"],
        "language": "en",
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
        # Whether the lobby shows the leaderboard (huescues serve --leaderboard).
        "leaderboard": False,
        # What the house rules allow (issue 21): R7's rounds each, the reveal's wait.
        "house_rules": {
            "max_rounds_per_giver": 3,
            "reveal_seconds": 60.0,
            "max_reveal_seconds": 600.0,
        },
        # The table's settings (issue 31): who is away after how long, the turn timer, the board.
        "options": {
            "away_seconds": 45,
            "turn_seconds": 0,
            "board": "standard",
            "waiting_room": False,
            "boards": ["standard", "retail"],
            "max_seconds": 600,
        },
    }


def test_the_model_players_have_names_that_do_not_mislead() -> None:
    from huescues.agents import (
        EmbeddingClueGiver,
        EmbeddingGuesser,
        ModelClueGiver,
        ModelGuesser,
    )

    assert ModelGuesser is EmbeddingGuesser and ModelClueGiver is EmbeddingClueGiver
    assert combined_agent() == Player(ModelClueGiver(), ModelGuesser())
    assert {"ModelGuesser", "ModelClueGiver"} <= set(agents.__all__)


def test_only_default_model_is_called_the_default() -> None:
    from huescues.language import standard_models

    labels = list(standard_models())
    assert "combined" in labels and not any("default" in label for label in labels)
    assert "default_model()" in CATALOGUE["combined"].description
