"""What words mean in colour (issue 18): tones, evidence, provenance, the authors' ratings, and
clues a person would give."""

from __future__ import annotations

import json
import pickle
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.agents import GIVER_EVIDENCE, attested, clue_vocabulary, default_agent, play_game
from huescues.engine import Board, GiveClue
from huescues.language import (
    BASIC_TERMS,
    KNOWLEDGE_SOURCES,
    ObjectColourModel,
    Prediction,
    default_model,
    name_key,
)

ROOT = Path(__file__).resolve().parents[1]
RATINGS = ROOT / "knowledge" / "ratings"
HEADER = ["word", *BASIC_TERMS, "light", "vivid", "shared"]


@pytest.fixture(scope="module")
def model() -> ObjectColourModel:
    return ObjectColourModel.default()


@pytest.fixture(scope="module")
def board_lab() -> np.ndarray:
    return np.asarray(Board.standard().lab, dtype=np.float64)


def _rated() -> dict[str, tuple[str, list[int]]]:
    out: dict[str, tuple[str, list[int]]] = {}
    for path in sorted(RATINGS.glob("authors-*.tsv")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()[1:], start=2):
            parts = line.split("\t")
            out.setdefault(parts[0], (f"{path.name}:{n}", [int(x) for x in parts[1:]]))
    return out


def test_the_authors_ratings_follow_the_protocol() -> None:
    files = sorted(RATINGS.glob("*.tsv"))
    assert len(files) >= 7
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].split("\t") == HEADER, path
        for n, line in enumerate(lines[1:], start=2):
            parts = line.split("\t")
            assert len(parts) == 15, f"{path.name}:{n}"
            assert parts[0] and parts[0] == parts[0].strip(), f"{path.name}:{n}"
            assert all(x.isdigit() and 0 <= int(x) <= 5 for x in parts[1:]), f"{path.name}:{n}"


def test_every_rated_word_comes_from_a_documented_list() -> None:
    listed: set[str] = set()
    for path in (ROOT / "knowledge" / "vocabulary").glob("*.txt"):
        listed |= {w.strip() for w in path.read_text().splitlines() if w.strip() and w[0] != "#"}
    missing = [w for w in _rated() if w not in listed]
    assert not missing, f"rated but in no list of knowledge/vocabulary: {missing[:10]}"


def test_shipped_words_can_be_traced_to_their_sources(model: ObjectColourModel) -> None:
    rated = _rated()
    found = 0
    for word in ("anger", "sadness", "christmas", "midnight", "banana"):
        srcs = model.sources(word)
        assert srcs, word
        assert set(srcs) <= set(KNOWLEDGE_SOURCES)
        if "authors" in srcs or "culture" in srcs:
            assert word in rated, f"{word} says it is rated but no file rates it"
            found += 1
    assert found >= 4
    meta = json.loads(resources.files("huescues.data").joinpath("objects/objects.json").read_text())
    assert {"authors", "culture", "coda", "wordnet", "names", "c3"} <= set(meta["sources"])


def test_evidence_is_graded_and_carried_words_know_least(model: ObjectColourModel) -> None:
    for word in ("banana", "lemon", "snow"):
        assert model.evidence(word) > 0.8, word
    carried = model.evidence("quantumly")
    assert not model.knows("quantumly")
    assert carried == pytest.approx(model.carried_evidence)
    assert carried < GIVER_EVIDENCE < model.evidence("banana")
    assert model.evidence("?!") == 0.0
    p = model.predict("banana")
    assert p.evidence == pytest.approx(model.evidence("banana"))
    assert isinstance(p, Prediction) and p.known
    assert model.predict("?!").evidence == 0.0


def test_default_model_predictions_carry_evidence() -> None:
    m = default_model()
    assert m.predict("banana").evidence > m.predict("quantumly").evidence


def test_prediction_evidence_defaults_follow_known_and_are_checked() -> None:
    lab, cov = np.zeros(3), np.eye(3)
    assert Prediction(lab, cov, True).evidence == 1.0
    assert Prediction(lab, cov, False).evidence == 0.0
    with pytest.raises(ValueError, match="evidence"):
        Prediction(lab, cov, True, "x", 1.5)


