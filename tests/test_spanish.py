"""The Spanish reading (issue 22): default_model(language="es")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from huescues.language import TranslatedModel, default_model, fold
from repo_scripts import load_script


def _hue(text: str) -> tuple[float, float, float]:
    lab = default_model("es").predict(text).lab
    return float(lab[0]), float(lab[1]), float(lab[2])


def test_english_is_the_default() -> None:
    assert default_model() is default_model(language="en")


def test_a_bad_language_is_named() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        default_model(language="fr")


def test_fold() -> None:
    assert fold("PLÁTANO") == fold("platano") == "platano"
    assert fold("Año") == "año"
    assert fold("MONST. GALLETA") == "monst galleta"


@pytest.mark.parametrize(
    "pair", [("PLÁTANO", "platano"), ("Remolacha", "remolacha"), ("OTOÑO", "otoño")]
)
def test_accents_and_capitals_read_the_same(pair: tuple[str, str]) -> None:
    lab = np.array([[60.0, 10.0, 40.0]])
    m = default_model("es")
    assert np.array_equal(m.score(pair[0], lab), m.score(pair[1], lab))


def test_things_read_their_colours() -> None:
    _, _, b = _hue("plátano")
    assert b > 40  # yellow
    _, a, _ = _hue("remolacha")
    assert a > 20  # red to purple
    for word in ("pitufo", "cielo", "monstruo de las galletas"):
        assert _hue(word)[2] < -15, word  # blue


def test_unknown_words_read_as_they_are() -> None:
    m = default_model("es")
    assert m.translate("Pikachu").text == "pikachu"
    assert m.translate("Pikachu").confidence == 1.0


# --- the pack's own knowledge and Spanish order (issue 34) ------------------------------------


def _peak(text: str) -> tuple[float, float, float]:
    """Where the Spanish reading peaks over the standard board's squares (L*, a*, b*)."""
    from huescues import Board

    lab = Board.standard().lab.reshape(-1, 3)
    top = lab[int(np.argmax(default_model("es").score(text, lab)))]
    return float(top[0]), float(top[1]), float(top[2])


def test_colour_words_read_as_their_colour_not_as_a_false_friend() -> None:
    """A Spanish colour word reads as the colour it names: by the English colour name that
    knowledge/spanish/colour-names.tsv gives it (marfil is ivory, not the encoder's "maroon"),
    or by the pack's own rating (rosa, tinto: the basic terms and words no glossary names)."""
    m = default_model("es")
    names = {"marfil": "ivory", "granate": "maroon", "burdeos": "burgundy", "celeste": "sky blue"}
    names |= {"cian": "cyan", "ocre": "ochre", "caqui": "khaki", "turquesa": "turquoise"}
    for word, english in names.items():
        t = m.translate(word)
        assert (t.text, t.own, t.translated) == (english, (), (fold(word),)), word
    for word in ("rosa", "tinto", "violeta", "oscuro"):
        t = m.translate(word)
        assert t.own == (fold(word),) and t.text == "" and t.translated == (), word
    light, _, _ = _peak("marfil")
    assert light > 75  # ivory, not maroon (L* 25)
    _, a, _ = _peak("granate")
    assert a > 30  # red, not granite (grey)
    light, _, b = _peak("celeste")
    assert light > 55 and b < -10  # sky blue
    _, a, _ = _peak("rosa")
    assert a > 15  # a Spanish speaker's rosa is pink


def test_a_form_of_a_rated_word_reads_as_the_word() -> None:
    m = default_model("es")
    assert m.translate("Tintos").own == ("tinto",)
    assert m.translate("oscuras").own == ("oscuro",)
    assert m.translate("granates").text == "maroon"  # a colour name's forms too
    lab = np.array([[40.0, 50.0, 20.0], [80.0, -10.0, -20.0]])
    assert np.array_equal(m.score("rosas", lab), m.score("rosa", lab))


def test_two_words_read_in_english_order_the_modifier_first() -> None:
    """Spanish puts the adjective after the noun: cielo nocturno is a night sky; 'de' still
    turns round (cookie monster) and things joined by 'y' keep their order."""
    m = default_model("es")
    assert m.translate("cielo nocturno").text == "night sky"
    assert m.translate("mar profundo").text == "deep sea"
    assert m.translate("monstruo de las galletas").text == "cookie monster"
    assert m.translate("agua y fuego").text == "water fire"
    assert m.translate("xoan y lola").text == "xoan lola"  # (names, not translated)


