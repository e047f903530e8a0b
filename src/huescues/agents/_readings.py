"""What the players read from their colour-term models, kept in one explicit object.

A player precomputes a great deal for the (models, board, rules) it plays with: the vocabulary
read on the board by each listener model, the ensembles' frame tables, the imagined givers, a
clue's readings, the belief of a round, the giver's screening tables. All of it is kept in a
:class:`Readings`: players given one keep what they read there, the others share the process's
(:meth:`Readings.shared`). Nothing a player decides depends on what a readings object holds
before (a value kept is the value made afresh, bit for bit), only how soon it decides.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, TypeVar, cast

__all__ = ["Kind", "Readings", "Same"]

V = TypeVar("V")

_MISSING = object()

#: Models that cannot be weakly referenced are kept alive in at most this many groups.
_STRONG_GROUPS = 4


@dataclass(frozen=True, slots=True, eq=False)
class Kind(Generic[V]):
    """A kind of value a :class:`Readings` keeps (a vocabulary's reading, a round's belief):
    its name, and how many values of the kind it keeps for one tuple of models, the oldest
    dropped first."""

    name: str
    kept: int


class Same:
    """A key part that is one object, compared by identity and held (a vocabulary of thousands
    of words, which would cost more to hash at every decision than the decision): while the key
    is kept, so is the object, so no other object can take its place."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return object.__hash__(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value


class _Group:
    """The values made from one tuple of models: by kind, then by key, oldest first."""

    __slots__ = ("alive", "values")

    def __init__(self, alive: tuple[Callable[[], object], ...]) -> None:
        #: Each model's weak reference, or a function holding it when it cannot have one.
        self.alive = alive
        self.values: dict[Kind[Any], OrderedDict[Hashable, Any]] = {}


class _Making:
    """A value being made by one thread, which others asking for it wait for."""

    __slots__ = ("done", "thread")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.thread = threading.get_ident()


