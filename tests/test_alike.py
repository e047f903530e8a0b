"""The rule of clue words people picture alike (issue 34, item 3): the shipped rule is the fit of
its judgements, the default English giver says no word below its cut, and bad settings are
clear errors."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.agents import (
    ALIKE_FEATURES,
    ModelClueGiver,
    Player,
    alike_chance,
    alike_features,
    alike_rule,
    default_agent,
    play_game,
)
from huescues.agents._alike import _read as _read_rule
from huescues.agents._languages import _read
from huescues.engine import Rules, new_game
from huescues.language import in_english, word_classes
from repo_scripts import load_script


def test_the_shipped_rule_is_a_new_fit_of_half_a() -> None:
    fit = load_script("fit_alike")
    words = fit.read_half("a")
    alike = np.array(
        [
            [
                v == "alike"
                for v, _ in fit.read_judged(fit.WORK / f"clue-words-judged-a-{j}.tsv", words)
            ]
            for j in fit.JUDGES
        ]
    )
    shipped = json.loads(
        resources.files("huescues").joinpath("data/languages/en/alike.json").read_text("utf-8")
    )
    assert fit.same_rule(shipped, fit.fit(words, alike).to_json())


def test_the_judgements_cover_each_half_in_its_order() -> None:
    fit = load_script("fit_alike")
    for half in fit.HALVES:
        words = fit.read_half(half)
        assert len(words) > 1000
        for judge in fit.JUDGES:
            rows = fit.read_judged(fit.WORK / f"clue-words-judged-{half}-{judge}.tsv", words)
            assert len(rows) == len(words)


def test_the_rule_reads_its_features_and_tells_words_apart() -> None:
    assert len(alike_features("tomato")) == len(ALIKE_FEATURES)
    # A word whose knowledge names one colour against one people picture otherwise.
    assert alike_chance("tomato") > 0.9 > 0.1 > alike_chance("salon")


def test_a_word_is_read_whatever_its_case_and_spaces() -> None:
    assert alike_chance("Winter") == alike_chance("winter") == alike_chance("  WINTER ")


def test_a_text_with_nothing_to_read_is_not_alike_and_bad_text_is_refused() -> None:
    assert alike_chance("123") < 0.01  # no letters: no colour anyone pictures
    with pytest.raises(TypeError, match="text, not int"):
        alike_chance(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one word"):
        alike_chance("")


@pytest.mark.parametrize("cut", [2, -0.5, "high", True])
def test_a_giver_s_cut_is_a_chance(cut: object) -> None:
    with pytest.raises(ValueError, match=rf"alike_from is a chance from 0 to 1 .*{cut!r}"):
        ModelClueGiver(alike_from=cut)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12))
def test_a_chance_is_a_probability_and_the_same_each_time(word: str) -> None:
    p = alike_chance(word)
    assert 0.0 < p < 1.0
    assert alike_chance(word) == p


def test_a_language_without_a_rule_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"no rule .* in 'fr': the packs with one are 'en', 'es'"):
        alike_rule("fr")


def test_a_rule_gone_through_is_english_s_only() -> None:
    with pytest.raises(ValueError, match=r"read through English's, not 'es'"):
        _read_rule("xx", json.dumps({"through": "es"}), {"en": alike_rule("en")})


@pytest.mark.parametrize("word", ["tomate", "salón", "cielo nocturno", "tinta", "doraemon"])
def test_a_spanish_word_is_read_in_english_then_by_english_s_rule(word: str) -> None:
    assert alike_rule("es").through == "en"
    assert alike_chance(word, "es") == alike_chance(in_english(word, "es"), "en")


def test_in_english_carries_every_word_by_the_table() -> None:
    assert in_english("cielo nocturno", "es") == "night sky"  # the noun after its adjective
    assert in_english("tinta", "es") == "ink"  # a word the pack's own knowledge reads too
    assert in_english("night sky", "en") == "night sky"


def _given(language: str, cut: float | None, seeds: range) -> list[str]:
    def player() -> Player:
        p = default_agent(language)
        return dataclasses.replace(p, giver=dataclasses.replace(p.giver, alike_from=cut))

    said = []
    for seed in seeds:
        rules = Rules.standard(4, language=language)
        game = play_game([player() for _ in range(4)], seed=seed, rules=rules)
        said += [c for r in game.state.history for c in r.clues]
    return said


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_default_giver_says_no_word_people_read_apart(language: str) -> None:
    """Every one-word clue of the default giver is at or above its cut; with the rule off, the
    same games give words below it (so the rule is what keeps them out)."""
    cut = default_agent(language).giver.alike_from
    assert cut is not None

    def below(said: list[str]) -> list[str]:
        return [c for c in said if " " not in c and alike_chance(c, language) < cut]

    seeds = range(12)
    assert below(_given(language, cut, seeds)) == []
    assert below(_given(language, None, seeds)), "without the rule no word below the cut"


@pytest.mark.parametrize("value", [1.5, -0.1, "high", True])
def test_a_pack_with_a_bad_cut_names_it(value: object) -> None:
    raw = json.loads(
        resources.files("huescues").joinpath("data/languages/en/players.json").read_text("utf-8")
    )
    raw["default_player"]["alike_from"] = value
    with pytest.raises(ValueError, match=rf"alike_from is a chance from 0 to 1, not {value!r}"):
        _read("en", json.dumps(raw))


def test_word_classes_of_a_known_word_and_of_a_name() -> None:
    assert "a" in word_classes("green") and "n" in word_classes("green")
    assert word_classes("pikachu") == "nt"


@pytest.mark.parametrize("seed", range(4))
def test_a_giver_with_a_cut_chooses_as_one_whose_vocabulary_lacks_the_unfit_words(
    seed: int,
) -> None:
    """The cut is the same as the words people read apart taken out of the vocabulary: the same
    target (R8) and the same first clue (R9), since a word's reading is its own."""
    words = ("tomato", "salon", "gonzo", "banana", "sky", "grass", "rings", "lime", "prosperity")
    fit = tuple(w for w in words if alike_chance(w) >= 0.35)
    assert 0 < len(fit) < len(words)
    cut = ModelClueGiver(words=words, alike_from=0.35)
    fewer = ModelClueGiver(words=fit)
    state = new_game(4, seed=seed, rules=Rules.standard(4))
    view = state.view(state.current_player)
    rng = np.random.default_rng(seed)
    target = cut.choose_target(view, rng)
    assert target == fewer.choose_target(view, rng)
    after = state.apply(target)
    view = after.view(after.current_player)
    assert cut.give_clue(view, rng) == fewer.give_clue(view, rng)