def test_a_feeling_has_colours_and_a_tone(model: ObjectColourModel) -> None:
    anger = model.distribution("anger")
    assert BASIC_TERMS[int(np.argmax(anger))] == "red"
    assert anger[BASIC_TERMS.index("black")] > 0.1  # mostly red, some black
    dark, light = model.tone("midnight"), model.tone("snow")
    assert dark is not None and light is not None
    assert dark[0] + 30 < light[0]
    sad, happy = model.tone("sadness"), model.tone("joy")
    assert sad is not None and happy is not None
    assert sad[1] < happy[1]  # sadness duller than joy


def test_the_tone_moves_the_reading_within_a_hue(model: ObjectColourModel) -> None:
    light_blue, navy = [75.0, -10.0, -30.0], [25.0, 10.0, -45.0]
    toned = model.with_reading(tone_weight=1.0)
    flat = model.with_reading(tone_weight=0.0)
    gap_toned = toned.score("sky", light_blue) - toned.score("sky", navy)
    gap_flat = flat.score("sky", light_blue) - flat.score("sky", navy)
    assert gap_toned > gap_flat
    assert gap_toned > 0


def test_tempering_reads_a_carried_word_broadly(
    model: ObjectColourModel, board_lab: np.ndarray
) -> None:
    def range_of(m: ObjectColourModel, text: str) -> float:
        s = m.score(text, board_lab)
        return float(s.max() - s.min())

    tempered = model.with_reading(temper=True)
    sharp = model.with_reading(temper=False)
    assert range_of(tempered, "quantumly") < 0.5 * range_of(sharp, "quantumly")
    # An attested word keeps most of its sharpness.
    assert range_of(tempered, "banana") > 0.8 * range_of(sharp, "banana")


def test_a_phrase_of_known_words_reads_as_one_colour_or_not(model: ObjectColourModel) -> None:
    assert model.evidence("ruby wine") > GIVER_EVIDENCE
    assert model.evidence("lemon sky") < GIVER_EVIDENCE
    assert BASIC_TERMS[int(np.argmax(model.distribution("ruby wine")))] in ("red", "purple")


@pytest.mark.slow
def test_without_forgets_words(model: ObjectColourModel) -> None:
    fewer = model.without(["banana"])
    assert not fewer.knows("banana") and model.knows("banana")
    assert fewer.evidence("banana") == pytest.approx(model.carried_evidence)
    # Its other forms go too, so that nothing is read from them.
    assert not fewer.knows("bananas") and model.knows("bananas")


def test_reading_settings_pickle_and_are_checked(
    model: ObjectColourModel, board_lab: np.ndarray
) -> None:
    other = model.with_reading(tone_weight=2.0, focus=2.0, temper=False)
    copy = pickle.loads(pickle.dumps(other))
    np.testing.assert_allclose(copy.score("anger", board_lab), other.score("anger", board_lab))
    assert (copy.tone_weight, copy.focus, copy.temper) == (2.0, 2.0, False)
    with pytest.raises(ValueError, match="tone_weight"):
        model.with_reading(tone_weight=-1.0)


# -- clues a person would give -------------------------------------------------------------


def test_attested_refuses_words_known_only_from_vectors_or_disagreeing_names() -> None:
    for clue in (
        "boyfriend",
        "lemon boyfriend",
        "boyfriend stadium",
        "quantumly",
        "throne spleen",
        "possessed eggplant",
    ):
        assert not attested(clue), clue
    for clue in ("banana", "ocean blue", "pale sky", "dark forest", "anger"):
        assert attested(clue), clue


@pytest.mark.slow
def test_every_word_of_the_vocabulary_is_attested() -> None:
    words = clue_vocabulary()
    assert len(words) > 2000
    model = ObjectColourModel.default()
    assert all(model.evidence(w) >= GIVER_EVIDENCE for w in words)


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**31 - 1))
@pytest.mark.slow
def test_the_default_giver_gives_only_attested_clues(seed: int) -> None:
    record, _ = play_game([default_agent()] * 4, seed=seed)
    clues = [a.text for a in record.actions if isinstance(a, GiveClue)]
    assert clues
    for clue in clues:
        assert attested(clue), clue


