"""Bots at a web table, guarded: a bot that raises, answers illegally or stalls loses that
decision to the random agent's move, as in tournaments; decisions run off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import numpy as np

from huescues.agents import CATALOGUE, Agent, RandomAgent, catalogue_names, decide, prepare
from huescues.engine import Action, GameState, IllegalAction

__all__ = ["BOT_KINDS", "bot_choices", "build_bot", "guarded_move", "prepare_bot"]

#: The bots a seat can hold, by the name the page and the API use: every fair player of the
#: catalogue (the oracle sees the target: never at a table of people).
BOT_KINDS: dict[str, Callable[[], Agent]] = {
    name: CATALOGUE[name].factory for name in catalogue_names(sees_target=False)
}


def bot_choices() -> list[dict[str, str]]:
    """The bots the page offers, in catalogue order: each kind's name and description."""
    return [
        {"kind": kind, "description": CATALOGUE[kind].description if kind in CATALOGUE else ""}
        for kind in BOT_KINDS
    ]


_FALLBACK = RandomAgent()


def build_bot(kind: str) -> Agent:
    """A new bot of ``kind`` (one of :data:`BOT_KINDS`)."""
    return BOT_KINDS[kind]()


async def prepare_bot(agent: Agent, state: GameState) -> str | None:
    """Prepare ``agent`` for the game (outside any time limit, off the event loop); the error
    text if it failed (the seat then plays the random agent's moves)."""
    try:
        await asyncio.to_thread(prepare, agent, state.board, state.rules)
    except Exception as e:
        return f"{type(e).__name__}: {e}"[:300]
    return None


def fallback_move(state: GameState, seat: int, rng: np.random.Generator) -> Action:
    """The random agent's move for ``seat``: the penalty for a faulty decision."""
    return decide(_FALLBACK, state.view(seat), rng)


async def guarded_move(
    agent: Agent,
    state: GameState,
    seat: int,
    rng: np.random.Generator,
    fallback_rng: np.random.Generator,
    limit: float,
) -> tuple[GameState, str | None, bool]:
    """The state after ``agent``'s decision for ``seat``, run in a worker thread for at most
    ``limit`` seconds. On a fault (an exception, an illegal answer, no answer in time) the
    random agent's move is played instead, with ``fallback_rng`` (the stalled thread may still
    hold ``rng``). Returns the new state, the fault's text or ``None``, and whether the bot
    stalled (a thread cannot be stopped, so a stalled bot should not be asked again)."""
    view = state.view(seat)
    fault: str | None
    stalled = False
    try:
        action = await asyncio.wait_for(asyncio.to_thread(decide, agent, view, rng), limit)
        return state.apply(action, seat=seat), None, False
    except TimeoutError:
        fault, stalled = f"no decision within {limit:g} s", True
    except IllegalAction as e:
        fault = f"illegal decision: {e}"
    except Exception as e:
        fault = f"{type(e).__name__}: {e}"
    return state.apply(fallback_move(state, seat, fallback_rng), seat=seat), fault[:300], stalled
