"""Many tables played together: each game steps as :meth:`Table.run` steps it, but where
several games wait on the same kind of decision that an agent can prepare for many games at
once (its optional ``prepare_second_clues(views)``), the agent does that work for all of them
before each game's decision is asked, one by one, as usual.

This is the one loop besides :meth:`Table.run` that steps games, and it steps many: the
tournament's workers play their batch of games through it. Every decision is still asked of
its seat's agent alone, guarded by its table, with the seat's generator, so the games, their
faults and their results are those that :meth:`Table.run` plays game by game; an agent
without the method (every third-party agent) is simply asked game by game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from huescues.engine import GameState, Phase, View

from ._table import DecisionTimeout, Table

__all__ = ["BATCH_HOOK", "joins_batches", "run_together"]

#: The optional agent method a lockstep run calls with the views of many games waiting on a
#: second clue (R11): work done at once for all of them; it decides nothing.
BATCH_HOOK = "prepare_second_clues"

_SECOND_CLUE = Phase.SECOND_CLUE


def run_together(tables: Sequence[Table]) -> Iterator[tuple[int, BaseException | None]]:
    """Run every table (started) as :meth:`Table.run` would, in lockstep: yield
    ``(position, error)`` as each stops (its game over, or a person's decision pending), with
    the exception its run raised, if any.

    At each round's second clue, the games whose giver has :data:`BATCH_HOOK` are grouped by
    agent (agents equal in value decide alike) and the hook is called once per group, under
    the first table's guard (its time limit), before the games' decisions are asked one by
    one. A hook that fails or runs out of time is ignored: the decisions are then made from
    scratch, as they would be anyway."""
    live = list(range(len(tables)))
    while live:
        waiting: list[int] = []
        for i in live:
            table = tables[i]
            try:
                state = table.run(until=_waits_for_batch(table))
            except Exception as e:
                yield i, e
                continue
            if _batchable(table, state):
                waiting.append(i)
            else:
                yield i, None
        _prepare_together(tables, waiting)
        live = []
        for i in waiting:
            try:
                tables[i].step()
            except Exception as e:
                yield i, e
                continue
            live.append(i)


def joins_batches(table: Table) -> bool:
    """Whether any of ``table``'s bots has :data:`BATCH_HOOK`: only then is its game worth
    playing together with others (a runner plays the rest one by one, each started as it is
    played, so that a killed run has finished every game but the one in play)."""
    return any(a is not None and callable(getattr(a, BATCH_HOOK, None)) for a in table.agents)


def _waits_for_batch(table: Table) -> Callable[[GameState], bool]:
    def until(state: GameState) -> bool:
        return _batchable(table, state)

    return until


def _batchable(table: Table, state: GameState) -> bool:
    """Whether ``state`` waits on a second clue from a bot that can prepare it in a batch."""
    seat = state.current_player
    if seat is None or state.phase is not _SECOND_CLUE or seat in table.retired:
        return False
    agent = table.agents[seat]
    return agent is not None and callable(getattr(agent, BATCH_HOOK, None))


def _prepare_together(tables: Sequence[Table], waiting: list[int]) -> None:
    groups: dict[object, list[tuple[int, View]]] = {}
    for i in waiting:
        table = tables[i]
        state = table.state
        assert state is not None and state.current_player is not None
        seat = state.current_player
        agent = table.agents[seat]
        try:
            key: object = (type(agent), agent)
            hash(key)
        except TypeError:  # an agent that is not hashable: its own group
            key = id(agent)
        groups.setdefault(key, []).append((i, table.view(state, seat)))
    for members in groups.values():
        if len(members) >= 2:
            _call_hook(tables[members[0][0]], [view for _, view in members])


def _call_hook(table: Table, views: list[View]) -> None:
    """The hook of the agent of ``table``'s pending seat, for ``views``, under the table's
    guard; what it raises (or a timeout) is ignored."""
    state = table.state
    assert state is not None and state.current_player is not None
    hook: Callable[[list[View]], object] = getattr(table.agents[state.current_player], BATCH_HOOK)

    def work(_state: GameState, _seat: int) -> Any:
        hook(views)
        return None

    try:
        if table.guard is None:
            work(state, state.current_player)
        else:
            table.guard.call(work, state, state.current_player)
    except (Exception, DecisionTimeout):
        pass  # the decisions are made without it