def test_a_blend_s_scale_broadens_its_reading(board_lab: np.ndarray) -> None:
    from huescues.language import BlendedModel, model_cache_key

    base = default_model()
    broad = BlendedModel(base.base, base.other, base.weight, scale=0.25)
    np.testing.assert_allclose(
        broad.score("anger", board_lab), 0.25 * base.score("anger", board_lab)
    )
    copy = pickle.loads(pickle.dumps(broad))
    assert copy.scale == 0.25
    np.testing.assert_allclose(copy.score("fox", board_lab), broad.score("fox", board_lab))
    # Readings kept on disk are keyed by the scale too.
    assert model_cache_key(broad) != model_cache_key(base)
    with pytest.raises(ValueError, match="scale"):
        BlendedModel(base.base, base.other, 1.0, scale=0.0)


def test_other_forms_of_a_known_word_read_as_it(model: ObjectColourModel) -> None:
    # A plural, a singular or a leading article is the same thing ("avenger", "the hulk").
    for form, known in (("avenger", "avengers"), ("the hulk", "hulk")):
        assert model.knows(known) and not model.knows(form)
        np.testing.assert_allclose(model.distribution(form), model.distribution(known))
        assert model.evidence(form) == pytest.approx(model.evidence(known))
    assert model.sources("quantumly") == ()


def test_names_typed_without_the_or_written_together_read_as_the_known_name(
    model: ObjectColourModel,
) -> None:
    # Known as "the simpsons" and "tinker bell", typed "simpsons" and "tinkerbell"; "ladybug"
    # typed apart. Before, each was carried by its word vector (evidence 0.315, "lady bug" read
    # as "lady" times "bug").
    for form, known in (
        ("simpsons", "the simpsons"),
        ("lorax", "the lorax"),
        ("tinkerbell", "tinker bell"),
        ("lady bug", "ladybug"),
    ):
        assert model.knows(known) and not model.knows(form)
        np.testing.assert_allclose(model.distribution(form), model.distribution(known))
        assert model.evidence(form) == pytest.approx(model.evidence(known))
    # A short text is not matched written together: an unknown one is still carried by its
    # vector, read from no known word.
    assert model.sources("zq") == () and model.sources("q zx") == ()


def test_a_short_form_reads_as_the_one_name_it_is_part_of(model: ObjectColourModel) -> None:
    # Players shorten a name to its first or last word; before, each of these was carried by
    # its word vector (evidence 0.321).
    for form, known in (
        ("vader", "darth vader"),
        ("oompa", "oompa loompa"),
        ("dortmund", "borussia dortmund"),
    ):
        assert model.knows(known) and not model.knows(form)
        np.testing.assert_allclose(model.distribution(form), model.distribution(known))
        assert model.evidence(form) == pytest.approx(model.evidence(known))
    # Not a word in common use (R19's list): "hotel" is no Grand Budapest Hotel, "duty" no
    # Call of Duty; not a part of two names ("madrid": Real or Atletico); not under four
    # letters ("irn", of Irn Bru). Each stays carried by its vector.
    assert model.knows("call of duty") and model.sources("grand budapest hotel") == ("culture",)
    assert model.knows("real madrid") and model.knows("atletico madrid")
    assert model.knows("irn bru")
    for text in ("hotel", "duty", "madrid", "irn"):
        assert not model.knows(text)
        assert model.sources(text) == (), text


def test_a_card_s_hint_in_brackets_is_no_part_of_the_clue(model: ObjectColourModel) -> None:
    # A study's card "woody (toy story)" read the hint's words too (woody x toy x story, its
    # evidence 0.10); the clue is what is outside the brackets, unless the knowledge knows the
    # whole ("kermit (the frog)" is "kermit the frog") or the hint adds a companion.
    board = Board.retail()
    for card, clue in (
        ("woody (toy story)", "woody"),
        ("Elmo (Sesame Street)", "elmo"),
        ("orange (fruit)", "orange"),
        ("woody (toy story", "woody"),  # left open: to the end
    ):
        np.testing.assert_array_equal(model.score(card, board.lab), model.score(clue, board.lab))
        assert model.evidence(card) == model.evidence(clue)
        assert model.sources(card) == model.sources(clue)
        np.testing.assert_array_equal(
            model.score_batch([card, "sky"], board.lab)[0], model.score_batch([clue], board.lab)[0]
        )
    # A hint that adds a companion makes the card the pair's: read whole, as before.
    np.testing.assert_array_equal(
        model.score("bert (and ernie)", board.lab), model.score("bert and ernie", board.lab)
    )
    assert model.knows("kermit the frog")
    np.testing.assert_array_equal(
        model.score("kermit (the frog)", board.lab), model.score("kermit the frog", board.lab)
    )
    assert model.evidence("(sky)") == model.evidence("sky")  # nothing outside: the hint
    assert model.predict("woody (toy story)").lab.tolist() == model.predict("woody").lab.tolist()


