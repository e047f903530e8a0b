"""The default clue giver's listener models pooled geometrically (issue 34, item 3): a word one
model knows and the others do not is read near the model that knows it, where the average of
the beliefs would dilute it; the giver predicts pawns (R8, R9) and values its clues by R15 and
R16 points with that one pooled belief."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

import numpy as np
import pytest
from numpy.typing import ArrayLike

from huescues import Board
from huescues.agents import (
    DEFAULT_GIVER_MODELS,
    DEFAULT_GIVER_POOL,
    DEFAULT_SPEAKERS,
    ModelClueGiver,
    ModelGuesser,
    Pooled,
    Readings,
    default_agent,
    pooled_model,
)
from huescues.agents._languages import names_in, players_pack
from huescues.language import ColourTermModelBase, FlatModel, Prediction
from huescues.language._protocol import FloatArray, as_lab, gaussian_log_density


class Knows(ColourTermModelBase):
    """Reads every text as one sharp colour (a model that knows the word)."""

    def __init__(self, lab: ArrayLike) -> None:
        self.mean = np.asarray(lab, dtype=np.float64)

    def predict(self, text: str) -> Prediction:
        return Prediction(self.mean.copy(), 25.0 * np.eye(3), known=True)

    def score(self, text: str, lab: ArrayLike) -> FloatArray:
        return gaussian_log_density(as_lab(lab), self.mean, 25.0 * np.eye(3))


def _belief(scores: FloatArray) -> FloatArray:
    b = np.exp(scores - scores.max())
    out: FloatArray = b / b.sum()
    return out


def test_a_word_one_model_knows_is_read_near_it_not_diluted() -> None:
    board = Board.standard()
    lab = board.lab.reshape(-1, 3)
    peak = int(np.argmax(lab[:, 1]))  # the reddest square
    knows, flat = Knows(lab[peak]), FlatModel()
    pooled = pooled_model((knows, flat, flat), (0.7, 0.15, 0.15))
    sharp = _belief(knows.score("pikachu", lab))
    average = (sharp + 2 * _belief(flat.score("pikachu", lab))) / 3
    pool = _belief(pooled.score("pikachu", lab))
    # The pool is the knowing model's belief raised to 0.7, normalised (flat models add a
    # constant): its mass at the peak is far above the average's third of the knower's.
    expected = _belief(0.7 * knows.score("pikachu", lab))
    np.testing.assert_allclose(pool, expected, rtol=1e-9, atol=1e-15)
    assert pool[peak] > 2 * average[peak]
    assert abs(np.log(pool[peak]) - 0.7 * np.log(sharp[peak])) < abs(
        np.log(average[peak]) - np.log(sharp[peak])
    )


def test_the_pool_is_the_weighted_sum_of_the_models_scores() -> None:
    lab = Board.standard().lab.reshape(-1, 3)
    a, b = Knows(lab[0]), Knows(lab[100])
    pooled = pooled_model((a, b, FlatModel()), (0.5, 0.3, 0.2))
    want = 0.5 * a.score("x", lab) + 0.3 * b.score("x", lab) + 0.2 * FlatModel().score("x", lab)
    np.testing.assert_allclose(pooled.score("x", lab), want, rtol=1e-12)
    assert pooled_model((a, b, FlatModel()), (0.5, 0.3, 0.2)) is not pooled  # new models
    assert pooled_model((a, b), (0.5, 0.5)) is pooled_model((a, b), (0.5, 0.5))  # kept


def test_pool_weights_are_checked() -> None:
    with pytest.raises(ValueError, match="one weight a model"):
        pooled_model(("default", "naming"), (0.7, 0.15, 0.15))
    with pytest.raises(ValueError, match="first above zero"):
        pooled_model(("default", "naming"), (0.0, 1.0))


def test_the_default_giver_pools_its_three_listeners() -> None:
    giver = default_agent().giver
    assert isinstance(giver, ModelClueGiver)
    assert giver.model == DEFAULT_GIVER_MODELS == ("default", "naming", "embedding")
    assert giver.pool == DEFAULT_GIVER_POOL == (0.7, 0.15, 0.15)
    assert giver.listeners() == [pooled_model(DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL)]
    # A giver without a pool averages its models, as before.
    assert len(ModelClueGiver(model=DEFAULT_GIVER_MODELS).listeners()) == 3
    # The Spanish player's giver pools its three models read in Spanish, with its own weights.
    spanish = default_agent("es").giver
    assert isinstance(spanish, ModelClueGiver) and spanish.pool == (0.4, 0.3, 0.3)
    assert spanish.model == names_in(DEFAULT_GIVER_MODELS, "es")
    assert spanish.listeners() == [pooled_model(spanish.model, spanish.pool)]


def _listener_search(language: str, held: bool = False) -> Any:
    """scripts/evaluate_giver_listener.py's search."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "evaluate_giver_listener.py"
    spec = importlib.util.spec_from_file_location("evaluate_giver_listener", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    # Registered while it runs: its dataclasses look their module up.
    sys.modules[spec.name] = script
    try:
        spec.loader.exec_module(script)
        assert script.beats(0.001) and not script.beats(0.0) and not script.beats(-0.01)
        return script.search(language, held=held)
    finally:
        del sys.modules[spec.name]


def test_the_spanish_pool_is_the_one_chosen_held_out_on_spanish_picks() -> None:
    """The Spanish pack's giver_pool is what scripts/evaluate_giver_listener.py keeps on the
    picks of the people who saw the clues in Spanish, with the dev words' glossary entries and
    own ratings left out: geometric, the default model at 0.4, ahead of the average held out by
    clue by an interval that excludes 0, and beaten in sample by no combination (the rule that
    moves a pool, docs/agents.md)."""
    got = _listener_search("es", held=True)
    assert (got.clues, got.targets) == (39, 366)
    both = got.families["both forms"]
    gain = both.held_less.split()[1:]  # "[lo, hi]" of the held-out gain over the average
    assert float(gain[0].strip("[,")) > 0
    assert got.shipped == ("geometric", 0.4) and got.beaten_by == []
    # The weights searched that lose to the pool show as such: its own row is level.
    assert got.less_shipped[("geometric", 0.4)].startswith("+0.000")
    weight = 0.4  # the naming data and the word vectors share the rest
    assert players_pack("es").giver_pool == pytest.approx(
        (weight, (1 - weight) / 2, (1 - weight) / 2)
    )


def test_no_combination_beats_the_english_pool_in_sample() -> None:
    """The English giver's pool, geometric at 0.7, is beaten in sample by no combination of the
    search (its points less the pool's, the clues resampled, with the interval above 0); the
    folds' majority, which a reading rule moved, moves nothing (docs/agents.md)."""
    got = _listener_search("en")
    assert got.shipped == ("geometric", 0.7) and got.beaten_by == []
    assert got.less_shipped[("arithmetic", 1 / 3)].startswith("-")  # the average loses


def test_clue_choice_agreement_reads_the_pooled_giver() -> None:
    """The measure the pool was chosen by (scripts/evaluate_giver_listener.py): 0.553 in
    sample, 0.528 for the average (0.526 before the players read clues in view of the board),
    both choosing among all the clues; the default giver, which leaves some unsaid
    (alike_from), 0.561 (0.562 before)."""
    from huescues.research import clue_choice_agreement, dev_picks

    responses = dev_picks()[0]
    giver = default_agent().giver
    assert isinstance(giver, ModelClueGiver)
    pooled = clue_choice_agreement(
        responses, dataclasses.replace(giver, alike_from=None), n_boot=200
    )
    averaged = clue_choice_agreement(
        responses, ModelClueGiver(model=DEFAULT_GIVER_MODELS), n_boot=200
    )
    ruled = clue_choice_agreement(responses, default_agent(), n_boot=200)
    assert pooled.chosen.format(".3f").split()[0] == "0.553"
    assert averaged.chosen.format(".3f").split()[0] == "0.528"
    assert ruled.chosen.format(".3f").split()[0] == "0.561"


def test_a_guesser_can_imagine_the_default_giver_as_it_pools() -> None:
    """A pragmatic guesser reads a first clue as the givers it imagines would have meant it
    (R8, R9: the giver picks the target and clues it). Given ``Pooled(giver.model,
    giver.pool)`` it imagines the default giver listening with the very model the giver
    listens with (one object, kept in the shared Readings, or in a store of their own)."""
    player = default_agent()
    guesser, giver = player.guesser, player.giver
    assert isinstance(guesser, ModelGuesser) and isinstance(giver, ModelClueGiver)
    assert giver.pool is not None
    pooled = dataclasses.replace(
        guesser, speakers=(Pooled(giver.model, giver.pool), *guesser.speakers[1:])
    )
    imagined = pooled._model_groups()[1]
    assert imagined == giver.listeners()
    assert imagined[0] is giver.listeners()[0]
    store = Readings()
    kept_giver = dataclasses.replace(giver, store=store)
    kept_guesser = dataclasses.replace(pooled, store=store)
    assert kept_guesser._model_groups()[1][0] is kept_giver.listeners()[0]
    assert kept_guesser._model_groups()[1][0] is not giver.listeners()[0]


def test_the_default_guesser_still_imagines_the_giver_averaging() -> None:
    """Not adopted (issue 34): the default guesser imagining the pooled giver lost head to
    head to this one (``python scripts/evaluate_speakers.py``: this one ahead by +0.14
    [-0.03, +0.31] and +0.27 [+0.11, +0.43] points a game, docs/agents.md), so it imagines the
    giver averaging
    its three models, as before; a plain ModelGuesser's default is the same."""
    guesser = default_agent().guesser
    assert isinstance(guesser, ModelGuesser)
    assert guesser.speakers == DEFAULT_SPEAKERS == ModelGuesser().speakers
    assert DEFAULT_SPEAKERS[0] == DEFAULT_GIVER_MODELS
    assert len(guesser._model_groups()[1]) == 3
    # The Spanish player's guesser imagines its giver averaging too.
    spanish = default_agent("es")
    assert isinstance(spanish.guesser, ModelGuesser) and isinstance(spanish.giver, ModelClueGiver)
    assert spanish.guesser.speakers[0] == spanish.giver.model


def test_a_pack_names_a_pooled_speaker() -> None:
    """``{"models": [...], "pool": [...]}`` in a pack's speakers is a Pooled; its weights are
    checked as a giver_pool's, and its names are read in the pack's language."""
    from huescues.agents._languages import _read, names_in

    def pack(speaker: object) -> str:
        return json.dumps(
            {
                "vocabulary": "clue_vocabulary.txt",
                "default_player": {
                    "giver_models": ["default", "naming"],
                    "guesser_models": ["default"],
                    "speakers": [speaker, "naming"],
                    "pair_from": 1,
                },
            }
        )

    read = _read("en", pack({"models": ["default", "naming"], "pool": [0.6, 0.4]}))
    assert read.speakers == (Pooled(("default", "naming"), (0.6, 0.4)), "naming")
    for bad in ({"models": ["default", "naming"], "pool": [0.6]}, {"models": ["default"]}):
        with pytest.raises(ValueError, match="pool"):
            _read("en", pack(bad))
    assert names_in(read.speakers[0], "es") == Pooled(("default-es", "naming-es"), (0.6, 0.4))


def test_a_pool_of_spanish_models_reads_the_spanish_vocabulary() -> None:
    """A giver without words of its own takes its models' language's vocabulary (R18-R21 in
    that language); a pool of Spanish models is Spanish, and a blend of two languages has no
    one vocabulary: a clear error, not English words."""
    from huescues.agents import clue_vocabulary
    from huescues.agents._vocabulary import model_language
    from huescues.language import BlendedModel, default_model

    spanish = pooled_model(names_in(DEFAULT_GIVER_MODELS, "es"), (0.5, 0.25, 0.25))
    assert model_language(spanish) == "es"
    assert model_language(pooled_model(DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL)) == "en"
    giver = ModelClueGiver(model=names_in(DEFAULT_GIVER_MODELS, "es"), pool=(0.5, 0.25, 0.25))
    words = giver._by_square(Board.standard())[0]
    assert words == clue_vocabulary("es")
    mixed = BlendedModel(default_model(), default_model("es"), 1.0)
    with pytest.raises(ValueError, match="reading 'en' and one reading 'es'"):
        model_language(mixed)