def test_a_name_the_english_knowledge_knows_is_read_as_it_is() -> None:
    """A phrase the table does not hold whole but the English knowledge knows as it is, a name
    from culture, is read as it is: 'la vaca lola' is the cartoon cow, not "cow lola"; 'topo
    gigio' the mouse, not "taupe gigio"; in capitals as on a card. Phrases the table holds
    whole, and phrases of words, read as before."""
    m = default_model("es")
    assert m.names is not None and m.names.knows("la vaca lola")
    for name in ("la vaca lola", "Topo Gigio", "DAVID EL GNOMO"):
        t = m.translate(name)
        assert t.text == name.lower() and t.translated == () and t.confidence == 1.0
    assert m.translate("vaca lola").text == "cow lola"  # not the name as the knowledge has it
    assert m.translate("monstruo de las galletas").text == "cookie monster"
    assert m.translate("cielo nocturno").text == "night sky"
    # Without the names, word by word; and the names are in the readings' key.
    plain = TranslatedModel(m.base, m.table, "es", knowledge=m.knowledge)
    assert plain.translate("topo gigio").text == "taupe gigio"
    assert plain.cache_key != m.cache_key


def test_a_card_s_hint_in_brackets_is_no_part_of_the_clue() -> None:
    """A study's card carries a hint in brackets (WOODY (TOY STORY), as the English card
    woody (toy story)): the clue is what is outside them, unless the pack or the English
    knowledge knows the whole, or the hint adds a companion (EPI (Y BLAS): the pair's card)."""
    m = default_model("es")
    assert m.translate("WOODY (TOY STORY)").text == "woody"
    assert m.translate("Naranja (fruta)") == m.translate("naranja")
    assert m.translate("ZORRO (ANIMAL)") == m.translate("zorro")
    assert m.translate("EPI (Y BLAS)").text == "epi y blas"  # a companion: the pair's card
    assert m.translate("BLAS (Y EPI)") == m.translate("blas y epi")
    assert m.translate("(fruta)") == m.translate("fruta")  # nothing outside: the hint is the clue
    # A bracket left open runs to the end; the scores are the outside's.
    assert m.translate("MONST. GALLETA (BARRIO") == m.translate("MONST. GALLETA")
    from huescues import Board

    lab = Board.retail().lab
    np.testing.assert_array_equal(m.score("WOODY (TOY STORY)", lab), m.score("woody", lab))


def test_an_adjective_spanish_puts_first_keeps_its_place() -> None:
    """buena suerte is good luck, not "luck good": the adjectives Spanish puts before the noun
    (the shortened buen, mal, gran and the common ones: último, mejor, peor, primera) are in
    English order already; after the noun the same word still turns round."""
    m = default_model("es")
    assert m.translate("buena suerte").text == "good luck"
    assert m.translate("Mala Suerte").text == "bad luck"
    assert m.translate("último baile").text == "last dance"
    assert m.translate("primera cita").text == "first date"
    assert m.translate("peor pesadilla").text == "worst nightmare"
    assert m.translate("suerte buena").text == "good luck"
    assert m.translate("cielo nocturno").text == "night sky"


def test_a_shortened_adjective_or_a_verb_with_se_reads_as_its_full_form() -> None:
    """Spanish shortens some adjectives before a masculine noun (primer amor, san) and joins
    "se" to an infinitive (sentirse): they read as primero, santo, sentir."""
    m = default_model("es")
    assert m.translate("primer amor").text == "first love"
    assert m.translate("primer").text == m.translate("primero").text == "first"
    assert m.translate("san").text == m.translate("santo").text == "saint"
    assert m.translate("sentirse").text == m.translate("sentir").text


