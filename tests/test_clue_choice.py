"""The clue-choice measure (issue 18): a giver picks, for each square people picked, the clue
its beliefs say lands nearest; people's own picks for that clue score it (R15)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from numpy.typing import ArrayLike

from huescues.agents import EmbeddingClueGiver, ModelClueGiver, alike_chance, default_agent
from huescues.engine import Board, Cell, Rules
from huescues.language import FLAT_LOG_DENSITY, Prediction, as_lab
from huescues.research import (
    ClueChoiceResamples,
    HumanResponses,
    clue_choice_agreement,
    dev_picks,
)

BOARD = Board.standard()


def _responses(picks: dict[str, list[str]]) -> HumanResponses:
    rows = [{"clue": c, "square": s} for c, squares in picks.items() for s in squares]
    return HumanResponses.from_records(rows, BOARD)


class _Oracle:
    """A colour-term model that knows where people clicked for each clue: its reading of a clue
    is a sharp peak at the colour of that clue's square."""

    def __init__(self, at: dict[str, str]) -> None:
        self.at = {c: BOARD.lab[BOARD.cell(s).row, BOARD.cell(s).col] for c, s in at.items()}

    def score(self, text: str, lab: ArrayLike) -> np.ndarray:
        colours = as_lab(lab)
        d = np.linalg.norm(colours - self.at[text], axis=-1)
        out: np.ndarray = -0.5 * (d / 2.0) ** 2
        return out

    def predict(self, text: str) -> Prediction:
        return Prediction(self.at[text], np.eye(3))


class _Flat:
    def score(self, text: str, lab: ArrayLike) -> np.ndarray:
        return np.full(as_lab(lab).shape[:-1], FLAT_LOG_DENSITY)

    def predict(self, text: str) -> Prediction:
        return Prediction(np.zeros(3), np.eye(3) * 1e3, False)


PICKS = {
    "alpha": ["B3", "B3", "B4"],
    "beta": ["J20", "J20", "K21"],
    "gamma": ["O28", "O27", "O28"],
}


def test_a_giver_that_reads_clues_as_people_do_chooses_the_best_clue() -> None:
    # R15: a pick on the target scores 3, one square away 2; the oracle's choice is hindsight's.
    responses = _responses(PICKS)
    oracle = _Oracle({"alpha": "B3", "beta": "J20", "gamma": "O28"})
    result = clue_choice_agreement(responses, oracle, n_boot=200)
    assert result.targets == 6 and result.clues == 3
    assert result.chosen.mean == pytest.approx(result.best.mean)
    for t in result.per_target:
        assert t.clue == t.best_clue
    # Target B3: two picks on it (3 points each), one at B4 (2 points): 8/3.
    b3 = next(t for t in result.per_target if t.target == Cell.parse("B3"))
    assert b3.points == pytest.approx(8 / 3)


def test_a_giver_that_knows_nothing_scores_as_its_first_clue_and_below_the_best() -> None:
    responses = _responses(PICKS)
    result = clue_choice_agreement(responses, _Flat(), n_boot=200)
    # Ties go to the first clue of the file, whatever the target.
    assert {t.clue for t in result.per_target} == {"alpha"}
    assert result.chosen.mean < result.best.mean
    r15 = Rules.standard(4)
    alpha = [Cell.parse(s) for s in PICKS["alpha"]]
    targets = sorted({Cell.parse(s) for squares in PICKS.values() for s in squares})
    want = np.mean([np.mean([r15.points_at(p.distance(t)) for p in alpha]) for t in targets])
    assert result.chosen.mean == pytest.approx(want)


def test_the_random_clue_is_the_exact_mean_over_clues() -> None:
    responses = _responses(PICKS)
    result = clue_choice_agreement(responses, _Flat(), n_boot=0)
    r15 = Rules.standard(4)
    targets = sorted({Cell.parse(s) for squares in PICKS.values() for s in squares})
    per_clue = [
        [np.mean([r15.points_at(Cell.parse(p).distance(t)) for p in picks]) for t in targets]
        for picks in PICKS.values()
    ]
    assert result.random.mean == pytest.approx(float(np.mean(per_clue)))
    assert not result.chosen.has_data or result.chosen.low is None


@pytest.mark.slow
def test_on_the_dev_clues_the_default_giver_sits_between_random_and_hindsight() -> None:
    responses, _ = dev_picks()
    result = clue_choice_agreement(responses, n_boot=500, seed=1)
    assert result.random.mean is not None and result.best.mean is not None
    assert result.random.mean < 0.2 < result.chosen.mean < result.best.mean
    low, high = result.chosen.low, result.chosen.high
    assert low is not None and high is not None and low < result.chosen.mean < high
    again = clue_choice_agreement(responses, n_boot=500, seed=1)
    assert again.chosen == result.chosen  # reproducible from its seed
    assert "the best clue in hindsight" in result.table()
    assert sum(result.chosen_clues().values()) == result.targets


def test_givers_and_seats_are_read_by_their_listener_models() -> None:
    responses = _responses(PICKS)
    giver = EmbeddingClueGiver(model="naming")
    result = clue_choice_agreement(responses, giver, n_boot=0)
    assert result.giver.startswith("ModelClueGiver")  # EmbeddingClueGiver by its honest name
    seat = clue_choice_agreement(responses, default_agent(), n_boot=0)
    assert seat.targets == result.targets


