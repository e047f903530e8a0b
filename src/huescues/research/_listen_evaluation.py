"""Reference games for :func:`huescues.language.listen`: a described colour among two
distractors, built from the naming data, in the three conditions of the "colors in context" task
(far, split, close by CIEDE2000), with models fitted without the names of the targets."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues.colour import delta_e_2000
from huescues.language import (
    N_FOLDS,
    ColourTermModel,
    ModelFactory,
    as_lab,
    fold_of,
    listen,
    normalise_name,
    standard_models,
    words_of,
    xkcd_names,
)

from ._model_evaluation import _fair_win
from ._standard_evaluation import second_test_set

__all__ = ["ListenEvaluation", "ListenScores", "listen_evaluation"]

FloatArray = NDArray[np.float64]

#: The conditions, as in Monroe et al. (2017): both distractors far from the target, one near
#: and one far, both near.
CONDITIONS = ("far", "split", "close")
#: The kinds of description: the target's own name; "the darker/lighter <head>" where a
#: distractor shares the target's head word; "not <head>" where both distractors share a head
#: word the target's name lacks; "the duller/more vivid <head>" as the comparative, by chroma;
#: "the dark/light/vivid/dull one", an adjective alone, where the target is the most so; "alone":
#: "the darker/lighter <head>" where no distractor shares the target's head word (a comparative
#: said loosely, with no contrast: the side drawn at random, the target the colour meant).
KINDS = ("name", "comparative", "negation", "chroma", "adjective", "alone")
#: The adjectives of the "adjective" games and where each points: (axis, sign), the axis 0 for
#: L* and 1 for C*.
ADJECTIVES = {"dark": (0, -1.0), "light": (0, 1.0), "vivid": (1, 1.0), "dull": (1, -1.0)}


@dataclass(frozen=True, slots=True)
class ListenScores:
    """Accuracy on one set of games: the share where the described colour is the most probable
    (ties count as a fair draw)."""

    names: str
    kind: str
    condition: str
    games: int
    #: :func:`~huescues.language.listen` with the held-out model.
    listen: float
    #: The held-out model's ``score`` alone (argmax over the three colours).
    literal: float


@dataclass(frozen=True, slots=True)
class ListenEvaluation:
    """The result of :func:`listen_evaluation`."""

    rows: tuple[ListenScores, ...]
    near: float
    minimum: float
    folds: int

    def table(self) -> str:
        """A Markdown table: one row per name set, kind of description and condition."""
        lines = [
            "| names | description | condition | games | `score` argmax | `listen` |",
            "| --- | --- | --- | ---: | ---: | ---: |",
        ]
        for r in self.rows:
            lines.append(
                f"| {r.names} | {r.kind} | {r.condition} | {r.games} | {r.literal:.3f} | "
                f"{r.listen:.3f} |"
            )
        lines.append("")
        lines.append(
            f"Targets held out by name in {self.folds} folds (the model never saw the target's "
            f"name); near: CIEDE2000 in [{self.minimum:g}, {self.near:g}), far: at least "
            f"{self.near:g}; chance 0.333."
        )
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class _Game:
    target: int
    distractors: tuple[int, int]
    text: str
    kind: str
    condition: str


def listen_evaluation(
    *,
    factory: ModelFactory | None = None,
    second_set: bool = True,
    near: float = 20.0,
    minimum: float = 5.0,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> ListenEvaluation:
    """Reference games on the XKCD names (and, with ``second_set``, on
    :func:`second_test_set`), each target's model fitted by ``factory`` (by default the
    combined model's, ``standard_models()["combined"]``) without the names of its fold. About a
    minute; see ``docs/language.md``, "Words in context"."""
    if not 0.0 <= minimum < near:
        raise ValueError(f"need 0 <= minimum < near, not minimum={minimum}, near={near}")
    factory = standard_models()["combined"] if factory is None else factory
    xkcd = xkcd_names()
    sets: list[tuple[str, Sequence[str], ArrayLike]] = [("XKCD", xkcd.names, xkcd.lab)]
    if second_set:
        sets.append(("color-name-list", *second_test_set()))
    rows: list[ListenScores] = []
    for label, names, lab in sets:
        rows.extend(_evaluate_set(label, names, lab, factory, near, minimum, seed, progress))
    return ListenEvaluation(tuple(rows), near, minimum, N_FOLDS)


def _evaluate_set(
    label: str,
    names: Sequence[str],
    lab: ArrayLike,
    factory: ModelFactory,
    near: float,
    minimum: float,
    seed: int,
    progress: Callable[[str], None] | None,
) -> list[ListenScores]:
    norm = [normalise_name(n) for n in names]
    colours = as_lab(lab).reshape(-1, 3)
    games = _games(norm, colours, near, minimum, seed)
    fold = np.array([fold_of(n) for n in norm])
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for k in range(N_FOLDS):
        held = np.flatnonzero(fold == k)
        if progress is not None:
            progress(f"{label}: fold {k + 1}/{N_FOLDS} ({len(held)} names)")
        model = factory(frozenset(norm[i] for i in held))
        for game in games:
            if fold[game.target] == k:
                results.setdefault((game.kind, game.condition), []).append(
                    _play(game, colours, model)
                )
    rows = []
    for kind in KINDS:
        for condition in CONDITIONS:
            scores = results.get((kind, condition), [])
            if scores:
                arr = np.array(scores)
                rows.append(
                    ListenScores(
                        label,
                        kind,
                        condition,
                        len(arr),
                        float(arr[:, 0].mean()),
                        float(arr[:, 1].mean()),
                    )
                )
    return rows


def _play(game: _Game, colours: FloatArray, model: ColourTermModel) -> tuple[float, float]:
    """(listen, literal) wins on one game: the target is colour 0."""
    on_offer = colours[[game.target, *game.distractors]]
    return (
        _fair_win(listen(game.text, on_offer, model=model)),
        _fair_win(np.asarray(model.score(game.text, on_offer), dtype=np.float64)),
    )


@dataclass(frozen=True, slots=True)
class _Names:
    """What the games are drawn from: each name's words and last word (its head), and which
    colours lie near each other (CIEDE2000 in [minimum, near)) or far (at least near)."""

    words: list[tuple[str, ...]]
    head: NDArray[np.str_]
    distance: FloatArray
    is_near: NDArray[np.bool_]
    is_far: NDArray[np.bool_]

    @classmethod
    def of(cls, names: Sequence[str], colours: FloatArray, near: float, minimum: float) -> _Names:
        distance = delta_e_2000(colours[:, None, :], colours[None, :, :])
        words = [tuple(words_of(n)) for n in names]
        head = np.array([w[-1] if w else "" for w in words])
        return cls(
            words, head, distance, (distance >= minimum) & (distance < near), distance >= near
        )

    def settings(self) -> Iterator[tuple[int, str, tuple[NDArray[np.bool_], NDArray[np.bool_]]]]:
        """Each target with a head word, in order, under each condition with its two bands: what
        every kind of game loops over."""
        for t in range(len(self.head)):
            if self.head[t]:
                yield from ((t, c, bands) for c, bands in self.bands(t).items())

    def bands(self, t: int) -> dict[str, tuple[NDArray[np.bool_], NDArray[np.bool_]]]:
        """Where target ``t``'s two distractors are drawn from, by condition."""
        near, far = self.is_near[t], self.is_far[t]
        return {"far": (far, far), "split": (near, far), "close": (near, near)}


