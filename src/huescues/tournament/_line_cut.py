"""A results line read for its check with its three big parts cut out, so that only the rest goes
through the JSON reader:

- the record's actions: a results file repeats the same few hundred actions (the board's
  squares, the vocabulary's clues) in every line, so each action's JSON text is read once per
  process and looked up after that;
- the record's rules: the same few settings in every line, read once per text;
- the rounds, which the check does not read: matched as text by a pattern that matches JSON
  only (``_json_text.ROUNDS``), so the line is still known to be JSON.

The shortcut gives exactly what ``json.loads`` and :func:`action_from_dict` give (the rounds
apart), or declines (``None``) and the caller reads the line the usual way. It is taken only
when the line is compact JSON, every piece of the actions' list is one action's object, the
rules are an object without objects in it, the rounds are as this library writes them, and the
line read with those three replaced by ``NaN``, ``Infinity`` and ``-Infinity`` (tokens no line
of ours holds) has each of them in its place (the record's actions, the record's rules, the
line's rounds) and nowhere else.
"""

from __future__ import annotations

import json
import math
from typing import Any

from huescues.engine import Action, action_from_dict

from ._json_text import ROUNDS

__all__ = ["cut_line"]

_ACTIONS_KEY = '"actions":['
_RULES_KEY = '"rules":{'
_ROUNDS_KEY = ',"rounds":['
_SPLIT = "},{"
_CLUE = '"clue":"'
#: Actions by the text between the braces of their JSON object ('"pawn":"F12"'), and rules by
#: their object's text, bounded so that a file of ever new clues cannot grow them without end.
_KNOWN: dict[str, Action] = {}
_RULES: dict[str, dict[str, Any]] = {}
_MAX_KNOWN = 1 << 16


def cut_line(text: str) -> tuple[dict[str, Any], tuple[Action, ...]] | None:
    """``(game, actions)``: the line's JSON with its record's ``"actions"`` left empty
    (``()``) and its ``"rounds"`` left out (they are JSON, unread), and the actions read; or
    ``None`` where the shortcut cannot vouch for the line. The record's rules are one dict
    for every line with the same rules' text: read them, do not change them."""
    if "NaN" in text or "Infinity" in text:
        return None
    cut_actions = _actions(text)
    cut_rules = _rules(text)
    cut_rounds = _rounds(text)
    if cut_actions is None or cut_rules is None or cut_rounds is None:
        return None
    (a0, a1, actions), (r0, r1, rules), (o0, o1) = cut_actions, cut_rules, cut_rounds
    pieces = sorted(((a0, a1, "NaN"), (r0, r1, "Infinity"), (o0, o1, "-Infinity")))
    parts: list[str] = []
    at = 0
    for start, end, marker in pieces:
        if start < at:  # the parts overlap: not the line's own
            return None
        parts += (text[at:start], marker)
        at = end
    parts.append(text[at:])
    try:
        game = json.loads("".join(parts))
    except ValueError:
        return None
    record = game.get("record") if type(game) is dict else None
    if type(record) is not dict:
        return None
    # Each marker is in the text once: where it is read in its place, the part cut out there
    # is the line's own.
    marked = record.get("actions"), record.get("rules"), game.get("rounds")
    if not (
        type(marked[0]) is float
        and math.isnan(marked[0])
        and marked[1] == math.inf
        and type(marked[1]) is float
        and marked[2] == -math.inf
        and type(marked[2]) is float
    ):
        return None
    record["actions"] = ()
    record["rules"] = rules
    del game["rounds"]
    return game, actions


def _actions(text: str) -> tuple[int, int, tuple[Action, ...]] | None:
    """Where the first actions' list is (from its "[" to after its "]") and its actions."""
    key = text.find(_ACTIONS_KEY)
    if key < 0:
        return None
    start = key + len(_ACTIONS_KEY) - 1  # the list's "["
    if text.startswith("]", start + 1):
        return start, start + 2, ()
    end = text.find("}]", start) + 1  # the list's "]"
    if end <= 0 or text[start + 1] != "{":
        return None
    pieces = text[start + 2 : end - 1].split(_SPLIT)
    known = _KNOWN
    try:
        actions = tuple(map(known.__getitem__, pieces))
    except KeyError:
        learnt = [a if (a := known.get(p)) is not None else _learn(p) for p in pieces]
        if any(a is None for a in learnt):
            return None
        actions = tuple(learnt)  # type: ignore[arg-type]
    return start, end + 1, actions


def _learn(piece: str) -> Action | None:
    """The action whose JSON object holds ``piece``, kept; ``None`` if it is not one (a piece
    cut inside a clue's text, which then holds "},{", is never an object)."""
    text = piece[len(_CLUE) : -1]
    try:
        if (
            len(piece) > len(_CLUE)
            and piece.startswith(_CLUE)
            and piece.endswith('"')
            and '"' not in text
            and "\\" not in text
            and text.isprintable()
        ):
            # A new clue (most pieces a file has not shown yet are clues): a JSON string with
            # no quote, escape or unprintable character in it is its own text.
            action = action_from_dict({"clue": text})
        else:
            action = action_from_dict(json.loads(f"{{{piece}}}"))
    except ValueError:
        return None
    if len(_KNOWN) >= _MAX_KNOWN:
        _KNOWN.clear()
    _KNOWN[piece] = action
    return action


def _rules(text: str) -> tuple[int, int, dict[str, Any]] | None:
    """Where the first rules' object is (from its "{" to after its "}") and the object read.
    Cut at the first "}": inside a string that leaves the string open, which is not JSON."""
    key = text.find(_RULES_KEY)
    if key < 0:
        return None
    start = key + len(_RULES_KEY) - 1
    end = text.find("}", start) + 1
    if end <= 0:
        return None
    piece = text[start:end]
    rules = _RULES.get(piece)
    if rules is None:
        try:
            rules = json.loads(piece)
        except ValueError:
            return None
        if type(rules) is not dict:
            return None
        if len(_RULES) >= _MAX_KNOWN:
            _RULES.clear()
        _RULES[piece] = rules
    return start, end, rules


def _rounds(text: str) -> tuple[int, int] | None:
    """Where the first rounds' list is (from its "[" to after its "]"), when it is as this
    library writes it."""
    key = text.find(_ROUNDS_KEY)
    if key < 0:
        return None
    matched = ROUNDS.match(text, key + len(_ROUNDS_KEY) - 1)
    return None if matched is None else matched.span()
