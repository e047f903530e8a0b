"""What became of each participant, from the database alone: ``completed`` (every item of the
plan answered, or the game study's game over), ``screened_out`` (more attention checks missed
than the study allowed) or ``incomplete`` (stopped before the end); when they started and ended,
the device class their screen says, and the checks' results. Every export and the study report
read it from here, so the three agree."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from huescues.engine import Cell

from ._db import Database
from ._study_items import Item, attention_missed

__all__ = ["STATUSES", "ParticipantStatus", "device_class", "participant_statuses"]

#: A participant's status, in the exports' ``status`` column.
STATUSES = ("completed", "screened_out", "incomplete")


def device_class(width: object, height: object) -> str:
    """``phone``, ``tablet`` or ``desktop`` from the screen's CSS size (its shorter side: below
    600 px a phone, below 1,000 a tablet), or ``""`` when the page did not say."""
    if not isinstance(width, int | float) or not isinstance(height, int | float):
        return ""
    short = min(width, height)
    return "phone" if short < 600 else "tablet" if short < 1000 else "desktop"


@dataclass(frozen=True, slots=True)
class ParticipantStatus:
    """One participant's end: ``status`` (one of :data:`STATUSES`), ``started`` and ``ended``
    (Unix times; ``ended`` is the last answer's), the ``study`` (guess, give, game), the device
    class, the attention checks answered and missed and whether they passed (``yes``, ``no``,
    or empty with none answered), the colour plates answered and right, and each plate's result
    by the deficiency it screens for (``protan: pass``, ...)."""

    participant: str
    status: str
    started: float
    ended: float | None
    study: str
    device: str
    attention_checks: int = 0
    attention_missed: int = 0
    attention_passed: str = ""
    colour_plates: int = 0
    colour_correct: int = 0
    plates: tuple[tuple[str, bool], ...] = field(default_factory=tuple)

    @property
    def plate_result(self) -> str:
        """The plates' results as one field: ``deutan: pass; tritan: fail``."""
        return "; ".join(f"{name}: {'pass' if ok else 'fail'}" for name, ok in self.plates)


def participant_statuses(database: Database) -> dict[str, ParticipantStatus]:
    """Every participant's :class:`ParticipantStatus`, by participant code."""
    meta = database.query("SELECT value FROM study_meta WHERE key = 'attention_misses_allowed'")
    allowed = int(meta[0]["value"]) if meta else 1
    answers: dict[str, list[Any]] = {}
    for r in database.query(
        "SELECT participant, item, trial, square, target, time FROM responses "
        "UNION ALL SELECT participant, item, trial, NULL, target, time FROM given_clues"
    ):
        answers.setdefault(r["participant"], []).append(r)
    games = _game_study_ends(database)
    out: dict[str, ParticipantStatus] = {}
    for p in database.query(
        "SELECT id, created, plan, study, screen_width, screen_height, attention_misses_allowed "
        "FROM participants"
    ):
        code = p["id"]
        plan = [Item.from_json(raw) for raw in json.loads(p["plan"])]
        rows = answers.get(code, [])
        checks = [r for r in rows if r["trial"] == "attention"]
        missed = sum(
            attention_missed(Cell.parse(r["target"]), Cell.parse(r["square"])) for r in checks
        )
        plates = []
        for r in sorted((r for r in rows if r["trial"] == "colour"), key=lambda r: r["item"]):
            item = plan[int(r["item"])] if int(r["item"]) < len(plan) else None
            screens = item.clue if item is not None and item.clue else "hue"
            plates.append((screens, r["square"] == r["target"]))
        ended = max((float(r["time"]) for r in rows), default=None)
        study = str(p["study"])
        # The rule the participant took part under (a restart may have changed the server's).
        own = p["attention_misses_allowed"]
        failed = missed > (allowed if own is None else int(own))
        if failed:
            status = "screened_out"
        elif study == "game":
            # Completed: every item before the game answered, and the game over with the
            # participant there at its end (their seat's last move their own, not a stand-in's:
            # one who dropped out, whose game the stand-in finished, is incomplete).
            game = games.get(code)
            done = game is not None and game[1] and len(rows) >= len(plan) - 1
            status = "completed" if done else "incomplete"
            if game is not None:
                ended = max(ended or 0.0, game[0])
        else:
            status = "completed" if len(rows) >= len(plan) else "incomplete"
        out[code] = ParticipantStatus(
            code,
            status,
            float(p["created"]),
            ended,
            study,
            device_class(p["screen_width"], p["screen_height"]),
            len(checks),
            missed,
            ("no" if failed else "yes") if checks else "",
            len(plates),
            sum(ok for _, ok in plates),
            tuple(plates),
        )
    return out


def _game_study_ends(database: Database) -> dict[str, tuple[float, bool]]:
    """When each game-study participant's game finished (absent: not finished), and whether
    the participant made their seat's last move themselves."""
    tables = {r[0] for r in database.query("SELECT name FROM sqlite_master WHERE type='table'")}
    if "study_games" not in tables:
        return {}
    rows = database.query(
        "SELECT s.participant, g.finished, (SELECT a.by FROM actions a WHERE a.game = s.game "
        "AND a.seat = s.seat ORDER BY a.n DESC LIMIT 1) AS last_by FROM study_games s "
        "JOIN games g ON g.id = s.game WHERE g.finished IS NOT NULL"
    )
    return {r["participant"]: (float(r["finished"]), r["last_by"] is None) for r in rows}
