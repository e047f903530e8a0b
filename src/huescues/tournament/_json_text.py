"""Parts of a results line as this library writes them (compact JSON, keys sorted), matched as
text: patterns that match valid JSON only, so that what they match need not go through the JSON
reader to be known to be JSON. The report reads its rounds with them, and a checked load knows
the rounds are JSON without reading them."""

from __future__ import annotations

import re

__all__ = ["INT", "ROUND", "ROUNDS", "SQUARE", "STRING"]

# (Possessive repeats: what they give up could not match what follows, and backtracking into
# them would only take time.)
#: A JSON string.
STRING = r'"[^"\\\x00-\x1f]*+(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+"'
#: A whole number of at most 9 digits.
INT = r"(?:0|-?[1-9][0-9]{0,8})"
#: A square as the library names it: a row letter and a column 1-999.
SQUARE = r"[A-Z][1-9][0-9]{0,2}+"
_NATURAL = r"(?:0|[1-9][0-9]{0,8})"
_PAWN = rf'\[[0-9],"{SQUARE}"\]'

#: A round's object, its parts in groups: the whole round, giver, pawns, points, target and
#: whether it is a tie-breaker. The pawns' group is loose (any of its characters) so that the
#: report can read it fast; it checks them itself. :data:`ROUNDS` is the strict form.
ROUND = re.compile(
    rf'(\{{"clues":\[(?:{STRING}(?:,{STRING})*)?\],"giver":({_NATURAL}),'
    rf'"pawns":\[([\[\]0-9A-Z,"]*)\],"points":\[({INT}(?:,{INT})*)\],'
    rf'"round":{INT},"target":"({SQUARE})","tiebreak":(true|false)\}})'
)

_STRICT_ROUND = (
    rf'\{{"clues":\[(?:{STRING}(?:,{STRING})*)?\],"giver":{_NATURAL},'
    rf'"pawns":\[(?:{_PAWN}(?:,{_PAWN})*)?\],"points":\[{INT}(?:,{INT})*\],'
    rf'"round":{INT},"target":"{SQUARE}","tiebreak":(?:true|false)\}}'
)
#: A whole list of rounds, each matched strictly (pawns of one-digit seats on named squares):
#: where it matches, what it matched is a JSON list, and it ends where the list ends.
ROUNDS = re.compile(rf"\[(?:{_STRICT_ROUND}(?:,{_STRICT_ROUND})*+)?\]")
