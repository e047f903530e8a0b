"""Language packs (docs/languages.md): a game's language in its rules, and the Spanish clue rules
R19-R21 (the Spanish wording is in docs/rules.md; RULES.md's English text holds)."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

import huescues
from huescues import GameRecord, IllegalClue, InvalidRules, Rules, new_game, validate_clue
from huescues.agents import RandomAgent, play_game
from huescues.engine import (
    BASIC_COLOUR_TERMS,
    DEFAULT_LANGUAGE,
    RELATIVE_WORDS,
    ChooseTarget,
    GiveClue,
    available_languages,
    common_words,
    language_pack,
)

# the forms of one term are private: checked here against the spelling before packs
from huescues.engine._clues import _ending_forms, colour_term_forms
from huescues.testing import check_games

ES = Rules.standard(4, language="es")
SPANISH_TERMS = (
    "rojo",
    "naranja",
    "amarillo",
    "verde",
    "azul",
    "morado",
    "violeta",
    "púrpura",
    "rosa",
    "marrón",
    "café",
    "blanco",
    "negro",
    "gris",
)


def refusal(text: str, **kwargs: object) -> IllegalClue:
    """The error ``validate_clue`` raises for ``text`` (fails the test when it passes)."""
    with pytest.raises(IllegalClue) as info:
        validate_clue(text, **kwargs)  # type: ignore[arg-type]
    return info.value


def unaccented(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# --- the packs --------------------------------------------------------------------------------


def test_english_and_spanish_packs_ship() -> None:
    assert {"en", "es"} <= set(available_languages())
    assert DEFAULT_LANGUAGE == "en"
    assert language_pack("es") is language_pack("es")  # read once


@pytest.mark.parametrize("code", available_languages())
def test_every_pack_is_whole_and_refuses_its_own_words(code: str) -> None:
    """A pack a contributor adds passes this as it stands (docs/languages.md): R19-R21."""
    pack = language_pack(code)
    rules = Rules.standard(4, language=code)
    assert pack.code == code and pack.name
    assert rules.banned_terms == pack.basic_colour_terms and pack.basic_colour_terms
    for words in (pack.basic_colour_terms, pack.relative_words):
        assert all(w == w.strip().lower() and " " not in w for w in words)
    assert {base for base, _ in pack.derived_forms} <= {
        pack.fold(t) for t in pack.basic_colour_terms
    }
    assert len(pack.common_words()) > 1000 and pack.min_rest >= 1
    for term in pack.basic_colour_terms:  # R19 (a), and (b) for every listed derived word
        assert refusal(term, rules=rules).rule == "R19"
        for word in pack.derived(term):
            assert refusal(word, rules=rules).rule == "R19"
    for word in pack.position_words | pack.number_words:  # R20
        assert refusal(word, rules=rules).rule == "R20", word
    for word in pack.relative_words:  # R21, second clue only
        assert refusal(word, rules=rules, second=True).rule == "R21", word


def test_english_pack_holds_todays_lists() -> None:
    """No behaviour change: the English lists are the ones RULES.md gives (R19, R20, R21)."""
    en = language_pack("en")
    assert en.basic_colour_terms == BASIC_COLOUR_TERMS == Rules.standard(4).banned_terms
    assert en.relative_words == RELATIVE_WORDS == Rules.standard(4).relative_words
    assert {"left", "centres", "below"} <= en.position_words
    assert {"one", "twentynine", "thirty", "twenties"} <= en.number_words
    assert common_words() is common_words("en") is en.common_words()


def test_spanish_common_words_are_folded_and_ship_with_their_licence() -> None:
    words = common_words("es")
    assert {"cielo", "montana", "platano", "grana"} <= words  # R19 (c)
    assert "leda" not in words  # left out: it would refuse 'rosaleda'
    min_rest = language_pack("es").min_rest
    assert min_rest == 4  # 'moradores' is not 'morado' + 'res'
    assert all(w.isascii() and w.isalpha() and w.islower() and len(w) >= min_rest for w in words)
    folder = resources.files("huescues.data").joinpath("languages", "es")
    assert folder.joinpath(language_pack("es").common_words_file).is_file()
    assert "Public Domain" in folder.joinpath("WSPANISH-LICENSE.txt").read_text(encoding="utf-8")


def test_unknown_language_refused() -> None:
    with pytest.raises(InvalidRules, match=r"Rules\(language='fr'\) refused.*'en', 'es'"):
        Rules.standard(4, language="fr")
    with pytest.raises(ValueError, match="no language pack 'fr'"):
        language_pack("fr")
    with pytest.raises(InvalidRules, match="'xx'"):
        validate_clue("pitufo", language="xx")


# --- the language is part of the rules ---------------------------------------------------------


def test_rules_default_to_english() -> None:
    assert Rules.standard(4).language == "en"
    assert Rules(4).banned_terms == BASIC_COLOUR_TERMS  # R19
    assert Rules(4).relative_words == RELATIVE_WORDS  # R21


def test_spanish_rules_take_the_packs_lists() -> None:
    es = language_pack("es")
    assert ES.language == "es"
    assert ES.banned_terms == es.basic_colour_terms == SPANISH_TERMS  # R19
    assert ES.relative_words == es.relative_words  # R21
    assert Rules(4, language="es") == Rules.standard(4, language="es").replace(
        giver_points_per_pawn=1
    )
    variant = Rules.standard(4, language="es", banned_terms=(*SPANISH_TERMS, "celeste"))
    assert refusal("celestes", rules=variant).rule == "R19"  # a variant's term takes its plural


def test_replace_language_switches_the_lists_unless_varied() -> None:
    assert Rules.standard(4).replace(language="es") == ES
    assert ES.replace(language="en") == Rules.standard(4)
    teal = Rules.standard(4, banned_terms=("teal",))
    assert teal.replace(language="es").banned_terms == ("teal",)  # a variant's list is kept
    assert teal.replace(language="es").relative_words == ES.relative_words


def test_rules_round_trip_the_language_and_old_rules_load_as_english() -> None:
    data = json.loads(json.dumps(ES.to_dict()))
    assert data["language"] == "es"
    assert Rules.from_dict(data) == ES
    # English rules are saved without the key, as before languages existed (older readers read
    # them), and such rules load as English.
    old = Rules.standard(4).to_dict()
    assert "language" not in old
    assert Rules.from_dict(old) == Rules.standard(4)
    assert Rules.from_dict({"n_players": 4, "language": "es"}).banned_terms == SPANISH_TERMS


def test_records_round_trip_the_language_and_replay_in_it() -> None:
    rules = ES.replace(n_players=3)
    record, state = play_game([RandomAgent() for _ in range(3)], seed=5, rules=rules)
    again = GameRecord.from_json(record.to_json())
    assert again.rules.language == "es"
    assert again == record
    assert again.replay().scores == state.scores
    old = json.loads(record.to_json())
    del old["rules"]["language"]
    old["rules"]["banned_terms"] = list(BASIC_COLOUR_TERMS)
    old["rules"]["relative_words"] = list(RELATIVE_WORDS)
    assert GameRecord.from_dict(old).rules.language == "en"


def test_the_engine_checks_clues_in_the_games_language() -> None:
    """R19 in a game: a Spanish game refuses 'rojizo' and allows 'red' (a net, in Spanish)."""
    for rules, refused, allowed in ((ES, "rojizo", "red"), (Rules.standard(4), "red", "rojizo")):
        state = new_game(4, seed=1, rules=rules)
        state = state.apply(ChooseTarget(0))
        with pytest.raises(IllegalClue, match="R19"):
            state.apply(GiveClue(refused))
        state.apply(GiveClue(allowed))


def test_the_checker_plays_spanish_games() -> None:
    report = check_games(ES, games=4, seed=3)
    assert report.games == 4


def test_validate_clue_language_is_short_for_the_rules() -> None:
    assert validate_clue("rojizo") == ("rojizo",)  # English rules: not an English colour word
    assert refusal("rojizo", language="es").rule == "R19"
    assert refusal("rojizo", rules=ES, language="es").rule == "R19"
    assert huescues.validate_clue is validate_clue  # the top-level name is the engine's
    with pytest.raises(ValueError, match=r"language='es'.*'en'"):
        validate_clue("pitufo", rules=Rules.standard(4), language="es")
    with pytest.raises(ValueError, match=r"language='en'.*'es'"):
        validate_clue("pitufo", rules=ES, language="en")


# --- R19: Spanish colour terms ----------------------------------------------------------------

#: Every basic term, its genders and numbers, and derived words in both genders and numbers.
SPANISH_FORMS: dict[str, tuple[str, ...]] = {
    "rojo": ("rojo", "roja", "rojos", "rojas", "rojizo", "rojiza", "rojizos", "rojizas", "rojito"),
    "naranja": ("naranja", "naranjas", "anaranjado", "anaranjada", "anaranjados", "anaranjadas"),
    "amarillo": (
        "amarillo",
        "amarilla",
        "amarillos",
        "amarillas",
        "amarillento",
        "amarillenta",
        "amarillentos",
        "amarillentas",
    ),
    "verde": ("verde", "verdes", "verdoso", "verdosa", "verdosos", "verdosas", "verdor"),
    "azul": ("azul", "azules", "azulado", "azulada", "azulados", "azuladas", "azulón"),
    "morado": (
        "morado",
        "morada",
        "morados",
        "moradas",
        "amoratado",
        "amoratada",
        "amoratados",
        "amoratadas",
    ),
    "violeta": ("violeta", "violetas", "violáceo", "violácea", "violáceos", "violáceas"),
    "púrpura": ("púrpura", "púrpuras", "purpúreo", "purpúrea", "purpúreos", "purpúreas"),
    "rosa": ("rosa", "rosas", "rosado", "rosada", "rosados", "rosadas", "rosáceo"),
    "marrón": ("marrón", "marrones", "amarronado", "amarronadas"),
    "café": ("café", "cafés"),
    "blanco": (
        "blanco",
        "blanca",
        "blancos",
        "blancas",
        "blanquecino",
        "blanquecina",
        "blanquecinos",
        "blanquecinas",
        "blancuzco",
    ),
    "negro": (
        "negro",
        "negra",
        "negros",
        "negras",
        "negruzco",
        "negruzca",
        "negruzcos",
        "negruzcas",
    ),
    "gris": ("gris", "grises", "grisáceo", "grisácea", "grisáceos", "grisáceas"),
}
SPELLINGS: tuple[Callable[[str], str], ...] = (
    lambda w: w,
    str.upper,
    str.capitalize,
    unaccented,
    lambda w: unaccented(w).upper(),
)


def test_every_spanish_term_has_forms_here() -> None:
    assert tuple(SPANISH_FORMS) == SPANISH_TERMS


@pytest.mark.parametrize(
    ("term", "word"), [(t, w) for t, words in SPANISH_FORMS.items() for w in words]
)
def test_r19_spanish_terms_and_forms_refused_in_any_case_and_accents(term: str, word: str) -> None:
    for spell in SPELLINGS:
        written = spell(word)
        err = refusal(written, language="es")
        assert err.rule == "R19", written
        assert err.word == written
        message = str(err)
        assert f"colour term {term!r} (R19)" in message or f"{term!r} with an ending" in message


def test_r19_spanish_messages_name_the_term() -> None:
    err = refusal("rojizo", language="es")
    assert "'rojizo' is a form of the colour term 'rojo' (R19)" in str(err)
    assert "is the colour term 'púrpura' (R19)" in str(refusal("purpura", language="es"))
    assert "'verde' with an ending" in str(refusal("verdes", language="es"))
    err = refusal("grisaceo", language="es")
    assert "'grisaceo' is a form of the colour term 'gris'" in str(err)


@pytest.mark.parametrize(
    ("word", "rest"),
    [("azulgrana", "grana"), ("verdemontaña", "montana"), ("Verdemontana", "montana")],
)
def test_r19_spanish_compounds_with_a_common_word_refused(word: str, rest: str | None) -> None:
    err = refusal(word, language="es")
    assert err.rule == "R19"
    if rest is not None:
        assert f"followed by the word {rest!r}" in str(err)


@pytest.mark.parametrize("word", ["rojizo-verdoso", "cielo-azul", "AZUL-cielo"])
def test_r19_spanish_parts_checked(word: str) -> None:
    assert refusal(word, language="es").rule == "R19"


@pytest.mark.parametrize(
    "word",
    [
        "pitufo",
        "plátano",
        "platano",
        "remolacha",
        "otoño",
        "cielo",
        "limón",
        "fresa",
        "mar",
        "sangre",
        "verdad",
        "grisú",
        "rosario",
        "rosaleda",
        "rosales",  # rosa + les: the word after a term has four letters or more in Spanish
        "moradores",  # morado + res
        "naranjales",
        "verdemar",  # a known miss: 'mar' is too short
        "azulejo",
        "negocio",
        "Carmesí",
        "red",  # a net
        "blue",
    ],
)
def test_r19_spanish_ordinary_words_allowed(word: str) -> None:
    assert validate_clue(word, language="es") == (word,)


def test_english_rules_do_not_change_for_spanish_words() -> None:
    for word in ("rojizo", "verdes", "izquierda", "más"):
        assert validate_clue(word, second=True) == (word,)
    for word in ("reddish", "bluebird", "left", "twenty"):
        refusal(word)


# --- R20: Spanish positions and numbers -------------------------------------------------------


@pytest.mark.parametrize(
    "word",
    [
        "izquierda",
        "Izquierdo",
        "derecha",
        "ARRIBA",
        "abajo",
        "cima",
        "centro",
        "medio",
        "esquina",
        "esquinas",
        "rincón",
        "rincon",
        "rincones",
        "fila",
        "filas",
        "columna",
        "borde",
        "bordes",
        "orilla",
        "encima",
        "debajo",
    ],
)
def test_r20_spanish_position_words_refused(word: str) -> None:
    err = refusal(word, language="es")
    assert err.rule == "R20"
    assert "names a place on the board" in str(err)


@pytest.mark.parametrize(
    "word",
    [
        "cero",
        "uno",
        "una",
        "dos",
        "diez",
        "quince",
        "dieciséis",
        "dieciseis",
        "veintiún",
        "veintitrés",
        "Veintitres",
        "treinta",
        "doses",
        "primero",
        "primera",
        "tercer",
        "décimo",
        "decimas",
    ],
)
def test_r20_spanish_number_words_refused(word: str) -> None:
    err = refusal(word, language="es")
    assert err.rule == "R20"
    assert "number word" in str(err)


@pytest.mark.parametrize("word", ["uña", "uñas", "UÑAS", "un\u0303a", "n\u0303u"])
def test_r20_a_spanish_word_with_n_tilde_is_not_the_number_word_without_it(word: str) -> None:
    """R20: ñ is a letter of its own in Spanish: uña (a nail) is not una (one), though accents
    fold (``úna`` is still ``una``)."""
    assert validate_clue(word, language="es") == (word,)


@pytest.mark.parametrize("word", ["una", "úna", "UNAS", "uno"])
def test_r20_spanish_number_words_are_refused_with_accents_folded(word: str) -> None:
    assert refusal(word, language="es").rule == "R20"


@pytest.mark.parametrize("word", ["F12", "a", "12"])
def test_r20_coordinates_letters_and_digits_refused_in_spanish_too(word: str) -> None:
    assert refusal(word, language="es").rule == "R20"


def test_r20_spanish_known_limits() -> None:
    """R20: numbers above thirty, and 'segundo' (a unit of time) and 'cuarto' (a room) pass."""
    for word in ("cuarenta", "segundo", "cuarto", "left"):
        assert validate_clue(word, language="es") == (word,)


# --- R21: Spanish relative words ----------------------------------------------------------------


@pytest.mark.parametrize(
    "word",
    ["más", "mas", "MÁS", "menos", "mayor", "menor", "mejor", "peor", "superior", "inferior"],
)
def test_r21_spanish_relative_words_refused_in_the_second_clue(word: str) -> None:
    err = refusal(f"{word} cielo", second=True, language="es")
    assert err.rule == "R21"
    assert err.word == word
    assert validate_clue(word, language="es") == (word,)  # the first clue may use them


def test_r21_spanish_comparatives_with_mas_refused() -> None:
    """R21: Spanish says 'darker' as 'más oscuro': the 'más' is refused, 'oscuro' alone passes."""
    assert refusal("más oscuro", second=True, language="es").word == "más"
    assert validate_clue("oscuro", second=True, language="es") == ("oscuro",)
    assert validate_clue("darker", second=True, language="es") == ("darker",)


# --- a property ---------------------------------------------------------------------------------


def _inflections(word: str) -> tuple[str, ...]:
    """Spanish gender and number, written independently of the pack."""
    if word.endswith("o"):
        return (word, word[:-1] + "a", word + "s", word[:-1] + "as")
    if word[-1] in "aeiouáéíóú":
        return (word, word + "s")
    if word.endswith("z"):
        return (word, word[:-1] + "ces")
    return (word, word + "es")


@st.composite
def spanish_forms(draw: st.DrawFn) -> tuple[str, str]:
    """A basic Spanish term and a form of it: itself or a derived word, in a gender and number,
    in a case, with or without its accents, alone or as a part of a hyphenated word."""
    term = draw(st.sampled_from(SPANISH_TERMS))
    base = draw(st.sampled_from((term, *language_pack("es").derived(term))))
    word = draw(st.sampled_from(_inflections(base)))
    word = draw(st.sampled_from(SPELLINGS))(word)
    where = draw(st.sampled_from(("{}", "{}-cielo", "cielo-{}", "¡{}!")))
    return term, where.format(word)


@given(spanish_forms())
def test_r19_property_every_form_of_a_spanish_term_refused(found: tuple[str, str]) -> None:
    term, word = found
    err = refusal(word, language="es")
    assert err.rule == "R19"
    assert repr(term) in str(err)


# --- R19 (d): Spanish compounds that end in a colour term --------------------------------------

#: Compounds of a stem, the joining "i" and a term's form (the r doubled), as Spanish makes them.
SPANISH_COLOUR_COMPOUNDS = (
    ("pelirrojo", "rojo"),  # the words first
    ("ojiverde", "verde"),
    ("ojiazules", "azul"),
    ("pelinegra", "negro"),
    ("barbiblanco", "blanco"),
    ("pelirrojas", "rojo"),
    ("petirrojo", "rojo"),  # the robin, as English refuses "redbreast"
    ("rojiblanco", "blanco"),  # the combining form first: a known miss before (d)
    ("verdiblanca", "blanco"),
    ("blanquiazul", "azul"),
    ("cariblanco", "blanco"),
    ("boquinegro", "negro"),
    ("ojigrises", "gris"),
    ("pelirrosa", "rosa"),
    ("ojimarrón", "marrón"),
    ("ojicafés", "café"),
    ("culiamarilla", "amarillo"),
    ("alimorado", "morado"),
    ("colinaranja", "naranja"),
    ("ojivioleta", "violeta"),
    ("ojiverdosa", "verde"),  # a derived form after the stem
)


@pytest.mark.parametrize(("word", "term"), SPANISH_COLOUR_COMPOUNDS)
def test_r19_spanish_compound_ending_in_a_term_refused(word: str, term: str) -> None:
    """R19 (d): stem + i + a term in any of its forms, in any case, with or without accents."""
    for spell in SPELLINGS:
        written = spell(word)
        err = refusal(written, language="es")
        assert err.rule == "R19", written
        assert err.word == written
        assert f"{written!r} is a compound that ends in the colour term {term!r}" in str(err)


def test_r19_spanish_compound_message_names_the_parts() -> None:
    err = refusal("pelirrojo", language="es")
    assert str(err).endswith(
        "'pelirrojo' is a compound that ends in the colour term 'rojo' "
        "('pel' + 'i' + 'rrojo') (R19)"
    )
    err = refusal("peli-rrojo", language="es")  # parts joined, as R19 reads hyphens
    assert err.rule == "R19"
    assert "colour term 'rojo'" in str(err)


@pytest.mark.parametrize(
    "word",
    [
        "generosa",  # gene + rosa: no joining i
        "amorosa",
        "mentirosa",  # menti + rosa: the r is not doubled, so no compound of rosa
        "suspirosa",
        "pitufo",
        "ojiva",
        "pelirrubio",  # rubio is not a basic term
        "ojicastaño",
        "perinola",
        "caminante",
        "agridulce",
    ],
)
def test_r19_spanish_words_that_only_end_in_the_letters_allowed(word: str) -> None:
    assert validate_clue(word, language="es") == (word,)


def test_r19_spanish_derived_form_still_refused_as_a_form() -> None:
    err = refusal("rojizo", language="es")
    assert "'rojizo' is a form of the colour term 'rojo' (R19)" in str(err)


def test_r19_compounds_are_spanish_only() -> None:
    """English has no rule (d): its compounds start with the term (c), and "redhead" is
    refused as before."""
    assert language_pack("en").compounds == ()
    assert "starts with the colour term 'red'" in str(refusal("redhead"))
    assert validate_clue("pelirrojo") == ("pelirrojo",)


@st.composite
def spanish_compounds(draw: st.DrawFn) -> tuple[str, str]:
    """A stem (letters, no i), the joining i and a form of a term, the r doubled."""
    stem = draw(st.text(alphabet="abcdefghjlmnopqrstuvz", min_size=2, max_size=6))
    term = draw(st.sampled_from(SPANISH_TERMS))
    base = draw(st.sampled_from((term, *language_pack("es").derived(term))))
    form = unaccented(draw(st.sampled_from(_inflections(base))))
    # the term the message names: the first listed whose form this is (violeta, púrpura...)
    named = colour_term_forms(language_pack("es").basic_colour_terms, "es")[form]
    written = "r" + form if form.startswith("r") else form
    return named, draw(st.sampled_from(SPELLINGS))(stem + "i" + written)


@given(spanish_compounds())
def test_r19_property_any_stem_i_and_a_form_refused(found: tuple[str, str]) -> None:
    term, word = found
    err = refusal(word, language="es")
    assert err.rule == "R19"
    assert f"{word!r} is a compound that ends in the colour term {term!r}" in str(err)


# --- English unchanged ----------------------------------------------------------------------------


def _english_forms_before_packs(term: str) -> set[str]:
    """R19 (b) as the checker spelt it in code before the English pack held it (commit 771918b)."""
    endings = ("s", "es", "ish", "y", "ey", "er", "est", "ness")
    vowels = frozenset("aeiou")
    vowel_endings = tuple(e for e in endings if e[0] in vowels or e == "y")
    forms = {term + e for e in endings}
    if len(term) > 1 and term.endswith("e"):
        forms |= {term[:-1] + e for e in vowel_endings}
    if (
        len(term) >= 3
        and term[-1].isalpha()
        and term[-1] not in vowels
        and term[-1] not in "wxy"
        and term[-2] in vowels
        and term[-3] not in vowels
    ):
        forms |= {term + term[-1] + e for e in vowel_endings}
    if len(term) >= 2 and term.endswith("y") and term[-2] not in vowels:
        forms |= {term[:-1] + "i" + e for e in ("es", "er", "est", "ness")}
    forms.discard(term)
    return forms


@given(st.text(alphabet="abcdeilnoprstuwxyzé-'1", min_size=1, max_size=9))
def test_r19_english_pack_spells_forms_as_the_code_did(term: str) -> None:
    """No behaviour change: the English pack's respellings make the forms the code made."""
    assert _ending_forms(term, language_pack("en")) == _english_forms_before_packs(term)
