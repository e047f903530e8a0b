"""The results file (JSON lines, one game a line) and the results object."""

from __future__ import annotations

import functools
import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from huescues.engine import STANDARD_BOARD_ID, Board, GameRecord

if TYPE_CHECKING:
    from ._report import Report

__all__ = [
    "ResultsFileError",
    "TournamentResults",
    "check_scores",
    "read_results_file",
    "write_atomically",
]


class ResultsFileError(ValueError):
    """A results file that cannot be read, resumed or overwritten as asked."""


def check_scores(game: dict[str, Any], where: str, board: Board | None = None) -> None:
    """Refuse a results line whose ``scores`` or ``winners`` are not what its ``record``
    replays to: the record is the truth, and an edited score would change the report.
    ``board`` is the tournament's board when it is not the standard one (a record on a board
    that cannot be had is not replayed)."""
    record = game.get("record")
    if record is None:
        return
    index = game.get("game")
    try:
        rec = GameRecord.from_dict(record)
        if rec.board_id != STANDARD_BOARD_ID and (board is None or board.id != rec.board_id):
            return
        state = rec.replay(board=board if rec.board_id != STANDARD_BOARD_ID else None)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as e:
        what = f"missing {e}" if isinstance(e, KeyError) else str(e)
        raise ResultsFileError(f"{where}: game {index}'s record cannot be replayed ({what})") from e
    if game.get("scores") != list(state.scores):
        raise ResultsFileError(
            f"{where}: game {index}'s scores {game.get('scores')} are not what its record replays "
            f"to, {list(state.scores)}: the file was edited or damaged"
        )
    if state.result is not None and game.get("winners") != list(state.result.winners):
        raise ResultsFileError(
            f"{where}: game {index}'s winners {game.get('winners')} are not what its record "
            f"replays to, {list(state.result.winners)}: the file was edited or damaged"
        )


def read_results_file(path: Path, *, board: Board | None = None) -> tuple[dict[int, str], int]:
    """The complete lines of a results file by game index, and the length in bytes of the part
    that holds them. A last line cut short (a run killed while writing it) is left out; any
    other line that is not a game, or whose scores are not what its record replays to (see
    :func:`check_scores`), is an error naming the line."""
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    lines: dict[int, str] = {}
    for lineno, raw in enumerate(data[:end].split(b"\n")[:-1], start=1):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8")
            game = json.loads(text)
            index = game["game"]
        except UnicodeDecodeError as e:
            raise ResultsFileError(f"{path}, line {lineno}: not UTF-8 text ({e.reason})") from e
        except (ValueError, KeyError, TypeError, IndexError) as e:
            raise ResultsFileError(f"{path}, line {lineno}: not a tournament game ({e})") from e
        if type(index) is not int:
            raise ResultsFileError(f"{path}, line {lineno}: not a tournament game")
        seats = game.get("seats")
        if not isinstance(seats, list) or not all(isinstance(n, str) for n in seats):
            raise ResultsFileError(
                f"{path}, line {lineno}: not a tournament game (seats {seats!r}, not a list of "
                "entrant names)"
            )
        check_scores(game, f"{path}, line {lineno}", board)
        lines.setdefault(index, text)
    return lines, end


def write_atomically(path: Path, lines: Iterable[str]) -> None:
    """Write the lines to a temporary file beside ``path``, then put it in place at once."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line)
            f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - directories cannot be opened on some systems
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


class TournamentResults:
    """A tournament's games, in game order, as the results file holds them."""

    def __init__(
        self, lines: Sequence[str], *, entrants: Sequence[str], out: Path | None = None
    ) -> None:
        #: Every game's line of the results file, in game order.
        self.lines: tuple[str, ...] = tuple(lines)
        #: The entrants' names.
        self.entrants: tuple[str, ...] = tuple(entrants)
        #: The results file, if the run wrote one.
        self.out = out

    def __repr__(self) -> str:
        return (
            f"<TournamentResults {len(self.lines)} games, entrants {list(self.entrants)}, "
            f"out={str(self.out) if self.out else None!r}>"
        )

    def __len__(self) -> int:
        return len(self.lines)

    @functools.cached_property
    def games(self) -> list[dict[str, Any]]:
        """Every game as a dict (the results file's lines, parsed), in game order."""
        return [json.loads(line) for line in self.lines]

    @property
    def unfinished(self) -> list[dict[str, Any]]:
        """The games that could not finish."""
        return [g for g in self.games if g["status"] != "finished"]

    def fault_counts(self) -> dict[str, Counter[str]]:
        """Faults by entrant, then by kind (``exception``, ``illegal``, ``timeout``)."""
        out: dict[str, Counter[str]] = {name: Counter() for name in self.entrants}
        for g in self.games:
            for f in g["faults"]:
                out.setdefault(f["entrant"], Counter())[f["kind"]] += 1
        return out

    def report(self, **kw: Any) -> Report:
        """The tournament's report (points by role with confidence intervals, win rates,
        ratings, faults): ``Report.from_games`` over these games."""
        from ._report import Report

        return Report.from_games(self.games, entrants=list(self.entrants), **kw)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TournamentResults:
        """The results in a results file (a last line cut short is left out), or in a directory
        of Parquet shards (a path ending in ``.parquet``)."""
        p = Path(path)
        if p.suffix == ".parquet":
            from ._shards import read_shards

            lines, _ = read_shards(p)
        else:
            lines, _ = read_results_file(p)
        ordered = [lines[i] for i in sorted(lines)]
        names: dict[str, None] = {}
        for line in ordered:
            for name in json.loads(line)["seats"]:
                names.setdefault(name)
        return cls(ordered, entrants=list(names), out=p)
