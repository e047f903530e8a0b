"""Human responses: the square a person chose for a clue on a board, read from a table."""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Self

from huescues.engine import Board, Cell, normalise_clue, unescape_cell

from ._variables import typed_value

__all__ = [
    "KEEP",
    "SYNTHETIC_RESPONSES",
    "HumanResponses",
    "Response",
    "excluded",
    "synthetic_responses",
]

#: Whose rows a loader keeps by default: the completed participants' (a study export's
#: ``status`` column; a table without it, or a row whose status is empty, is kept whole).
#: ``keep="all"`` keeps everyone's.
KEEP = ("completed", "all")

#: The packaged synthetic dataset (made by ``scripts/make_synthetic_responses.py``): simulated
#: picks, not human data, for tests and examples only.
SYNTHETIC_RESPONSES = "research/synthetic_responses.csv"

#: Longest clue read (the colour-term models refuse longer texts).
MAX_CLUE_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Response:
    """One person's guess: the ``square`` they chose for ``clue``.

    ``participant`` is who chose it, when the table says; ``extra`` holds the table's other
    columns (language, colour blindness, ...): as text, but for the columns an export declares
    numbers (``response_ms``, ``item``, the screen's, the checks' counts), which are numbers;
    ``line`` is the line of the file it came from (0 when it did not come from a file).
    """

    clue: str
    square: Cell
    participant: str | None = None
    extra: dict[str, str | int | float] = field(default_factory=dict, hash=False)
    line: int = 0


@dataclass(frozen=True, slots=True)
class HumanResponses:
    """A table of human guesses on one board: the rows read, and the rows skipped with why.

    ``skipped`` holds ``(line, reason)`` for every row left out, so nothing is dropped silently.
    Clues are grouped without regard to case or spacing (see :meth:`by_clue`).
    """

    board: Board
    rows: tuple[Response, ...]
    skipped: tuple[tuple[int, str], ...] = ()
    #: Where the rows came from (a path, or ``"records"``), for messages and reports.
    source: str = ""

    # -- reading -----------------------------------------------------------------------------
    @classmethod
    def from_csv(
        cls,
        path: str | os.PathLike[str],
        board: Board,
        *,
        clue_column: str = "clue",
        square_column: str = "square",
        participant_column: str = "participant",
        strict: bool = False,
        keep: str = "completed",
    ) -> Self:
        """Read a CSV file with a header row: one guess per row, the clue in ``clue_column`` and
        the chosen square's name (such as ``"F12"``) in ``square_column``.

        A ``participant_column`` is optional; every other column is kept in
        :attr:`Response.extra`. A bad row (a square not on ``board``, an empty clue, a missing
        value) is skipped and listed in :attr:`skipped` with its line number and the reason, or
        with ``strict=True`` raises a :class:`ValueError` naming the first bad row. A file
        without the named columns is an error either way.

        The exclusion rule (a study export's ``status`` column): ``keep="completed"``, the
        default, keeps the rows of participants who completed the study and leaves out, listed
        in :attr:`skipped`, those screened out or who stopped before the end; a row with no
        status (outside a study) is kept. ``keep="all"`` keeps everyone.
        """
        return cls._parse(
            read_csv_lines(path),
            board,
            name=str(path),
            clue_column=clue_column,
            square_column=square_column,
            participant_column=participant_column,
            strict=strict,
            keep=keep,
        )

    @classmethod
    def from_records(
        cls,
        records: Iterable[Mapping[str, str]],
        board: Board,
        *,
        clue_column: str = "clue",
        square_column: str = "square",
        participant_column: str = "participant",
        strict: bool = False,
        keep: str = "completed",
    ) -> Self:
        """The same as :meth:`from_csv` for rows already in memory (dicts of column to text);
        rows are numbered from 1."""
        return cls._parse(
            record_lines(records),
            board,
            name="records",
            clue_column=clue_column,
            square_column=square_column,
            participant_column=participant_column,
            strict=strict,
            word="row",
            keep=keep,
        )

    @classmethod
    def _parse(
        cls,
        lines: Sequence[tuple[int, list[str]]],
        board: Board,
        *,
        name: str,
        clue_column: str,
        square_column: str,
        participant_column: str,
        strict: bool,
        word: str = "line",
        keep: str = "completed",
    ) -> Self:
        check_keep(keep)
        header, body = header_and_rows(lines, name)
        missing = [c for c in (clue_column, square_column) if c not in header]
        if missing:
            raise ValueError(
                f"{name}: no column named {', '.join(repr(m) for m in missing)} "
                f"(the columns are {header}); pass clue_column= / square_column= to choose others"
            )
        if len(set(header)) != len(header):
            raise ValueError(f"{name}: the header names a column twice: {header}")
        i_clue, i_square = header.index(clue_column), header.index(square_column)
        i_part = header.index(participant_column) if participant_column in header else None
        others = [(i, h) for i, h in enumerate(header) if i not in (i_clue, i_square, i_part) and h]
        i_status = header.index("status") if "status" in header else None
        rows: list[Response] = []
        skipped: list[tuple[int, str]] = []
        for lineno, values in body:
            if not values or all(not v.strip() for v in values):
                continue  # blank lines are not rows
            reason = None
            if len(values) != len(header):
                reason = f"{len(values)} values for {len(header)} columns"
            elif (why := excluded(values, i_status, keep)) is not None:
                skipped.append((lineno, why))  # the rule's, not a bad row: never an error
                continue
            else:
                clue = normalise_clue(values[i_clue])
                square_text = values[i_square].strip()
                if not clue:
                    reason = "empty clue"
                elif len(clue) > MAX_CLUE_LENGTH:
                    reason = f"clue longer than {MAX_CLUE_LENGTH} characters"
                elif not square_text:
                    reason = "no square given"
                else:
                    try:
                        square = board.cell(square_text)
                    except ValueError:
                        reason = (
                            f"unknown square {square_text!r} (not a square of the "
                            f"{board.rows} x {board.cols} board {board.id})"
                        )
            if reason is not None:
                if strict:
                    raise ValueError(f"{name}, {word} {lineno}: {reason}")
                skipped.append((lineno, reason))
                continue
            participant = (values[i_part].strip() or None) if i_part is not None else None
            extra = {h: typed_value(h, values[i].strip()) for i, h in others}
            rows.append(Response(clue, square, participant, extra, lineno))
        return cls(board, tuple(rows), tuple(skipped), name)

    # -- views -------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.rows)

    def clues(self) -> tuple[str, ...]:
        """The distinct clues, in the order they first appear."""
        return tuple(self.by_clue())

    def by_clue(self) -> dict[str, tuple[Response, ...]]:
        """The responses grouped by clue (in order of first appearance)."""
        groups: dict[str, list[Response]] = {}
        for r in self.rows:
            groups.setdefault(r.clue, []).append(r)
        return {c: tuple(rs) for c, rs in groups.items()}

    def participants(self) -> tuple[str, ...]:
        """The distinct participants named (in order of first appearance)."""
        return tuple(dict.fromkeys(r.participant for r in self.rows if r.participant))

    def where(self, keep: Callable[[Response], bool]) -> HumanResponses:
        """The responses for which ``keep`` is true (the skip report is kept as it was)."""
        return HumanResponses(
            self.board, tuple(r for r in self.rows if keep(r)), self.skipped, self.source
        )

    def skip_report(self) -> str:
        """A few lines saying how many rows were read and which were skipped, and why."""
        lines = [f"{len(self.rows)} responses read, {len(self.skipped)} rows skipped"]
        lines += [f"  line {n}: {why}" for n, why in self.skipped]
        return "\n".join(lines)


