"""Games with people, as data: every action of the games people played with the library's bots
(``huescues responses export --kind actions``), loaded in one call, and the question the library
exists to answer, measured with intervals: do the bots read and give clues as people do, in real
play?

A pawn's points (R15) are scored against the target its round's giver chose, so the rounds a
person gave and the rounds a bot gave can be read by people and by bots alike:

- ``people_on_people``: people's pawns on people's clues (the reference: people reading people);
- ``bots_on_people``: the bots' pawns on people's clues (do the bots read people as people do?);
- ``people_on_bots``: people's pawns on the bots' clues (do the bots give clues people read?);
- ``bots_on_bots``: the bots' pawns on the bots' clues;

and the two differences against the reference, paired on the same resamples. Each is a mean
of pawns' points with a percentile bootstrap interval that resamples games (a game's rounds and
pawns hang together). A stand-in's moves (a bot playing for a person who was away) count for
neither side: they are left out, and counted."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from huescues.stats import Estimate, ratio_interval, resample

from ._responses import check_keep, excluded, header_and_rows, read_csv_lines, record_lines
from ._variables import typed_value

__all__ = ["GameAction", "GameActions", "ReadingInPlay", "reading_in_play"]

#: The columns an actions table must have.
_NEEDED = ("game", "seat", "player", "round", "action", "value", "points", "giver_player")


@dataclass(frozen=True, slots=True)
class GameAction:
    """One action of a game: its table, seat, who played it (``person``, a bot's catalogue
    name, or ``stand-in:NAME``), the round, what it was (``target``, ``clue``, ``pass``,
    ``pawn``) and its value, the time since the seat's turn began (ms; None if not known), a
    pawn's points (None for other actions) and who gave the round's clues; the table's other
    columns in ``extra``."""

    game: str
    seat: int
    player: str
    round: int
    action: str
    value: str
    response_ms: int | None
    points: int | None
    giver: str
    participant: str | None = None
    extra: dict[str, str | int | float] = field(default_factory=dict, hash=False)

    @property
    def by_person(self) -> bool:
        return self.player == "person"

    @property
    def by_stand_in(self) -> bool:
        return self.player.startswith("stand-in:")


@dataclass(frozen=True, slots=True)
class GameActions:
    """Every action of an export, and the rows left out with why."""

    rows: tuple[GameAction, ...]
    skipped: tuple[tuple[int, str], ...] = ()
    source: str = ""

    @classmethod
    def from_csv(
        cls, path: str | os.PathLike[str], *, keep: str = "completed", strict: bool = False
    ) -> GameActions:
        """Read ``huescues responses export --kind actions``'s CSV. ``keep`` is the exclusion
        rule of :meth:`HumanResponses.from_csv <huescues.research.HumanResponses.from_csv>`:
        the actions of games whose participant did not complete the study are left out (a
        table's games, with no participant, are kept). A bad row is skipped and listed in
        :attr:`skipped`, or with ``strict=True`` raises a :class:`ValueError` naming it."""
        return cls._parse(read_csv_lines(path), str(path), keep, strict)

    @classmethod
    def from_records(
        cls,
        records: Iterable[Mapping[str, str]],
        *,
        keep: str = "completed",
        strict: bool = False,
    ) -> GameActions:
        """The same as :meth:`from_csv` for rows in memory (dicts of column to text)."""
        return cls._parse(record_lines(records, _NEEDED), "records", keep, strict)

    @classmethod
    def _parse(
        cls, lines: list[tuple[int, list[str]]], name: str, keep: str, strict: bool
    ) -> GameActions:
        check_keep(keep)
        header, body = header_and_rows(lines, name)
        missing = [c for c in _NEEDED if c not in header]
        if missing:
            raise ValueError(
                f"{name}: no column named {', '.join(missing)} (the columns are {header}): is it "
                "huescues responses export --kind actions's table?"
            )
        at = {h: i for i, h in enumerate(header)}
        rows: list[GameAction] = []
        skipped: list[tuple[int, str]] = []
        for lineno, values in body:
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(header):
                reason: str | None = f"{len(values)} values for {len(header)} columns"
            elif (why := excluded(values, at.get("status"), keep)) is not None:
                skipped.append((lineno, why))
                continue
            else:
                reason = None
                cell = {h: values[i].strip() for h, i in at.items()}
                try:
                    row = GameAction(
                        cell["game"],
                        int(cell["seat"]),
                        cell["player"],
                        int(cell["round"]),
                        cell["action"],
                        cell["value"],
                        int(cell["response_ms"]) if cell.get("response_ms") else None,
                        int(cell["points"]) if cell["points"] else None,
                        cell["giver_player"],
                        cell.get("participant") or None,
                        {h: typed_value(h, v) for h, v in cell.items() if h not in _NEEDED},
                    )
                except ValueError as e:
                    reason = f"not a number where one is needed ({e})"
            if reason is not None:
                if strict:
                    raise ValueError(f"{name}, line {lineno}: {reason}")
                skipped.append((lineno, reason))
                continue
            if row.action not in ("target", "clue", "pass", "pawn"):
                bad = f"action {row.action!r} is not target, clue, pass or pawn"
                if strict:
                    raise ValueError(f"{name}, line {lineno}: {bad}")
                skipped.append((lineno, bad))
                continue
            rows.append(row)
        return cls(tuple(rows), tuple(skipped), name)

    def __len__(self) -> int:
        return len(self.rows)

    def pawns(self) -> tuple[GameAction, ...]:
        """The pawns placed, each with its points."""
        return tuple(r for r in self.rows if r.action == "pawn" and r.points is not None)


@dataclass(frozen=True, slots=True)
class ReadingInPlay:
    """People and bots reading each other's clues in real play (see the module): mean R15
    points a pawn, with bootstrap intervals over games, and the differences against people
    reading people, paired."""

    people_on_people: Estimate
    bots_on_people: Estimate
    people_on_bots: Estimate
    bots_on_bots: Estimate
    #: ``bots_on_people - people_on_people``: do the bots read people's clues as people do?
    bots_reading_people: Estimate
    #: ``people_on_bots - people_on_people``: do people read the bots' clues as people's?
    people_reading_bots: Estimate
    games: int
    #: Pawns a stand-in placed, or placed in a round a stand-in gave: counted for neither side.
    stand_in_pawns: int
    level: float = 0.95

    def table(self, spec: str = ".2f") -> str:
        lines = [
            "| pawns | on people's clues | on the bots' clues |",
            "| --- | --- | --- |",
            f"| people's | {self.people_on_people.format(spec)} | "
            f"{self.people_on_bots.format(spec)} |",
            f"| the bots' | {self.bots_on_people.format(spec)} | "
            f"{self.bots_on_bots.format(spec)} |",
            "",
            f"bots reading people - people reading people: {self.bots_reading_people.signed(spec)}",
            f"people reading bots - people reading people: {self.people_reading_bots.signed(spec)}",
            f"({self.games} games; {self.stand_in_pawns} pawns of stand-ins left out; "
            f"{self.level:.0%} bootstrap intervals over games)",
        ]
        return "\n".join(lines)


def reading_in_play(
    actions: GameActions, *, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> ReadingInPlay:
    """Measure people and bots reading each other's clues in the games of ``actions`` (see the
    module)."""
    games = sorted({r.game for r in actions.rows})
    index = {g: i for i, g in enumerate(games)}
    cells = {
        (reader, giver): (np.zeros(len(games)), np.zeros(len(games)))
        for reader in ("person", "bot")
        for giver in ("person", "bot")
    }
    stand_ins = 0
    for pawn in actions.pawns():
        if pawn.by_stand_in or pawn.giver.startswith("stand-in:"):
            stand_ins += 1
            continue
        reader = "person" if pawn.by_person else "bot"
        giver = "person" if pawn.giver == "person" else "bot"
        totals, weights = cells[(reader, giver)]
        totals[index[pawn.game]] += float(pawn.points or 0)
        weights[index[pawn.game]] += 1.0
    draws = resample(len(games), n_boot, np.random.default_rng(seed))

    def mean(reader: str, giver: str) -> Estimate:
        totals, weights = cells[(reader, giver)]
        estimate = ratio_interval(totals, weights, draws, level)
        return Estimate(estimate.mean, estimate.low, estimate.high, int(weights.sum()), len(games))

    def difference(a: tuple[str, str], b: tuple[str, str]) -> Estimate:
        (ta, wa), (tb, wb) = cells[a], cells[b]
        if wa.sum() == 0 or wb.sum() == 0:
            return Estimate.no_data(blocks=len(games))
        value = float(ta.sum() / wa.sum() - tb.sum() / wb.sum())
        if not len(draws):
            return Estimate(value)
        swa, swb = wa[draws].sum(axis=1), wb[draws].sum(axis=1)
        keep = (swa > 0) & (swb > 0)
        if not keep.any():
            return Estimate(value)
        values = ta[draws].sum(axis=1)[keep] / swa[keep] - tb[draws].sum(axis=1)[keep] / swb[keep]
        tail = 100.0 * (1.0 - level) / 2.0
        low, high = np.percentile(values, [tail, 100.0 - tail])
        return Estimate(value, float(low), float(high), None, len(games))

    return ReadingInPlay(
        mean("person", "person"),
        mean("bot", "person"),
        mean("person", "bot"),
        mean("bot", "bot"),
        difference(("bot", "person"), ("person", "person")),
        difference(("person", "bot"), ("person", "person")),
        len(games),
        stand_ins,
        level,
    )
