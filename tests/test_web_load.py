"""A small, bounded version of benchmarks/bench_web.py: simulated people playing at once
against one real server on loopback, over WebSockets, with no errors (issue 14)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

#: Many simulated clients against a real server: the slow tier.
pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_web.py"


def test_clients_play_at_once_against_one_server_without_errors() -> None:
    spec = importlib.util.spec_from_file_location("bench_web", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_web", bench)  # dataclasses look their module up
    spec.loader.exec_module(bench)
    outcomes, _ = bench.run(n_clients=8, max_actions=12, time_limit=60)
    assert len(outcomes) == 8
    assert [e for o in outcomes for e in o.errors] == []
    # Every client made its moves, and each move's state came back.
    assert all(len(o.times) == 12 or o.finished for o in outcomes)