def check_keep(keep: object) -> None:
    if keep not in KEEP:
        raise ValueError(f"keep={keep!r}: one of {', '.join(map(repr, KEEP))}")


def excluded(values: Sequence[str], at: int | None, keep: str) -> str | None:
    """Why a row of a study export is left out by the exclusion rule (see
    :meth:`HumanResponses.from_csv`), or None when it is kept."""
    if keep == "all" or at is None:
        return None
    status = values[at].strip()
    if status in ("", "completed"):
        return None
    return (
        f"participant's status {status!r}: the exclusion rule keeps completed participants "
        "(keep='all' keeps everyone)"
    )


def header_and_rows(
    lines: Sequence[tuple[int, list[str]]], name: str
) -> tuple[list[str], Sequence[tuple[int, list[str]]]]:
    """A table's header (its cells stripped) and the rows after it. Blank rows before the
    header are skipped: a spreadsheet's export may start with some."""
    first = next((i for i, (_, row) in enumerate(lines) if any(c.strip() for c in row)), None)
    if first is None:
        raise ValueError(f"{name}: the table is empty (a header row is needed)")
    return [h.strip() for h in lines[first][1]], lines[first + 1 :]


def read_csv_lines(path: str | os.PathLike[str]) -> list[tuple[int, list[str]]]:
    """The rows of a UTF-8 CSV file with their line numbers, cells the export quoted against
    spreadsheet formulas read back as written; a clear error naming the file when it is not
    UTF-8 text or not CSV that the reader takes."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            try:
                return [(reader.line_num, [unescape_cell(v) for v in row]) for row in reader]
            except csv.Error as e:  # a field over the reader's limit, a NUL byte, ...
                raise ValueError(
                    f"{path}, line {reader.line_num}: not readable CSV ({e})"
                ) from None
    except UnicodeDecodeError as e:
        # Name the file (the decoder's error does not); Latin-1 exports are the usual cause.
        raise ValueError(
            f"{path}: not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start}); "
            "save the responses as UTF-8 CSV"
        ) from None


def record_lines(
    records: Iterable[Mapping[str, str]], first: Sequence[str] = ()
) -> list[tuple[int, list[str]]]:
    """Rows in memory (dicts of column to text) as a table: a header (the columns ``first``,
    then every column in order of first appearance) and the rows numbered from 1; a missing
    value (no such key, or ``None``) is empty text."""
    if isinstance(records, str | bytes | Mapping) or not isinstance(records, Iterable):
        raise TypeError(
            f"records are rows, each a dict of column to text, not {type(records).__name__}"
            " (for a file use from_csv)"
        )
    recs = list(records)
    header: list[str] = list(first)
    for i, r in enumerate(recs, start=1):
        if not isinstance(r, Mapping):
            raise TypeError(f"records: row {i} is {r!r:.40}, not a dict of column to text")
        for k in r:
            if not isinstance(k, str):
                raise TypeError(f"records: row {i} names a column {k!r}, not text")
            if k not in header:
                header.append(k)
    lines: list[tuple[int, list[str]]] = [(0, header)]
    for i, r in enumerate(recs, start=1):
        lines.append((i, ["" if r.get(k) is None else str(r[k]) for k in header]))
    return lines


def synthetic_responses(*, strict: bool = False) -> HumanResponses:
    """The packaged synthetic dataset on the standard board: SIMULATED picks (drawn around the
    default model's colours with noise), not human data; for tests and examples only."""
    path = resources.files("huescues.data").joinpath(SYNTHETIC_RESPONSES)
    with resources.as_file(path) as p:
        return HumanResponses.from_csv(p, Board.standard(), strict=strict)