def test_a_word_cut_short_reads_as_the_word_it_stands_for() -> None:
    """A study prints a long name cut short on its card, in capitals (MONST. GALLETA): a cut word
    reads as the word the pack knows that it stands for, when most of the words it may stand for
    read alike; a phrase of cut words as the phrase the pack knows. Elsewhere a full stop ends a
    sentence, and a cut of three letters stands for a word only within a known phrase."""
    m = default_model("es")
    assert m.whole_word("monst.") == m.whole_word("MONST") == "monstruo"
    assert m.translate("MONST. GALLETA").text == "cookie monster"
    assert m.translate("MONST. DE LAS GALLETAS").text == "cookie monster"
    assert m.translate("BOB ESP.").text == m.translate("bob esponja").text == "spongebob"
    assert m.translate("CIELO.") == m.translate("cielo")  # a full stop after a known word
    assert m.translate("monst. galleta").text == "monst cookie"  # not in capitals: not cut
    assert m.translate("Venus.") == m.translate("Venus")
    assert m.translate("STA. CLAUS") == m.translate("STA CLAUS")  # too short to stand alone
    # oscuro, which the pack rates itself, votes with the table's other words for "dark".
    assert m.whole_word("oscu") == "oscuro" and m.translate("AZUL OSCU.").own == ("oscuro", "azul")
    with pytest.raises(ValueError, match="'dos palabras'"):
        m.whole_word("dos palabras")


def test_a_cut_word_the_words_it_may_stand_for_disagree_on_reads_as_it_is() -> None:
    from huescues.language import TranslatedModel

    table = {"montaña": ("mountain", 0.9), "montañas": ("mountain", 0.9)}
    table |= {"monton": ("pile", 0.8), "montura": ("saddle", 0.5), "monte": ("mount", 0.7)}
    m = TranslatedModel(default_model(), table, "es")
    # mountain 1.8 of 3.8: less than half; without "monte", 1.8 of 3.1.
    assert m.whole_word("mont") == "mont" and m.translate("MONT.").text == "mont"
    assert m.whole_word("montañ") == "montaña" and m.translate("MONTAÑ.").text == "mountain"
    less = TranslatedModel(default_model(), {k: v for k, v in table.items() if k != "monte"}, "es")
    assert less.whole_word("mont") == "montaña"
    assert less.whole_word("mon") == "mon"  # three letters: too short to stand alone
    assert m.whole_word("xyzw") == "xyzw"  # nothing begins with it


def test_a_known_phrase_reads_so_without_its_small_words() -> None:
    """A card drops a phrase's small words (algodón azúcar, día san valentín): a text that is
    no known phrase, made of a known phrase's words with some of its small words left out, reads
    as that phrase; not a text with other small words (hombre y lobo), nor one known word with
    an article (la vega), nor the words in another order."""
    from huescues.language import TranslatedModel

    m = default_model("es")
    assert m.translate("ALGODÓN AZÚCAR") == m.translate("algodón de azúcar")
    assert m.translate("algodón azúcar").text == "cotton candy"
    assert m.translate("día san valentín") == m.translate("día de san valentín")
    table = {"algodon de azucar": ("cotton candy", 0.95), "hombre lobo": ("werewolf", 0.95)}
    table |= {"las vegas": ("las vegas", 0.95), "algodon": ("cotton", 0.9)}
    table |= {"azucar": ("sugar", 0.9), "hombre": ("man", 0.9), "lobo": ("wolf", 0.9)}
    table |= {
        "monstruo de las galletas": ("cookie monster", 0.95),
        "rana gustavo": ("kermit", 0.95),
    }
    table |= {"rana": ("frog", 0.9), "vega": ("meadow", 0.9)}
    small = TranslatedModel(default_model(), table, "es")
    assert small.translate("algodon azucar").text == "cotton candy"
    assert small.translate("monstruo de galletas").text == "cookie monster"  # "las" dropped
    assert small.translate("la rana gustavo").text == "frog gustavo"  # a small word added
    assert small.translate("azucar algodon").text != "cotton candy"
    assert small.translate("hombre y lobo").text == "man wolf"
    assert small.translate("la vega").text == "meadow"
    assert small.translate("agua y fuego").text == "agua fuego"


def test_a_group_with_a_word_not_translated_is_a_name_and_keeps_its_order() -> None:
    """A word neither rated nor in the table is a name, or English already: its group is not
    turned round (darth vader, lightning mcqueen, captain america)."""
    m = default_model("es")
    assert m.translate("darth vader").text == "darth vader"
    assert m.translate("rayo mcqueen").text == "lightning mcqueen"
    assert m.translate("capitán américa").text == "captain america"
    assert m.translate("cielo nocturno de rayo mcqueen").text == "lightning mcqueen night sky"


