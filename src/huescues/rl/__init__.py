"""Reinforcement learning (``docs/rl.md``): a vectorised environment over the batched engine for
both roles (:class:`BatchedEnv`, numpy only), and PettingZoo environments: the guessing role game
by game (:class:`GuessingEnv`, AEC) and every role over one batched game
(:class:`ParallelGameEnv`, Parallel).

The PettingZoo environments need the ``rl`` extra (``pip install huescues[rl]``); PettingZoo is
imported only when one of them is first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._batched import ROLES, BatchedEnv, Bot
    from ._env import GuessingEnv, clue_indices, default_clue_vocabulary
    from ._parallel import ParallelGameEnv

__all__ = [
    "ROLES",
    "BatchedEnv",
    "Bot",
    "GuessingEnv",
    "ParallelGameEnv",
    "clue_indices",
    "default_clue_vocabulary",
]

_MODULES = {
    "ROLES": "_batched",
    "BatchedEnv": "_batched",
    "Bot": "_batched",
    "GuessingEnv": "_env",
    "clue_indices": "_env",
    "default_clue_vocabulary": "_env",
    "ParallelGameEnv": "_parallel",
}


def __getattr__(name: str) -> object:
    if name in _MODULES:
        try:
            module = importlib.import_module(f"huescues.rl.{_MODULES[name]}")
        except ImportError as e:
            if e.name is not None and e.name.split(".")[0] in ("pettingzoo", "gymnasium"):
                raise ImportError(
                    f"huescues.rl.{name} needs PettingZoo and Gymnasium: pip install 'huescues[rl]'"
                ) from e
            raise
        obj = getattr(module, name)
        if getattr(obj, "__qualname__", "") and obj.__module__ == module.__name__:
            obj.__module__ = __name__  # shown where it is used from, as the other packages do
        return obj
    raise AttributeError(f"module 'huescues.rl' has no attribute {name!r}")