def _picker(rng: np.random.Generator) -> Callable[[NDArray[np.bool_]], int | None]:
    """A colour drawn from a pool (a mask), or None when it is empty."""

    def pick(pool: NDArray[np.bool_]) -> int | None:
        options = np.flatnonzero(pool)
        return int(rng.choice(options)) if len(options) else None

    return pick


def _contrasted_pair(
    pick: Callable[[NDArray[np.bool_]], int | None],
    names: _Names,
    t: int,
    bands: tuple[NDArray[np.bool_], NDArray[np.bool_]],
    same: NDArray[np.bool_],
    minimum: float,
) -> tuple[int, int] | None:
    """Two distractors for a comparative of target ``t``: one of its kind (``same``: its head
    word, clearly apart along the comparison) in the first band, one with another head word in
    the second."""
    first, second = bands
    a = pick(first & same)
    if a is None:
        return None
    b = pick(second & (names.head != names.head[t]) & (names.distance[a] >= minimum))
    return None if b is None else (a, b)


def _games(
    names: Sequence[str], colours: FloatArray, near: float, minimum: float, seed: int
) -> list[_Game]:
    """At most one game of each kind and condition per target. The later kinds (chroma and
    adjective, then alone) draw from their own streams of random numbers: the earlier kinds'
    games stay as they were before those kinds came."""
    drawn = _Names.of(names, colours, near, minimum)
    first = _first_kinds(drawn, names, colours, minimum, np.random.default_rng(seed))
    later = _later_kinds(drawn, colours, minimum, np.random.default_rng((seed, 1)))
    return first + later + _alone_kind(drawn, minimum, np.random.default_rng((seed, 2)))