def test_a_phrase_mixes_its_translation_and_the_packs_knowledge() -> None:
    """vino tinto: 'vino' by its English, 'tinto' by the pack's Spanish rating (dark red)."""
    m = default_model("es")
    t = m.translate("vino tinto")
    assert t.text == "wine" and t.own == ("tinto",)
    _, a, _ = _peak("vino tinto")
    assert a > 15  # red wine, not tarnish
    assert 0.0 < m.evidence("vino tinto") <= min(m.evidence("tinto"), 1.0)


def test_many_texts_read_as_one_at_a_time() -> None:
    m = default_model("es")
    texts = ["marfil", "vino tinto", "cielo nocturno", "pikachu", "de la"]
    lab = np.array([[30.0, 20.0, 10.0], [90.0, 0.0, 10.0], [60.0, -30.0, 30.0]])
    one = np.stack([m.score(x, lab) for x in texts])
    assert np.array_equal(m.score_many(texts, lab), one)
    assert np.allclose(m.score_batch(texts, lab), one, atol=1e-6)


def test_the_knowledge_is_in_the_readings_cache_key() -> None:
    from huescues.language import TranslatedModel, spanish_knowledge, spanish_table

    plain = TranslatedModel(default_model(), spanish_table(), "es")
    own = default_model("es")
    assert isinstance(own, TranslatedModel)
    assert own.knowledge is spanish_knowledge()
    # The reading rules' version (10 since misspelt words are put right, by one edit or by
    # sound) is in both: readings on disk go stale when they change.
    assert plain.cache_key is not None and "-v1-o10@" in plain.cache_key
    assert own.cache_key is not None and "-v2-o10~" in own.cache_key  # with the names' hash
    fewer = TranslatedModel(
        default_model(), spanish_table(), "es", knowledge=spanish_knowledge().without(["tinto"])
    )
    assert fewer.cache_key != own.cache_key
    with pytest.raises(ValueError, match="knowledge_weight must be a positive number, not 0"):
        TranslatedModel(default_model(), {}, "es", knowledge_weight=0.0)


def test_the_shipped_knowledge_is_built_from_the_spanish_ratings() -> None:
    """knowledge.tsv is in step with knowledge/ratings/*-es.tsv (knowledge/PROTOCOL.md): each
    word points at its rating's line, and every rated word with a colour ships but those that
    colour-names.tsv names (read by their English colour name), and never a basic term."""
    from importlib import resources

    build: Any = _build_spanish()
    instead = build.translated_instead()
    assert "cian" in instead and "rosa" not in instead and "violeta" not in instead
    root = Path(__file__).resolve().parents[1]
    shipped = resources.files("huescues.data").joinpath("languages/es/knowledge.tsv")
    rows = [line.split("\t") for line in shipped.read_text("utf-8").splitlines()[1:]]
    rated: dict[str, str] = {}
    for path in sorted((root / "knowledge" / "ratings").glob("*-es.tsv")):
        for n, line in enumerate(path.read_text("utf-8").splitlines()[1:], start=2):
            word, *values = line.split("\t")
            if sum(float(v) for v in values[:11]) > 0 and fold(word) not in instead:
                rated.setdefault(fold(word), f"knowledge/ratings/{path.name}:{n}")
    assert {r[0]: r[-1] for r in rows} == rated


def _build_spanish() -> object:
    """scripts/build_spanish.py, loaded from its file (a script, not a module of the package)."""
    return load_script("build_spanish")


