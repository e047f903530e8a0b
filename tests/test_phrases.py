"""Two-word second clues in a form people say (R11), read from the English pack's word classes
(WordNet's), and the measure of them (scripts/evaluate_second_clues.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from huescues.engine import IllegalClue, Rules, validate_clue
from huescues.language import PHRASE_FAULTS, NamingModel, attested, phrase_fault
from repo_scripts import load_script

WORK = Path(__file__).resolve().parents[1] / "knowledge" / "work"


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


def test_r11_two_words_are_given_only_as_a_colours_name() -> None:
    """A phrase of a modifier and an attested word in a form people say is a clue only when the
    naming data name a colour so (XKCD's survey or color-name-list): twilight night, silver
    milk and, in Spanish, depresión pura (pure depression) were given in self-play before."""
    naming = NamingModel.default()
    for text in ("twilight night", "silver milk", "pure depression", "royal midnight"):
        first, second = text.split()
        # Each was a phrase of the old rule: a modifier, an attested word, a form people say.
        assert naming.is_modifier(first) and attested(second) and phrase_fault(text) is None
        assert not attested(text), text
    for text in ("deep forest", "berry wine", "fluorescent lime", "olive drab"):
        assert attested(text), text
    assert not attested("depresión pura", "es") and not attested("depresión profunda", "es")
    assert attested("cielo despejado", "es") and attested("bosque tropical", "es")


def test_the_blind_judgements_of_two_word_clues_line_up_and_are_counted(
    tmp_path: Path,
) -> None:
    """knowledge/work/pairs-judged*.tsv: every row judged yes or no, no clue judged twice across
    the two, and the script's table counts a hand-made judgement as it says."""
    script = load_script("evaluate_second_clues")
    first = script.read_judged(WORK / "pairs-judged.tsv")
    second = script.read_judged(WORK / "pairs-judged-2.tsv")
    assert (len(first), len(second)) == (310, 352)
    clues = [(language, clue) for language, clue, _ in first + second]
    assert len(set(clues)) == len(clues) and {c[0] for c in clues} == {"en", "es"}
    hand = tmp_path / "judged.tsv"
    rows = ["# made by hand", "id\tlanguage\tclue\tnatural"]
    rows += ["1\ten\tdeep forest\tyes", "2\ten\ttwilight night\tno", "3\ten\tsilver milk\tyes"]
    hand.write_text("\n".join(rows) + "\n", encoding="utf-8")
    table = script.judged(hand)
    assert table[-1].startswith("| **all** | 3 | 2 of 3 (66.7%) | 1 | 1 of 1 (100.0%) [")
    assert table[-1].endswith("| 1 of 2 (50.0%) |")
    hand.write_text("id\tlanguage\tclue\tnatural\n1\ten\tdeep forest\tmaybe\n", encoding="utf-8")
    with pytest.raises(ValueError, match="maybe"):
        script.read_judged(hand)


def test_the_measure_counts_a_hand_made_list_of_second_clues(
    capsys: pytest.CaptureFixture[str],
) -> None:
    script = load_script("evaluate_second_clues")
    phrases = ["deep forest", "very ink", "pale sky", "marine truth", "very ink"]
    fine, faults = script.form_counts(phrases)
    assert fine == 2
    assert faults == Counter({PHRASE_FAULTS[1]: 2, PHRASE_FAULTS[3]: 1})
    script.report("hand-made", phrases)
    out = capsys.readouterr().out
    assert "hand-made: 2 of 5 (40.0%) in a form people say" in out
    assert "very ink" in out and "marine truth" in out
