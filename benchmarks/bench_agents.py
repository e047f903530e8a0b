"""Speed and memory of the default players. A script, not a test:

taskset -c 1 python benchmarks/bench_agents.py           # everything
taskset -c 1 python benchmarks/bench_agents.py --cold    # cold start and memory only

The cold start and memory are measured in fresh processes (``sys.executable``, with this
process's environment, so ``PYTHONPATH`` chooses the tree measured): the wall time of a
``python -c`` process that imports the library, plays one default 4-player game and exits; the
time from ``import huescues`` to the first decision of such a game (the players prepared as
``play_game`` prepares them: models loaded, the vocabulary read on the board); and the peak
resident memory (``ru_maxrss``) of a process that plays five default 4-player games.

The rest runs numpy's BLAS on one thread, as a tournament's workers do: pinned to one core, a
second BLAS thread only waits for the first (it made the default game twice as slow here).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from huescues import ChooseTarget, GiveClue, Phase, PlacePawn, View, new_game, play_game
from huescues.agents import (
    DEFAULT_GIVER_MODELS,
    EmbeddingClueGiver,
    EmbeddingGuesser,
    clue_vocabulary,
    default_agent,
    naming_agent,
)
from huescues.engine import common_words
from huescues.language import default_model


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``fn`` over ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def late_guess_view() -> View:
    """A guesser's view at the first guess of a game's last regular round, default players."""
    agent, rng = default_agent(), np.random.default_rng(0)
    state = new_game(4, seed=3)
    last = state.rules.regular_rounds - 1
    while not (state.round == last and state.phase is Phase.FIRST_GUESS):
        seat = state.current_player or 0
        view = state.view(seat)
        act = {
            Phase.CHOOSE_TARGET: agent.choose_target,
            Phase.FIRST_CLUE: agent.give_clue,
            Phase.SECOND_CLUE: agent.give_second_clue,
        }.get(state.phase, agent.place_pawn)
        state = state.apply(act(view, rng))
    return state.view(state.current_player or 0)


#: A fresh process's first game, and nothing else.
_FIRST_GAME = """
from huescues.agents import default_agent, play_game
play_game([default_agent()] * 4, seed=0)
"""

#: A fresh process's steps, timed, and its peak memory after five games (seeds 0-4).
_STEPS = """
import json, resource, time
t0 = time.perf_counter()
from huescues.agents import GameLoop, default_agent, play_game
t_import = time.perf_counter() - t0
loop = GameLoop([default_agent()] * 4, seed=0)
state = loop.start()
loop.decide(state, state.current_player)
t_first = time.perf_counter() - t0
play_game([default_agent()] * 4, seed=0)
t_game = time.perf_counter() - t0
later = []
for seed in range(1, 5):
    t1 = time.perf_counter()
    play_game([default_agent()] * 4, seed=seed)
    later.append(time.perf_counter() - t1)
warm = sorted(later)[len(later) // 2]
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(dict(import_s=t_import, first_decision_s=t_first, first_game_s=t_game,
                      warm_game_s=warm, peak_rss_mib=rss)))
