"""The game study (``/study/game``): each participant plays one whole game with the study's bots
(``--game-bots``), the seat order drawn per game from the participant's seed, on a table of the
server's (its stand-in plays the participant's seat once they are away, so that the game ends
even if they drop out). The table, seat and token are kept in ``study_games`` and given again
when asked again."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ._db import Database
from ._study_plan import Study

if TYPE_CHECKING:
    from ._tables import TableService

__all__ = ["StudyGame", "game_of", "start_game"]

_LOCKS: dict[int, asyncio.Lock] = {}


@dataclass(frozen=True, slots=True)
class StudyGame:
    """A participant's game: its table, their seat and its token, and whether it is over."""

    table: str
    seat: int
    token: str
    finished: bool


def game_of(db: Database, participant: str) -> StudyGame | None:
    """The participant's game, if it was made (on the database's reading threads)."""
    rows = db.query(
        "SELECT s.game, s.seat, s.token, g.finished, g.record FROM study_games s "
        "JOIN games g ON g.id = s.game WHERE s.participant = ?",
        (participant,),
    )
    if not rows:
        return None
    row = rows[0]
    over = row["finished"] is not None and row["record"] is not None
    return StudyGame(str(row["game"]), int(row["seat"]), str(row["token"]), over)


async def start_game(tables: TableService, study: Study, participant: str, seed: int) -> StudyGame:
    """Make the participant's game: a person's seat for them and one for each of the study's
    bots, in an order drawn from ``seed``; kept, so that asking again gives the same game."""
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
        table, tokens = await tables.study_table(
            seats,
            seed,
            study.config.language,
            f"study:{participant}",
            study.config.game_away_seconds,
        )
        token = tokens[seat]
        assert token is not None

        def keep() -> None:
            with db.transaction() as cur:
                cur.execute(
                    "INSERT INTO study_games (participant, game, seat, token, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (participant, table, seat, token, time.time()),
                )

        await db.write(keep)
        return StudyGame(table, seat, token, False)
