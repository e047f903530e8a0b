"""Players keep what they read from a colour-term model only while the model lives: a program
that fits many models (a cross-validation loop) and plays with each gets the memory back."""

from __future__ import annotations

import functools
import gc
import tracemalloc
import weakref

import numpy as np
import pytest

from huescues import Board, GameState, Phase, Rules, new_game
from huescues.agents import EmbeddingClueGiver, EmbeddingGuesser, Player, Readings, clue_vocabulary
from huescues.agents._readings import Kind  # the readings' kinds of value: private, tested here
from huescues.engine import Action
from huescues.language import MeanColourModel

BOARD = Board.from_rgb(np.random.default_rng(3).integers(0, 256, (4, 6, 3)))
RULES = Rules.standard(3)


class Memo:
    """One kind of value (a board's reading, say) in a fresh :class:`Readings`, as players
    keep theirs: at most ``kept`` values for one tuple of models."""

    def __init__(self, *, per_models: int) -> None:
        self.readings = Readings()
        self.kind: Kind[object] = Kind("a test's value", per_models)

    def get(self, models: tuple[object, ...], key: object, make: object) -> object:
        return self.readings.get(models, self.kind, key, make)  # type: ignore[arg-type]

    def cached(self, models: tuple[object, ...], key: object) -> object:
        return self.readings.cached(models, self.kind, key)

    def cached_many(self, models: tuple[object, ...], keys: list[object]) -> list[object]:
        return self.readings.cached_many(models, self.kind, keys)

    def clear(self) -> None:
        self.readings.clear()

    def __len__(self) -> int:
        return len(self.readings)


def fit(i: int) -> MeanColourModel:
    """The cheapest model to fit: the mean colour of a few names (here, made-up ones)."""
    return MeanColourModel(np.random.default_rng(i).uniform(-50, 80, (30, 3)))


def act(player: Player, state: GameState, rng: np.random.Generator) -> Action:
    seat = state.current_player
    assert seat is not None
    view, phase = state.view(seat), state.phase
    if phase is Phase.CHOOSE_TARGET:
        return player.choose_target(view, rng)
    if phase is Phase.FIRST_CLUE:
        return player.give_clue(view, rng)
    if phase is Phase.SECOND_CLUE:
        return player.give_second_clue(view, rng)
    return player.place_pawn(view, rng)


def play_with_fitted_models(n: int) -> list[weakref.ref[MeanColourModel]]:
    """Fit ``n`` models and play a round with each (alone and in ensembles with a shipped
    model, literal and pragmatic), dropping each model after its round."""
    refs = []
    for i in range(n):
        model = fit(i)
        refs.append(weakref.ref(model))
        player = Player(
            EmbeddingClueGiver(model=(model, "naming")),
            EmbeddingGuesser(model=model, pragmatic=True, speakers=(model, (model, "naming"))),
        )
        state = new_game(3, seed=i, rules=RULES, board=BOARD)
        rng = np.random.default_rng(i)
        while state.round == 0:
            state = state.apply(act(player, state, rng), seat=state.current_player)
        del model, player
    return refs


@pytest.mark.slow
def test_dropped_models_and_what_players_read_from_them_are_freed() -> None:
    play_with_fitted_models(2)  # the shipped vocabulary and model, the engine's own caches
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        refs = play_with_fitted_models(20)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert all(r() is None for r in refs), "a dropped model is still kept alive"
    # What one model's reading of the vocabulary takes (two float32 tables); kept for every
    # model, 20 models would leave more than 20 times this.
    one_reading = 2 * 4 * len(clue_vocabulary()) * BOARD.size
    assert grown < 2 * one_reading, f"{grown} bytes kept after 20 models were dropped"


def test_a_reading_is_made_once_per_model_and_never_served_to_another() -> None:

    memo = Memo(per_models=2)
    made: list[str] = []

    def make(label: str) -> str:
        made.append(label)
        return label

    first = fit(1)
    assert memo.get((first,), "board", lambda: make("first")) == "first"
    assert memo.get((first,), "board", lambda: make("again")) == "first"
    del first
    gc.collect()
    assert len(memo) == 0
    # New models, some of which may get the dropped one's id, each get their own reading.
    for i in range(50):
        m = fit(i)
        assert memo.get((m,), "board", lambda i=i: make(f"model {i}")) == f"model {i}"
        del m
    assert made == ["first"] + [f"model {i}" for i in range(50)]


