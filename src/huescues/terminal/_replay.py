"""Replay a recorded game in the terminal, round by round (R27).

A record file is a :class:`~huescues.GameRecord` as JSON (``GameRecord.to_json()``), a JSON
object with a ``"record"`` key (as in ``tests/golden``), or a tournament results file: JSON lines,
each a JSON object with a ``"record"`` and a ``"game"`` index.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from huescues.engine import (
    ENGINE_VERSION,
    Board,
    GameRecord,
    GameState,
    known_board,
    new_game,
)

from ._play import paint_for, show_result, show_reveal

__all__ = ["load_record", "replay_file"]


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{where}: not JSON ({e.msg}, line {e.lineno} column {e.colno})") from None


def _pick(entries: list[tuple[int, Any]], game: int | None, name: str) -> tuple[Any, str]:
    """The entry of the JSON-lines file for ``game`` (the first when ``None``)."""
    if not entries:
        raise ValueError(f"{name}: the file holds no games")
    if game is None:
        lineno, entry = entries[0]
        return entry, f"{name}, line {lineno}"
    indices = []
    for lineno, entry in entries:
        index = entry.get("game") if isinstance(entry, dict) else None
        if index == game:
            return entry, f"{name}, line {lineno}"
        if isinstance(index, int):
            indices.append(index)
    held = f"games {min(indices)}-{max(indices)}" if indices else "no game indices"
    raise ValueError(f"{name}: no game {game} in the file (it holds {held})")


def _record_of(data: Any, where: str) -> GameRecord:
    if isinstance(data, dict) and "record" in data and "actions" not in data:
        if data["record"] is None:
            why = data.get("error") or data.get("status") or "no record was kept"
            raise ValueError(f"{where}: game {data.get('game')!r} has no record ({why})")
        data = data["record"]
        if isinstance(data, str):  # a record stored as JSON text
            try:
                data = json.loads(data)
            except json.JSONDecodeError:
                shown = data if len(data) <= 40 else data[:40] + "..."
                raise ValueError(
                    f"{where}: the 'record' is the text {shown!r}, not a game record (a record "
                    "must be an object with 'actions', or the JSON text of one)"
                ) from None
    if not isinstance(data, dict) or "actions" not in data:
        raise ValueError(f"{where}: not a game record (no 'actions')")
    version = data.get("engine_version")
    if version != ENGINE_VERSION:
        raise ValueError(
            f"{where}: the record is from engine version {version!r}, this is version "
            f"{ENGINE_VERSION}; its rules may differ, so it is not replayed"
        )
    try:
        return GameRecord.from_dict(data)
    except (KeyError, TypeError, ValueError) as e:
        what = f"missing {e}" if isinstance(e, KeyError) else str(e)
        raise ValueError(f"{where}: not a valid game record ({what})") from None


def load_record(path: str | os.PathLike[str], *, game: int | str | None = None) -> GameRecord:
    """The game record in the file at ``path``: a record, an object with a ``"record"``, JSON
    lines of results (``game`` picks the line whose ``"game"`` is that index; the first line by
    default), or the SQLite database of ``huescues serve`` (``game`` is the table's id; the
    latest finished game by default). A last line of results cut short (a run killed while
    writing it) is left out, as ``--resume`` leaves it out. Errors are ``ValueError`` with a
    one-line message naming the file."""
    return _load(path, game)[0]


_SQLITE_HEADER = b"SQLite format 3\x00"


def _load_from_db(
    path: str | os.PathLike[str], game: int | str | None
) -> tuple[GameRecord, list[str] | None]:
    """A finished game of the ``games`` table of ``huescues serve``'s database, and its
    players' names by seat (``None`` when they cannot be read)."""
    name = str(path)
    # Read-only, through a URI, so that replaying never writes to a server's database.
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
            if game is None:
                row = conn.execute(
                    "SELECT id, record, seats FROM games WHERE record IS NOT NULL "
                    "ORDER BY finished DESC LIMIT 1"
                ).fetchone()
            else:
                row = conn.execute(
                    "SELECT id, record, seats FROM games WHERE record IS NOT NULL AND id = ?",
                    (str(game),),
                ).fetchone()
    except sqlite3.Error as e:
        raise ValueError(f"{name}: not a huescues serve database ({e})") from None
    if row is None:
        which = "no finished game" if game is None else f"no finished game {str(game)!r}"
        raise ValueError(f"{name}: {which} in the database")
    record = _record_of({"record": row[1], "game": row[0]}, f"{name}, game {row[0]}")
    return record, _seat_names(row[2], record.rules.n_players)


def _seat_names(seats: Any, n: int) -> list[str] | None:
    """Who sat where in a stored game (``games.seats``: ``[{"name", "kind"}, ...]``): a person
    by their name, a bot by its kind. ``None`` when the column does not say, so a damaged
    label never stops a replay: the seats are then shown by number."""
    try:
        loaded = json.loads(seats)
        names = [
            str(seat["name"]) if seat["kind"] == "person" else str(seat["kind"]) for seat in loaded
        ]
    except (TypeError, KeyError, ValueError):
        return None
    # The server refuses names that do not print; a database from elsewhere may hold them, and
    # a terminal would run their control characters.
    names = [name if name.isprintable() else repr(name) for name in names]
    return names if len(names) == n else None