"""


def cold_start(repeat: int = 3) -> None:
    """Cold start and memory in fresh processes (medians of ``repeat``)."""
    walls, steps = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", _FIRST_GAME], check=True, env=os.environ.copy())
        walls.append(time.perf_counter() - t0)
        out = subprocess.run(
            [sys.executable, "-c", _STEPS], check=True, capture_output=True, text=True
        )
        steps.append(json.loads(out.stdout.strip().splitlines()[-1]))

    def med(name: str) -> float:
        return statistics.median(s[name] for s in steps)

    print(f"cold start: a fresh `python -c` process playing one default 4-player game: "
          f"{statistics.median(walls):.2f} s wall (median of {repeat})")  # fmt: skip
    print(f"  import {med('import_s'):.2f} s; import to the first decision "
          f"{med('first_decision_s'):.2f} s; import to the end of the first game "
          f"{med('first_game_s'):.2f} s (later games of that process: "
          f"{med('warm_game_s'):.2f} s each)")  # fmt: skip
    print(f"peak resident memory of a process playing five default 4-player games: "
          f"{med('peak_rss_mib'):.0f} MiB")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description="Speed and memory of the default players.")
    ap.add_argument("--cold", action="store_true", help="the cold start and memory only")
    args = ap.parse_args()
    cold_start()
    if args.cold:
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    model = default_model()
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    play_game([default_agent()] * 4, seed=0)  # reads the vocabulary on the board once
    first_game = time.perf_counter() - t0
    print(f"load the default model: {load:.2f} s; first game (reads the vocabulary): "
          f"{first_game:.2f} s")  # fmt: skip

    vocab = clue_vocabulary()
    extra = tuple(sorted(w for w in common_words() if w.isalpha() and w not in set(vocab)))
    five_k = (*vocab, *extra[: 5000 - len(vocab)])
    models = DEFAULT_GIVER_MODELS
    for label, words in ((f"{len(vocab)} words (shipped)", None), ("5,000 words", five_k)):
        giver = EmbeddingClueGiver(model=models, words=words)
        state = new_game(4, seed=1)
        view = state.view(state.giver)
        giver.choose_target(view, rng)  # the board's reading of these words, once
        choose = timed(lambda g=giver, v=view: g.choose_target(v, rng), 50)
        after = state.apply(ChooseTarget(1))
        gview = after.view(after.giver)
        clue = timed(lambda g=giver, v=gview: g.give_clue(v, rng), 50)
        print(f"clue giver, {label}: choose target {choose * 1e3:.1f} ms, first clue "
              f"{clue * 1e3:.1f} ms")  # fmt: skip

    state = new_game(4, seed=2).apply(ChooseTarget(0)).apply(GiveClue("lagoon"))
    guesser = default_agent().guesser
    assert isinstance(guesser, EmbeddingGuesser) and guesser.pragmatic
    first = state.view(state.current_player or 0)
    guess = timed(lambda: guesser.place_pawn(first, rng), 200)
    while state.phase is Phase.FIRST_GUESS:
        state = state.apply(guesser.place_pawn(state.view(state.current_player or 0), rng))
    giver_view = state.view(state.giver)
    default_giver = default_agent().giver
    assert isinstance(default_giver, EmbeddingClueGiver)
    # The default second clue pairs the 8 best words: the first time, its phrases are new and
    # read in one batch per model; later they are kept.
    t0 = time.perf_counter()
    default_giver.give_second_clue(giver_view, rng)
    pairs_new = time.perf_counter() - t0
    second = timed(lambda: default_giver.give_second_clue(giver_view, rng), 20)
    one_word = EmbeddingClueGiver(model=DEFAULT_GIVER_MODELS, pair_from=0)
    single = timed(lambda: one_word.give_second_clue(giver_view, rng), 20)
    state = state.apply(default_giver.give_second_clue(giver_view, rng))
    later = state.view(state.current_player or 0)
    guess2 = timed(lambda: guesser.place_pawn(later, rng), 200)
    print(f"guess: first {guess * 1e3:.2f} ms, second (two clues and the pawns) "
          f"{guess2 * 1e3:.2f} ms")  # fmt: skip
    print(f"second clue or pass (pairs of the 8 best words): {pairs_new * 1e3:.0f} ms with its "
          f"phrases new, {second * 1e3:.1f} ms once they are read; one word only "
          f"(pair_from=0): {single * 1e3:.1f} ms")  # fmt: skip
    assert isinstance(guesser.place_pawn(later, rng), PlacePawn)

    # Late in a game the pragmatic guesser also weighs its readings by the giver's earlier rounds.
    late = late_guess_view()
    guess3 = timed(lambda: guesser.place_pawn(late, rng), 200)
    print(f"guess late in a game (round {late.round + 1}, {len(late.history)} rounds of "
          f"history): {guess3 * 1e3:.2f} ms")  # fmt: skip

    tables = {
        "default players": [default_agent()] * 4,
        "naming-data players": [naming_agent()] * 4,
        "default and naming players (as a tournament seats them)": [
            default_agent(), naming_agent(), default_agent(), naming_agent()
        ],
    }  # fmt: skip
    for label, seats in tables.items():
        play_game(seats, seed=0)  # every player's readings of the board, once
        games = [timed(lambda s=s, t=seats: play_game(t, seed=s), 1) for s in range(10, 30)]
        median = statistics.median(games)
        print(f"a 4-player game of {label}: median {median * 1e3:.0f} ms "
              f"({1 / median:.1f} games/s on one core)")  # fmt: skip
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process (models, readings, numpy): {rss:.0f} MiB")
    print("(the default players: the giver's three listener models, the guesser's two)")
    del model


if __name__ == "__main__":
    main()
