"""The clue checker (R18-R22): every example of docs/rules.md, the settings, and properties."""

from __future__ import annotations

import pickle
import string
from collections.abc import Iterable
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from huescues.agents import RANDOM_CLUE_WORDS
from huescues.engine import (
    BASIC_COLOUR_TERMS,
    RELATIVE_WORDS,
    IllegalAction,
    IllegalClue,
    InvalidRules,
    Rules,
    common_words,
    normalise_clue,
    validate_clue,
)

# the checker's word lists and colour-term forms are private: tested here against the rules
from huescues.engine._clues import COLOUR_ENDINGS, NUMBER_WORDS, POSITION_WORDS, colour_term_forms

STANDARD = Rules.standard(4)


def refusal(
    text: str,
    *,
    second: bool = False,
    rules: Rules | None = None,
    previous: Iterable[str] = (),
) -> IllegalClue:
    """The error ``validate_clue`` raises for ``text`` (fails the test when it passes)."""
    with pytest.raises(IllegalClue) as info:
        validate_clue(text, second=second, rules=rules, previous=previous)
    return info.value


# --- R18: word count --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", " ", "\t\n  "])
@pytest.mark.parametrize("second", [False, True])
def test_r18_empty_clue_refused_passing_is_its_own_action(text: str, second: bool) -> None:
    err = refusal(text, second=second)
    assert err.rule == "R18"
    assert err.word is None
    assert err.clue == text
    assert "(R18)" in str(err)
    assert "pass" in str(err)


@pytest.mark.parametrize("text", ["deep sea", "a b", "sunny sky today"])
def test_r18_r9_first_clue_has_exactly_one_word(text: str) -> None:
    err = refusal(text)
    assert err.rule == "R18"
    assert "R9" in str(err)
    assert "1 word" in str(err)


def test_r18_r11_second_clue_has_at_most_two_words() -> None:
    assert validate_clue("ocean", second=True) == ("ocean",)
    assert validate_clue("deep  ocean", second=True) == ("deep", "ocean")
    err = refusal("deep blue ocean", second=True)
    assert err.rule == "R18"
    assert "R11" in str(err)
    assert "2 words" in str(err)


def test_r18_word_counts_follow_the_settings() -> None:
    rules = STANDARD.replace(first_clue_words=2, second_clue_words=3)
    assert validate_clue("deep sea", rules=rules) == ("deep", "sea")
    assert refusal("ocean", rules=rules).rule == "R18"
    assert validate_clue("deep sea salt", second=True, rules=rules) == ("deep", "sea", "salt")
    assert refusal("a b c d", second=True, rules=rules).rule == "R18"


def test_r18_count_is_checked_before_the_words() -> None:
    """R18 comes first: a two-word first clue is refused for its length, not for 'red'."""
    assert refusal("red F12").rule == "R18"


def test_r18_a_clue_longer_than_the_limit_is_refused_and_the_models_read_every_clue_allowed() -> (
    None
):
    """One length limit, kept by the rules: a clue that passes can always be read by the models."""
    from huescues.engine import MAX_CLUE_LENGTH

    # the models' own length check is private: tested here to agree with the rules' limit
    from huescues.language._protocol import MAX_TEXT_LENGTH, check_text

    assert MAX_CLUE_LENGTH <= MAX_TEXT_LENGTH
    err = refusal("q" * 300)
    assert err.rule == "R18"
    assert err.word is None
    assert "300 characters" in str(err)
    assert f"at most {MAX_CLUE_LENGTH}" in str(err)
    longest = "q" * MAX_CLUE_LENGTH
    assert validate_clue(longest) == (longest,)
    assert check_text(longest) == longest  # every model reads its text through check_text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("\u200b", "U+200B"),
        ("\x00", "U+0000"),
        ("sky\x07", "U+0007"),
        ("sea\u200dfoam", "U+200D"),
        ("sky\u2028", "U+2028"),
        ("sea\x1f", "U+001F"),
        ("\u3164", "U+3164"),
        ("sky\ue000", "U+E000"),
    ],
)
def test_r18_control_and_invisible_characters_are_refused_naming_the_code_point(
    text: str, code: str
) -> None:
    err = refusal(text)
    assert err.rule == "R18"
    assert "(R18)" in str(err)
    assert code in str(err)


def test_r18_ordinary_white_space_still_separates_words() -> None:
    assert validate_clue("sunny\u3000lemon", second=True) == ("sunny", "lemon")
    assert validate_clue("sunny\u00a0lemon", second=True) == ("sunny", "lemon")


