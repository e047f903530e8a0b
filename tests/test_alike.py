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
    alike_chance,
    alike_features,
    alike_rule,
    default_agent,
    play_game,
)
from huescues.agents._languages import _read
from huescues.engine import Rules
from huescues.language import word_classes
from repo_scripts import load_script

CUT = default_agent().giver.alike_from


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
    new = fit.fit(words, alike).to_json()
    assert new == {k: shipped[k] for k in new}


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


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12))
def test_a_chance_is_a_probability_and_the_same_each_time(word: str) -> None:
    p = alike_chance(word)
    assert 0.0 < p < 1.0
    assert alike_chance(word) == p


def test_a_language_without_a_rule_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"no rule .* in 'es'.*'en'"):
        alike_rule("es")


def _given(factory: object, seeds: range) -> list[str]:
    said = []
    for seed in seeds:
        game = play_game([factory() for _ in range(4)], seed=seed, rules=Rules.standard(4))  # type: ignore[operator]
        said += [c for r in game.state.history for c in r.clues]
    return said


def _off() -> object:
    p = default_agent()
    return dataclasses.replace(p, giver=dataclasses.replace(p.giver, alike_from=None))


def test_the_default_giver_says_no_word_people_read_apart() -> None:
    """Every one-word clue of the default English giver is at or above its cut; with the rule
    off, the same games give words below it (so the rule is what keeps them out)."""
    assert CUT is not None
    seeds = range(12)
    below = [c for c in _given(default_agent, seeds) if " " not in c and alike_chance(c) < CUT]
    assert below == []
    off = [c for c in _given(_off, seeds) if " " not in c and alike_chance(c) < CUT]
    assert off, "the same games without the rule give no word below the cut"


def test_a_giver_with_a_cut_in_a_language_without_a_rule_says_so() -> None:
    p = default_agent("es")
    giver = dataclasses.replace(p.giver, alike_from=0.3)
    player = dataclasses.replace(p, giver=giver)
    with pytest.raises(ValueError, match="no rule of clue words people picture alike in 'es'"):
        play_game([player] * 4, seed=0, rules=Rules.standard(4, language="es"))


@pytest.mark.parametrize("value", [1.5, -0.1, "high"])
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
