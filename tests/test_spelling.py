"""A misspelt clue is read as the word meant (ObjectColourModel.spelled, and the default model's
two parts read the word put right)."""

from __future__ import annotations

import numpy as np
import pytest

from huescues import Board
from huescues.language import ObjectColourModel, default_model, listen

KNOWLEDGE = ObjectColourModel.default()


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("emrald", "emerald"),  # a letter left out
        ("flamingoe", "flamingo"),  # a letter added
        ("avacado", "avocado"),  # a letter changed
        ("purpel", "purple"),  # two letters swapped
        ("olivee", "olive"),  # a word and its plural are one word
        ("cookie monstr", "cookie monster"),  # a word of a name
    ],
)
def test_a_misspelt_word_is_read_as_the_one_word_an_edit_away(typed: str, meant: str) -> None:
    assert KNOWLEDGE.spelled(typed) == meant
    assert KNOWLEDGE.evidence(typed) == KNOWLEDGE.evidence(meant)
    np.testing.assert_array_equal(KNOWLEDGE.distribution(typed), KNOWLEDGE.distribution(meant))


@pytest.mark.parametrize(
    "text",
    [
        "emerald",  # known
        "small",  # an English word in common use, though the knowledge has no rating of it
        "bule",  # too short: one edit from too many words
        "pnik",  # too short, though only "pink" lies one edit away
        "blakc",  # black or blanc: anyone's guess
        "pikachoo",  # two edits away
        "woody (toy story)",  # read from the data (a card's hint)
        "quantumly",  # nothing near
    ],
)
def test_a_word_known_common_short_or_ambiguous_is_left_as_it_is(text: str) -> None:
    assert KNOWLEDGE.spelled(text) == text


def test_both_parts_of_the_default_model_read_the_word_put_right() -> None:
    # Before, the default model's best square for "emrald" lay 61 CIEDE2000 from "emerald"'s.
    model, lab = default_model(), Board.retail().lab
    for typed, meant in (("emrald", "emerald"), ("avacado", "avocado"), ("saphire", "sapphire")):
        assert model.spelled(typed) == meant
        np.testing.assert_array_equal(model.score(typed, lab), model.score(meant, lab))
        assert model.evidence(typed) == model.evidence(meant)
    assert model.spelled("tomate") == "tomato"  # a Spanish word in an English game
    p = listen("purpel", [[40, 60, -50], [60, -50, 40], [85, 0, 80]])
    assert int(np.argmax(p)) == 0


def test_a_guesser_reads_a_misspelt_clue_as_the_word() -> None:
    # The default player's guesser averages the default model (which puts the word right) and
    # the naming model (which reads names, and does not): its best square is the word's.
    from huescues.agents import default_agent

    guesser, board = default_agent().guesser, Board.standard()
    for typed, meant in (("brocoli", "broccoli"), ("saphire", "sapphire")):
        typo, word = guesser.belief(board, [typed]), guesser.belief(board, [meant])
        assert np.argmax(typo) == np.argmax(word)


def test_every_word_the_givers_say_is_read_as_itself() -> None:
    # The readings shipped and kept on disk hold the vocabulary's words, named by the model's
    # key: the rule must change none of them.
    from huescues.agents import clue_vocabulary

    model = default_model()
    for word in clue_vocabulary():
        assert model.spelled(word) == word, word


@pytest.mark.parametrize(("text", "error"), [("", ValueError), (None, TypeError)])
def test_bad_text_is_refused_as_score_refuses_it(text: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        default_model().spelled(text)  # type: ignore[arg-type]
    with pytest.raises(error):
        KNOWLEDGE.spelled(text)  # type: ignore[arg-type]