def test_a_longer_form_of_a_name_reads_as_the_name(model: ObjectColourModel) -> None:
    # A card or a player adds an epithet, a title or the franchise; before, such a text was
    # read as the product of its words ("clifford the big red dog": evidence 0.03) or carried
    # by its vector ("elmo from sesame street").
    board = Board.retail()
    for text, name in (
        ("clifford the big red dog", "clifford"),
        ("elmo from sesame street", "elmo"),  # its first words before its last
        ("super mario", "mario"),
        ("the amazing spider man", "spider man"),  # its last words, after the article
    ):
        assert not model.knows(text) and model.sources(name) == ("culture",)
        np.testing.assert_array_equal(model.score(text, board.lab), model.score(name, board.lab))
        assert model.evidence(text) == model.evidence(name)
    # Not a pair ("and": read as a phrase), not a phrase of words that names no one, and not
    # a title's adjective in another form ("incredible" is not "the incredibles").
    assert model.evidence("bert and ernie") < model.evidence("bert")
    both = set(model.sources("dark")) | set(model.sources("forest"))
    assert set(model.sources("dark forest")) == both  # the product of its words
    assert model.evidence("the incredible hulk") != model.evidence("the incredibles")


@pytest.mark.slow
def test_without_forgets_a_name_in_every_form(model: ObjectColourModel) -> None:
    fewer = model.without(["tinkerbell", "simpsons", "vader"])
    for form in ("tinker bell", "tinkerbell", "the simpsons", "simpsons", "darth vader", "vader"):
        assert fewer.evidence(form) == pytest.approx(model.carried_evidence), form


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(clue_vocabulary("en")), st.sampled_from(("", "s", "the ")))
def test_a_word_s_facts_are_its_reading_s(word: str, form: str) -> None:
    """distribution, evidence and sources look a known word up without making its reading
    (quick for a vocabulary): they are what the reading holds, for any form of the word."""
    model = ObjectColourModel.default()
    text = f"the {word}" if form == "the " else word + form
    reading = model._reading(name_key(text))
    assert reading is not None
    np.testing.assert_array_equal(model.distribution(text), reading.q)
    assert model.evidence(text) == reading.evidence
    bits = [k for k, _ in enumerate(KNOWLEDGE_SOURCES) if reading.sources >> k & 1]
    assert model.sources(text) == tuple(KNOWLEDGE_SOURCES[k] for k in bits)


