"""Two-word second clues in a form people say (R11), read from the English pack's word classes
(WordNet's), and the measure of them (scripts/evaluate_second_clues.py)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from huescues.engine import IllegalClue, Rules, validate_clue
from huescues.language import PHRASE_FAULTS, attested, phrase_fault

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "evaluate_second_clues.py"


@pytest.mark.parametrize("text", ["deep forest", "pale sky", "dark forest", "ocean blue"])
def test_r11_an_adjective_before_a_thing_or_a_colour_name_is_a_phrase(text: str) -> None:
    assert phrase_fault(text) is None


def test_r11_a_degree_word_stands_only_before_an_adjective() -> None:
    # "very ink" and "very forest" were given at a game night; "very pale" is English.
    assert phrase_fault("very ink") == PHRASE_FAULTS[1]
    assert phrase_fault("very forest") == PHRASE_FAULTS[1]
    assert phrase_fault("really ocean") == PHRASE_FAULTS[1]
    assert phrase_fault("very pale") is None


def test_r11_a_word_is_never_paired_with_its_own_form() -> None:
    for text in ("dark darkest", "blue bluish", "red reddish", "leafy leaf", "sky skies"):
        assert phrase_fault(text) == PHRASE_FAULTS[0], text


def test_r11_a_noun_leads_only_before_a_colour_name_and_the_last_word_names_a_thing() -> None:
    assert phrase_fault("forest ink") == PHRASE_FAULTS[2]
    assert phrase_fault("navy ink") == PHRASE_FAULTS[2]
    assert phrase_fault("forest teal") is None  # a noun before a colour name (forest green)
    # "truth" and "anger" are nouns but no thing with a colour of its own.
    assert phrase_fault("marine truth") == PHRASE_FAULTS[3]
    assert phrase_fault("pale anger") == PHRASE_FAULTS[3]
    # A name WordNet lacks is a thing: "pale pikachu" is said as "pale sky" is.
    assert phrase_fault("pale pikachu") is None


def test_r11_a_single_word_or_a_longer_text_has_no_form_to_check() -> None:
    assert phrase_fault("banana") is None
    assert phrase_fault("very dark ink") is None


def test_r11_the_givers_attested_clues_are_in_a_form_people_say() -> None:
    # The clue giver says only attested clues (R11's second clue, legal by R18-R22 besides).
    for text in ("very ink", "very forest", "marine truth", "dark darkest", "forest ink"):
        assert not attested(text), text
    assert attested("ocean blue")  # people's name, though R19 refuses it
    for text in ("deep forest", "pale sky", "dark forest"):
        assert attested(text), text
        validate_clue(text, second=True, rules=Rules.standard(4), previous=())
    # A form people say is not by itself a legal clue: the clue rules still refuse it (R19).
    assert phrase_fault("pale red") is None
    with pytest.raises(IllegalClue):
        validate_clue("pale red", second=True, rules=Rules.standard(4), previous=())


def test_the_measure_counts_a_hand_made_list_of_second_clues(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = importlib.util.spec_from_file_location("evaluate_second_clues", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    phrases = ["deep forest", "very ink", "pale sky", "marine truth", "very ink"]
    fine, faults = script.form_counts(phrases)
    assert fine == 2
    assert faults == Counter({PHRASE_FAULTS[1]: 2, PHRASE_FAULTS[3]: 1})
    script.report("hand-made", phrases)
    out = capsys.readouterr().out
    assert "hand-made: 2 of 5 (40.0%) in a form people say" in out
    assert "very ink" in out and "marine truth" in out
