"""People and bots on one scale: every finished game the server kept, rated with the
tournament's method (openskill's Plackett-Luce on the final scores, in the order the games
finished): a person by the name they played under at tables, a study's participant under a
pseudonym (the participant's code is the session's credential and never appears), a bot by its
kind. Seats with a default name ("Player 3") are left out: they could be anyone."""

from __future__ import annotations

import csv
import hashlib
import hmac
import json
import os
from dataclasses import dataclass

from huescues.engine import GameRecord, known_board, safe_row
from huescues.tournament import PlackettLuce

from ._db import Database
from ._export import _open

__all__ = ["RATING_COLUMNS", "Rating", "rate_server", "server_ratings", "write_ratings"]

#: The columns of ``huescues ratings --out``, as the tournament's ratings'.
RATING_COLUMNS = ("entrant", "kind", "games", "mu", "sigma", "ordinal")


@dataclass(frozen=True, slots=True)
class Rating:
    """An entrant's rating: ``mu`` and ``sigma`` (openskill's), its ordinal (``mu - 3 sigma``,
    the tournament's ranking) and a 95 % interval of ``mu``."""

    entrant: str
    kind: str
    games: int
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma

    @property
    def interval(self) -> tuple[float, float]:
        return (self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma)


def _pseudonym(secret: bytes, participant: str) -> str:
    """A study participant's name on the scale: from the study's secret and their code, so it
    is stable but tells nothing of the code."""
    return "participant " + hmac.new(secret, participant.encode(), hashlib.sha256).hexdigest()[:8]


def rate_server(database: Database) -> list[Rating]:
    """Every person, participant and bot kind that played a finished game in ``database``,
    rated (best ordinal first)."""
    study = {
        r["game"]: (r["participant"], int(r["seat"]))
        for r in database.query("SELECT participant, game, seat FROM study_games")
    }
    secret_rows = database.query("SELECT value FROM study_meta WHERE key = 'order_secret'")
    secret = bytes.fromhex(secret_rows[0]["value"]) if secret_rows else b""
    games = database.query(
        "SELECT id, seats, record FROM games WHERE record IS NOT NULL ORDER BY finished, id"
    )
    played: list[tuple[list[str], list[float]]] = []
    kinds: dict[str, str] = {}
    counts: dict[str, int] = {}
    for g in games:
        try:
            record = GameRecord.from_json(g["record"])
            seats = json.loads(g["seats"])
            scores = record.replay(board=known_board(record.board_id)).scores
        except (ValueError, TypeError, KeyError):
            continue  # a record this library cannot replay is not rated
        participant = study.get(g["id"])
        names, kept = [], []
        for seat, (s, score) in enumerate(zip(seats, scores, strict=True)):
            if participant is not None and seat == participant[1]:
                name, kind = _pseudonym(secret, participant[0]), "participant"
            elif s["kind"] == "person" or s.get("handed"):
                if not s.get("named", True):
                    continue  # "Player 3": could be anyone
                name, kind = str(s["name"]), "person"
            else:
                name, kind = str(s["kind"]), "bot"
            kinds.setdefault(name, kind)
            names.append(name)
            kept.append(float(score))
        if len(names) >= 2:
            played.append((names, kept))
            for name in set(names):
                counts[name] = counts.get(name, 0) + 1
    rating = PlackettLuce(sorted(counts))
    for seated, final in played:
        rating.add(seated, final)
    out = [Rating(name, kinds[name], counts[name], *rating.ratings[name]) for name in counts]
    return sorted(out, key=lambda r: (-r.ordinal, -r.mu, r.entrant))


def server_ratings(db: str | os.PathLike[str]) -> list[Rating]:
    """:func:`rate_server` of the database file ``db`` (read, never written: a server may hold
    it)."""
    database = _open(db)
    try:
        return rate_server(database)
    finally:
        database.close()


def write_ratings(ratings: list[Rating], out: str | os.PathLike[str]) -> None:
    """The ratings as CSV (:data:`RATING_COLUMNS`)."""
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(RATING_COLUMNS)
        for r in ratings:
            # A name a spreadsheet would run as a formula is quoted (safe_row).
            w.writerow(safe_row([r.entrant, r.kind, r.games, r.mu, r.sigma, r.ordinal]))
