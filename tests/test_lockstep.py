"""Many games played together (run_together) and the players' batch decisions: the same games,
clues, pawns and faults as game by game; agents written for the old batch hooks still batch."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from huescues import Action, GameRecord, GameState, Phase, View
from huescues.agents import (
    ModelClueGiver,
    Player,
    RandomAgent,
    Readings,
    SignalTimer,
    Table,
    abilities,
    default_agent,
    joins_batches,
    naming_agent,
    run_together,
)
from huescues.agents._abilities import BatchDecision  # private: the batch decisions' type

SEEDS = range(40, 46)


def _lineup(seed: int) -> list[Player]:
    return [default_agent() if (seed + s) % 2 else naming_agent() for s in range(4)]


def _records(states: Sequence[GameState | None]) -> list[str]:
    return [GameRecord.of(s).to_json() for s in states if s is not None]


def _alone(seeds: range, guard: bool = False) -> list[str]:
    states = []
    for seed in seeds:
        with SignalTimer(10.0) as timer:
            table = Table(_lineup(seed), seed=seed, guard=timer if guard else None)
            states.append(table.run(table.start()))
    return _records(states)


#: How many views each batch decision was asked for, by kind.
ASKED: dict[str, list[int]] = {"pawns": [], "second clues": []}


@dataclass(frozen=True, slots=True)
class _Counted(Player):
    """A player whose batch decisions are its halves', counted."""

    @property
    def place_pawns(self) -> BatchDecision | None:
        return _count("pawns", Player.place_pawns.fget(self))  # type: ignore[attr-defined]

    @property
    def give_second_clues(self) -> BatchDecision | None:
        return _count("second clues", Player.give_second_clues.fget(self))  # type: ignore[attr-defined]


def _count(kind: str, decide: BatchDecision | None) -> BatchDecision | None:
    if decide is None:
        return None

    def counted(views: Sequence[View], rngs: Sequence[np.random.Generator]) -> list[Action]:
        ASKED[kind].append(len(views))
        return decide(views, rngs)

    return counted


def _counted(player: Player) -> Player:
    return _Counted(player.giver, player.guesser)


@pytest.mark.slow
def test_games_played_together_are_the_games_played_one_by_one() -> None:
    alone = _alone(SEEDS, guard=True)
    for asked in ASKED.values():
        asked.clear()
    with SignalTimer(10.0) as timer:
        tables = [
            Table([_counted(p) for p in _lineup(seed)], seed=seed, guard=timer) for seed in SEEDS
        ]
        for t in tables:
            t.start()
        ended = [i for i, error in run_together(tables) if error is None]
    assert sorted(ended) == list(range(len(tables)))
    assert all(not t.faults for t in tables)
    assert _records([t.state for t in tables]) == alone
    # The pawns and second clues were decided for many games at once.
    assert max(ASKED["pawns"]) >= 2 and max(ASKED["second clues"]) >= 2


@dataclass(frozen=True, slots=True)
class _Failing(Player):
    """A player whose batch decisions draw from every game's generator, then raise: the games
    are those played one by one all the same."""

    @property
    def place_pawns(self) -> BatchDecision | None:
        return functools.partial(_fail, "pawns")

    @property
    def give_second_clues(self) -> BatchDecision | None:
        return functools.partial(_fail, "second clues")


def _fail(kind: str, views: Sequence[View], rngs: Sequence[np.random.Generator]) -> list[Action]:
    ASKED[kind].append(len(views))
    for rng in rngs:
        rng.random()
    raise RuntimeError("no batch today")


@pytest.mark.slow
def test_a_failing_batch_decision_changes_nothing() -> None:
    seeds = range(40, 44, 2)  # the same seats for the default players
    alone = _alone(seeds)
    lineups = [
        [_Failing(a.giver, a.guesser) if a == default_agent() else a for a in _lineup(s)]
        for s in seeds
    ]
    tables = [Table(agents, seed=s) for agents, s in zip(lineups, seeds, strict=True)]
    for t in tables:
        t.start()
    for asked in ASKED.values():
        asked.clear()
    assert [e for _, e in run_together(tables)] == [None, None]
    assert _records([t.state for t in tables]) == alone
    assert max(ASKED["pawns"]) >= 2 and max(ASKED["second clues"]) >= 2


