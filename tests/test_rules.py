"""Rules settings (R2, R7, R16 and the variants) are checked when the rules object is made."""

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from huescues import BASIC_COLOUR_TERMS, InvalidRules, Rules


@pytest.mark.parametrize(
    ("n", "per_giver", "regular"), [(3, 2, 6), (6, 2, 12), (7, 1, 7), (10, 1, 10)]
)
def test_r7_standard_game_length(n: int, per_giver: int, regular: int) -> None:
    rules = Rules.standard(n)
    assert rules.rounds_per_giver == per_giver
    assert rules.regular_rounds == regular


@pytest.mark.parametrize(("n", "points"), [(3, 2), (4, 1), (10, 1)])
def test_r16_giver_points_by_player_count(n: int, points: int) -> None:
    assert Rules.standard(n).giver_points_per_pawn == points


def test_defaults_match_rules_md() -> None:
    rules = Rules.standard(5)
    assert rules.first_giver == 0  # R6
    assert rules.first_clue_words == 1  # R9
    assert rules.second_clue_words == 2  # R11
    assert rules.second_clue_may_pass is True  # R11
    assert rules.second_guess_order == "reverse"  # R12
    assert rules.points_by_distance == (3, 2, 1)  # R15
    assert rules.banned_terms == BASIC_COLOUR_TERMS  # R19
    assert "darker" in rules.relative_words  # R21
    assert rules.refuse_repeated_clues is True  # R22
    assert rules.max_tiebreak_rounds == 10  # R25


@pytest.mark.parametrize("n", [2, 11, 0, -1])
def test_r2_player_count_refused(n: int) -> None:
    with pytest.raises(InvalidRules, match="R2"):
        Rules.standard(n)
    with pytest.raises(InvalidRules, match="R2"):
        Rules(n)


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"points_by_distance": (3, -2, 1)}, "R15"),
        ({"points_by_distance": ()}, "R15"),
        ({"points_by_distance": (1, 2, 3)}, "R15"),
        ({"giver_points_per_pawn": -1}, "R16"),
        ({"first_clue_words": 0}, "R9"),
        ({"second_clue_words": 0}, "R11"),
        ({"rounds_per_giver": 0}, "R7"),
        ({"max_tiebreak_rounds": -1}, "R25"),
        ({"first_giver": 4}, "R6"),
        ({"first_giver": "somebody"}, "R6"),
        ({"second_guess_order": "random"}, "R12"),
        ({"banned_terms": ("Red",)}, "R19"),
        ({"relative_words": ("",)}, "R21"),
        ({"second_clue_may_pass": "yes"}, "R11"),
        ({"refuse_repeated_clues": 1}, "R22"),
    ],
)
def test_invalid_settings_refused_when_made(change: dict[str, Any], rule: str) -> None:
    with pytest.raises(InvalidRules, match=rule) as e:
        Rules.standard(4, **change)
    name = next(iter(change))
    assert name in str(e.value)
    with pytest.raises(InvalidRules, match=rule):
        Rules.standard(4).replace(**change)


def test_rules_are_frozen() -> None:
    rules = Rules.standard(4)
    with pytest.raises(AttributeError):
        rules.n_players = 5  # type: ignore[misc]


def test_r6_first_giver_setting() -> None:
    assert Rules.standard(4, first_giver=3).first_giver == 3
    assert Rules.standard(4, first_giver="random").first_giver == "random"


@given(
    st.integers(3, 10),
    st.sampled_from([(3, 2, 1), (5, 3, 1), (1,), (4, 4, 2, 1)]),
    st.booleans(),
    st.sampled_from(["reverse", "same"]),
)
def test_rules_dict_round_trip(n: int, pts: tuple[int, ...], may_pass: bool, order: str) -> None:
    rules = Rules.standard(
        n, points_by_distance=pts, second_clue_may_pass=may_pass, second_guess_order=order
    )
    assert Rules.from_dict(rules.to_dict()) == rules


def test_rules_from_dict_refuses_unknown_settings() -> None:
    data = Rules.standard(4).to_dict() | {"colour_blind": True}
    with pytest.raises(InvalidRules, match="colour_blind"):
        Rules.from_dict(data)


def test_an_unknown_setting_is_invalid_rules_naming_it() -> None:
    """docs/errors.md: an unknown setting is an InvalidRules (a ValueError) that names it, from
    Rules.standard and Rules.replace alike (not Python's TypeError about keywords)."""
    with pytest.raises(InvalidRules, match="'nonsense'") as caught:
        Rules.standard(4, nonsense=1)
    assert "rounds_per_giver" in str(caught.value)  # the settings there are
    with pytest.raises(InvalidRules, match="'nonsense'"):
        Rules.standard(4).replace(nonsense=1)
    assert Rules.standard(4).replace(n_players=5).n_players == 5


@pytest.mark.parametrize(("distance", "points"), [(0, 3), (1, 2), (2, 1), (3, 0), (29, 0)])
def test_r15_points_at(distance: int, points: int) -> None:
    assert Rules.standard(4).points_at(distance) == points


def test_docs_rules_md_states_every_rule_and_setting() -> None:
    """docs/rules.md, which the code cites, states R1-R27 and names every setting."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    for n in range(1, 28):
        assert f"- **R{n} " in text, f"R{n} is not stated in docs/rules.md"
    for field in dataclasses.fields(Rules):
        assert f"`{field.name}" in text, f"setting {field.name} is not in docs/rules.md"


def test_rules_read_twice_are_one_object_and_types_still_count() -> None:
    # issue 23 item 6: a results file's records share their rules, read once; the cache keys
    # on each value's type, so False is still refused where 0 is a seat.
    from huescues.engine import Cell, PlacePawn, action_from_dict

    data = Rules.standard(4).to_dict()
    assert Rules.from_dict(data) is Rules.from_dict(dict(data))
    assert Rules.from_dict({**data, "first_giver": 0}).first_giver == 0
    with pytest.raises(InvalidRules):
        Rules.from_dict({**data, "first_giver": False})
    with pytest.raises(InvalidRules):
        Rules.from_dict({**data, "rounds_per_giver": 2.5})
    assert action_from_dict({"pawn": "B3"}) == PlacePawn(Cell.parse("B3"))
    for _ in range(2):  # a bad square is refused every time, not remembered
        with pytest.raises(ValueError, match="not a square"):
            action_from_dict({"pawn": "Z0"})
