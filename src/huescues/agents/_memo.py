"""What players compute from colour-term models (readings of a vocabulary on a board, speaker
tables), kept only while the models live, so that a program fitting many models gets their
memory back. Safe to use from threads (the web runs bots in threads): each value is made once."""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

__all__ = ["ModelMemo", "words_key"]

V = TypeVar("V")

_MISSING = object()

#: Models that cannot be weakly referenced are kept alive in at most this many groups.
_STRONG_GROUPS = 4


class _Group(Generic[V]):
    """The values computed from one tuple of models, oldest first."""

    __slots__ = ("refs", "values")

    def __init__(self, refs: tuple[Callable[[], object], ...]) -> None:
        #: Each model's weak reference, or a function holding it when it cannot have one.
        self.refs = refs
        self.values: OrderedDict[Hashable, V] = OrderedDict()


class _Making:
    """A value being made by one thread, which others asking for it wait for."""

    __slots__ = ("done", "thread")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.thread = threading.get_ident()


class ModelMemo(Generic[V]):
    """Values keyed by a tuple of models (by identity: models need not be hashable) and a key
    such as a board's id.

    The models are held weakly: when one is dropped, every value computed from it goes with it
    (before its ``id`` can be reused by a new object, so a value is never read for the wrong
    model). At most ``per_models`` values are kept for each tuple of models, the oldest dropped
    first. A model that cannot be weakly referenced is kept alive by the memo, in at most a few
    groups, the oldest dropped first.

    Keys are looked up on every decision, so they should be quick to hash: a vocabulary (a tuple
    of thousands of words) goes in as its ``id``, with the value keeping the tuple alive so that
    the ``id`` stays its own (see :func:`words_key`).

    Thread-safe: a lock guards the memo's tables (not the making of a value, which may take
    seconds), and a thread asking for a value another is making waits for it, so that each
    value is made once.
    """

    def __init__(self, *, per_models: int) -> None:
        self._per_models = per_models
        self._groups: dict[tuple[int, ...], _Group[V]] = {}
        self._strong: OrderedDict[tuple[int, ...], None] = OrderedDict()
        self._lock = threading.Lock()
        #: Values being made, by model ids and key (the maker holds the models, so their ids
        #: are theirs while it works).
        self._making: dict[tuple[tuple[int, ...], Hashable], _Making] = {}

    def get(self, models: Sequence[object], key: Hashable, make: Callable[[], V]) -> V:
        """The value for ``models`` and ``key``, made by ``make()`` the first time (once, when
        threads ask together: the others wait for it)."""
        ids = tuple(map(id, models))
        while True:
            with self._lock:
                group = self._group(ids, models)
                if group is not None:
                    value = group.values.get(key, _MISSING)
                    if value is not _MISSING:
                        return value  # type: ignore[return-value]
                making = self._making.get((ids, key))
                if making is None:
                    making = self._making[(ids, key)] = _Making()
                    break
            if making.thread == threading.get_ident():
                raise RuntimeError("a memo's value was asked for while it was being made")
            # Made by another thread: wait, then look again (it may have failed, or been
            # dropped already; then this thread makes it).
            making.done.wait()
        try:
            # Made outside the lock, before the group is touched: an interrupted make() (a
            # decision's time limit) leaves the memo as it was.
            value = make()
            with self._lock:
                group = self._group(ids, models)
                if group is None:
                    group = self._new_group(ids, models)
                group.values[key] = value
                while len(group.values) > self._per_models:
                    group.values.popitem(last=False)
        finally:
            with self._lock:
                del self._making[(ids, key)]
            making.done.set()
        return value

    def put_many(self, models: Sequence[object], items: Sequence[tuple[Hashable, V]]) -> None:
        """Keep each ``(key, value)`` of ``items`` for ``models`` (values made in a batch: a
        key already kept keeps its value), the oldest dropped past ``per_models``."""
        ids = tuple(map(id, models))
        with self._lock:
            group = self._group(ids, models)
            if group is None:
                group = self._new_group(ids, models)
            values = group.values
            for key, value in items:
                values.setdefault(key, value)
            while len(values) > self._per_models:
                values.popitem(last=False)

    def cached(self, models: Sequence[object], key: Hashable) -> V | None:
        """The value for ``models`` and ``key`` if it is kept, else ``None`` (makes nothing)."""
        with self._lock:
            group = self._group(tuple(map(id, models)), models)
            return None if group is None else group.values.get(key)

    def cached_many(self, models: Sequence[object], keys: Sequence[Hashable]) -> list[V | None]:
        """:meth:`cached` for each of ``keys`` (the models' values found once)."""
        with self._lock:
            group = self._group(tuple(map(id, models)), models)
            if group is None:
                return [None] * len(keys)
            find = group.values.get
            return [find(k) for k in keys]

    def clear(self) -> None:
        """Forget every value (as in a new process)."""
        with self._lock:
            self._groups.clear()
            self._strong.clear()

    def __len__(self) -> int:
        """How many values are kept, over all models."""
        with self._lock:
            return sum(len(g.values) for g in list(self._groups.values()))

    # The two below run under the lock.

    def _group(self, ids: tuple[int, ...], models: Sequence[object]) -> _Group[V] | None:
        group = self._groups.get(ids)
        if group is None:
            return None
        # Asked on every decision: a plain loop (a generator costs more than the check).
        for r, m in zip(group.refs, models, strict=True):
            if r() is not m:
                return None
        return group

    def _new_group(self, ids: tuple[int, ...], models: Sequence[object]) -> _Group[V]:
        groups = self._groups

        def forget(_: object) -> None:
            # Runs as a model is freed, before its id can be given to another object, in any
            # thread and at any moment, perhaps while this thread holds the lock: so it takes
            # no lock; one dict.pop is atomic (the GIL).
            groups.pop(ids, None)

        refs: list[Callable[[], object]] = []
        strong = False
        for m in models:
            try:
                refs.append(weakref.ref(m, forget))
            except TypeError:
                strong = True
                refs.append(functools.partial(_itself, m))
        group: _Group[V] = _Group(tuple(refs))
        groups[ids] = group
        if strong:
            self._strong[ids] = None
            while len(self._strong) > _STRONG_GROUPS:
                groups.pop(self._strong.popitem(last=False)[0], None)
        return group


def words_key(words: tuple[str, ...] | None) -> int | None:
    """A vocabulary as part of a memo key: its ``id`` (hashing thousands of words at every
    decision costs more than the decision). Only for values that hold the tuple itself, which
    keeps the ``id`` from being given to another object while the value is kept."""
    return None if words is None else id(words)


def _itself(model: object) -> object:
    return model
