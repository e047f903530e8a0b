"""Clues people gave (the clue-giving study, ``/study/give``): a target square and the one
word a person typed for it (R9), read from ``huescues responses export --kind given-clues``;
and two measures on them, in the game's own points (R15): how many points guessers (and the
people of a guessing study) earn from people's clues, and how a clue giver's clue for the same
targets compares with people's."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Self

import numpy as np

from huescues.agents import prepare
from huescues.engine import (
    Board,
    Cell,
    ChooseTarget,
    Rules,
    new_game,
    normalise_clue,
    pawn_points,
)
from huescues.stats import Estimate

from ._agreement import _Bootstrap
from ._reading import reader as reader_of
from ._reading import tie_points
from ._responses import (
    HumanResponses,
    check_keep,
    excluded,
    header_and_rows,
    read_csv_lines,
    record_lines,
)
from ._variables import typed_value

__all__ = [
    "GivenClue",
    "GivenCluePoints",
    "GivenClues",
    "GiverComparison",
    "giver_clue",
    "givers_against_people",
    "points_on_given_clues",
]


@dataclass(frozen=True, slots=True)
class GivenClue:
    """One clue a person gave: ``clue`` (as typed, white space collapsed) for ``target``."""

    clue: str
    target: Cell
    participant: str | None = None
    extra: dict[str, str | int | float] = field(default_factory=dict, hash=False)
    line: int = 0


@dataclass(frozen=True, slots=True)
class GivenClues:
    """The clues people gave on one board, and the rows skipped with why."""

    board: Board
    rows: tuple[GivenClue, ...]
    skipped: tuple[tuple[int, str], ...] = ()
    source: str = ""

    @classmethod
    def from_csv(
        cls,
        path: str | os.PathLike[str],
        board: Board,
        *,
        strict: bool = False,
        keep: str = "completed",
    ) -> Self:
        """Read the export of the clue-giving study (columns ``participant``, ``target``,
        ``clue``; the others kept in :attr:`GivenClue.extra`). A bad row (a target not on
        ``board``, an empty clue) is skipped and listed in :attr:`skipped`, or with
        ``strict=True`` raises a :class:`ValueError` naming it. ``keep`` is the exclusion rule
        of :meth:`HumanResponses.from_csv` (by default the completed participants' rows)."""
        return cls._parse(read_csv_lines(path), board, str(path), strict, keep)

    @classmethod
    def from_records(
        cls,
        records: Iterable[Mapping[str, str]],
        board: Board,
        *,
        strict: bool = False,
        keep: str = "completed",
    ) -> Self:
        """The same as :meth:`from_csv` for rows in memory (dicts of column to text)."""
        lines = record_lines(records, ("participant", "target", "clue"))
        return cls._parse(lines, board, "records", strict, keep)

    @classmethod
    def _parse(
        cls,
        lines: list[tuple[int, list[str]]],
        board: Board,
        name: str,
        strict: bool,
        keep: str = "completed",
    ) -> Self:
        check_keep(keep)
        header, body = header_and_rows(lines, name)
        missing = [c for c in ("target", "clue") if c not in header]
        if missing:
            raise ValueError(f"{name}: no column named {missing} (the columns are {header})")
        if len(set(header)) != len(header):
            raise ValueError(f"{name}: the header names a column twice: {header}")
        at = {h: i for i, h in enumerate(header)}
        rows: list[GivenClue] = []
        skipped: list[tuple[int, str]] = []
        for lineno, values in body:
            if not any(v.strip() for v in values):
                continue
            reason = None
            if len(values) != len(header):
                reason = f"{len(values)} values for {len(header)} columns"
            elif (why := excluded(values, at.get("status"), keep)) is not None:
                skipped.append((lineno, why))
                continue
            else:
                clue = " ".join(values[at["clue"]].split())
                target_text = values[at["target"]].strip()
                if not clue:
                    reason = "empty clue"
                else:
                    try:
                        target = board.cell(target_text)
                    except ValueError:
                        reason = f"target {target_text!r} is not a square of board {board.id}"
            if reason is not None:
                if strict:
                    raise ValueError(f"{name}, line {lineno}: {reason}")
                skipped.append((lineno, reason))
                continue
            participant = values[at["participant"]].strip() or None if "participant" in at else None
            extra = {
                h: typed_value(h, values[i].strip())
                for i, h in enumerate(header)
                if h not in ("participant", "target", "clue")
            }
            rows.append(GivenClue(clue, target, participant, extra, lineno))
        return cls(board, tuple(rows), tuple(skipped), name)

    def __len__(self) -> int:
        return len(self.rows)

    def targets(self) -> tuple[Cell, ...]:
        """The distinct targets, in the order they first appear."""
        return tuple(dict.fromkeys(g.target for g in self.rows))


def _people_points(guesses: HumanResponses | None, r15: Rules) -> dict[str, list[Cell]]:
    """People's clicks per clue text (as R22 compares clues: lowercase, spaces collapsed)."""
    if guesses is None:
        return {}
    out: dict[str, list[Cell]] = {}
    for r in guesses.rows:
        out.setdefault(normalise_clue(r.clue), []).append(r.square)
    return out


def _check_board(given: GivenClues, guesses: HumanResponses | None) -> None:
    if guesses is not None and guesses.board.id != given.board.id:
        raise ValueError(
            f"the guesses are on board {guesses.board.id}, the given clues on {given.board.id}"
        )


@dataclass(frozen=True, slots=True)
class GivenCluePoints:
    """The measure of :func:`points_on_given_clues`. Over all ``clues`` given: each guesser's
    mean R15 points and a random square's. Over the ``read`` clues whose text people of a
    guessing study clicked for: people's mean points (each clue's clicks averaged, then the
    clues), next to the guessers' on the same clues (paired)."""

    clues: int
    read: int
    guessers: tuple[tuple[str, Estimate], ...]
    random: Estimate
    people: Estimate | None
    guessers_on_read: tuple[tuple[str, Estimate], ...]
    level: float
    n_boot: int

    def table(self, spec: str = ".2f") -> str:
        """The figures as a Markdown table: one row per reader, all clues and read clues."""
        lines = [
            f"| reader | all {self.clues} clues | the {self.read} clues people read |",
            "|---|---:|---:|",
        ]
        on_read = dict(self.guessers_on_read)
        for name, e in self.guessers:
            other = on_read[name].format(spec) if name in on_read else ""
            lines.append(f"| {name} | {e.format(spec)} | {other} |")
        if self.people is not None:
            lines.append(f"| people | | {self.people.format(spec)} |")
        lines.append(f"| random square | {self.random.format(spec)} | |")
        return "\n".join(lines)


def _guessers(guessers: Mapping[str, object] | None) -> dict[str, object]:
    from huescues.agents import catalogue_entry

    from ._givers import DEFAULT_GUESSERS

    if guessers is None:
        return {name: catalogue_entry(name).build() for name in DEFAULT_GUESSERS}
    if not guessers:
        raise ValueError("no guessers to compare: give at least one")
    return dict(guessers)


def points_on_given_clues(
    given: GivenClues,
    guessers: Mapping[str, object] | None = None,
    *,
    guesses: HumanResponses | None = None,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    rules: Rules | None = None,
) -> GivenCluePoints:
    """How many points people's clues earn (R15): for each clue a person gave, each guesser's
    square (the one its belief gives the most expected points, as :func:`human_agreement`
    reads players; by default the library's ``default`` and ``naming``) scored against the
    target the person saw; and, where ``guesses`` (a guessing study's responses on the same
    board) hold clicks for the same clue text, those people's clicks scored against it.

    The people who guessed never saw the target: a clue text reads the same for any target, so
    their clicks for it are its reading. Intervals are ``level`` percentile bootstraps over the
    given clues (``n_boot`` resamples, ``seed``), shared by the measures of each column.
    """
    if len(given) == 0:
        raise ValueError(f"{given.source or 'the given clues'}: no clue to measure")
    _check_board(given, guesses)
    board = given.board
    r15 = rules if rules is not None else Rules.standard(4)
    readers = [(name, reader_of(p, board, r15)[1]) for name, p in _guessers(guessers).items()]
    clicks = _people_points(guesses, r15)
    cells = board.cells()
    n = len(given.rows)
    by_reader = np.zeros((len(readers), n))
    random = np.zeros(n)
    people = np.full(n, np.nan)
    square_of: dict[tuple[int, str], tuple[Cell, ...]] = {}
    for i, g in enumerate(given.rows):
        random[i] = sum(pawn_points(r15, g.target, c) for c in cells) / len(cells)
        for j, (_, read) in enumerate(readers):
            key = (j, normalise_clue(g.clue))
            if key not in square_of:
                square_of[key] = read(key[1]).best  # a tie scores the mean of its squares
            by_reader[j, i] = tie_points(r15, square_of[key], [g.target])[0]
        seen = clicks.get(normalise_clue(g.clue))
        if seen:
            people[i] = sum(pawn_points(r15, g.target, c) for c in seen) / len(seen)
    ones = np.ones(n)
    boot = _Bootstrap(n, n_boot, seed, level)
    read_idx = np.flatnonzero(~np.isnan(people))
    people_est = None
    on_read: tuple[tuple[str, Estimate], ...] = ()
    if len(read_idx):
        sub = _Bootstrap(len(read_idx), n_boot, seed, level)
        w = np.ones(len(read_idx))
        people_est = sub.ratio(people[read_idx], w)
        on_read = tuple(
            (name, sub.ratio(by_reader[j, read_idx], w)) for j, (name, _) in enumerate(readers)
        )
    return GivenCluePoints(
        clues=n,
        read=len(read_idx),
        guessers=tuple(
            (name, boot.ratio(by_reader[j], ones)) for j, (name, _) in enumerate(readers)
        ),
        random=boot.ratio(random, ones),
        people=people_est,
        guessers_on_read=on_read,
        level=level,
        n_boot=n_boot,
    )


@dataclass(frozen=True, slots=True)
class GiverComparison:
    """The measure of :func:`givers_against_people`: per reader (a guesser's name, or
    ``people``), the mean R15 points over the ``targets`` of people's clues for a target (the
    mean over the people who gave one), of each giver's clue, and of the difference giver minus
    people (paired, over the same targets). ``targets`` per reader: people's reading needs
    clicks for the giver's clue and for at least one person's clue."""

    rows: tuple[tuple[str, str, int, Estimate, Estimate, Estimate], ...]
    clues: dict[str, dict[Cell, str]]
    level: float
    n_boot: int

    def table(self, spec: str = ".2f") -> str:
        """One row per giver and reader: targets, people's clues, the giver's, the difference."""
        lines = [
            "| giver | read by | targets | people's clues | giver's clue | giver - people |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for giver, reader, n, people, bot, diff in self.rows:
            cells = (people.format(spec), bot.format(spec), diff.format(spec))
            lines.append(f"| {giver} | {reader} | {n} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


def giver_clue(giver: object, board: Board, target: Cell) -> str:
    """The first clue (R9) ``giver`` gives for ``target`` on ``board``: its own view of a new
    game's first round, with the target set to ``target`` (the giver sees only that, R8)."""
    state = new_game(4, seed=0, board=board)
    state = state.apply(ChooseTarget(0))
    assert state.current_player is not None
    view = state.view(state.current_player)._replace(target=target)
    clue = giver.give_clue(view, np.random.default_rng(0))  # type: ignore[attr-defined]
    return str(clue.text)


def givers_against_people(
    given: GivenClues,
    givers: Mapping[str, object],
    guessers: Mapping[str, object] | None = None,
    *,
    guesses: HumanResponses | None = None,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> GiverComparison:
    """For each target people gave clues for, each giver's first clue for the same target
    (:func:`giver_clue`) against people's clues, every clue scored by the points (R15) its
    reader earns against the target: each guesser in ``guessers`` (its best square, as in
    :func:`points_on_given_clues`), and people (``guesses``: a guessing study's clicks for the
    clue text, averaged) where they read both the giver's clue and some person's clue.

    A guesser built on the same colour model as a giver favours that giver's clues (the giver
    chose them by that model); people's reading has no such bias, which is why a guessing study
    of the giver's clues (``huescues serve --giver NAME``) belongs with a giving study.
    Intervals: ``level`` percentile bootstraps over the targets (paired: one resample of the
    targets for the three figures).
    """
    if len(given) == 0:
        raise ValueError(f"{given.source or 'the given clues'}: no clue to measure")
    if not givers:
        raise ValueError("no clue givers to compare: give at least one")
    _check_board(given, guesses)
    board = given.board
    r15 = Rules.standard(4)
    for g in givers.values():
        prepare(g, board, r15)
    readers = [(name, reader_of(p, board, r15)[1]) for name, p in _guessers(guessers).items()]
    clicks = _people_points(guesses, r15)
    targets = given.targets()
    people_clues = {t: [g.clue for g in given.rows if g.target == t] for t in targets}
    bot_clues = {name: {t: giver_clue(g, board, t) for t in targets} for name, g in givers.items()}
    square_of: dict[tuple[int, str], tuple[Cell, ...]] = {}

    def by_reader(j: int, clue: str, target: Cell) -> float:
        key = (j, normalise_clue(clue))
        if key not in square_of:
            square_of[key] = readers[j][1](key[1]).best  # a tie scores the mean of its squares
        return float(tie_points(r15, square_of[key], [target])[0])

    def by_people(clue: str, target: Cell) -> float | None:
        seen = clicks.get(normalise_clue(clue))
        if not seen:
            return None
        return sum(pawn_points(r15, target, c) for c in seen) / len(seen)

    rows = []
    for giver in givers:
        for j, (reader, _) in enumerate([*readers, ("people", None)]):
            ours, theirs = [], []
            for t in targets:
                if reader == "people":
                    bot = by_people(bot_clues[giver][t], t)
                    mine = [by_people(c, t) for c in people_clues[t]]
                    read = [m for m in mine if m is not None]
                    if bot is None or not read:
                        continue
                    ours.append(bot)
                    theirs.append(sum(read) / len(read))
                else:
                    ours.append(by_reader(j, bot_clues[giver][t], t))
                    theirs.append(
                        sum(by_reader(j, c, t) for c in people_clues[t]) / len(people_clues[t])
                    )
            if not ours:
                continue
            n = len(ours)
            boot = _Bootstrap(n, n_boot, seed, level)
            w = np.ones(n)
            a, b = np.array(theirs), np.array(ours)
            rows.append(
                (giver, reader, n, boot.ratio(a, w), boot.ratio(b, w), boot.ratio(b - a, w))
            )
    return GiverComparison(tuple(rows), bot_clues, level, n_boot)