def test_a_model_keeps_its_latest_boards_and_an_ensemble_goes_with_any_of_its_models() -> None:

    memo = Memo(per_models=2)
    a, b = fit(1), fit(2)
    for board in range(3):
        memo.get((a,), board, lambda board=board: board)
    assert memo.cached((a,), 0) is None and memo.cached((a,), 2) == 2
    assert memo.cached_many((a,), [2, 0, 1]) == [2, None, 1]
    assert memo.cached_many((b,), [1, 2]) == [None, None]  # b has nothing kept
    memo.get((a, b), 0, lambda: 10)
    assert memo.cached((b, a), 0) is None  # an ensemble is its models in order
    del b
    gc.collect()
    assert len(memo) == 2  # a's own two boards


class Unreferenced:
    """A model that cannot be weakly referenced (``__slots__`` without ``__weakref__``)."""

    __slots__ = ("alive",)

    def __init__(self, alive: list[int]) -> None:
        self.alive = alive
        alive.append(1)

    def __del__(self) -> None:
        self.alive.pop()


@pytest.mark.slow
def test_models_that_cannot_be_weakly_referenced_are_kept_only_a_few_at_a_time() -> None:

    memo = Memo(per_models=2)
    alive: list[int] = []
    for i in range(20):
        memo.get((Unreferenced(alive),), "board", lambda i=i: i)
    gc.collect()
    assert 1 <= len(alive) <= 4
    memo.clear()
    gc.collect()
    assert alive == []


def test_threads_hammering_one_memo_make_each_value_once_for_its_own_models() -> None:
    """The web runs bots in threads: many threads asking one memo for the same values at once
    get each value made once per (models, key), and only ever their own models' values."""
    import threading
    import time
    from collections import Counter

    models = [fit(i) for i in range(4)]
    groups = [(models[0],), (models[1],), (models[2], models[3]), (models[3], models[2])]
    keys = range(6)
    memo = Memo(per_models=len(keys))
    made: Counter[tuple[tuple[int, ...], int]] = Counter()
    made_lock = threading.Lock()
    wrong: list[object] = []
    start = threading.Barrier(16)

    def make(group: tuple[MeanColourModel, ...], key: int) -> tuple[tuple[int, ...], int]:
        label = (tuple(id(m) for m in group), key)
        with made_lock:
            made[label] += 1
        time.sleep(0.002)  # long enough for the other threads to ask meanwhile
        return label

    def hammer(seed: int) -> None:
        rng = np.random.default_rng(seed)
        start.wait()
        for _ in range(300):
            group = groups[int(rng.integers(len(groups)))]
            key = int(rng.integers(len(keys)))
            want = (tuple(id(m) for m in group), key)
            if rng.random() < 0.3:
                found = memo.cached_many(group, list(keys))
                if any(v is not None and v != (want[0], k) for k, v in enumerate(found)):
                    wrong.append(found)
                continue
            value = memo.get(group, key, functools.partial(make, group, key))
            if value != want:
                wrong.append(value)

    threads = [threading.Thread(target=hammer, args=(s,)) for s in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong
    assert set(made) == {(tuple(id(m) for m in g), k) for g in groups for k in keys}
    assert set(made.values()) == {1}
    assert len(memo) == len(groups) * len(keys)


def test_a_value_whose_making_failed_is_made_by_the_next_thread_that_asks() -> None:
    import threading

    memo = Memo(per_models=2)
    model = fit(0)
    started, go_on = threading.Event(), threading.Event()

    def fails() -> str:
        started.set()
        go_on.wait()
        raise ValueError("no reading")

    errors: list[BaseException] = []

    def first() -> None:
        try:
            memo.get((model,), "board", fails)
        except ValueError as e:
            errors.append(e)

    thread = threading.Thread(target=first)
    thread.start()
    started.wait()
    waiter: list[str] = []
    second = threading.Thread(target=lambda: waiter.append(memo.get((model,), "board", str)))
    second.start()
    go_on.set()
    thread.join()
    second.join()
    assert len(errors) == 1 and waiter == [""]
    assert memo.cached((model,), "board") == ""
