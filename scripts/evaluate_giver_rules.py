"""Rules about words that discount (or sharpen, or flatten) the default giver's reading of a
clue, measured by ``clue_choice_agreement`` on the 39 dev clues, each rule's weight held out
by clue (issue 34, item 3: a giver whose clues the crowd reads as meant).

For each target square people picked, the giver chooses among the dev clues by its listener's
expected R15 points (the default giver's three listener models averaged); people's picks for
the chosen clue score it. A rule is a feature of the word, computed from what the project
ships (nothing read from people's picks), and a weight ``theta``, either

- ``discount``: the clue's expected points times ``exp(-theta * f)``, or
- ``temper``: the clue's belief raised to ``exp(-theta * f)`` and normalised (``theta > 0``
  flattens the readings of words with a high ``f``),

with ``f`` the feature scaled to [0, 1] over the clues. The weight of each clue is chosen on
the other 38 clues (their targets, the giver choosing among them; ties to the smallest
``|theta|``) and the held-out figure is the measure with every clue read at its own held-out
weight. Intervals are 95% percentile bootstraps over the clues (``ClueChoiceResamples``: 2,000
draws, seed 0);
``diff`` is paired, the rule less the giver as it is.

Features: ``models_disagree`` (the Jensen-Shannon divergence of the three listener models'
beliefs on the board), ``broad`` (the entropy of the averaged belief), ``broad_naming`` and
``broad_default`` (one model's), ``unevidenced`` (1 less the knowledge's evidence of the
word), ``adjective_sense`` (WordNet gives the word an adjective sense: ``jade``,
``lavender``), ``not_common`` (a word not among the pack's common words: the frequency floor
as a weight), ``survey_name`` (an XKCD colour name), ``naming_disagrees`` (divergence of the
default and naming models alone), ``sure`` (the clue's best expected points). The two raters'
disagreement is no feature: the second rater rated none of the 39 dev clues
(``knowledge/ratings/second-rater.tsv``).

Then the listener models combined otherwise (no rule about words), the divergence rule in raw
units, and the divergence over the giver's vocabulary on the board.

Run: ``python scripts/evaluate_giver_rules.py`` (about 20 s).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from huescues.agents import Readings, resolve_model
from huescues.agents._vocabulary import board_reading
from huescues.engine import Board, common_words
from huescues.language import ObjectColourModel
from huescues.language._phrases import _classes, survey_names
from huescues.research import ClueChoiceResamples, dev_picks
from huescues.research._agreement import checked_inputs
from huescues.research._clue_choice import _beliefs_of, _points_between

FloatArray = NDArray[np.float64]
GRID = np.round(np.linspace(-3.0, 3.0, 61), 2)
LISTENERS = ("default", "naming", "embedding")  # default_agent()'s giver's models


def entropy(b: FloatArray) -> FloatArray:
    """Entropy (nats) of each row of ``b``."""
    b = b / b.sum(axis=-1, keepdims=True)
    out: FloatArray = -(b * np.log(np.maximum(b, 1e-300))).sum(axis=-1)
    return out


def divergence(parts: list[FloatArray]) -> FloatArray:
    """Jensen-Shannon divergence (nats) of several beliefs, row by row."""
    mean = np.mean(parts, axis=0)
    out: FloatArray = entropy(mean) - np.mean([entropy(p) for p in parts], axis=0)
    return out


def main() -> None:
    responses, _ = dev_picks()
    groups, board, r15 = checked_inputs(responses, 2000, 0.95, None, seed=0)
    clues = list(groups)
    n = len(clues)
    beliefs = {m: _beliefs_of(resolve_model(m), board, r15, clues)[1] for m in LISTENERS}
    avg = np.mean([beliefs[m] for m in LISTENERS], axis=0)
    points = _points_between(board, r15)
    picks = {
        i: [p.square.row * board.cols + p.square.col for p in groups[k]]
        for i, k in enumerate(clues)
    }
    people = np.stack([points[picks[i]].mean(axis=0) for i in range(n)])
    every = np.array(sorted({t for i in range(n) for t in picks[i]}))
    expected = avg @ points

    def chosen_points(e: FloatArray, among: list[int], targets: NDArray[np.intp]) -> FloatArray:
        sub = e[np.ix_(among, targets)]
        pick = np.argmax(sub >= sub.max(axis=0) - 1e-9, axis=0)
        out: FloatArray = people[np.array(among)[pick], targets]
        return out

    knowledge = ObjectColourModel.default()
    common = common_words("en")
    classes = _classes()
    names = survey_names()

    def words(clue: str) -> list[str]:
        return clue.replace("(", " ").replace(")", " ").split()

    features: dict[str, FloatArray] = {
        "models_disagree": divergence([beliefs[m] for m in LISTENERS]),
        "broad": entropy(avg),
        "broad_naming": entropy(beliefs["naming"]),
        "broad_default": entropy(beliefs["default"]),
        "unevidenced": np.array([1.0 - knowledge.evidence(k) for k in clues]),
        "adjective_sense": np.array([float("a" in classes.get(k, "nt")) for k in clues]),
        "not_common": np.array([float(not all(w in common for w in words(k))) for k in clues]),
        "survey_name": np.array([float(k in names) for k in clues]),
        "naming_disagrees": divergence([beliefs["default"], beliefs["naming"]]),
        "sure": expected.max(axis=1),
    }

    def discount(f: FloatArray, theta: float) -> FloatArray:
        out: FloatArray = expected * np.exp(-theta * f)[:, None]
        return out

    def temper(f: FloatArray, theta: float) -> FloatArray:
        b = avg ** np.exp(-theta * f)[:, None]
        out: FloatArray = (b / b.sum(axis=1, keepdims=True)) @ points
        return out

    boot = ClueChoiceResamples(responses)  # the clues resampled: 2,000 draws, seed 0
    if list(boot.targets) != every.tolist():  # the resamples' targets are this script's
        raise RuntimeError("ClueChoiceResamples orders the targets otherwise than this script")

    def interval(x: FloatArray, sign: str = "") -> str:
        got = boot.interval(x)
        return f"{got.mean:{sign}.3f} [{got.low:{sign}.3f}, {got.high:{sign}.3f}]"

    base = chosen_points(expected, list(range(n)), every)
    print(f"{n} dev clues, {len(every)} targets; the default giver as it is: {interval(base)}\n")
    print(
        "| rule | feature | in-sample best (theta) | held out by clue | held out less as it is |"
        " held-out theta (median, range) |"
    )
    print("| --- | --- | ---: | ---: | ---: | --- |")
    forms: dict[str, Callable[[FloatArray, float], FloatArray]] = {
        "discount": discount,
        "temper": temper,
    }
    for form, make in forms.items():
        for name, raw in features.items():
            f = (raw - raw.min()) / max(float(raw.max() - raw.min()), 1e-12)
            cache = {float(t): make(f, float(t)) for t in GRID}
            inside = [chosen_points(cache[float(t)], list(range(n)), every).mean() for t in GRID]
            theta = np.empty(n)
            for w in range(n):
                rest = [i for i in range(n) if i != w]
                targets = np.array(sorted({t for i in rest for t in picks[i]}))
                vals = np.array(
                    [chosen_points(cache[float(t)], rest, targets).mean() for t in GRID]
                )
                best = GRID[vals >= vals.max() - 1e-12]
                theta[w] = best[np.argmin(np.abs(best))]
            held = chosen_points(
                np.stack([cache[float(theta[w])][w] for w in range(n)]), list(range(n)), every
            )
            top = int(np.argmax(inside))
            print(
                f"| {form} | {name} | {inside[top]:.3f} ({GRID[top]:+.1f}) | "
                f"{interval(held)} | {interval(held - base, '+')} | "
                f"{np.median(theta):+.1f} ({theta.min():+.1f} to {theta.max():+.1f}) |"
            )

    print("\n| the listener models combined (in sample, no rule about words) | points | less |")
    print("| --- | ---: | ---: |")
    for w in (0.5, 0.6, 0.7, 0.8, 1.0):
        rest = (1.0 - w) / 2.0
        mix = w * beliefs["default"] + rest * (beliefs["naming"] + beliefs["embedding"])
        got = chosen_points(mix @ points, list(range(n)), every)
        print(f"| default model weight {w:g} | {interval(got)} | {interval(got - base, '+')} |")
    logs = np.mean([np.log(np.maximum(beliefs[m], 1e-300)) for m in LISTENERS], axis=0)
    geo = np.exp(logs - logs.max(axis=1, keepdims=True))
    got = chosen_points((geo / geo.sum(axis=1, keepdims=True)) @ points, list(range(n)), every)
    print(f"| geometric mean of the three | {interval(got)} | {interval(got - base, '+')} |")
    js = features["models_disagree"]
    print(
        f"\nThe models' divergence in raw units (nats; dev clues {js.min():.2f} to {js.max():.2f}):"
    )
    print("expected points times exp(k * divergence), in sample")
    for k in (0.5, 1.0, 1.5, 2.0, 3.0):
        got = chosen_points(expected * np.exp(k * js)[:, None], list(range(n)), every)
        print(f"  k = {k:g}: {interval(got)}, less as it is {interval(got - base, '+')}")
    vocabulary_divergence(board)


def vocabulary_divergence(board: Board) -> None:
    """The models' divergence over the default giver's vocabulary on ``board``: its range, the
    most divergent words, and the rank of a few words the issue names."""
    kept = Readings.shared()
    reads = [board_reading(kept, resolve_model(m), board) for m in LISTENERS]
    words = reads[0].words
    parts = []
    for r in reads:
        log_b = r.log_belief.reshape(len(words), -1).astype(np.float64)
        b = np.exp(log_b - log_b.max(axis=1, keepdims=True))
        parts.append(b / b.sum(axis=1, keepdims=True))
    js = divergence(parts)
    order = np.argsort(-js, kind="stable")
    rank = {words[int(i)]: k + 1 for k, i in enumerate(order)}
    print(
        f"\nThe giver's {len(words)} words on the board: divergence {js.min():.2f} to "
        f"{js.max():.2f}; the most divergent: {', '.join(words[int(i)] for i in order[:12])}"
    )
    for w in ("gonzo", "barney", "kirby", "salon", "barbie", "pikachu", "smurf", "baroque"):
        if w in rank:
            print(f"  {w}: {js[words.index(w)]:.2f}, rank {rank[w]}")
    classes = _classes()
    adjectives = [w for w in words if "a" in classes.get(w, "nt")]
    print(
        f"Words with a WordNet adjective sense: {len(adjectives)} of {len(words)}, e.g. "
        f"{', '.join(adjectives[:: max(1, len(adjectives) // 12)][:12])}"
    )


if __name__ == "__main__":
    main()