@pytest.mark.slow
def test_second_clues_are_phrases_people_use_and_true_of_the_target() -> None:
    # Without the rule the giver pairs freely and says phrases no person would (this game has
    # some); with it every two-word clue is attested, and every word of a second clue, read
    # alone, puts at least TRUE_SHARE of its best frame's pawns in the target's frame.
    import dataclasses

    from huescues.agents import EmbeddingGuesser, Player, Readings
    from huescues.agents._giver import TRUE_SHARE  # private: the giver's own share
    from huescues.agents._models import models_of  # the giver's own listeners
    from huescues.agents._vocabulary import frame_table  # the readings the giver aims with
    from huescues.engine import Phase, new_game

    default = default_agent()
    free = dataclasses.replace(default.giver, attested_only=False)
    record, _ = play_game([Player(free, default.guesser)] * 4, seed=1)
    said = [a.text for a in record.actions if isinstance(a, GiveClue)]
    assert any(len(c.split()) == 2 and not attested(c) for c in said)

    giver = default.giver
    words, frame = frame_table(
        Readings.shared(), models_of(giver.model), Board.standard(), giver.words
    )
    index = {w: i for i, w in reversed(list(enumerate(words)))}
    peaks = frame.reshape(len(words), -1).max(axis=1)
    state = new_game(4, seed=1)
    rng = np.random.default_rng(0)
    seconds = 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        if state.phase is Phase.SECOND_CLUE:
            action = giver.give_second_clue(view, rng)
            if isinstance(action, GiveClue):
                seconds += 1
                assert attested(action.text), action.text
                target = state.target
                assert target is not None
                for word in action.text.split():
                    if word in index:
                        i = index[word]
                        assert frame[i, target.row, target.col] >= TRUE_SHARE * peaks[i], word
        elif state.phase in (Phase.FIRST_GUESS, Phase.SECOND_GUESS):
            action = EmbeddingGuesser().place_pawn(view, rng)
        else:
            action = {
                Phase.CHOOSE_TARGET: giver.choose_target,
                Phase.FIRST_CLUE: giver.give_clue,
            }[state.phase](view, rng)
        state = state.apply(action)
    assert seconds > 0


def _script(name: str) -> Any:
    """scripts/NAME.py, loaded as a module."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _write_ratings(path: Path, *rows: str) -> None:
    """A ratings file in the protocol's format: the header, then each row (tab-separated)."""
    path.write_text("\t".join(HEADER) + "\n" + "".join(row + "\n" for row in rows))


def _build_script() -> object:
    return _script("build_object_colours")


def test_two_raters_who_agree_are_averaged_and_who_disagree_give_a_broad_reading() -> None:
    # Issue 34: a word rated by two raters is read from both; where they disagree (another top
    # colour) the reading is broad (its shared cut), never sharper than either rater's.
    build = _build_script()
    rating = build.Rating  # type: ignore[attr-defined]
    combine = build.combine_raters  # type: ignore[attr-defined]
    tone = np.array([50.0, 40.0])
    yellow = np.zeros(11)
    yellow[BASIC_TERMS.index("yellow")] = 0.8
    yellow[BASIC_TERMS.index("green")] = 0.2
    greenish = yellow.copy()
    greenish[BASIC_TERMS.index("green")] = 0.4
    greenish /= greenish.sum()
    blue = np.zeros(11)
    blue[BASIC_TERMS.index("blue")] = 1.0
    a = rating(yellow, tone, 5.0, "a.tsv:2", "authors")
    agreeing = combine(a, rating(greenish, tone + 10, 4.0, "b.tsv:7", "authors"))
    assert agreeing.shared == pytest.approx(4.5)
    np.testing.assert_allclose(agreeing.q, (yellow + greenish) / 2)
    np.testing.assert_allclose(agreeing.tone, tone + 5)
    assert agreeing.origin == "a.tsv:2+b.tsv:7"
    apart = combine(a, rating(blue, tone, 4.0, "b.tsv:9", "authors"))
    assert apart.shared < 4.0
    none = combine(a, rating(None, tone, 0.0, "b.tsv:3", "authors"))
    assert none.shared == 0.0 and none.q is not None


def test_every_second_rater_s_sample_is_read_with_the_first_ratings(tmp_path: Path) -> None:
    # second-rater.tsv and second-rater-remainder.tsv (WordNet's remainder's sample) both
    # combine with the first ratings; a word the first raters did not rate stays out.
    build = _build_script()
    _write_ratings(
        tmp_path / "authors-a.tsv",
        "lime\t0\t0\t0\t0\t5\t0\t0\t0\t0\t0\t2\t3\t4\t5",
        "gloom\t3\t0\t0\t4\t0\t0\t0\t0\t0\t0\t0\t1\t0\t4",
    )
    _write_ratings(
        tmp_path / "second-rater.tsv",
        "lime\t0\t0\t0\t0\t5\t0\t0\t0\t0\t0\t3\t3\t4\t3",
    )
    _write_ratings(
        tmp_path / "second-rater-remainder.tsv",
        "gloom\t0\t4\t0\t0\t0\t0\t0\t0\t0\t0\t0\t1\t0\t4",
        "unrated\t0\t4\t0\t0\t0\t0\t0\t0\t0\t0\t0\t1\t0\t4",
    )
    ratings = build.read_ratings(tmp_path)  # type: ignore[attr-defined]
    assert set(ratings) == {"lime", "gloom"}
    assert ratings["lime"].origin == "authors-a.tsv:2+second-rater.tsv:2"
    assert ratings["lime"].shared == pytest.approx(4.0)  # they agree: the mean
    assert ratings["gloom"].origin == "authors-a.tsv:3+second-rater-remainder.tsv:2"
    assert ratings["gloom"].shared == 0.0  # grey against blue: a broad reading


