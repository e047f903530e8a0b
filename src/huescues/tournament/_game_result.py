"""One tournament game as a typed value: the owner of the results line (one JSON object a line,
keys sorted, no spaces), which the runner writes and every reader reads.

The readers that must go fast over a hundred thousand lines (the report, the checked load, a
resume's check) read the same keys from the parsed JSON without building a :class:`GameResult`
for each line; :meth:`GameResult.from_line` is the plain reading they must agree with (the
tests read every golden line both ways)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from huescues.agents import Fault
from huescues.engine import Board, GameRecord, GameState

from ._schedule import GameSpec

__all__ = ["FORMAT", "EntrantFault", "GameResult", "dumps"]

#: The version of a results line; bumped when the line's meaning changes.
FORMAT = 1

Status = Literal["finished", "unfinished"]


@dataclass(frozen=True, slots=True)
class EntrantFault:
    """A bot's decision replaced by the random move (:class:`~huescues.agents.Fault`), with the
    entrant whose seat it was."""

    entrant: str
    fault: Fault

    def to_dict(self) -> dict[str, Any]:
        return {**self.fault.to_dict(), "entrant": self.entrant}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EntrantFault:
        fault = Fault(
            int(data["seat"]),
            str(data["kind"]),
            str(data["message"]),
            int(data["round"]),
            str(data["phase"]),
        )
        return cls(str(data["entrant"]), fault)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A tournament game: the schedule's game (its number, seed, player count and seats by
    entrant name), whether it finished (and if not, why), the scores and winners (R24-R26),
    the tie-break rounds played (R25), each round as :meth:`~huescues.RoundResult.to_dict`
    gives it, the faults, and the record that replays it (``None`` when the game could not be
    set up). :meth:`to_line` is the results file's line; :meth:`from_line` reads one back."""

    game: int
    seed: int
    n_players: int
    board_id: str
    seats: tuple[str, ...]
    status: Status
    error: str | None
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreak_rounds: int
    rounds: tuple[Mapping[str, Any], ...]
    faults: tuple[EntrantFault, ...]
    record: GameRecord | None
    format: int = FORMAT

    @property
    def finished(self) -> bool:
        """Whether the game ended by the rules (R24-R26)."""
        return self.status == "finished"

    @classmethod
    def of(
        cls,
        spec: GameSpec,
        state: GameState | None,
        error: str | None,
        faults: Sequence[EntrantFault],
        board: Board | None,
    ) -> GameResult:
        """The result of scheduled game ``spec`` that reached ``state`` (``None``: it could
        not be set up), with the ``error`` that stopped it, if any."""
        n = spec.n_players
        finished = error is None and state is not None and state.result is not None
        if state is None:
            return cls(
                spec.index,
                spec.seed,
                n,
                board.id if board is not None else Board.standard().id,
                tuple(spec.seats),
                "unfinished",
                error or "the game did not end",
                (0,) * n,
                (),
                0,
                (),
                tuple(faults),
                None,
            )
        return cls(
            spec.index,
            spec.seed,
            n,
            state.board.id,
            tuple(spec.seats),
            "finished" if finished else "unfinished",
            None if finished else (error or "the game did not end"),
            tuple(state.scores),
            tuple(state.result.winners) if state.result is not None else (),
            state.tiebreak_rounds,
            tuple(r.to_dict() for r in state.history),
            tuple(faults),
            GameRecord.of(state),
        )

    def to_dict(self) -> dict[str, Any]:
        """The results line's JSON object."""
        return {
            "format": self.format,
            "game": self.game,
            "seed": self.seed,
            "n_players": self.n_players,
            "board_id": self.board_id,
            "seats": list(self.seats),
            "status": self.status,
            "error": self.error,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "tiebreak_rounds": self.tiebreak_rounds,
            "rounds": [dict(r) for r in self.rounds],
            "faults": [f.to_dict() for f in self.faults],
            "record": None if self.record is None else self.record.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        """The inverse of :meth:`to_dict`; a ValueError (or KeyError, TypeError) for data
        that is not a results line."""
        status = data["status"]
        if status not in ("finished", "unfinished"):
            raise ValueError(f"game {data.get('game')} has status {status!r}")
        record = data["record"]
        return cls(
            int(data["game"]),
            int(data["seed"]),
            int(data["n_players"]),
            str(data["board_id"]),
            tuple(str(s) for s in data["seats"]),
            status,
            None if data["error"] is None else str(data["error"]),
            tuple(int(s) for s in data["scores"]),
            tuple(int(w) for w in data["winners"]),
            int(data["tiebreak_rounds"]),
            tuple(dict(r) for r in data["rounds"]),
            tuple(EntrantFault.from_dict(f) for f in data["faults"]),
            None if record is None else GameRecord.from_dict(record),
            int(data["format"]),
        )

    def to_line(self) -> str:
        """The game's line of the results file (no newline)."""
        return dumps(self.to_dict())

    @classmethod
    def from_line(cls, text: str) -> GameResult:
        """The game of a results line (:meth:`to_line`'s inverse)."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a results line is a JSON object")
        return cls.from_dict(data)


def dumps(line: Mapping[str, Any]) -> str:
    """A results line as the file holds it (sorted keys, no spaces, so that equal results are
    equal bytes)."""
    return json.dumps(line, sort_keys=True, separators=(",", ":"))
