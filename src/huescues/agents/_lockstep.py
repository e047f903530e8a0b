"""Many tables played together: each game steps as :meth:`Table.run` steps it, but where
several games wait on the same kind of decision that an agent can make for many games at once
(its ``place_pawns(views, rngs)`` or ``give_second_clues(views, rngs)``, see
:func:`~huescues.agents.abilities`), the agent is asked once for all of them, and each game's
action is applied through its own table's guard, as any decision is (:meth:`Table.step_with`).

This is the one loop besides :meth:`Table.run` that steps games, and it steps many: the
tournament's workers play their batch of games through it. A batch decision is each game's
decision with the game's generator, so the games, their faults and their results are those
that :meth:`Table.run` plays game by game; an agent without batch decisions (most third-party
agents) is simply asked game by game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from huescues.engine import Action, GameState, Phase, View

from ._abilities import Abilities, BatchDecision, abilities
from ._readings import Same
from ._table import DecisionTimeout, Table

__all__ = ["joins_batches", "run_together"]

#: The kinds of decision made for many games at once: pawns (R10, R12) and second clues (R11).
_KINDS = {
    Phase.SECOND_CLUE: "second clue",
    Phase.FIRST_GUESS: "pawn",
    Phase.SECOND_GUESS: "pawn",
}

#: Per seat: its bot's abilities and its group (agents equal in value decide alike).
_Seat = tuple[Abilities, int]


def run_together(tables: Sequence[Table]) -> Iterator[tuple[int, BaseException | None]]:
    """Run every table (started) as :meth:`Table.run` would, in lockstep: yield
    ``(position, error)`` as each stops (its game over, or a person's decision pending), with
    the exception its run raised, if any.

    At each round's second clue and at each pawn, the games whose bot decides them for many
    games at once are grouped by agent (agents equal in value decide alike), and each group's
    agent is asked once, under the first table's guard (its time limit), for every game's
    action, which each table then applies through its guard (:meth:`Table.step_with`). A batch
    that fails or runs out of time changes nothing (the games' generators are put back as they
    were): its games are then asked one by one, as they would be anyway."""
    groups: dict[object, int] = {}
    seats = [_seats(table, groups) for table in tables]
    untils = [_waits_for_batch(table, s) for table, s in zip(tables, seats, strict=True)]
    live = list(range(len(tables)))
    # The games waiting, by kind of decision. Each pass steps the games of the kind most of
    # them wait on, and the others wait on: games fall out of step (a pass skips the second
    # guesses), and those at a second clue would otherwise be asked in ever smaller batches.
    waiting: dict[str, list[int]] = {}
    while live or waiting:
        for i in live:
            table = tables[i]
            try:
                state = table.run(until=untils[i])
            except Exception as e:
                yield i, e
                continue
            if untils[i](state):
                waiting.setdefault(_KINDS[state.phase], []).append(i)
            else:
                yield i, None
        if not waiting:
            break
        kind = max(waiting, key=lambda k: len(waiting[k]))
        now = waiting.pop(kind)
        decided = _decide_together(tables, seats, now)
        live = []
        for i in now:
            try:
                action = decided.get(i)
                if action is None:
                    tables[i].step()
                else:
                    tables[i].step_with(action)
            except Exception as e:
                yield i, e
                continue
            live.append(i)


def joins_batches(table: Table) -> bool:
    """Whether any of ``table``'s bots decides for many games at once (``place_pawns``,
    ``give_second_clues``): only then is its game worth playing together with others (a runner
    plays the rest one by one, each started as it is played, so that a killed run has finished
    every game but the one in play)."""
    return any(found.batches for found, _ in _seats(table, {}))


def _seats(table: Table, groups: dict[object, int]) -> list[_Seat]:
    """Each seat's :data:`_Seat`; ``groups`` numbers the agents equal in value (across
    tables), so that a pause groups its games by a number, not by hashing agents. A table
    that asks its bots its own way (an overridden :meth:`Table.decide`, :meth:`Table.turn` or
    :meth:`Table.view`) or whose guard abandons decisions (a thread cannot be stopped, and a
    batch holds many games' generators) is not played in batches."""
    plain = not table.overrides_decisions and (table.guard is None or not table.guard.abandons)
    out: list[_Seat] = []
    for agent in table.agents:
        found = abilities(agent)
        if not plain or not found.batches:
            out.append((found, -1))
            continue
        try:
            key: object = (type(agent), agent)
            hash(key)
        except TypeError:  # an agent that is not hashable: the group of that one object
            key = Same(agent)
        out.append((found, groups.setdefault(key, len(groups))))
    return out


def _waits_for_batch(table: Table, seats: list[_Seat]) -> Callable[[GameState], bool]:
    """Whether a state waits on a decision from a bot that can make it for many games."""

    def until(state: GameState) -> bool:
        seat = state.current_player
        if seat is None or seat in table.retired:
            return False
        found, group = seats[seat]
        return group >= 0 and found.batch(state.phase) is not None

    return until


def _decide_together(
    tables: Sequence[Table], seats: Sequence[list[_Seat]], waiting: list[int]
) -> dict[int, Action]:
    """The actions of the games ``waiting`` that their groups' agents decided together, by
    position (a group of one game is asked as usual, by its table)."""
    groups: dict[int, list[int]] = {}
    for i in waiting:
        state = tables[i].state
        assert state is not None and state.current_player is not None
        groups.setdefault(seats[i][state.current_player][1], []).append(i)
    out: dict[int, Action] = {}
    for members in groups.values():
        if len(members) >= 2:
            out.update(_batch(tables, seats, members))
    return out


def _batch(
    tables: Sequence[Table], seats: Sequence[list[_Seat]], members: list[int]
) -> dict[int, Action]:
    """One group's batch decision, under its first table's guard; nothing when it fails."""
    first = tables[members[0]]
    state = first.state
    assert state is not None and state.current_player is not None
    decide = seats[members[0]][state.current_player][0].batch(state.phase)
    assert decide is not None
    views: list[View] = []
    rngs = []
    for i in members:
        table = tables[i]
        now = table.state
        assert now is not None and now.current_player is not None
        views.append(table.view(now, now.current_player))
        rngs.append(table.generator(now, now.current_player))
    # As they are, to be put back if the batch fails after drawing from some.
    before = [rng.bit_generator.state for rng in rngs]
    try:
        actions = _guarded(first, decide, views, rngs)
        if isinstance(actions, list) and len(actions) == len(members):
            return dict(zip(members, actions, strict=True))
    except (Exception, DecisionTimeout):
        pass  # the decisions are made one by one
    for rng, was in zip(rngs, before, strict=True):
        rng.bit_generator.state = was
    return {}


def _guarded(
    table: Table,
    decide: BatchDecision,
    views: list[View],
    rngs: list[Any],
) -> list[Action]:
    """``decide(views, rngs)`` under ``table``'s guard (its time limit), if it has one."""
    state = table.state
    assert state is not None and state.current_player is not None

    def work(_state: GameState, _seat: int) -> Any:
        return decide(views, rngs)

    if table.guard is None:
        out: list[Action] = work(state, state.current_player)
        return out
    decided, _ = table.guard.call(work, state, state.current_player)
    return decided  # type: ignore[return-value]