def test_the_second_raters_samples_are_the_script_s_draws() -> None:
    # The first sample was drawn before more ratings came: its draw must not move with them.
    draw = _script("draw_second_rating")
    for words, size, listed in (
        (draw.rated_words(), draw.SAMPLE, draw.WORDS),
        (draw.listed(draw.REMAINDER), draw.REMAINDER_SAMPLE, draw.REMAINDER_WORDS),
        (draw.listed(draw.CULTURE), draw.CULTURE_SAMPLE, draw.CULTURE_WORDS),
    ):
        rng = np.random.default_rng(draw.SEED)
        chosen = [words[int(i)] for i in rng.choice(len(words), size, replace=False)]
        assert listed.read_text(encoding="utf-8").splitlines() == chosen


def test_ratings_in_another_language_stay_out_of_english_knowledge() -> None:
    # authors-NAME-es.tsv is Spanish rated as Spanish (a Spanish "pan" is bread): the English
    # build leaves it to the Spanish pack.
    build = _build_script()
    rated_in = build.rated_in  # type: ignore[attr-defined]
    assert rated_in(Path("authors-extra-es.tsv")) == "es"
    assert rated_in(Path("authors-extra-en.tsv")) == "en"
    assert rated_in(Path("authors-batch-1.tsv")) == rated_in(Path("authors-culture.tsv")) == "en"
    english: set[str] = set()
    for path in RATINGS.glob("authors-*.tsv"):
        if rated_in(path) == "en":
            english |= {line.split("\t", 1)[0] for line in path.read_text().splitlines()[1:]}
    spanish = {
        line.split("\t", 1)[0]
        for path in RATINGS.glob("authors-*-es.tsv")
        for line in path.read_text().splitlines()[1:]
    }
    only_spanish = spanish - english
    assert len(only_spanish) > 30
    ratings = build.read_ratings(RATINGS)  # type: ignore[attr-defined]
    assert not only_spanish & set(ratings)


def test_an_authors_file_is_compared_with_the_other_files_not_itself(tmp_path: Path) -> None:
    # compare_raters.py --second authors-extra-en.tsv: a file of the authors' that rates words
    # again is a sample against the first rating of each word in the other files; a word only
    # it rates is no pair.
    raters = _script("compare_raters")
    _write_ratings(
        tmp_path / "authors-a.tsv",
        "lime\t0\t0\t0\t0\t5\t0\t0\t0\t0\t0\t2\t3\t4\t5",
        "sky\t0\t5\t0\t1\t0\t0\t0\t0\t0\t2\t0\t4\t3\t4",
    )
    _write_ratings(
        tmp_path / "authors-extra-en.tsv",
        "lime\t0\t0\t0\t0\t3\t0\t0\t0\t0\t0\t5\t3\t4\t4",
        "sky\t0\t5\t0\t0\t0\t0\t0\t0\t0\t2\t0\t5\t3\t5",
        "mud\t0\t0\t5\t1\t0\t0\t0\t0\t0\t0\t0\t1\t1\t5",
    )
    old = raters.RATINGS
    raters.RATINGS = tmp_path
    try:
        lines, per_word = raters.agreement(tmp_path / "authors-extra-en.tsv")
    finally:
        raters.RATINGS = old
    assert lines[0].startswith("words rated by both: 2 (of 3")
    pairs = {w: (rho, top) for w, rho, top in per_word}
    assert set(pairs) == {"lime", "sky"}  # mud: only the compared file rates it
    assert pairs["lime"][0] < 1.0 and not pairs["lime"][1]  # yellow over green: another top
    assert pairs["sky"][1]