def test_a_spanish_ratings_file_dropped_in_is_built_into_the_pack(tmp_path: Path) -> None:
    """Every ``*-es.tsv`` of the ratings folder joins the pack's knowledge with one command
    (``build_spanish.py --knowledge``): the first rating of a word wins, files in name order,
    a word with no colour is left out, and so is a word colour-names.tsv names (marfil: its
    English colour name reads it); the English builds leave such files out."""
    folder = tmp_path
    head = "word\tblack\tblue\tbrown\tgray\tgreen\torange\tpink\tpurple\tred\twhite\tyellow"
    head += "\tlight\tvivid\tshared\n"
    (folder / "authors-colours-es.tsv").write_text(
        head
        + "nieve\t0\t0\t0\t0\t0\t0\t0\t0\t0\t5\t1\t5\t1\t5\n"
        + "marfil\t0\t0\t0\t0\t0\t0\t0\t0\t0\t5\t1\t5\t1\t5\n",
        encoding="utf-8",
    )
    (folder / "authors-extra-es.tsv").write_text(
        head
        + "nieve\t5\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t5\n"  # rated before: the first wins
        + "Piña\t0\t0\t1\t0\t1\t0\t0\t0\t0\t0\t5\t4\t4\t4\n"
        + "idea\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t2\t2\t0\n",  # no colour: nothing to read
        encoding="utf-8",
    )
    (folder / "authors-batch-9.tsv").write_text(
        head + "ivory\t0\t0\t0\t0\t0\t0\t0\t0\t0\t5\t1\t5\t1\t5\n"
    )
    build = _build_spanish()
    out = folder / "knowledge.tsv"
    build.build_knowledge(folder, out)  # type: ignore[attr-defined]
    rows = {r.split("\t")[0]: r.split("\t") for r in out.read_text("utf-8").splitlines()[1:]}
    assert set(rows) == {"nieve", "piña"}
    assert rows["nieve"][-1] == "knowledge/ratings/authors-colours-es.tsv:2"
    assert float(rows["nieve"][10]) > 0.8  # white, from the first file
    assert rows["piña"][-1] == "knowledge/ratings/authors-extra-es.tsv:3"
    from build_object_colours import rated_in  # type: ignore[import-not-found]

    assert rated_in(folder / "authors-extra-es.tsv") == "es"
    assert (
        rated_in(folder / "authors-batch-9.tsv") == rated_in(folder / "authors-culture.tsv") == "en"
    )


def test_the_shipped_table_is_its_encoder_matches_with_the_glossaries_in_place() -> None:
    """A glossary edited without the table made again (``build_spanish.py --glossary-only``)
    would read nothing of the edit: the shipped table is what the glossaries make, line for
    line, and every glossary word reads as its glossary says."""
    import gzip

    build: Any = _build_spanish()
    glossary = build.read_glossary()
    assert len(glossary) > 1800  # the authors' 170, the 549 common things and the 1,158 more
    with gzip.open(build.OUT, "rt", encoding="utf-8") as f:
        shipped = f.read()
    assert build.table_text(build.shipped_matches(), glossary) == shipped
    m = default_model("es")
    for spanish, english in (
        ("zorro", "fox"),
        ("atún", "tuna"),
        ("canguro", "kangaroo"),
        ("caballa", "mackerel"),  # glossary-more.tsv: the encoder read "horse"
        ("lobezno", "wolverine"),
        ("arco iris", "rainbow"),
    ):
        assert glossary[fold(spanish)] == english and m.translate(spanish).text == english
    # A phrase with a word the pack rates itself is read by its words, not by a glossary.
    assert "vino tinto" not in glossary


