"""A results line read for its check, the record's actions apart: a results file repeats the same
few hundred actions (the board's squares, the vocabulary's clues) in every line, so each
action's JSON text is read once per process and looked up after that, and only the rest of the
line goes through the JSON reader.

The shortcut gives exactly what ``json.loads`` and :func:`action_from_dict` give, or declines
(``None``) and the caller reads the line the usual way: it is taken only when the line is
compact JSON, every piece of the actions' list is one action's object, and the line read with
that list replaced by ``NaN`` (a token no line of ours holds) has the ``NaN`` as its record's
actions and nowhere else.
"""

from __future__ import annotations

import json
from typing import Any

from huescues.engine import Action, action_from_dict

__all__ = ["read_line_actions"]

_KEY = '"actions":['
_SPLIT = "},{"
#: Actions by the text between the braces of their JSON object ('"pawn":"F12"'), bounded so
#: that a file of ever new clues cannot grow it without end.
_KNOWN: dict[str, Action] = {}
_MAX_KNOWN = 1 << 16


def read_line_actions(text: str) -> tuple[Any, tuple[Action, ...]] | None:
    """``(game, actions)``: the line's JSON with its record's ``"actions"`` left empty
    (``()``), and those actions read; or ``None`` where the shortcut cannot vouch for them."""
    if "NaN" in text:
        return None
    key = text.find(_KEY)
    if key < 0:
        return None
    start = key + len(_KEY) - 1  # the list's "["
    if text.startswith("]", start + 1):
        end = start + 1
        actions: tuple[Action, ...] = ()
    else:
        end = text.find("}]", start) + 1  # the list's "]"
        if end <= 0 or text[start + 1] != "{":
            return None
        pieces = text[start + 2 : end - 1].split(_SPLIT)
        known = _KNOWN
        try:
            actions = tuple([known[p] for p in pieces])
        except KeyError:
            learnt = [a if (a := known.get(p)) is not None else _learn(p) for p in pieces]
            if any(a is None for a in learnt):
                return None
            actions = tuple(learnt)  # type: ignore[arg-type]
    try:
        game = json.loads(f"{text[:start]}NaN{text[end + 1 :]}")
    except ValueError:
        return None
    record = game.get("record") if type(game) is dict else None
    if type(record) is not dict:
        return None
    marker = record.get("actions")
    # The one NaN of the text is ours: only where it is the record's actions is the list read
    # above the record's list.
    if type(marker) is not float or marker == marker:
        return None
    record["actions"] = ()
    return game, actions


def _learn(piece: str) -> Action | None:
    """The action whose JSON object holds ``piece``, kept; ``None`` if it is not one (a piece
    cut inside a clue's text, which then holds "},{", is never an object)."""
    try:
        action = action_from_dict(json.loads(f"{{{piece}}}"))
    except ValueError:
        return None
    if len(_KNOWN) >= _MAX_KNOWN:
        _KNOWN.clear()
    _KNOWN[piece] = action
    return action
