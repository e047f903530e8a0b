"""Conformance of the library's players, as the Axelrod library tests every strategy: each built-in
tournament entrant, and the oracle, plays by the rules under the independent checker
(:func:`huescues.testing.check_games`) in one seat and, where a game is cheap, in every seat and
under a rules variant and another board; it survives pickling; and it plays the same game twice
from the same seed (R27).

A new entrant in ``BUILTIN_ENTRANTS`` is picked up here without a change. The default players take
about 0.7 s a game, so they are checked in fewer games than the others.
"""

from __future__ import annotations

import importlib
import pickle
from collections.abc import Callable

import numpy as np
import pytest

from huescues import Board, Rules
from huescues.agents import (
    Agent,
    PlayedGame,
    RandomAgent,
    catalogue_names,
    oracle_agent,
    play_game,
)
from huescues.testing import check_games
from huescues.tournament import BUILTIN_ENTRANTS, entrant

Factory = Callable[[], Agent]


def _factory(name: str) -> Factory:
    """The agent factory of a built-in entrant, through its public ``module:callable`` path."""
    entrant(name)  # a built-in name is a valid entrant spec, and its factory imports
    module, _, attr = BUILTIN_ENTRANTS[name].partition(":")
    obj: object = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    assert callable(obj)
    factory: Factory = obj
    return factory


#: Every built-in entrant, and the oracle (an entrant too, but named here in case it leaves).
PLAYERS: dict[str, Factory] = {name: _factory(name) for name in BUILTIN_ENTRANTS} | {
    "oracle": oracle_agent
}
#: Players too slow to check in every seat: the catalogue says which.
SLOW = frozenset(catalogue_names(slow=True, sees_target=None))
CHEAP = sorted(set(PLAYERS) - SLOW)
N = 4  # players in the checked games


def _at(name: str, seat: int) -> Callable[[int], list[Agent]]:
    """Agents for ``check_games``: the player at ``seat``, random agents elsewhere."""

    def agents(n: int) -> list[Agent]:
        lineup: list[Agent] = [RandomAgent() for _ in range(n)]
        lineup[seat] = PLAYERS[name]()
        return lineup

    return agents


def _everywhere(name: str) -> Callable[[int], list[Agent]]:
    """Agents for ``check_games``: the player in every seat."""
    return lambda n: [PLAYERS[name]() for _ in range(n)]


def _lineup(agent: Agent) -> list[Agent]:
    """Three seats, the agent in two of them (so that it gives clues in 4 of the 6 rounds and
    guesses in the rest), a random agent in the third."""
    return [agent, RandomAgent(), agent]


def _same(a: PlayedGame, b: PlayedGame) -> bool:
    return a.record == b.record and a.state == b.state


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "seat"),
    [(name, 0) for name in sorted(SLOW)] + [(name, seat) for name in CHEAP for seat in range(N)],
)
def test_plays_by_the_rules_in_a_seat_among_random_agents(name: str, seat: int) -> None:
    games = 2 if name in SLOW else 1
    report = check_games(Rules.standard(N), games=games, seed=100 + seat, agents=_at(name, seat))
    assert report.games == games
    assert report.rounds >= games * Rules.standard(N).regular_rounds


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_plays_by_the_rules_against_itself(name: str) -> None:
    # Three players: the giver scores 2 a pawn (R16).
    report = check_games(Rules.standard(3), games=1, seed=200, agents=_everywhere(name))
    assert report.games == 1


VARIANT = Rules.standard(
    5,
    first_clue_words=2,
    second_clue_words=3,
    second_clue_may_pass=False,
    second_guess_order="same",
    points_by_distance=(4, 2, 1),
    banned_terms=(*Rules.standard(5).banned_terms, "sea", "sky", "grass", "ocean"),
)


@pytest.mark.slow
@pytest.mark.parametrize("name", CHEAP)
def test_plays_by_the_rules_of_a_variant(name: str) -> None:
    report = check_games(VARIANT, games=1, seed=300, agents=_at(name, 1))
    assert report.passes == 0  # R11: the variant forbids passing


@pytest.mark.parametrize(
    # A player with a language model first reads its whole vocabulary on the new board (seconds,
    # for whichever comes first): the slow tier. The random player keeps the test quick.
    "name",
    [n if n == "random" else pytest.param(n, marks=pytest.mark.slow) for n in CHEAP],
)
def test_plays_by_the_rules_on_a_small_board(name: str) -> None:
    # 6 x 8 random colours: the deck is generated for the board (R1, R3).
    board = Board.from_rgb(np.random.default_rng(5).integers(0, 256, (6, 8, 3)))
    report = check_games(Rules.standard(N), board, games=1, seed=400, agents=_at(name, 2))
    assert report.games == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_pickles_and_the_copy_plays_the_same_game(name: str) -> None:
    agent = PLAYERS[name]()
    played = play_game(_lineup(agent), seed=500)
    # Pickled after a game, so that whatever the agent keeps between decisions is pickled too.
    copy = pickle.loads(pickle.dumps(agent))
    assert type(copy) is type(agent)
    assert _same(play_game(_lineup(copy), seed=500), played)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_plays_the_same_game_twice_from_the_same_seed(name: str) -> None:
    agent = PLAYERS[name]()
    first = play_game(_lineup(agent), seed=600)
    assert first.state.is_terminal
    # The same agent again (nothing carried over from the first game), and a new one (R27).
    assert _same(play_game(_lineup(agent), seed=600), first)
    assert _same(play_game(_lineup(PLAYERS[name]()), seed=600), first)