def test_a_clue_that_is_not_text_is_a_type_error_naming_the_type() -> None:
    with pytest.raises(TypeError, match="NoneType"):
        validate_clue(None)  # type: ignore[arg-type]


def test_words_are_returned_as_given_split_on_white_space() -> None:
    assert validate_clue("  Ocean\n") == ("Ocean",)
    assert validate_clue("Sunny\t lemon ", second=True) == ("Sunny", "lemon")


# --- R19: colour names ------------------------------------------------------------------------

R19_REFUSED_TERMS = BASIC_COLOUR_TERMS
R19_REFUSED_ENDINGS = [
    "reds",
    "reddish",
    "redder",
    "reddest",
    "bluish",
    "bluer",
    "bluest",
    "bluey",
    "pinky",
    "pinkish",
    "greyer",
    "greyish",
    "whitish",
    "whiter",
    "whiteness",
    "yellowy",
    "yellowish",
    "orangey",
    "orangy",
    "purplish",
    "browner",
    "blacks",
    "blackish",
    "greens",
    "greener",
    "grayish",
    "blueish",
]
R19_REFUSED_COMPOUNDS = [
    "bluebird",
    "redwood",
    "blackberry",
    "blackberries",
    "greenhouse",
    "greyhound",
    "redact",
    "redone",
]
R19_ALLOWED = [
    "credit",
    "bored",
    "hundred",
    "sacred",
    "covered",
    "orangutan",
    "reduce",
    "redo",
    "greenery",
    "skyblue",
    "ocean",
]


