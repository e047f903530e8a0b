"""The game study (``/study/game``): each participant plays one whole game with the study's bots
(``--game-bots``), the seat order drawn per game from the participant's seed, on a table of the
server's (its stand-in plays the participant's seat once they are away, so that the game ends
even if they drop out). The table and seat are kept in ``study_games`` and given again when
asked again, with the seat's token: derived from the study's secret and the participant's code
(:func:`seat_token`), so that the database keeps only its hash, as it does every seat's."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ._db import Database
from ._store import token_hash
from ._study_plan import Study

if TYPE_CHECKING:
    from ._tables import TableService

__all__ = ["StudyGame", "game_of", "seat_token", "start_game"]

_LOCKS: dict[int, asyncio.Lock] = {}


@dataclass(frozen=True, slots=True)
class StudyGame:
    """A participant's game: its table, their seat, and whether it is over."""

    table: str
    seat: int
    finished: bool


def seat_token(secret: bytes, participant: str) -> str:
    """The participant's seat token: as long as a table's (``token_urlsafe(18)``), and worked out
    again from the study's secret and the participant's code whenever they ask for their game, so
    that it is never stored. The code is the participant's credential already (it brings the game
    back); without the secret, which is never sent, the code tells nothing of the token."""
    digest = hmac.new(secret, b"game seat token:" + participant.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode("ascii")


def game_of(db: Database, participant: str) -> StudyGame | None:
    """The participant's game, if it was made (on the database's reading threads)."""
    rows = db.query(
        "SELECT s.game, s.seat, g.finished, g.record FROM study_games s "
        "JOIN games g ON g.id = s.game WHERE s.participant = ?",
        (participant,),
    )
    if not rows:
        return None
    row = rows[0]
    over = row["finished"] is not None and row["record"] is not None
    return StudyGame(str(row["game"]), int(row["seat"]), over)


async def start_game(
    tables: TableService, study: Study, participant: str, seed: int, client: str
) -> StudyGame:
    """Make the participant's game: a person's seat for them and one for each of the study's
    bots, in an order drawn from ``seed``; kept, so that asking again gives the same game. The
    table counts as ``client``'s (the address that asked, as a table made in the lobby does), so
    the per-address cap on games in play holds for the game study too; at a cap, the tables'
    ``OverflowError`` says which, and nothing is stored."""
    db = study.db
    lock = _LOCKS.setdefault(id(study), asyncio.Lock())
    async with lock:  # two requests at once make one game
        found = await db.read(game_of, db, participant)
        if found is not None:
            return found
        bots = list(study.config.game_bots)
        order = np.random.default_rng(seed).permutation(len(bots) + 1)
        kinds = ["person", *bots]
        seats: list[tuple[str, str | None]] = [(kinds[int(i)], None) for i in order]
        seat = seats.index(("person", None))
        key = token_hash(seat_token(study.secret, participant))
        table = await tables.study_table(
            seats, seed, study.config.language, client, key, study.config.game_away_seconds
        )

        def keep() -> None:
            with db.transaction() as cur:
                cur.execute(
                    "INSERT INTO study_games (participant, game, seat, token, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (participant, table, seat, key, time.time()),
                )

        await db.write(keep)
        return StudyGame(table, seat, False)