def _first_kinds(
    drawn: _Names,
    names: Sequence[str],
    colours: FloatArray,
    minimum: float,
    rng: np.random.Generator,
) -> list[_Game]:
    """The "name", "comparative" and "negation" games."""
    head, distance = drawn.head, drawn.distance
    pick = _picker(rng)
    games: list[_Game] = []
    for t, condition, (first, second) in drawn.settings():
        same = (head == head[t]) & (np.abs(colours[:, 0] - colours[t, 0]) >= minimum)
        lacks = np.array([h not in drawn.words[t] for h in head]) & (head != "")
        # The name itself: any two colours in the bands (apart from each other).
        a = pick(first)
        b = pick(second & (distance[a] >= minimum)) if a is not None else None
        if a is not None and b is not None:
            games.append(_Game(t, (a, b), names[t], "name", condition))
        # "the darker <head>": a distractor with the same head word, clearly lighter or
        # darker; the other distractor has another head word.
        pair = _contrasted_pair(pick, drawn, t, (first, second), same, minimum)
        if pair is not None:
            side = "darker" if colours[t, 0] < colours[pair[0], 0] else "lighter"
            games.append(_Game(t, pair, f"the {side} {head[t]}", "comparative", condition))
        # "not <head>": both distractors share a head word the target's name lacks.
        a = pick(first & lacks)
        if a is not None:
            b = pick(second & (head == head[a]) & (distance[a] >= minimum))
            if b is not None:
                games.append(_Game(t, (a, b), f"not {head[a]}", "negation", condition))
    return games


def _later_kinds(
    drawn: _Names, colours: FloatArray, minimum: float, rng: np.random.Generator
) -> list[_Game]:
    """At most one "chroma" and one "adjective" game per target and condition: "the duller/more
    vivid <head>" where a distractor with the same head word is clearly more or less vivid (its
    chroma at least ``minimum`` apart) and the other has another head word; "the <adjective>
    one" where the target is the most so of the three, by at least ``minimum`` along its axis
    (one of the adjectives that holds, drawn)."""
    head, distance = drawn.head, drawn.distance
    axes = np.stack([colours[:, 0], np.hypot(colours[:, 1], colours[:, 2])], axis=1)
    pick = _picker(rng)
    games: list[_Game] = []
    for t, condition, (first, second) in drawn.settings():
        same = (head == head[t]) & (np.abs(axes[:, 1] - axes[t, 1]) >= minimum)
        pair = _contrasted_pair(pick, drawn, t, (first, second), same, minimum)
        if pair is not None:
            side = "duller" if axes[t, 1] < axes[pair[0], 1] else "more vivid"
            games.append(_Game(t, pair, f"the {side} {head[t]}", "chroma", condition))
        a = pick(first)
        b = pick(second & (distance[a] >= minimum)) if a is not None else None
        if a is None or b is None:
            continue
        holds = [
            word
            for word, (axis, sign) in ADJECTIVES.items()
            if sign * axes[t, axis] - max(sign * axes[a, axis], sign * axes[b, axis]) >= minimum
        ]
        if holds:
            word = holds[int(rng.integers(len(holds)))]
            games.append(_Game(t, (a, b), f"the {word} one", "adjective", condition))
    return games


def _alone_kind(drawn: _Names, minimum: float, rng: np.random.Generator) -> list[_Game]:
    """At most one "alone" game per target and condition: both distractors with other head
    words than the target's (and apart from each other), described "the darker/lighter <head>"
    with the side drawn at random, as a speaker says a comparative loosely of the only colour of
    its kind."""
    head, distance = drawn.head, drawn.distance
    pick = _picker(rng)
    games: list[_Game] = []
    for t, condition, (first, second) in drawn.settings():
        other = head != head[t]
        a = pick(first & other)
        b = pick(second & other & (distance[a] >= minimum)) if a is not None else None
        if a is None or b is None:
            continue
        side = ("darker", "lighter")[int(rng.integers(2))]
        games.append(_Game(t, (a, b), f"the {side} {head[t]}", "alone", condition))
    return games