class _OldHooks:
    """A third-party agent written for the batch hooks before batch decisions returned actions:
    ``prepare_pawns(views)`` and ``prepare_second_clues(views)``, then its decisions one by
    one. It plays random moves and notes what the hooks were given."""

    def __init__(self) -> None:
        self.prepared: list[tuple[str, int]] = []
        random = RandomAgent()
        self.choose_target = random.choose_target
        self.give_clue = random.give_clue
        self.give_second_clue = random.give_second_clue
        self.place_pawn = random.place_pawn

    def __hash__(self) -> int:
        return 0  # every one equal: its games are grouped

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _OldHooks)

    def prepare_pawns(self, views: Sequence[View]) -> None:
        self.prepared.append(("pawns", len(views)))

    def prepare_second_clues(self, views: Sequence[View]) -> None:
        self.prepared.append(("second clues", len(views)))


def test_agents_with_the_old_batch_hooks_are_asked_through_an_adapter() -> None:
    seeds = range(50, 56)

    def play(together: bool) -> tuple[list[str], list[_OldHooks]]:
        agents = [[_OldHooks() for _ in range(4)] for _ in seeds]
        tables = [Table(a, seed=s) for a, s in zip(agents, seeds, strict=True)]
        for t in tables:
            t.start()
        if together:
            assert all(joins_batches(t) for t in tables)
            assert [e for _, e in run_together(tables)] == [None] * len(tables)
        else:
            for t in tables:
                t.run()
        return _records([t.state for t in tables]), [a for row in agents for a in row]

    alone, unused = play(together=False)
    together, hooked = play(together=True)
    assert together == alone
    assert not any(a.prepared for a in unused)
    hooks = {kind: max(n for a in hooked for k, n in a.prepared if k == kind) for kind in ASKED}
    assert hooks["pawns"] >= 2 and hooks["second clues"] >= 2
    adapted = abilities(_OldHooks())
    assert adapted.place_pawns is not None and adapted.give_second_clues is not None


def _second_clue_views(n: int) -> list[View]:
    """Views of the default giver at second clues, from games of default players."""
    views: list[View] = []
    seed = 0
    while len(views) < n:
        table = Table([default_agent() for _ in range(4)], seed=seed)
        state = table.start()
        while state.current_player is not None and len(views) < n:
            if state.phase is Phase.SECOND_CLUE:
                views.append(state.view(state.current_player))
            table.step()
            state = table.state
            assert state is not None
        seed += 1
    return views


@pytest.mark.slow
def test_second_clues_given_together_are_the_clues_given_one_by_one() -> None:
    # The batch makes each game's screening totals ahead: they must be the very bits of the
    # product the game makes alone, or a clue could differ.
    giver = default_agent().giver
    assert isinstance(giver, ModelClueGiver)
    views = _second_clue_views(8)
    assert len({v.board.id for v in views}) < len(views)  # games share a board: a batch
    rngs = [np.random.default_rng(i) for i in range(len(views))]
    alone = [giver.give_second_clue(v, rng) for v, rng in zip(views, rngs, strict=True)]
    fresh = dataclasses.replace(giver, store=Readings())
    assert fresh.give_second_clues(views, rngs) == alone
    assert giver.give_second_clues(views[::-1], rngs[::-1]) == alone[::-1]


def test_only_tables_with_a_batching_bot_join_batches() -> None:
    assert not joins_batches(Table([RandomAgent() for _ in range(3)], seed=1))
    assert joins_batches(Table([RandomAgent(), naming_agent(), RandomAgent()], seed=1))