class Readings:
    """Everything the players read from colour-term models, for each (models, board, rules)
    they play with: one object with a lifetime, :meth:`clear` and a lock.

    A player built without one (every player of the catalogue) shares the process's,
    :meth:`shared`, so that games, seats and threads read each board once; give a player its
    own (``ModelGuesser(readings=Readings())``) to keep its readings apart and drop them with
    it. Values are made from a tuple of models and a key (a board's id, a clue, a square); the
    models are held weakly: when a model is dropped, what was read from it goes too (a program
    that fits many models gets their memory back). A model that cannot be weakly referenced is
    held, in a few groups at most. Each kind of value keeps at most its :attr:`Kind.kept`
    values per tuple of models, the oldest dropped first.

    Safe to share between threads: a lock guards the tables (not the making of a value, which
    may take seconds), and a thread asking for a value another is making waits for it, so that
    each value is made once. Nothing is keyed by an object's ``id``: models by weak reference,
    a vocabulary by a key that holds it (:class:`Same`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: dict[tuple[Hashable, ...], _Group] = {}
        self._strong: OrderedDict[tuple[Hashable, ...], None] = OrderedDict()
        #: Values being made: by models, kind and key (the maker holds the models).
        self._making: dict[tuple[tuple[Hashable, ...], Kind[Any], Hashable], _Making] = {}

    def __repr__(self) -> str:
        return f"<Readings: {len(self)} values for {len(self._groups)} tuples of models>"

    def __reduce__(self) -> tuple[Any, ...]:
        # A player sent to another process takes the readings its side shares, not these.
        return (_shared, ()) if self is _SHARED[0] else (Readings, ())

    @classmethod
    def shared(cls) -> Readings:
        """The process's readings, which players built without their own share."""
        return _shared()

    def get(
        self, models: Sequence[object], kind: Kind[V], key: Hashable, make: Callable[[], V]
    ) -> V:
        """The value of ``kind`` for ``models`` and ``key``, made by ``make()`` the first time
        (once, when threads ask together: the others wait for it)."""
        found = _key(models)
        while True:
            with self._lock:
                group = self._group(found, models)
                if group is not None:
                    value = group.values.get(kind, _EMPTY).get(key, _MISSING)
                    if value is not _MISSING:
                        return cast(V, value)
                making = self._making.get((found, kind, key))
                if making is None:
                    making = self._making[(found, kind, key)] = _Making()
                    break
            if making.thread == threading.get_ident():
                raise RuntimeError(f"a reading ({kind.name}) was asked for while it was being made")
            # Made by another thread: wait, then look again (it may have failed, or been
            # dropped already; then this thread makes it).
            making.done.wait()
        try:
            # Made outside the lock, before the tables are touched: an interrupted make() (a
            # decision's time limit) leaves them as they were.
            value = make()
            with self._lock:
                group = self._group(found, models) or self._new_group(found, models)
                values = group.values.setdefault(kind, OrderedDict())
                values[key] = value
                while len(values) > kind.kept:
                    values.popitem(last=False)
        finally:
            with self._lock:
                del self._making[(found, kind, key)]
            making.done.set()
        return value

    def cached(self, models: Sequence[object], kind: Kind[V], key: Hashable) -> V | None:
        """The value of ``kind`` for ``models`` and ``key`` if it is kept, else ``None``."""
        found = _key(models)
        with self._lock:
            group = self._group(found, models)
            return None if group is None else group.values.get(kind, _EMPTY).get(key)

    def cached_many(
        self, models: Sequence[object], kind: Kind[V], keys: Sequence[Hashable]
    ) -> list[V | None]:
        """:meth:`cached` for each of ``keys`` (the models' values found once)."""
        found = _key(models)
        with self._lock:
            group = self._group(found, models)
            if group is None:
                return [None] * len(keys)
            find = group.values.get(kind, _EMPTY).get
            return [find(k) for k in keys]

    def clear(self) -> None:
        """Forget every value (as in a new process); players read afresh when next asked."""
        with self._lock:
            self._groups.clear()
            self._strong.clear()

    def __len__(self) -> int:
        """How many values are kept, over all models and kinds."""
        with self._lock:
            return sum(len(v) for g in list(self._groups.values()) for v in g.values.values())

    def count(self, kind: Kind[Any]) -> int:
        """How many values of ``kind`` are kept, over all models."""
        with self._lock:
            return sum(len(g.values.get(kind, _EMPTY)) for g in list(self._groups.values()))

    # The two below run under the lock.

    def _group(self, found: tuple[Hashable, ...], models: Sequence[object]) -> _Group | None:
        group = self._groups.get(found)
        if group is None:
            return None
        # Asked on every decision: a plain loop (a generator costs more than the check).
        for alive, m in zip(group.alive, models, strict=True):
            if alive() is not m:
                return None
        return group

    def _new_group(self, found: tuple[Hashable, ...], models: Sequence[object]) -> _Group:
        groups = self._groups

        def forget(_: object) -> None:
            # Runs as a model is freed, in any thread and at any moment, perhaps while this
            # thread holds the lock: so it takes no lock; one dict.pop is atomic (the GIL).
            groups.pop(found, None)

        alive: list[Callable[[], object]] = []
        strong = False
        for m in models:
            try:
                alive.append(weakref.ref(m, forget))
            except TypeError:
                strong = True
                alive.append(functools.partial(_itself, m))
        group = _Group(tuple(alive))
        groups[found] = group
        if strong:
            self._strong[found] = None
            while len(self._strong) > _STRONG_GROUPS:
                groups.pop(self._strong.popitem(last=False)[0], None)
        return group


#: What a group holds of a kind it has none of (read-only: nothing is ever kept in it).
_EMPTY: Mapping[Hashable, Any] = MappingProxyType({})


def _key(models: Sequence[object]) -> tuple[Hashable, ...]:
    """The models as a key: each by a weak reference (equal while it lives, and never equal to
    another object's, even one given the freed object's address), or the model itself where it
    cannot be weakly referenced or hashed that way (then held, compared by identity)."""
    try:
        found: tuple[Hashable, ...] = tuple(map(weakref.ref, models))
        hash(found)
    except TypeError:
        found = tuple(map(_held, models))
    return found


def _held(model: object) -> Hashable:
    try:
        return _Weak(model)
    except TypeError:
        return Same(model)


class _Weak:
    """A model that cannot be hashed, as a key: by a weak reference, compared by identity."""

    __slots__ = ("hash", "ref")

    def __init__(self, model: object) -> None:
        self.ref = weakref.ref(model)
        self.hash = object.__hash__(model)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Weak):
            return False
        mine = self.ref()
        return other is self or (mine is not None and other.ref() is mine)


def _itself(model: object) -> object:
    return model


#: The process's readings (made when first asked for), in a list so that no ``global`` is
#: needed to make it.
_SHARED: list[Readings | None] = [None]
_SHARED_LOCK = threading.Lock()


def _shared() -> Readings:
    readings = _SHARED[0]
    if readings is not None:  # (asked at every decision: no lock once it is made)
        return readings
    with _SHARED_LOCK:
        readings = _SHARED[0]
        if readings is None:
            readings = _SHARED[0] = Readings()
        return readings
