"""Speed of the colour-term models (docs/language.md, "Speed"; docs/languages.md). A script,
not a test:

taskset -c 1 python benchmarks/bench_language.py

Prints, on the standard board's 480 squares:

- the wall time of a fresh process from ``import huescues.language`` through ``default_model()``
  to its first reading of a text (median of three processes);
- ``score`` of a text the model has read before: the default model, and the combined model it
  blends with the object colours (median of many calls);
- the first reading of a text the model has not read (the median over 200 common words);
- preparing the Spanish default player for a game (its models loaded, its three listener models
  reading the Spanish vocabulary on the board) in a fresh process with an empty disk cache, and
  then on the retail board (the reading alone), medians of three processes.

numpy's BLAS runs on one thread, as a tournament's workers do.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

#: A fresh process: import, load the default model, read one text on the standard board.
_LOAD = """
import time
t0 = time.perf_counter()
from huescues.engine import Board
from huescues.language import default_model
default_model().score("teal", Board.standard().lab)
print(time.perf_counter() - t0)
"""

#: A fresh process: the Spanish default player prepared for a game on the standard board (its
#: models loaded, their reading of the vocabulary on the board), then, its models loaded, on the
#: retail board (the reading alone).
_SPANISH = """
import time
from huescues.agents import default_agent, prepare
from huescues.engine import Board, Rules
rules = Rules(4, language="es")
t0 = time.perf_counter()
prepare(default_agent("es"), Board.standard(), rules)
t1 = time.perf_counter()
prepare(default_agent("es"), Board.retail(), rules)
print(t1 - t0, time.perf_counter() - t1)
"""


def fresh(code: str, env: dict[str, str]) -> list[float]:
    """The numbers a fresh process running ``code`` prints on its last line."""
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
    )
    return [float(x) for x in out.stdout.strip().splitlines()[-1].split()]


def per_call(fn: Callable[[], object], number: int = 2000) -> float:
    """Median seconds per call of ``fn``, over five runs of ``number`` calls."""
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t0) / number)
    return statistics.median(runs)


def main() -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    load = statistics.median(fresh(_LOAD, env)[0] for _ in range(3))
    print(f"a fresh process: import, default_model() and its first text: {load:.2f} s")

    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)
    from huescues.engine import Board, common_words
    from huescues.language import combined_model, default_model

    lab = Board.standard().lab
    model, combined = default_model(), combined_model()
    model.score("teal", lab)
    seen = per_call(lambda: model.score("teal", lab))
    inner = per_call(lambda: combined.score("teal", lab))
    print(
        f"score of a text read before, 480 squares: {seen * 1e6:.0f} µs "
        f"(the combined model alone {inner * 1e6:.0f} µs)"
    )

    words = [w for w in sorted(common_words()) if w.isalpha() and len(w) > 3][::37][:200]
    firsts = []
    for word in words:
        t0 = time.perf_counter()
        model.score(word, lab)
        firsts.append(time.perf_counter() - t0)
    print(
        f"first reading of a new text: {statistics.median(firsts) * 1e3:.2f} ms "
        f"(median of {len(words)} common words)"
    )

    spanish = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as cache:
            spanish.append(fresh(_SPANISH, {**env, "HUESCUES_CACHE_DIR": cache}))
    whole, reading = (statistics.median(s[i] for s in spanish) for i in (0, 1))
    print(
        f"the Spanish default player prepared for a game, empty disk cache: {whole:.2f} s in a "
        f"fresh process; {reading:.2f} s on a second board, its models loaded"
    )


if __name__ == "__main__":
    main()
