"""A chunk's rounds counted at once (``_report_rounds``) give what the game-by-game reading gives:
the same numbers for the lines this library writes, and for lines with odd values in their rounds
either the same numbers or the same error, raised at the same game."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.tournament._report_games import Counted, count_games
from huescues.tournament._report_rounds import _count_at_once, _split_text, count_lines
from test_report import results

_ENTRANTS = ("A", "B", "C")  # "D" plays too: a seat of an entrant not in the list


def _line(game: dict[str, Any], *, ascii_only: bool = True) -> str:
    return json.dumps(game, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii_only)


def _outcome(task: tuple[int, tuple[str, ...], list[str]], count: Any) -> str:
    """What ``count`` gives, as text (a NaN read from the file is the same NaN, though not
    equal to itself; the cross-play tallies in any order)."""
    try:
        found: Counted = count(task)
    except Exception as error:  # the same error, with the same message
        return f"{type(error).__name__}: {error}"
    return repr(found._replace(cross=sorted(found.cross.items())))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(results(), st.integers(0, 1000))
def test_the_lines_this_library_writes_are_counted_at_once_the_same(
    games: list[dict[str, Any]], first: int
) -> None:
    task = (first, _ENTRANTS, [_line(g) for g in games])
    at_once = _count_at_once(*task, _split_text)
    assert at_once is not None  # every line read as text
    assert at_once == count_games(task)


# Values a round's field may hold in an odd file: JSON of every type, out-of-range numbers,
# squares that are not squares, pawns of the wrong length.
_ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from([2**40, 2**63, 0.5, 2.0, -0.0, 1e300, float("nan"), float("inf")]),
    st.sampled_from(["A1", "b7", " C3 ", "Z99", "A0", "A1000", "", "1", "x", "3"]),
    st.lists(st.integers(-1, 5), max_size=5),
    st.lists(st.sampled_from(["A1", "P30", 1, None]), max_size=3),
    st.lists(st.lists(st.sampled_from([0, 1, 3, 7, -1, "A1", "B2", True, 1.0]), max_size=3)),
    st.dictionaries(st.sampled_from(["giver", "seat"]), st.integers(0, 3), max_size=2),
    st.lists(st.text(max_size=4), max_size=2),  # clues: quotes, escapes, any character
    st.dictionaries(st.sampled_from(["rounds", "round", "x"]), st.integers(0, 3), max_size=2),
)
# What is changed: a round's field, a pawn or a point of it, a new key of the round (sorted
# anywhere), the game's rounds, or a key of the game (where a "rounds" may hide in a value).
_FIELDS = (
    *("giver", "points", "target", "pawns", "tiebreak", "clues", "round", "zz", "aa"),
    *("rounds", "a pawn", "a point", "game's aa", "game's faults", "game's zz"),
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    results(),
    st.lists(st.tuples(st.sampled_from(_FIELDS), _ODD, st.integers(0, 99))),
    st.booleans(),
    st.sampled_from([None, " ", "\r", "x"]),
)
def test_odd_rounds_give_the_same_numbers_or_the_same_error(
    games: list[dict[str, Any]],
    changes: list[tuple[str, Any, int]],
    ascii_only: bool,
    end: str | None,
) -> None:
    games = copy.deepcopy(games)
    for field, value, where in changes:
        if not games:
            break
        game = games[where % len(games)]
        if field == "rounds":
            game["rounds"] = value
            continue
        if field.startswith("game's "):
            game[field.removeprefix("game's ")] = [{"a": 0, "rounds": value}, value]
            continue
        rounds = game["rounds"]
        if not isinstance(rounds, list) or not rounds or not isinstance(rounds[0], dict):
            continue
        rnd = rounds[where % len(rounds)]
        if field == "a pawn" and isinstance(rnd.get("pawns"), list) and rnd["pawns"]:
            rnd["pawns"][where % len(rnd["pawns"])] = value
        elif field == "a point" and isinstance(rnd.get("points"), list) and rnd["points"]:
            rnd["points"][where % len(rnd["points"])] = value
        else:
            rnd[field] = value
    lines = [_line(g, ascii_only=ascii_only) for g in games]
    if end is not None and lines:  # something after the last line's object
        lines[-1] += end
    task = (0, _ENTRANTS, lines)
    assert _outcome(task, count_lines) == _outcome(task, count_games)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    results(),
    st.integers(0, 999),
    st.one_of(
        st.text(alphabet='[]0123456789AZ,"', max_size=14),
        st.lists(
            st.sampled_from(['[1,"A1"]', '[2,"Z999"]', '[0,"B10"]', "[1,A1]", ""]), max_size=3
        ).map(",".join),
    ),
)
def test_pawns_that_are_not_pawns_give_the_same_numbers_or_the_same_error(
    games: list[dict[str, Any]], where: int, text: str
) -> None:
    # The round's pattern takes any of the characters of pawns; what they must be is checked
    # after, in every round (a tie-breaker's, an unfinished game's): not JSON, not read.
    lines = [_line(g) for g in games]
    found = [(i, m) for i, line in enumerate(lines) for m in _PAWNS.finditer(line)]
    if found:
        i, m = found[where % len(found)]
        lines[i] = lines[i][: m.start(1)] + text + lines[i][m.end(1) :]
    task = (0, _ENTRANTS, lines)
    assert _outcome(task, count_lines) == _outcome(task, count_games)


_PAWNS = re.compile(r'"pawns":\[(.*?)\],"points"')


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(results(), st.integers(0, 999), st.sampled_from(["[]", "7", '[{"x":1}]']))
def test_a_second_rounds_key_counts_as_json_reads_it(
    games: list[dict[str, Any]], where: int, value: str
) -> None:
    # A hand-edited line may hold "rounds" twice: JSON keeps the last, and so must the count.
    lines = [_line(g) for g in games]
    if lines:
        i = where % len(lines)
        lines[i] = f'{lines[i][:-1]},"rounds":{value}}}'
    task = (0, _ENTRANTS, lines)
    assert _outcome(task, count_lines) == _outcome(task, count_games)
