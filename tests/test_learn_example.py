"""examples/learn_guesser.py runs a few iterations (a smoke test; the full run is in docs/rl.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "learn_guesser", ROOT / "examples/learn_guesser.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["learn_guesser"] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_the_guesser_learns_in_a_few_iterations() -> None:
    """R8: it sees only the clue ids and empty squares; after a little training its greedy
    guesses already beat random ones on the same deals (R15)."""
    ex = example()
    table, curve = ex.learn(3, 10, 32, seed=1)
    assert len(curve) == 3 and table.count.sum() > 0
    learned = ex.evaluate(table, 64, seed=2)
    rand = ex.evaluate(None, 64, seed=2)
    assert learned.shape == rand.shape == (64,)
    assert np.isfinite(learned).all() and learned.mean() > rand.mean()
