"""Game records: rules, board id, deck id, seed and actions, as JSON; replayed to the same
state (R27). Never pickle."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Self

from ._actions import Action, action_to_dict
from ._board import Board
from ._deck import Deck
from ._load import load_json, read_game_fields
from ._rules import Rules
from ._state import ENGINE_VERSION, GameState, replay, resolve_board, resolve_deck

__all__ = ["GameRecord"]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a game exactly (R27)."""

    rules: Rules
    board_id: str
    deck_id: str
    seed: int
    actions: tuple[Action, ...]
    engine_version: int = ENGINE_VERSION

    @classmethod
    def of(cls, state: GameState) -> Self:
        """The record of the game that led to ``state``."""
        return cls(state.rules, state.board.id, state.deck.id, state.seed, state.actions)

    def replay(self, *, board: Board | None = None, deck: Deck | None = None) -> GameState:
        """The state after the recorded actions. Pass the board and deck unless they are the
        standard ones (or a generated deck); their ids must match the record's."""
        if self.engine_version != ENGINE_VERSION:
            raise ValueError(
                f"record from engine version {self.engine_version}; this is version "
                f"{ENGINE_VERSION}, whose rules may differ"
            )
        return replay(
            self.rules,
            self.actions,
            seed=self.seed,
            board=resolve_board(self.board_id, board),
            deck=resolve_deck(self.deck_id, deck),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "engine_version": self.engine_version,
            "rules": self.rules.to_dict(),
            "board_id": self.board_id,
            "deck_id": self.deck_id,
            "seed": self.seed,
            "actions": [action_to_dict(a) for a in self.actions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`. Data that is not a record raises
        :class:`InvalidRecord` naming the field at fault (the actions are checked when
        :meth:`replay` plays them)."""
        f = read_game_fields(data, "a game record")
        return cls(f.rules, f.board_id, f.deck_id, f.seed, f.actions, f.engine_version)

    def to_json(self, *, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> Self:
        """The inverse of :meth:`to_json`; text that is not a record's JSON raises
        :class:`InvalidRecord`."""
        return cls.from_dict(load_json(text, "a game record"))