@pytest.mark.parametrize("word", R19_REFUSED_TERMS)
def test_r19_a_basic_colour_terms_refused(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R19"
    assert err.word == word
    assert f"colour term {word!r}" in str(err)


@pytest.mark.parametrize("word", ["Red", "RED", "Blue", "gREY"])
def test_r19_is_checked_lowercased(word: str) -> None:
    assert refusal(word).rule == "R19"


@pytest.mark.parametrize("word", R19_REFUSED_ENDINGS)
def test_r19_b_colour_terms_with_endings_refused(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R19"
    assert err.word == word
    assert "with an ending" in str(err)


@pytest.mark.parametrize("word", R19_REFUSED_COMPOUNDS)
def test_r19_c_colour_term_then_common_word_refused(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R19"
    assert "followed by the word" in str(err)


@pytest.mark.parametrize("word", R19_ALLOWED)
def test_r19_words_that_merely_contain_the_letters_allowed(word: str) -> None:
    assert validate_clue(word) == (word,)


@pytest.mark.parametrize(
    "word", ["sky-blue", "blue-ish", "deep-red", "Red's", "blue/green", "reddish-brown"]
)
def test_r19_hyphenated_and_punctuated_words_checked_part_by_part(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R19"
    assert "part" in str(err)


@pytest.mark.parametrize("word", ["red!", '"red"', "red,", "red?", "red.", "(blue)", "«green»"])
def test_r19_edge_punctuation_is_stripped(word: str) -> None:
    assert refusal(word).rule == "R19"


def test_r19_message_names_the_rule_and_the_word() -> None:
    err = refusal("reddish sky", second=True)
    assert str(err) == (
        "clue 'reddish sky' refused: 'reddish' is the colour term 'red' with an ending (R19)"
    )
    assert err.rule == "R19"
    assert err.word == "reddish"
    assert err.clue == "reddish sky"
    assert isinstance(err, IllegalAction)


def test_r19_variant_banned_list_refuses_its_forms() -> None:
    """R19 setting: a variant adding 'teal' and 'beige' refuses their forms."""
    rules = STANDARD.replace(banned_terms=(*BASIC_COLOUR_TERMS, "teal", "beige"))
    for word in ["teal", "tealish", "teals", "beigey", "beigish", "teal-ish", "tealwood"]:
        err = refusal(word, rules=rules)
        assert err.rule == "R19", word
    assert validate_clue("tealish") == ("tealish",)  # not banned by the standard list


def test_r19_variant_banned_list_can_allow_basic_terms() -> None:
    rules = STANDARD.replace(banned_terms=("teal",))
    assert validate_clue("red", rules=rules) == ("red",)
    assert validate_clue("bluebird", rules=rules) == ("bluebird",)


@pytest.mark.parametrize("term", ["red blue", "sky-blue", " teal", "teal\tgrey", "Teal"])
def test_r19_r21_a_banned_or_relative_term_is_one_lowercase_word(term: str) -> None:
    """A clue's words are read one by one (split on white space, then on hyphens), so a term
    of two words could never match one and would refuse nothing: it is refused as a setting."""
    from huescues.engine import InvalidRules

    with pytest.raises(InvalidRules, match="lowercase single words, no spaces or hyphens"):
        STANDARD.replace(banned_terms=(term,))
    with pytest.raises(InvalidRules, match=r"lowercase single words.*\(R21\)"):
        STANDARD.replace(relative_words=(term,))


def test_r19_forms_are_computed_once_per_banned_list() -> None:
    assert colour_term_forms(BASIC_COLOUR_TERMS) is colour_term_forms(BASIC_COLOUR_TERMS)
    forms = colour_term_forms(BASIC_COLOUR_TERMS)
    assert forms["reddish"] == "red"
    assert forms["red"] == "red"
    assert "credit" not in forms


def test_r19_common_word_list_has_the_words_the_examples_need() -> None:
    words = common_words()
    assert common_words() is words
    for word in ["act", "wood", "bird", "berry", "berries", "house", "hound", "one"]:
        assert word in words
    for fragment in ["uce", "dit", "eem", "ery", "o"]:
        assert fragment not in words
    assert all(len(w) >= 3 and w.isascii() and w.isalpha() and w.islower() for w in words)
    assert 30_000 < len(words) < 60_000


def test_r19_word_list_ships_with_its_licence() -> None:
    data = resources.files("huescues.data").joinpath("languages", "en")  # the English pack
    assert data.joinpath("common_words.txt.gz").is_file()
    assert "Kevin Atkinson" in data.joinpath("SCOWL-LICENSE.txt").read_text(encoding="utf-8")


@given(term=st.sampled_from(BASIC_COLOUR_TERMS), ending=st.sampled_from(COLOUR_ENDINGS))
def test_r19_property_every_standard_term_with_every_ending_refused(term: str, ending: str) -> None:
    err = refusal(term + ending)
    assert err.rule == "R19"


@given(
    term=st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=10),
    ending=st.sampled_from(COLOUR_ENDINGS),
)
def test_r19_property_any_banned_term_with_any_ending_refused(term: str, ending: str) -> None:
    """R19 (b) works for any banned list: the forms come from the list, not from a table."""
    rules = STANDARD.replace(banned_terms=(term,))
    # R20 may refuse first (a banned 'to' makes 'tops'); either way the word is refused.
    assert refusal(term + ending, rules=rules).rule in {"R19", "R20"}


# --- R20: positions ---------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["F12", "f12", "12F", "a1", "P30", "f12!"])
def test_r20_board_coordinates_refused(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R20"
    assert err.word == word
    assert "coordinate" in str(err)


@pytest.mark.parametrize("word", ["A", "p", "Q", "z", "a.", "I"])
def test_r20_single_letters_refused_rows_are_letters(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R20"
    assert "single letter" in str(err)
    assert "A-P" in str(err)


@pytest.mark.parametrize("word", ["赤", "ж", "\u03b1", "é", "海"])
def test_r20_a_single_character_of_another_script_is_not_a_row_letter(word: str) -> None:
    assert validate_clue(word) == (word,)


@pytest.mark.parametrize("word", ["7", "30", "3rd", "no1", "½", "x2y"])
def test_r20_digits_refused(word: str) -> None:
    assert refusal(word).rule == "R20"


@pytest.mark.parametrize(
    "word", ["zero", "one", "Seven", "twelve", "twenty", "thirty", "twenty-one", "twentyone"]
)
def test_r20_number_words_refused(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R20"
    assert "number" in str(err)


def test_r20_number_words_go_up_to_thirty() -> None:
    assert {"zero", "nineteen", "twenty", "twentynine", "thirty", "tens"} <= NUMBER_WORDS
    assert "forty" not in NUMBER_WORDS


@pytest.mark.parametrize(
    "word",
    [
        "left",
        "right",
        "top",
        "bottom",
        "middle",
        "corner",
        "row",
        "column",
        "edge",
        "centre",
        "center",
        "up",
        "down",
        "above",
        "below",
        "corners",
        "edges",
        "rows",
        "Top-left",
    ],
)
def test_r20_position_words_refused(word: str) -> None:
    err = refusal(word)
    assert err.rule == "R20"
    assert "place on the board" in str(err)


def test_r20_position_words_include_plurals() -> None:
    assert {"lefts", "columns", "centres", "ups"} <= POSITION_WORDS


@pytest.mark.parametrize("word", ["x-ray", "t-shirt", "topaz", "upright", "bottle", "rowan"])
def test_r20_words_that_only_contain_positions_or_letters_allowed(word: str) -> None:
    assert validate_clue(word) == (word,)


def test_r20_is_checked_before_r19() -> None:
    """Per word the order is R20, R19, R21: 'red-12' is refused for its number."""
    assert refusal("red-12").rule == "R20"


# --- R21: relative words (second clue only) ---------------------------------------------------


@pytest.mark.parametrize("word", RELATIVE_WORDS)
def test_r21_relative_words_refused_in_the_second_clue(word: str) -> None:
    err = refusal(f"{word} sea", second=True)
    assert err.rule == "R21"
    assert err.word == word
    assert "(R21)" in str(err)


@pytest.mark.parametrize("word", ["darker", "lighter", "more"])
def test_r21_relative_words_allowed_in_the_first_clue(word: str) -> None:
    assert validate_clue(word) == (word,)


def test_r21_relative_words_checked_part_by_part() -> None:
    assert refusal("much-darker", second=True).rule == "R21"
    assert refusal("Darker!", second=True).rule == "R21"


def test_r21_empty_setting_allows_darker() -> None:
    rules = STANDARD.replace(relative_words=())
    assert validate_clue("darker sea", second=True, rules=rules) == ("darker", "sea")


def test_r21_custom_setting() -> None:
    rules = STANDARD.replace(relative_words=("sunnier",))
    assert refusal("sunnier", second=True, rules=rules).rule == "R21"
    assert validate_clue("darker", second=True, rules=rules) == ("darker",)


def test_words_are_checked_in_order() -> None:
    """Per word R20, R19, R21, word after word: the first word at fault is named."""
    err = refusal("darker red", second=True)
    assert (err.rule, err.word) == ("R21", "darker")
    err = refusal("red darker", second=True)
    assert (err.rule, err.word) == ("R19", "red")


# --- R22: repeats -----------------------------------------------------------------------------


def test_r22_repeated_clue_refused_case_and_spacing_aside() -> None:
    err = refusal("  Deep\tSEA ", second=True, previous=["ocean", "deep sea"])
    assert err.rule == "R22"
    assert err.word is None
    assert "(R22)" in str(err)
    assert "'deep sea'" in str(err)
    assert refusal("Ocean", previous=iter(["OCEAN"])).rule == "R22"


def test_r22_different_clues_allowed() -> None:
    assert validate_clue("ocean", previous=["sea", "deep ocean"]) == ("ocean",)
    assert validate_clue("ocean!", previous=["ocean"]) == ("ocean!",)


def test_r22_setting_off_allows_repeats() -> None:
    rules = STANDARD.replace(refuse_repeated_clues=False)
    assert validate_clue("ocean", rules=rules, previous=["ocean"]) == ("ocean",)


def test_r22_is_checked_last() -> None:
    assert refusal("red", previous=["red"]).rule == "R19"


def test_normalise_clue() -> None:
    assert normalise_clue("  Deep \t SEA\n") == "deep sea"
    assert normalise_clue("") == ""


# --- R23: what the library cannot check -------------------------------------------------------


def test_r23_objects_in_the_room_are_left_to_the_players() -> None:
    assert validate_clue("lamp") == ("lamp",)


# --- The built-in vocabulary and properties ---------------------------------------------------


def test_random_clue_words_shape() -> None:
    assert 150 <= len(RANDOM_CLUE_WORDS) <= 300
    assert list(RANDOM_CLUE_WORDS) == sorted(set(RANDOM_CLUE_WORDS))
    assert all(w.isalpha() and w.islower() for w in RANDOM_CLUE_WORDS)


@pytest.mark.parametrize("word", RANDOM_CLUE_WORDS)
def test_r18_r22_every_random_clue_word_passes_as_a_first_clue(word: str) -> None:
    assert validate_clue(word) == (word,)
    assert validate_clue(word, second=True) == (word,)


@given(pair=st.lists(st.sampled_from(RANDOM_CLUE_WORDS), min_size=2, max_size=2, unique=True))
def test_r18_r22_property_two_random_clue_words_pass_as_a_second_clue(pair: list[str]) -> None:
    text = " ".join(pair)
    assert validate_clue(text, second=True, previous=[pair[0], pair[1]]) == tuple(pair)


@given(text=st.text(), second=st.booleans())
def test_r18_r22_property_returns_the_words_or_raises_illegal_clue(text: str, second: bool) -> None:
    error: IllegalClue | None = None
    words: tuple[str, ...] = ()
    try:
        words = validate_clue(text, second=second)
    except IllegalClue as err:
        error = err
    if error is None:
        assert words == tuple(text.split())
    else:
        assert error.rule in {"R18", "R19", "R20", "R21", "R22"}
        assert f"({error.rule}" in str(error)
        assert error.clue == text


@given(
    before=st.text(),
    digit=st.one_of(st.sampled_from(string.digits), st.characters(categories=["Nd"])),
    after=st.text(),
    second=st.booleans(),
)
def test_r20_property_any_text_with_a_digit_refused(
    before: str, digit: str, after: str, second: bool
) -> None:
    with pytest.raises(IllegalClue):
        validate_clue(before + digit + after, second=second)


def test_illegal_clue_pickles() -> None:
    err = refusal("redwood")
    copy = pickle.loads(pickle.dumps(err))
    assert (str(copy), copy.rule, copy.word, copy.clue) == (str(err), "R19", "redwood", "redwood")


# -- the verdict cache and R22's normalised clues (engine speed, issue 13) -------------------------


@given(st.text(max_size=30), st.booleans())
def test_r18_r22_property_a_cached_verdict_is_the_first_verdict(text: str, second: bool) -> None:
    """Checking a text again, or under equal rules made anew, gives the same words or the same
    refusal: the verdicts cached per rules object never leak between different rules."""

    def verdict(rules: Rules) -> tuple[str, ...] | tuple[str, str]:
        try:
            return validate_clue(text, second=second, rules=rules)
        except IllegalClue as e:
            return (str(e), e.rule)

    first = verdict(Rules.standard(4))
    assert verdict(Rules.standard(4)) == first
    assert verdict(Rules.standard(4)) == first


def test_r9_verdicts_of_other_rules_are_their_own() -> None:
    """The same text under rules that differ: each rules object reads it by its own limits."""
    two = Rules.standard(4, first_clue_words=2)
    assert validate_clue("ocean mist", rules=two) == ("ocean", "mist")
    with pytest.raises(IllegalClue, match="R9"):
        validate_clue("ocean mist", rules=Rules.standard(4))
    assert validate_clue("ocean mist", rules=Rules.standard(4, first_clue_words=2)) == (
        "ocean",
        "mist",
    )


def test_r22_a_clue_of_one_branch_is_not_given_in_another() -> None:
    """States branch (a search tries several clues from one state): a clue given in one branch
    is refused there (R22) and still free in its sibling."""
    before = ("peach", "swamp")
    left = (*before, "Dove")
    right = (*before, "silk")
    validate_clue("lightning", previous=before)
    with pytest.raises(IllegalClue, match="R22"):
        validate_clue("dove", previous=left)
    validate_clue("dove", previous=right)
    validate_clue("dove", previous=before)
    with pytest.raises(IllegalClue, match="'Dove' was already given"):
        validate_clue("DOVE  ", previous=list(left))
    validate_clue("dove", previous=iter(right))


_VARIANTS = st.sampled_from(
    ["dove", "Dove", " dove ", "DOVE", "deep sea", "Deep  Sea", "sea", "pea"]
)


@given(st.lists(_VARIANTS, max_size=8), _VARIANTS)
def test_r22_property_refused_exactly_when_an_earlier_clue_normalises_alike(
    earlier: list[str], text: str
) -> None:
    """R22 against its plain reading: a clue is refused when, case and spacing aside, it is one
    of the game's earlier clues, whatever the engine's caches hold from other games."""
    repeated = any(normalise_clue(e) == normalise_clue(text) for e in earlier)
    if repeated:
        with pytest.raises(IllegalClue, match=r"\(R22\)"):
            validate_clue(text, second=True, previous=tuple(earlier))
    else:
        assert validate_clue(text, second=True, previous=tuple(earlier))


# -- R19's house rule: named colours ------------------------------------------------------------
NAMED = Rules.standard(4, refuse_named_colours=True)


@pytest.mark.parametrize(
    "clue", ["indigo", "Mauve", "crimson!", "beige", "magenta", "aquamarine", "sky-turquoise"]
)
def test_r19_house_rule_refuses_named_colours(clue: str) -> None:
    with pytest.raises(IllegalClue, match=r"house rule on named colours refuses \(R19\)") as e:
        validate_clue(clue, rules=NAMED)
    assert e.value.rule == "R19"
    validate_clue(clue, rules=STANDARD)  # allowed under the standard rules


@pytest.mark.parametrize("clue", ["banana", "lemon", "sky", "rose", "olive", "indigos", "gold"])
def test_r19_house_rule_matches_whole_words_and_spares_other_meanings(clue: str) -> None:
    assert validate_clue(clue, rules=NAMED) == (clue,)


def test_r19_house_rule_list_is_lowercase_words_with_no_basic_term_or_other_meaning() -> None:
    from huescues.engine import named_colours

    names = named_colours()
    assert 60 <= len(names) <= 150
    assert all(n.isalpha() and n == n.lower() for n in names)
    assert not names & set(BASIC_COLOUR_TERMS)
    assert not names & {"banana", "lemon", "sky", "rose", "olive", "peach", "plum", "lime",
                        "coral", "salmon", "gold", "silver", "lavender", "mint"}  # fmt: skip


NAMED_ES = Rules.standard(4, language="es", refuse_named_colours=True)


@pytest.mark.parametrize(
    "clue", ["turquesa", "Carmesí", "carmesi", "escarlatas", "índigo", "Añil", "rubia", "magenta"]
)
def test_r19_house_rule_in_spanish_refuses_spanish_named_colours(clue: str) -> None:
    # A Spanish table's house rule reads its pack's own list (accents folded, gender and
    # number listed), not the English words.
    with pytest.raises(IllegalClue, match=r"house rule on named colours refuses \(R19\)"):
        validate_clue(clue, rules=NAMED_ES)
    validate_clue(clue, language="es")  # allowed under the standard Spanish rules


@pytest.mark.parametrize(
    "clue", ["plátano", "granate", "lila", "sepia", "celeste", "limón", "tomate"]
)
def test_r19_house_rule_in_spanish_spares_words_with_other_meanings(clue: str) -> None:
    assert validate_clue(clue, rules=NAMED_ES) == (clue,)


def test_r19_house_rule_lists_per_language() -> None:
    from huescues.engine import named_colours
    from huescues.engine._languages import language_pack

    spanish = named_colours("es")
    assert {"turquesa", "carmesi", "bermellon", "escarlata"} <= spanish
    assert spanish != named_colours() and "crimson" not in spanish
    # As the check compares them: lowercase, accents folded, no basic term of the language.
    pack = language_pack("es")
    assert all(n == pack.fold(n) and n.isalpha() for n in spanish)
    assert not spanish & {pack.fold(t) for t in pack.basic_colour_terms}


def test_r19_house_rule_travels_with_the_rules_and_old_rules_load_without_it() -> None:
    assert Rules.from_dict(NAMED.to_dict()) == NAMED
    old = STANDARD.to_dict()
    assert "refuse_named_colours" not in old  # standard records read as before
    assert Rules.from_dict(old).refuse_named_colours is False
    with pytest.raises(InvalidRules, match="refuse_named_colours"):
        Rules.standard(4, refuse_named_colours="yes")


def test_a_clue_of_a_str_subclass_is_played_as_validate_clue_reads_it() -> None:
    """R18: text is text, numpy's ``str_`` included: the engine plays the clue that
    validate_clue passes (it refused it as 'not text'), and keeps it as a plain str."""
    import numpy as np

    from huescues import ChooseTarget, GiveClue, new_game

    clue = np.str_("lagoon")
    assert validate_clue(clue) == ("lagoon",)
    state = new_game(4, seed=1).apply(ChooseTarget(0)).apply(GiveClue(clue))
    assert state.clues == ("lagoon",) and type(state.clues[0]) is str
    assert type(state.actions[-1].text) is str  # type: ignore[union-attr]


def test_validate_clue_names_previous_clues_and_rules_of_the_wrong_type() -> None:
    """R22: one text given as ``previous`` is refused (its letters were taken for the earlier
    clues, so a repeat passed), as are earlier clues and rules that are not what they say."""
    with pytest.raises(TypeError, match="previous"):
        validate_clue("lagoon", previous="lagoon")
    with pytest.raises(TypeError, match="a clue is text"):
        validate_clue("lagoon", previous=[None])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="rules"):
        validate_clue("lagoon", rules="standard")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a clue is text"):
        normalise_clue(None)  # type: ignore[arg-type]
    with pytest.raises(IllegalClue, match="R22"):
        validate_clue("lagoon", previous=["Lagoon"])
