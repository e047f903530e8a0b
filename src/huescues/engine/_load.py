"""Reading what a game record and a saved state share, with an error naming the field at fault.

JSON from a file may be anything: every field is checked for its type here, so that loading
raises :class:`InvalidRecord` (a ValueError) and never a KeyError, IndexError or AttributeError.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ._actions import Action, action_from_dict
from ._errors import InvalidRecord, InvalidRules
from ._rules import Rules

__all__ = ["RECORD_KEYS", "GameFields", "load_json", "read_game_fields", "short"]

#: The fields of a record, which a saved state has too.
RECORD_KEYS = ("engine_version", "rules", "board_id", "deck_id", "seed", "actions")


class GameFields(NamedTuple):
    """What replays a game: the fields of a record."""

    engine_version: int
    rules: Rules
    board_id: str
    deck_id: str
    seed: int
    actions: tuple[Action, ...]


def load_json(text: str | bytes, what: str) -> Any:
    """The JSON of ``text``, or :class:`InvalidRecord` saying it is not JSON."""
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"{what} is read from JSON text, not {type(text).__name__}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError is a ValueError too
        raise InvalidRecord(f"{what} is not JSON: {e}") from e


def short(value: object) -> str:
    """``repr(value)``, cut for a one-line message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def read_game_fields(data: object, what: str, keys: tuple[str, ...] = RECORD_KEYS) -> GameFields:
    """The record's fields of ``data`` (a record's or a state's dict; ``what`` names it), after
    checking that every one of ``keys`` is there."""
    if not isinstance(data, dict):
        raise InvalidRecord(f"{what} is a JSON object, not {short(data)}")
    missing = [k for k in keys if k not in data]
    if missing:
        raise InvalidRecord(f"{what} lacks {', '.join(missing)}")
    version = data["engine_version"]
    if type(version) is not int:
        raise InvalidRecord(f"{what}'s engine_version is a whole number, not {short(version)}")
    try:
        rules = Rules.from_dict(data["rules"])
    except InvalidRules as e:
        raise InvalidRecord(f"{what}'s rules: {e}") from e
    for key in ("board_id", "deck_id"):
        if not isinstance(data[key], str):
            raise InvalidRecord(f"{what}'s {key} is text, not {short(data[key])}")
    seed = data["seed"]
    if type(seed) is not int or seed < 0:
        raise InvalidRecord(f"{what}'s seed is a whole number >= 0, not {short(seed)} (R27)")
    raw = data["actions"]
    if not isinstance(raw, list | tuple):
        raise InvalidRecord(f"{what}'s actions are a list, not {short(raw)}")
    actions = []
    for i, a in enumerate(raw):
        try:
            actions.append(action_from_dict(a))
        except ValueError as e:
            raise InvalidRecord(f"{what}'s action {i}: {e}") from e
    return GameFields(version, rules, data["board_id"], data["deck_id"], seed, tuple(actions))
