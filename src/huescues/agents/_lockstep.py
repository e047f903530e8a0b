"""Many tables played together: each game steps as :meth:`Table.run` steps it, but where
several games wait on the same kind of decision that an agent can prepare for many games at
once (its optional ``prepare_second_clues(views)`` or ``prepare_pawns(views)``), the agent does
that work for all of them before each game's decision is asked, one by one, as usual.

This is the one loop besides :meth:`Table.run` that steps games, and it steps many: the
tournament's workers play their batch of games through it. Every decision is still asked of
its seat's agent alone, guarded by its table, with the seat's generator, so the games, their
faults and their results are those that :meth:`Table.run` plays game by game; an agent
without the methods (every third-party agent) is simply asked game by game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from huescues.engine import GameState, Phase, View

from ._table import DecisionTimeout, Table

__all__ = ["BATCH_HOOK", "PAWN_HOOK", "joins_batches", "run_together"]

#: The optional agent method a lockstep run calls with the views of many games waiting on a
#: second clue (R11): work done at once for all of them; it decides nothing.
BATCH_HOOK = "prepare_second_clues"
#: The same for many games waiting on a pawn (R10, R12).
PAWN_HOOK = "prepare_pawns"

#: The hook of each phase that has one.
_HOOKS = {
    Phase.SECOND_CLUE: BATCH_HOOK,
    Phase.FIRST_GUESS: PAWN_HOOK,
    Phase.SECOND_GUESS: PAWN_HOOK,
}


def run_together(tables: Sequence[Table]) -> Iterator[tuple[int, BaseException | None]]:
    """Run every table (started) as :meth:`Table.run` would, in lockstep: yield
    ``(position, error)`` as each stops (its game over, or a person's decision pending), with
    the exception its run raised, if any.

    At each round's second clue and at each pawn, the games whose bot has the phase's hook
    (:data:`BATCH_HOOK`, :data:`PAWN_HOOK`) are grouped by agent (agents equal in value decide
    alike) and the hook is called once per group, under the first table's guard (its time
    limit), before the games' decisions are asked one by one. A hook that fails or runs out of
    time is ignored: the decisions are then made from scratch, as they would be anyway."""
    # Per table, once: each seat's phases with a hook and its group (the agent's, by value).
    groups: dict[object, int] = {}
    seats = [_seats(table, groups) for table in tables]
    untils = [_waits_for_batch(table, hooks) for table, hooks in zip(tables, seats, strict=True)]
    live = list(range(len(tables)))
    # The games waiting, by hook. Each pass steps the games of the hook most of them wait on,
    # and the others wait on: games fall out of step (a pass skips the second guesses), and
    # those at a second clue would otherwise be asked in ever smaller batches.
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
                waiting.setdefault(_HOOKS[state.phase], []).append(i)
            else:
                yield i, None
        if not waiting:
            break
        hook = max(waiting, key=lambda h: len(waiting[h]))
        now = waiting.pop(hook)
        _prepare_together(tables, seats, hook, now)
        live = []
        for i in now:
            try:
                tables[i].step()
            except Exception as e:
                yield i, e
                continue
            live.append(i)


def joins_batches(table: Table) -> bool:
    """Whether any of ``table``'s bots has a hook (:data:`BATCH_HOOK`, :data:`PAWN_HOOK`): only
    then is its game worth playing together with others (a runner plays the rest one by one,
    each started as it is played, so that a killed run has finished every game but the one in
    play)."""
    return any(hooks for hooks, _ in _seats(table, {}))


#: Per seat: the phases whose decision its bot can prepare in a batch, and its group.
_Seat = tuple[frozenset[Phase], int]


def _seats(table: Table, groups: dict[object, int]) -> list[_Seat]:
    """Each seat's :data:`_Seat`; ``groups`` numbers the agents equal in value (across
    tables), so that a pause groups its games by a number, not by hashing agents."""
    out: list[_Seat] = []
    for agent in table.agents:
        phases = frozenset(p for p, hook in _HOOKS.items() if callable(getattr(agent, hook, None)))
        if agent is None or not phases:
            out.append((frozenset(), -1))
            continue
        try:
            key: object = (type(agent), agent)
            hash(key)
        except TypeError:  # an agent that is not hashable: its own group
            key = id(agent)
        out.append((phases, groups.setdefault(key, len(groups))))
    return out


def _waits_for_batch(table: Table, seats: list[_Seat]) -> Callable[[GameState], bool]:
    """Whether a state waits on a decision from a bot that can prepare it in a batch."""

    def until(state: GameState) -> bool:
        seat = state.current_player
        return seat is not None and state.phase in seats[seat][0] and seat not in table.retired

    return until


def _prepare_together(
    tables: Sequence[Table], seats: Sequence[list[_Seat]], hook: str, waiting: list[int]
) -> None:
    """Call ``hook`` for the games ``waiting`` on it, once per group of equal agents."""
    groups: dict[int, list[tuple[int, View]]] = {}
    for i in waiting:
        table = tables[i]
        state = table.state
        assert state is not None and state.current_player is not None
        seat = state.current_player
        groups.setdefault(seats[i][seat][1], []).append((i, table.view(state, seat)))
    for members in groups.values():
        if len(members) >= 2:
            _call_hook(tables[members[0][0]], hook, [view for _, view in members])


def _call_hook(table: Table, name: str, views: list[View]) -> None:
    """The hook ``name`` of the agent of ``table``'s pending seat, for ``views``, under the
    table's guard; what it raises (or a timeout) is ignored."""
    state = table.state
    assert state is not None and state.current_player is not None
    hook: Callable[[list[View]], object] = getattr(table.agents[state.current_player], name)

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
