"""Reinforcement learning: a PettingZoo AEC environment for the guessing role (``docs/rl.md``).

Needs the ``rl`` extra (``pip install huescues[rl]``); PettingZoo is imported only when
:class:`GuessingEnv` is first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._env import GuessingEnv, clue_indices, default_clue_vocabulary

__all__ = ["GuessingEnv", "clue_indices", "default_clue_vocabulary"]


def __getattr__(name: str) -> object:
    if name in __all__:
        try:
            module = importlib.import_module("huescues.rl._env")
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