def test_a_giver_chooses_only_among_the_clues_it_would_say() -> None:
    # Issue 34: a giver that leaves unsaid the words people read apart (alike_from) is measured
    # choosing as it would in a game; the same giver without the rule may choose them.
    responses, _ = dev_picks()
    giver = default_agent().giver
    assert isinstance(giver, ModelClueGiver) and giver.alike_from is not None
    unsaid = {c for c in responses.clues() if alike_chance(c) < giver.alike_from}
    assert unsaid  # (autumn, summer, ... on the dev clues)
    ruled = clue_choice_agreement(responses, giver, n_boot=0)
    free = clue_choice_agreement(responses, replace(giver, alike_from=None), n_boot=0)
    assert not set(ruled.chosen_clues()) & unsaid
    assert set(free.chosen_clues()) & unsaid
    assert clue_choice_agreement(responses, default_agent(), n_boot=0).chosen == ruled.chosen
    # A giver that would say none of the clues chooses among them all.
    mute = clue_choice_agreement(responses, replace(giver, alike_from=1.0), n_boot=0)
    assert mute.chosen_clues() == free.chosen_clues()


def test_a_spanish_giver_reads_its_rule_in_spanish_without_being_told() -> None:
    # Read in English, the rule would leave most Spanish words unsaid (the measure fell to 0.30
    # on the Spanish picks); without rules the giver's models say the language.
    responses, _ = dev_picks()
    rows = [
        {"clue": r.extra["shown_word"], "square": r.square}
        for r in responses.rows
        if r.extra.get("shown_language", "").strip().lower() == "spanish"
    ]
    spanish = HumanResponses.from_records(rows, responses.board)
    giver = default_agent("es")
    told = clue_choice_agreement(spanish, giver, n_boot=0, rules=Rules.standard(4, language="es"))
    untold = clue_choice_agreement(spanish, giver, n_boot=0)
    assert untold.chosen_clues() == told.chosen_clues()
    in_english = clue_choice_agreement(spanish, giver, n_boot=0, rules=Rules.standard(4))
    assert in_english.chosen.mean is not None and told.chosen.mean is not None
    assert in_english.chosen.mean < told.chosen.mean


def test_bad_settings_are_refused() -> None:
    responses = _responses(PICKS)
    with pytest.raises(ValueError, match="n_boot"):
        clue_choice_agreement(responses, _Flat(), n_boot=-1)
    with pytest.raises(ValueError, match="level"):
        clue_choice_agreement(responses, _Flat(), level=1.5)


def _far_apart_picks(clues: int, per_clue: int) -> dict[str, list[str]]:
    """Each clue's picks on squares of its own row, every pick on a square of its own."""
    return {
        f"clue{k}": [f"{'ABCDEFGHIJKLMNOP'[k]}{c + 1}" for c in range(per_clue)]
        for k in range(clues)
    }


def test_the_interval_holds_for_other_clues_not_only_other_targets() -> None:
    # Targets of one clue stand or fall together: with two clues, one whose targets all score 1
    # and one whose targets all score 0, a new sample of clues may hold either twice, so the
    # interval spans both ends, however many targets each clue has. Resampling the 40 targets
    # as if each were on its own (the measure before) put it near 0.5 only.
    boot = ClueChoiceResamples(_responses(_far_apart_picks(2, 20)), n_boot=400, seed=3)
    assert len(boot.targets) == 40
    values = np.array([1.0 if t < 20 else 0.0 for t in range(40)])  # row A first: clue0's
    got = boot.interval(values)
    assert got.mean == pytest.approx(0.5)
    assert got.low == pytest.approx(0.0) and got.high == pytest.approx(1.0)
    assert got.n == 40 and got.blocks == 2


def test_a_target_two_clues_share_counts_by_their_picks_on_it() -> None:
    # C4: two picks of "a", one of "b", so it counts (2 * count_a + count_b) / 3.
    picks = {"a": ["B3", "C4", "C4"], "b": ["C4", "J20"]}
    boot = ClueChoiceResamples(_responses(picks), n_boot=50)
    b3, c4, j20 = (
        boot.targets.index(Cell.parse(s).row * BOARD.cols + Cell.parse(s).col)
        for s in ("B3", "C4", "J20")
    )
    counts = boot.counts
    assert np.allclose(counts[:, c4], (2 * counts[:, b3] + counts[:, j20]) / 3)
    assert np.allclose(counts[:, b3] + counts[:, j20], 2.0)  # two clues drawn, twice each in all
    assert not np.allclose(counts[:, c4], (counts[:, b3] + counts[:, j20]) / 2)


def test_one_clue_has_no_interval() -> None:
    boot = ClueChoiceResamples(_responses({"a": ["B3", "C4", "J20"]}), n_boot=50)
    got = boot.interval(np.array([1.0, 2.0, 3.0]))
    assert got.mean == pytest.approx(2.0) and got.low is None and got.high is None
    assert got.blocks == 1 and got.n == 3


def test_the_measure_s_intervals_come_from_the_clues_resamples() -> None:
    responses = _responses(_far_apart_picks(6, 4))
    result = clue_choice_agreement(responses, _Flat(), n_boot=300, seed=5)
    boot = ClueChoiceResamples(responses, n_boot=300, seed=5)
    got = np.array([t.points for t in result.per_target])
    assert result.chosen == boot.interval(got)
    assert "bootstrap interval over clues" in result.table()


def test_resamples_refuse_values_of_the_wrong_length() -> None:
    boot = ClueChoiceResamples(_responses(PICKS), n_boot=10)
    with pytest.raises(ValueError, match=r"one number per target \(6\)"):
        boot.interval(np.zeros(5))