def _load(
    path: str | os.PathLike[str], game: int | str | None
) -> tuple[GameRecord, str | None, list[str] | None]:
    """The record, a note about a cut last line that was left out (or ``None``), and the
    players' names by seat when the file keeps them (a ``huescues serve`` database)."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            is_db = f.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        is_db = False
    if is_db:
        record, names = _load_from_db(path, game)
        return record, None, names
    if isinstance(game, str):
        try:
            game = int(game)
        except ValueError:
            raise ValueError(
                f"{name}: --game is a game's index in this file, not {game!r}"
            ) from None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{name}: is a directory, not a record file") from None
    except UnicodeDecodeError:
        raise ValueError(f"{name}: not a text file") from None
    if not text.strip():
        raise ValueError(f"{name}: the file is empty")
    try:
        whole: Any = json.loads(text)
    except json.JSONDecodeError:
        whole = None
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) < 2:
            _loads(text, name)  # raises with the reason
        note = None
        if not text.endswith("\n"):
            # A last line with no newline that is not JSON is a write cut short by a kill.
            last_no, last = lines[-1]
            try:
                json.loads(last)
            except json.JSONDecodeError:
                lines.pop()
                note = f"{name}, line {last_no} is cut short (a killed run?): left out"
        entries = [(n, _loads(line, f"{name}, line {n}")) for n, line in lines]
        entry, where = _pick(entries, game, name)
        return _record_of(entry, where), note, None
    if game is not None and isinstance(whole, dict) and whole.get("game", game) != game:
        raise ValueError(f"{name}: holds game {whole.get('game')!r}, not game {game}")
    return _record_of(whole, name), None, None


def _board_for(record: GameRecord, board_csv: str | None, name: str) -> Board:
    if board_csv is not None:
        try:
            given = Board.from_csv(board_csv)
        except OSError as e:  # one line naming the file, not Python's "[Errno 2] ..."
            raise OSError(f"{board_csv}: cannot read the board CSV ({e.strerror or e})") from None
        if given.id != record.board_id:
            raise ValueError(
                f"{name}: the game was played on board {record.board_id!r}, but {board_csv} "
                f"is board {given.id!r}"
            )
        return given
    board = known_board(record.board_id)
    if board is None:
        raise ValueError(
            f"{name}: the game was played on board {record.board_id!r}, not one the library "
            "ships (the standard board, the retail board, the WCS chart): give that board's "
            "CSV file"
        )
    return board


def replay_file(
    path: str | os.PathLike[str],
    *,
    step: bool = False,
    game: int | str | None = None,
    input_fn: Callable[[str], str] = input,
    output: TextIO | None = None,
    board_csv: str | None = None,
    colour: bool | None = None,
) -> GameState:
    """Replay the recorded game in ``path`` with the engine and print it round by round: the
    clue giver, the clues, the pawns, the target, the points, and the board at each reveal
    (true colour on a terminal unless ``NO_COLOR`` is set, or as ``colour`` says).

    ``game`` picks a game of a JSON-lines results file or of a ``huescues serve`` database (see
    :func:`load_record`);
    ``board_csv`` is the board the game was played on when it was not the standard board.
    With ``step``, waits for Enter (through ``input_fn``) after each round; ``q`` or the end of
    the input stops the replay early. Returns the state reached: the final state unless
    stopped. Errors are ``ValueError`` with a one-line message.
    """
    name = str(path)
    record, note, names = _load(path, game)
    if note is not None:
        print(f"huescues replay: warning: {note}", file=sys.stderr)
    board = _board_for(record, board_csv, name)
    out = sys.stdout if output is None else output
    paint = paint_for(colour, out)
    rules = record.rules

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    try:
        state = new_game(rules.n_players, seed=record.seed, rules=rules, board=board)
    except ValueError as e:
        raise ValueError(f"{name}: the record cannot be replayed: {e}") from None
    say(
        f"Replay of {name}: {rules.n_players} players, seed {record.seed}, board {board.id}, "
        f"{len(record.actions)} actions"
    )
    if names is not None:
        say("seats: " + ", ".join(f"{seat} {who}" for seat, who in enumerate(names)))
    seen = 0
    for number, action in enumerate(record.actions, start=1):
        try:
            state = state.apply(action)
        except ValueError as e:
            raise ValueError(f"{name}: action {number} ({action}) is refused: {e}") from None
        if len(state.history) == seen:
            continue
        seen = len(state.history)
        say(show_reveal(state.history[-1], board, state.scores, colour=paint, names=names))
        if step and number < len(record.actions):
            try:
                answer = input_fn("Enter for the next round, q to quit: ")
            except EOFError:
                return state
            if answer.strip().lower() in ("q", "quit"):
                return state
    if state.is_terminal:
        say(show_result(state, names=names))
    else:
        say(
            f"the record stops in round {state.round + 1} at {state.phase.value}; "
            + show_result(state, names=names)
        )
    return state
