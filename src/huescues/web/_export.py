"""``huescues responses export``: the study's clicks as a CSV file that
:meth:`huescues.research.HumanResponses.from_csv` reads, the clues people gave, the participants,
every action of the games (the game study's, or every finished table's), and the stored games as
the tidy round table of :mod:`huescues.export`. Every CSV ends with each participant's
``status`` (empty outside studies), and comes with ``dataset_description.json`` beside it
(:mod:`._dataset`). An export reads a copy of the database made in memory: it writes nothing
to it, reads it while a server holds it, and reads it from a read-only file system."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from huescues.engine import (
    Board,
    ChooseTarget,
    GameRecord,
    GiveClue,
    Pass,
    Phase,
    PlacePawn,
    action_from_dict,
    known_board,
    new_game,
    safe_row,
)
from huescues.export import save_rounds

from ._dataset import describe_export
from ._db import Database
from ._house import HouseRules, TableOptions
from ._store import GAME_ADDED, GAME_SCHEMA
from ._study_items import Item
from ._study_schema import STUDY_ADDED, STUDY_SCHEMA
from ._study_status import ParticipantStatus, participant_statuses

__all__ = [
    "ACTION_COLUMNS",
    "GIVEN_CLUE_COLUMNS",
    "PARTICIPANT_COLUMNS",
    "PARTICIPANT_TABLE_COLUMNS",
    "RESPONSE_COLUMNS",
    "export_actions",
    "export_games",
    "export_given_clues",
    "export_participants",
    "export_responses",
]

#: The participant's columns the responses and given clues end with (before ``clue_language``
#: and ``status``): the panel's ids from the study's address (empty when absent), the screen the
#: page ran on, and the checks: how many attention checks were answered and missed (a click
#: more than one square from the square shown), whether the participant passed them (``yes``,
#: ``no``, or empty with none answered), how many colour-vision plates were answered and how
#: many right, and each plate's result by the deficiency it screens for.
PARTICIPANT_COLUMNS: tuple[str, ...] = (
    "prolific_pid",
    "study_id",
    "session_id",
    "participant_id",
    "screen_width",
    "screen_height",
    "pixel_ratio",
    "colour_depth",
    "attention_checks",
    "attention_missed",
    "attention_passed",
    "colour_plates",
    "colour_correct",
    "plate_result",
)

#: The columns of the responses file, in order: ``clue`` and ``square`` (what
#: ``HumanResponses.from_csv`` reads), the ``participant``, the board's id, the time (ISO 8601,
#: UTC), the response time in milliseconds, the trial's place among the participant's real
#: trials (``item``, from 1), the clue giver and hidden target of a giver study, the optional
#: answers (empty when not given), and whose clue list the clue came from: ``researcher`` or
#: ``visitor``; then the participant's columns, ``clue_language`` (the clue's language; ``en``
#: for rows stored before it, while ``language`` is what the participant said of themselves),
#: and last the participant's ``status``.
RESPONSE_COLUMNS: tuple[str, ...] = (
    "participant",
    "clue",
    "square",
    "board",
    "time",
    "response_ms",
    "item",
    "giver",
    "target",
    "language",
    "colour_blindness",
    "age_range",
    "clue_source",
    *PARTICIPANT_COLUMNS,
    "clue_language",
    "status",
)

#: The columns of ``huescues responses export --kind given-clues``: one row per clue a
#: participant gave in the clue-giving study (``/study/give``; practice clues left out), read by
#: :meth:`huescues.research.GivenClues.from_csv`.
GIVEN_CLUE_COLUMNS: tuple[str, ...] = (
    "participant",
    "target",
    "clue",
    "board",
    "time",
    "response_ms",
    "item",
    "language",
    "colour_blindness",
    "age_range",
    *PARTICIPANT_COLUMNS,
    "clue_language",
    "status",
)

#: The columns of ``--kind participants``: one row per participant.
PARTICIPANT_TABLE_COLUMNS: tuple[str, ...] = (
    "participant",
    "study",
    "board",
    "started",
    "ended",
    "device",
    "language",
    "colour_blindness",
    "age_range",
    "clue_source",
    *PARTICIPANT_COLUMNS,
    "status",
)

#: The columns of ``--kind actions``: every action of the games, in order.
ACTION_COLUMNS: tuple[str, ...] = (
    "game",
    "participant",
    "seat",
    "player",
    "name",
    "round",
    "n",
    "action",
    "value",
    "response_ms",
    "points",
    "giver_player",
    "board",
    "status",
)

_PANEL = (
    "p.prolific_pid, p.study_id, p.session_id, p.participant_id, p.screen_width, "
    "p.screen_height, p.pixel_ratio, p.colour_depth"
)


def _open(db: str | os.PathLike[str]) -> Database:
    """The database as a copy in memory (see the module's docstring)."""
    return Database.snapshot(
        Path(db), schema=(*GAME_SCHEMA, *STUDY_SCHEMA), added=(*GAME_ADDED, *STUDY_ADDED)
    )


def _iso(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _settings(database: Database) -> dict[str, Any]:
    """The study's settings as the server last stored them (for the dataset's description)."""
    rows = database.query("SELECT value FROM study_meta WHERE key = 'settings'")
    if not rows:
        return {}
    try:
        settings: dict[str, Any] = json.loads(rows[0]["value"])
    except json.JSONDecodeError:
        return {}
    return settings


def _trial_numbers(database: Database) -> dict[tuple[str, int], int]:
    """(participant, plan index) -> the trial's 1-based place among the participant's real
    trials (no practice, attention checks or plates)."""
    out: dict[tuple[str, int], int] = {}
    for row in database.query("SELECT id, plan FROM participants"):
        n = 0
        for index, raw in enumerate(json.loads(row["plan"])):
            if Item.from_json(raw).kind in ("clue", "give"):
                n += 1
                out[(row["id"], index)] = n
    return out


def _participant_values(status: ParticipantStatus | None) -> list[object]:
    # Empty, not zeros, for a participant who met no check (a study without them).
    if status is None or not (status.attention_checks or status.colour_plates):
        return ["", "", "", "", "", ""]
    return [
        status.attention_checks,
        status.attention_missed,
        status.attention_passed,
        status.colour_plates,
        status.colour_correct,
        status.plate_result,
    ]


def _write(out: str | os.PathLike[str], columns: Sequence[str], rows: Iterable[list[Any]]) -> int:
    n = 0
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for values in rows:
            w.writerow(safe_row("" if v is None else v for v in values))
            n += 1
    return n


def export_responses(db: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write every study response in the database ``db`` to the CSV file ``out`` (columns
    :data:`RESPONSE_COLUMNS`, one row per click on a clue, in the order they were made;
    practice clicks, attention checks and colour plates are not responses: their results are
    the participant's columns); returns the number of rows. Load it with
    ``HumanResponses.from_csv(out, board)`` (which keeps the completed participants' rows)."""
    return _answers(
        db,
        out,
        RESPONSE_COLUMNS,
        "responses",
        "SELECT r.participant, r.clue, r.square, r.board, r.time, r.response_ms, r.item, "
        "r.giver, r.target, p.language, p.colour_blindness, p.age_range, p.clue_source, "
        f"{_PANEL}, r.clue_language FROM responses r "
        "LEFT JOIN participants p ON p.id = r.participant WHERE r.trial = 'clue' ORDER BY r.id",
    )


def export_given_clues(db: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write every clue people gave in the clue-giving study to the CSV file ``out`` (columns
    :data:`GIVEN_CLUE_COLUMNS`, one row per clue, in the order they were given; practice clues
    left out); returns the number of rows. Load it with ``GivenClues.from_csv(out, board)``."""
    return _answers(
        db,
        out,
        GIVEN_CLUE_COLUMNS,
        "given-clues",
        "SELECT g.participant, g.target, g.clue, g.board, g.time, g.response_ms, g.item, "
        f"p.language, p.colour_blindness, p.age_range, {_PANEL}, g.clue_language "
        "FROM given_clues g "
        "LEFT JOIN participants p ON p.id = g.participant WHERE g.trial = 'give' "
        "ORDER BY g.id",
    )


def _answers(
    db: str | os.PathLike[str],
    out: str | os.PathLike[str],
    columns: tuple[str, ...],
    kind: str,
    sql: str,
) -> int:
    """Write the rows of ``sql`` (each with its participant's checks and status) to ``out``."""
    database = _open(db)
    try:
        rows = database.query(sql)
        statuses = participant_statuses(database)
        trials = _trial_numbers(database)
        settings = _settings(database)
    finally:
        database.close()
    time_at = columns.index("time")
    item_at = columns.index("item")

    def lines() -> Iterable[list[Any]]:
        for r in rows:
            values = list(r)
            values[time_at] = _iso(r["time"])
            values[item_at] = trials.get((r["participant"], int(r["item"])), "")
            # The participant's checks, then the clue's language, then the status: newest last.
            clue_language = values.pop()
            status = statuses.get(r["participant"])
            values += _participant_values(status)
            values += [clue_language, "" if status is None else status.status]
            yield values

    n = _write(out, columns, lines())
    describe_export(out, columns, kind=kind, rows=n, settings=settings)
    return n


def export_participants(db: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write one row per participant to the CSV file ``out`` (columns
    :data:`PARTICIPANT_TABLE_COLUMNS`): their study and status, when they started and ended,
    their device class, what they said of themselves, the panel's ids and the checks' results;
    returns the number of rows."""
    database = _open(db)
    try:
        rows = database.query(
            "SELECT p.id, p.study, p.board, p.language, p.colour_blindness, p.age_range, "
            f"p.clue_source, {_PANEL} FROM participants p ORDER BY p.created, p.id"
        )
        statuses = participant_statuses(database)
        settings = _settings(database)
    finally:
        database.close()

    def lines() -> Iterable[list[Any]]:
        for r in rows:
            status = statuses[r["id"]]
            values = list(r)
            yield [
                *values[:3],
                _iso(status.started),
                _iso(status.ended),
                status.device,
                *values[3:],
                *_participant_values(status),
                status.status,
            ]

    n = _write(out, PARTICIPANT_TABLE_COLUMNS, lines())
    describe_export(out, PARTICIPANT_TABLE_COLUMNS, kind="participants", rows=n, settings=settings)
    return n


def _players(seats: list[dict[str, Any]]) -> list[str]:
    return ["person" if s["kind"] == "person" or s.get("handed") else str(s["kind"]) for s in seats]


def export_actions(
    db: str | os.PathLike[str], out: str | os.PathLike[str], *, all_tables: bool = False
) -> int:
    """Write every action of the game study's games (with ``all_tables``, of every finished
    table the server kept) to the CSV file ``out`` (columns :data:`ACTION_COLUMNS`), game by
    game in the order they started, each action in its order: who played it (``person``, a
    bot's catalogue name, or ``stand-in:NAME`` for a move a stand-in made for a person away),
    its round, what it was, its time since the seat's turn began, a pawn's points and who gave
    the round's clues. Returns the number of rows."""
    database = _open(db)
    try:
        study = {
            r["game"]: r["participant"]
            for r in database.query("SELECT participant, game FROM study_games")
        }
        where = "g.record IS NOT NULL" if all_tables else "g.id IN (SELECT game FROM study_games)"
        games = database.query(
            f"SELECT g.id, g.seats, g.seed, g.house_rules, g.options, g.players, g.record "
            f"FROM games g WHERE {where} ORDER BY g.created, g.id"
        )
        actions: dict[str, list[Any]] = {}
        for a in database.query(
            "SELECT game, n, seat, action, by, response_ms FROM actions ORDER BY game, n"
        ):
            actions.setdefault(a["game"], []).append(a)
        statuses = participant_statuses(database)
        settings = _settings(database)
    finally:
        database.close()

    def lines() -> Iterable[list[Any]]:
        for g in games:
            yield from _game_lines(g, actions.get(g["id"], []), study.get(g["id"]), statuses)

    n = _write(out, ACTION_COLUMNS, lines())
    describe_export(out, ACTION_COLUMNS, kind="actions", rows=n, settings=settings)
    return n


def _game_lines(
    game: Any,
    actions: list[Any],
    participant: str | None,
    statuses: dict[str, ParticipantStatus],
) -> Iterable[list[Any]]:
    """One game's actions as rows: replayed from its seed, so each pawn's points and each
    round's giver are the engine's."""
    seats = json.loads(game["seats"])
    players = _players(seats)
    house = HouseRules.from_stored(json.loads(game["house_rules"] or "{}"))
    options = TableOptions.from_stored(json.loads(game["options"] or "{}"))
    if game["record"] is not None:
        record = GameRecord.from_json(game["record"])
        rules, board = record.rules, known_board(record.board_id) or options.game_board()
    else:
        rules, board = house.rules(int(game["players"])), options.game_board()
    state = new_game(len(seats), seed=int(game["seed"]), rules=rules, board=board)
    rows: list[list[Any]] = []
    pending: list[list[Any]] = []  # this round's pawns, scored when it ends
    giver: str = ""
    status = "" if participant is None else statuses[participant].status
    for a in actions:
        seat = int(a["seat"])
        action = action_from_dict(json.loads(a["action"]))
        phase = state.phase
        if phase is Phase.CHOOSE_TARGET:
            giver = a["by"] or players[seat]
        kind, value = _described(action)
        person = seats[seat]["kind"] == "person" or bool(seats[seat].get("handed"))
        named = person and seats[seat].get("named", True) and participant is None
        row = [
            game["id"],
            participant if participant is not None and person else "",
            seat,
            a["by"] or players[seat],
            seats[seat]["name"] if named else "",
            state.round,
            int(a["n"]),
            kind,
            value,
            a["response_ms"],
            None,
            giver,
            board.id,
            status,
        ]
        rows.append(row)
        rounds = len(state.history)
        state = state.apply(action, seat=seat)
        if kind == "pawn":
            pending.append(row)
        if len(state.history) > rounds:
            scored = state.history[-1]
            for pawn_row in pending:
                at = pawn_row[8]
                pawn_seat = pawn_row[2]
                for s, cell in scored.pawns:
                    if s == pawn_seat and str(cell) == at:
                        pawn_row[10] = state.rules.points_at(scored.target.distance(cell))
            pending = []
    return rows


def _described(action: Any) -> tuple[str, str]:
    if isinstance(action, ChooseTarget):
        return "target", str(action.index)
    if isinstance(action, GiveClue):
        return "clue", action.text
    if isinstance(action, Pass):
        return "pass", ""
    if isinstance(action, PlacePawn):
        return "pawn", str(action.cell)
    raise ValueError(f"not an action: {action!r}")


def export_games(
    db: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    board: Board | None = None,
) -> int:
    """Write the rounds of every finished game in ``db`` to ``out`` as the tidy round table
    (:func:`huescues.export.save_rounds`: CSV, or Parquet for ``.parquet``), in the order the
    games finished, each row ending with its game-study participant's ``status`` (empty for a
    table); ``board`` is the board the games were played on when it is none the library ships
    (the standard board, the retail board, the WCS chart). Returns the number of games."""
    database = _open(db)
    try:
        rows = database.query(
            "SELECT id, record, seats FROM games WHERE record IS NOT NULL "
            "ORDER BY finished, created, id"
        )
        study = {
            r["game"]: r["participant"]
            for r in database.query("SELECT participant, game FROM study_games")
        }
        statuses = participant_statuses(database)
        settings = _settings(database)
    finally:
        database.close()
    records, names, extra = [], [], []
    for i, r in enumerate(rows):
        try:
            records.append(GameRecord.from_json(r["record"]))
            # Who sat where: "person: Ann" or the bot's kind, so people's rounds can be told apart.
            names.append([_seat_name(s) for s in json.loads(r["seats"])])
        except (ValueError, TypeError, KeyError, json.JSONDecodeError) as e:
            raise ValueError(f"{db}: stored game {i + 1} is not a game record: {e}") from None
        participant = study.get(r["id"])
        extra.append({"status": "" if participant is None else statuses[participant].status})
    path = save_rounds(records, out, board=board, agents=names, extra=extra)
    if path.suffix.lower() == ".csv":
        from huescues.export import COLUMNS

        columns = [name for name, _ in COLUMNS] + ["status"]
        describe_export(out, columns, kind="games", rows=len(records), settings=settings)
    return len(records)


def _seat_name(seat: dict[str, Any]) -> str:
    kind = seat["kind"]
    return f"person: {seat['name']}" if kind == "person" else kind