def test_a_word_in_two_glossaries_is_an_error(tmp_path: Path) -> None:
    """A later glossary must not override an earlier one's entry unseen: the build names both."""
    build: Any = _build_spanish()
    first, second = tmp_path / "a.tsv", tmp_path / "b.tsv"
    first.write_text("# how\nspanish\tenglish\nzorro\tfox\n", encoding="utf-8")
    second.write_text("spanish\tenglish\n# a group\nmofeta\tskunk\n", encoding="utf-8")
    assert build.glossary_entries((first, second)) == {
        "zorro": ("zorro", "fox"),
        "mofeta": ("mofeta", "skunk"),
    }
    second.write_text("spanish\tenglish\nZORRO\tvixen\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"'zorro'.*a\.tsv.*b\.tsv"):
        build.glossary_entries((first, second))


@pytest.mark.parametrize(
    ("name", "least"),
    [("glossary-more.tsv", 900), ("glossary-modifiers.tsv", 300), ("glossary-abstract.tsv", 900)],
)
def test_the_later_glossaries_keep_their_rules(name: str, least: int) -> None:
    """The later glossaries' header rules (glossary-more.tsv, glossary-modifiers.tsv and
    glossary-abstract.tsv): each
    English side is read by the English knowledge (the phrase or each of its words); no entry
    holds a word the pack's own knowledge reads (in any form the reading folds to it), a colour
    word issue 34 quotes, or a word the Spanish clue rules refuse (a colour term or a form of
    one, a number, a place)."""
    from huescues.engine import IllegalClue, validate_clue
    from huescues.language import ObjectColourModel
    from huescues.language._translate import _forms, spanish_knowledge
    from huescues.research import dev_picks

    build: Any = _build_spanish()
    path = build.ROOT / "knowledge" / "spanish" / name
    assert path in build.GLOSSARIES
    entries = build.glossary_entries((path,))
    assert len(entries) > least
    english_words = set(ObjectColourModel.default().words)
    own = spanish_knowledge()
    quoted = {fold(w) for w in ("marfil", "ocre", "granate", "burdeos", "celeste")}
    quoted |= {fold(w) for w in ("fucsia", "añil", "cian", "caqui", "teja")}
    # No word of a dev clue's shown word stands alone here: the honest dev figures leave only the
    # first glossary's entries out (epi, blas would carry the dev clue "epi y blas" around it).
    picks, _ = dev_picks()
    dev_words = {w for r in picks.rows for w in fold(r.extra["shown_word"]).split()}
    for key, (spanish, english) in entries.items():
        assert key not in dev_words, spanish
        assert english in english_words or all(w in english_words for w in english.split()), english
        for word in key.split():
            forms = _forms(word)
            assert not any(own.knows(f) or f in quoted for f in forms), spanish
        for word in spanish.split():
            try:
                validate_clue(word, language="es")
            except IllegalClue as e:  # the message names the entry
                raise AssertionError(f"{spanish!r}: {e}") from e


def _evaluate_languages() -> Any:
    """scripts/evaluate_languages.py, loaded from its file."""
    return load_script("evaluate_languages")


def test_the_blind_translation_is_of_its_drawn_list_and_reads_every_spanish_dev_word() -> None:
    """knowledge/work/blind-translation.tsv translates, line for line, the list that
    ``evaluate_languages.py --draw`` draws (the Spanish dev words hidden among 260 others), and
    the honest reading with it in place reads every Spanish dev word through it."""
    script = _evaluate_languages()
    drawn = script.draw_blind_words()
    assert script.BLIND_WORDS.read_text(encoding="utf-8").split("\n")[:-1] == drawn
    rows = [
        line.split("\t")
        for line in script.BLIND.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert [spanish for spanish, _ in rows[1:]] == drawn
    shown = {r.clue for r in script.spanish_picks().rows}
    assert {w.lower() for w in shown} <= set(drawn) and len(drawn) == 299
    model, _ = script.dev_models(script.dev_words(), blind=True)
    blind = script.blind_translation()
    for word in shown:
        assert model.translate(word).text == blind[fold(word)], word


def test_the_colour_names_are_english_colour_names_and_no_basic_term() -> None:
    """knowledge/spanish/colour-names.tsv's rules: each English side is a name the English
    naming data knows; no entry is a Spanish basic colour term (R19's, which the pack's own
    ratings define) or a form of one."""
    from huescues.engine import language_pack
    from huescues.language import NamingModel
    from huescues.language._translate import _forms

    build: Any = _build_spanish()
    entries = build.glossary_entries((build.COLOUR_NAMES,))
    assert len(entries) > 200 and build.COLOUR_NAMES in build.GLOSSARIES
    naming = NamingModel.default()
    basic = {fold(w) for w in language_pack("es").basic_colour_terms}
    for key, (spanish, english) in entries.items():
        assert naming.is_name(english), (spanish, english)
        assert not any(f in basic for f in _forms(key)), spanish


def test_an_adjectives_other_forms_take_its_english() -> None:
    """glossary-modifiers.tsv gives a masculine singular adjective; its feminine and plural
    read the same, even where the encoder had matched the feminine alone (marchita "march")."""
    build: Any = _build_spanish()
    assert build.adjective_forms("turbio") == ["turbios", "turbia", "turbias"]
    assert build.adjective_forms("polar") == ["polares"]
    assert build.adjective_forms("feliz") == []  # felices is not carried back to feliz
    m = default_model("es")
    assert m.translate("hojas marchitas").text == "withered leaf"
    assert m.translate("agua turbia").text == "murky water"
    assert m.translate("cielos despejados").text == "clear sky"
    assert m.translate("noche estrellada").text == "starry night"
