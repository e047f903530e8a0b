"""The docs' deterministic figures, computed: they cannot go stale.

A page holds each figure between ``<!-- figures:NAME -->`` and ``<!-- /figures -->``. This script
computes every figure in :data:`FIGURES` and writes it there, or with ``--check`` says which
regions differ from what the code gives now (exit 1), without writing. A figure inside a line
of prose is an inline region, ``<!-- figures:NAME -->3,414 words<!-- /figures -->`` on one
line (:data:`INLINE`). The test suite runs the
check (tests/test_docs_figures.py), so a change that moves a figure fails until the page is
regenerated, and the prose next to it is re-read.

Only figures that are deterministic (fixed data, fixed seeds) belong here; timings keep the
command and machine they were measured with. Most are quick (a few seconds in all); the tables of
the held-out evaluations by scripts/evaluate_*.py that share the five folds' model fits
(:data:`EVALUATIONS`, about two minutes together) and the tournaments the pages quote
(:data:`INLINE_EVALUATIONS` and tables) are a part of their own, checked by
tests/test_docs_evaluations.py. Tournaments of thousands of games keep their commands.

    python scripts/docs_figures.py            # rewrite the regions
    python scripts/docs_figures.py --check    # exit 1 and name the stale regions
    python scripts/docs_figures.py --check --times   # and each region's seconds
    python scripts/docs_figures.py --check --quick   # the quick part alone (30 to 40 s)
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@cache
def _worked_example() -> dict[str, Any]:
    """docs/research.md's worked example on the synthetic responses."""
    from huescues import Board
    from huescues.agents import default_agent
    from huescues.language import MeanColourModel, NamingModel
    from huescues.research import human_agreement, synthetic_responses

    responses = synthetic_responses()
    board = Board.standard()
    blind = responses.where(lambda r: r.extra["colour_blind"] == "yes")
    return {
        "responses": responses,
        "player": human_agreement(default_agent(), responses),
        "naming": human_agreement(NamingModel.default(), responses),
        "baseline": human_agreement(MeanColourModel(board.lab), responses),
        "blind": human_agreement(default_agent(), blind),
        "blind_picks": len(blind.rows),
        "mean_lab": board.lab.reshape(-1, 3).mean(axis=0),
    }


def _research_skips() -> str:
    return "```text\n" + _worked_example()["responses"].skip_report().rstrip() + "\n```"


def _research_player() -> str:
    return str(_worked_example()["player"].table(max_rows=8)).rstrip()


def _row(name: str, result: Any) -> str:
    cells = [result.model_points, result.gap, result.log_likelihood, result.top_k]
    return f"| {name} | " + " | ".join(c.format(".3f") for c in cells) + " |"


def _against_people(who: str, gap: Any) -> str:
    """How ``who`` does against a simulated person, in words that follow the interval."""
    shown = gap.format(".3f")
    if gap.low is None:
        return f"{who}: {shown}"
    if gap.low > 0:
        return f"{who} is clearly ahead, {shown} (the interval is above zero)"
    if gap.high < 0:
        return f"{who} is clearly behind, {shown} (the interval is below zero)"
    return f"{who} is not clearly ahead, {shown} (the interval covers zero)"


def _than_uniform(result: Any) -> str:
    """How a model's likelihood compares with a uniform belief's, calibrated and as it is."""
    cal, raw = result.log_likelihood.mean, result.calibration.raw_log_likelihood.mean
    uniform = result.uniform_log_likelihood
    said = "worse than" if round(cal, 3) < round(uniform, 3) else "no worse than"
    return (
        f"{said} uniform in likelihood even calibrated ({cal:.3f} against {uniform:.3f}; "
        f"{raw:.3f} as it is)"
    )


def _research_comparison() -> str:
    ex = _worked_example()
    player, naming, baseline = ex["player"], ex["naming"], ex["baseline"]
    lightness, a, b = ex["mean_lab"]
    blind = ex["blind"]
    prose = (
        f"The human reference is the same for all three: {player.human_points.format('.3f')} "
        f"points. Against a single simulated person, "
        f"{_against_people('the default player', player.gap)}; "
        f"{_against_people('the naming model alone', naming.gap)}; "
        f"{_against_people('the baseline', baseline.gap)}, and {_than_uniform(baseline)}: "
        "the board's mean colour, a muted greyish pink "
        f"at L* {lightness:.0f}, a* {a:.0f}, b* {b:.0f}, suits few clues. A measure on the "
        f'{ex["blind_picks"]} picks of the "colour-blind" participant alone is possible with '
        '`responses.where(lambda r: r.extra["colour_blind"] == "yes")` (default player: '
        f"{blind.model_points.format('.3f')} points, log-likelihood "
        f"{blind.log_likelihood.mean:.3f}), but its human reference is n/a: with one "
        "participant no clue has two picks."
    )
    return "\n".join(
        [
            "| model | model points | model \u2212 human | log-likelihood (calibrated) | top-5 |",
            "|---|---|---|---|---|",
            _row("default player", player),
            _row("`NamingModel.default()`", naming),
            _row("mean colour (baseline)", baseline),
            "",
            textwrap.fill(prose, width=100, break_long_words=False, break_on_hyphens=False),
        ]
    )


def _research_clue_choice() -> str:
    from huescues.research import clue_choice_agreement, dev_picks

    responses, _ = dev_picks()
    return str(clue_choice_agreement(responses).table()).rstrip()


def _dev_responses() -> Any:
    """People's picks for the 39 dev clues."""
    from huescues.research import dev_picks

    return dev_picks()[0]


@cache
def _dev() -> dict[str, Any]:
    """docs/research.md's worked example on people's picks for the dev clues."""
    from huescues.agents import default_agent, naming_agent
    from huescues.language import FlatModel, default_model
    from huescues.research import (
        MEASURES,
        agreement_by_category,
        calibration,
        compare,
        dev_picks,
        indistinguishable,
        null_rejection_rate,
        pick_table,
    )

    responses, _ = dev_picks()
    players = {"default": default_agent(), "naming": naming_agent()}
    names = ("default", "naming")
    return {
        "responses": responses,
        "compare": {
            m: compare(players["default"], players["naming"], responses, measure=m, names=names)
            for m in MEASURES
        },
        "report": agreement_by_category(responses, {**players, "knows nothing": FlatModel()}),
        "first_square": agreement_by_category(responses, {"C3": _FirstSquare(FlatModel())}),
        "tests": {
            (name, calibrated): indistinguishable(p, responses, calibrated=calibrated)
            for name, p in {**players, "default_model()": default_model()}.items()
            for calibrated in (True, False)
        },
        "null": [null_rejection_rate(responses, alpha=a) for a in (0.05, 0.003)],
        "calibration": calibration(default_model(), responses),
        "player_calibration": calibration(players["default"], responses),
        "picks": pick_table(players["default"], responses),
    }


class _FirstSquare:
    """A model's ranking alone: the square a player puts its pawn on, ties broken to the first
    (how the measures scored a tie before issue 35)."""

    def __init__(self, model: Any) -> None:
        from huescues.agents import EmbeddingGuesser

        self.guesser = EmbeddingGuesser(model=model, use_pawns=False)

    def rank(self, board: Any, clues: list[str]) -> list[Any]:
        from huescues.engine import Rules
        from huescues.research._reading import reader

        return list(reader(self.guesser, board, Rules.standard(4))[1](clues[-1]).order)


def _research_dev_compare() -> str:
    from huescues.research import markdown_table

    dev = _dev()
    table = markdown_table(dev["compare"], corner="measure (per pick)")
    points = dev["compare"]["points"]
    verdict = {
        "default ahead": "the default player is ahead (the interval is above zero)",
        "naming ahead": "the naming player is ahead (the interval is below zero)",
        "not settled": "not settled (the interval covers zero)",
    }
    prose = (
        f"On {points.picks:,} picks of {points.clues} clues by {points.participants} people, "
        f"default minus naming is {points.difference.signed('.3f')} points a pick: "
        f"{verdict[points.verdict]}; each interval is a 95% bootstrap over the clues and the "
        "participants at once, paired (both players on the same resamples)."
    )
    return table + "\n\n" + _fill(prose)


def _fill(text: str) -> str:
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


def _research_dev_flat() -> str:
    dev = _dev()
    overall = dev["report"].overall
    flat, random = overall.player("knows nothing"), overall.random
    first = dev["first_square"].overall.player("C3")
    return _fill(
        f"A model that knows nothing (`FlatModel()`) scores {flat.format('.3f')} points a pick on "
        f"the dev clues, beside a random square's {random.format('.3f')}: its flat belief ties "
        "the 312 interior squares, and a tie is scored as their mean. Scored by the first of "
        f"them alone (C3, where the player puts its pawn), it earned {first.format('.3f')}, "
        "the baseline that rewarded ignorance."
    )


def _research_dev_indistinguishable() -> str:
    dev = _dev()
    lines = [
        "| player | belief | clues passing at 0.05 | at 0.003 | JS divergence (bits) |",
        "|---|---|---:|---:|---:|",
    ]
    for (name, calibrated), t in dev["tests"].items():
        lines.append(
            f"| {name} | {'calibrated' if calibrated else 'as it is'} | "
            f"{t.passed} of {t.tested} ({t.share:.0%}) | {t.share_at(0.003):.0%} | "
            f"{t.divergence.format('.3f')} |"
        )
    five, strict = dev["null"]
    inside = "inside" if five.within and strict.within else "OUTSIDE"
    prose = (
        "The test itself, when the model's belief is people's histogram and people's picks are "
        f"simulated from it (`null_rejection_rate`, 20 times the 39 clues): {five.rejected} of "
        f"{five.tests} rejected at 0.05 ({five.rate:.1%}; the central 99% binomial interval at "
        f"that rate is {five.expected[0]}-{five.expected[1]}), {strict.rejected} at 0.003 "
        f"({strict.expected[0]}-{strict.expected[1]}): {inside} the intervals"
        + (
            ", a little below alpha: on picks this discrete (a clue's picks fall on a few dozen "
            "squares) the F distribution makes the test slightly conservative."
            if five.rate < five.alpha
            else "."
        )
    )
    default = dev["tests"][("default", True)]
    return "\n".join([*lines, "", _fill(prose), "", default.table(max_rows=6).rstrip()])


def _research_dev_calibration() -> str:
    dev = _dev()
    player = dev["player_calibration"]
    prose = (
        f"The default player's guesser (the default and naming models, averaged) is closer: "
        f"{player.raw_log_likelihood.format('.3f')} as it is, "
        f"{player.log_likelihood.format('.3f')} calibrated, temperature "
        f"{player.temperature:.3g}."
    )
    return dev["calibration"].table().rstrip() + "\n\n" + _fill(prose)


def _research_dev_picks() -> str:
    dev = _dev()
    picks = dev["picks"]
    frame = picks.to_pandas()
    crossed = picks.estimate("points")
    clues = picks.estimate("points", participants=False)
    by_category = frame.groupby("category")["points"].mean()
    best = by_category.idxmax()
    return "\n".join(
        [
            "```text",
            f"frame.shape                     {frame.shape}",
            f"list(frame.columns)             {list(frame.columns)}",
            f'picks.estimate("points")        {crossed}',
            f"... participants=False          {clues}",
            f"best category                   {best} {by_category[best]:.3f}",
            "```",
        ]
    )


def _research_dev_latex() -> str:
    from huescues.research import latex_table

    report = _dev()["report"]
    caption = "Mean R15 points a pick on the 39 dev clues, by category (95% bootstrap intervals)"
    text = latex_table(report, spec=".2f", caption=caption, label="tab:dev-points")
    return "```latex\n" + text + "\n```"


def _research_forest(path: Path) -> None:
    from huescues.research import forest_plot

    path.parent.mkdir(parents=True, exist_ok=True)
    forest_plot(_dev()["report"], path, title="People's picks for the 39 dev clues")


@cache  # the WCS chart and three models read on it: once a process
def _research_naming() -> str:
    from huescues.language import FlatModel, NamingModel, default_model
    from huescues.research import NamingSystem, naming_measures

    systems = {
        "`NamingModel.default()`": NamingSystem.from_model(NamingModel.default()),
        "`default_model()`": NamingSystem.from_model(default_model()),
        "`FlatModel()` (knows nothing)": NamingSystem.from_model(FlatModel()),
    }
    lines = [
        "| model | complexity I(M;W) | accuracy I(W;U) | communicative cost | terms used |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, system in systems.items():
        m = naming_measures(system)
        lines.append(
            f"| {name} | {m.complexity:.3f} | {m.accuracy:.3f} | {m.cost:.3f} | {m.terms_used} |"
        )
    first = next(iter(systems.values()))
    ceiling = naming_measures(first).max_accuracy
    return "\n".join(
        [
            *lines,
            "",
            f"In bits, on the 330 chips, equally likely; I(M;U) = {ceiling:.3f} bits is the "
            "accuracy of a name per chip.",
            "`NamingModel.default()`'s term map (`system.term_map()`):",
            "",
            "```text",
            first.term_map(),
            "```",
        ]
    )


@cache
def _script(name: str) -> Any:
    """One of scripts/, loaded from its file (they are scripts, not modules of the package), once
    a process; registered as a module while it runs, which its dataclasses need."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@cache
def _people() -> tuple[Any, Any, list[Any]]:
    """docs/people.md's measure, as scripts/evaluate_people.py computes it on the dev clues."""
    from huescues.research import agreement_by_category, dev_picks, human_agreement
    from huescues.research import library_players as players_of

    responses, _ = dev_picks()
    players = players_of()
    report = agreement_by_category(responses, players, n_boot=2000, seed=0)
    first = next(iter(players.values()))
    per_clue = sorted(
        human_agreement(first, responses, n_boot=0).per_clue, key=lambda c: c.model_points
    )
    return report, players, per_clue


def _people_today() -> str:
    """docs/people.md's table of today's players, per category (the English gloss only)."""
    report, _, _ = _people()
    gloss = _script("evaluate_people").GLOSS
    best = max(f"{e.mean:.2f}" for _, e in report.overall.players)
    head = ["category", "clues", "a person", *report.players]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for row in report.rows:
        overall = row is report.overall
        cells = [
            "**all clues**" if overall else gloss.get(row.category, row.category),
            str(row.clues),
            row.person.format(),
        ]
        for _, e in row.players:
            if overall and f"{e.mean:.2f}" == best:
                cells.append(f"**{e.mean:.2f}** [{e.low:.2f}, {e.high:.2f}]")
            else:
                cells.append(e.format())
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: Clues among the hardest before issue 18 that docs/people.md says left the list.
_HARD_BEFORE = ("smurf", "cookie monster", "pikachu", "bert (and ernie)")


def _people_hardest() -> str:
    """docs/people.md's ten hardest clues for the first of the library's players."""
    _, players, per_clue = _people()
    name = next(iter(players))

    def person(c: Any) -> str:
        return "-" if c.human_points is None else f"{c.human_points:.2f}"

    hardest = per_clue[:10]
    listed = ", ".join(f"{c.clue} {c.model_points:.2f} ({person(c)})" for c in hardest)
    text = f"The hardest clues now (`{name}`'s points, a person's): {listed}."
    # The characters that were among the hardest before the authors' ratings (issue 11's list).
    left = [w for w in _HARD_BEFORE if w not in {c.clue for c in hardest}]
    if left:
        names = [w.split(" (")[0] for w in left]
        names[0] = names[0].capitalize()
        said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        text += f" {said} left the list."
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


#: scripts/fit_crowd_reading.py's guessers, and the models whose shipped crowd reading each is.
_CROWD_GUESSERS = {
    "EmbeddingGuesser()": ("default",),
    "default_agent().guesser": ("default", "naming"),
}
_OWN, _HELD = "its models' own (1, 0)", "fitted on the other clues (held out)"


@cache
def _crowd_fit() -> dict[str, Any]:
    """scripts/fit_crowd_reading.py's fit (docs/people.md), with the prose's claims on it
    checked: the pair fitted on every clue is the one shipped, the smoothing is none for the
    one model and half a square for the pair, and the log-likelihood of ``EmbeddingGuesser()``'s
    own reading is below a uniform belief's, each held-out one above it."""
    from huescues.agents import CROWD_READINGS

    fitted, uniform = _script("fit_crowd_reading").fit()
    if list(fitted) != list(_CROWD_GUESSERS):
        raise SystemExit(f"docs/people.md: fit_crowd_reading.py fits {list(fitted)}")
    for name, models in _CROWD_GUESSERS.items():
        got = fitted[name]
        if CROWD_READINGS[models] != (got.temperature, got.smoothing):
            raise SystemExit(f"docs/people.md: {name}'s crowd reading is not the one fitted")
    own = {name: got.readings[_OWN][0].mean for name, got in fitted.items()}
    held = {name: got.readings[_HELD][0].mean for name, got in fitted.items()}
    says = [
        [got.smoothing for got in fitted.values()] == [0.0, 0.5],
        own["EmbeddingGuesser()"] < uniform < own["default_agent().guesser"],
        all(v > uniform for v in held.values()),
    ]
    if not all(says):
        raise SystemExit("docs/people.md: the crowd fit no longer reads as the prose says")
    return fitted


def _people_crowd_table() -> str:
    """docs/people.md's table of scripts/fit_crowd_reading.py: its rows, the held-out ones in
    bold and the in-sample pair marked as the one shipped (:func:`_crowd_fit` checks it)."""
    lines = [
        "| guesser | reading | log-likelihood a pick | points a pick (R15) |",
        "| --- | --- | ---: | ---: |",
    ]

    def bold(e: Any) -> str:
        return f"**{e.mean:.3f}** [{e.low:.3f}, {e.high:.3f}]"

    for name, got in _crowd_fit().items():
        for label, (ll, points) in got.readings.items():
            if label == _HELD:
                cells = [f"**{label}**", bold(ll), bold(points)]
            else:
                if label != _OWN:
                    label = label.replace("; in sample)", "; in sample, shipped)")
                cells = [label, ll.format(".3f"), points.format(".3f")]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _crowd_gain(name: str, measure: int, spec: str) -> str:
    """How much a guesser's held-out crowd reading adds to its models' own reading: the
    log-likelihood a pick (``measure`` 0) or the points (1)."""
    got = _crowd_fit()[name].readings
    return f"{got[_HELD][measure].mean - got[_OWN][measure].mean:{spec}}"


@cache
def _listener_search() -> Any:
    """scripts/evaluate_giver_listener.py's search (docs/agents.md), with the prose's claim on it
    checked: no combination beats the shipped pool in sample (the rule that moves it)."""
    from huescues.agents import DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL

    script = _script("evaluate_giver_listener")
    got = script.search()
    if got.shipped != ("geometric", DEFAULT_GIVER_POOL[0]) or got.beaten_by:
        raise SystemExit(f"docs/agents.md: the shipped pool is beaten by {got.beaten_by}")
    if script.LISTENERS != DEFAULT_GIVER_MODELS:
        raise SystemExit("docs/agents.md: the search's listeners are not the giver's")
    return got


_FORMS = {"arith": "arithmetic", "geome": "geometric"}
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _minus(text: str) -> str:
    """A figure of the scripts' (hyphen-minus) as the prose prints it (a minus sign)."""
    return text.replace("-", "\u2212")


def _agents_listener_search() -> str:
    """docs/agents.md's table of the search, held out by clue, per family."""
    got = _listener_search()
    names = {
        "arithmetic weight": "arithmetic, `w`",
        "geometric weight": "geometric, `w`",
        "both forms": "both forms",
    }
    lines = [
        "| combinations searched | held out by clue | less the average | chosen in the 39 folds |",
        "| --- | ---: | ---: | --- |",
    ]
    for family, f in got.families.items():
        if family == "both forms":
            same = [k for k, g in got.families.items() if k != family and g.chosen == f.chosen]
            if same:
                (label, count), *_ = f.chosen
                form, weight = label.split()
                folds = f"{_FORMS[form]} {weight} in {count} (as above)"
            else:
                folds = ", ".join(
                    f"{_FORMS[k.split()[0]]} {k.split()[1]} in {v}" for k, v in f.chosen
                )
        else:
            folds = ", ".join(f"{k.split()[1]} in {v}" for k, v in f.chosen)
        lines.append(f"| {names[family]} | {f.held} | {f.held_less} | {folds} |")
    return "\n".join(lines)


def _agents_listener_in_sample() -> str:
    from huescues.agents import DEFAULT_GIVER_POOL

    weight = DEFAULT_GIVER_POOL[0]
    points, _ = _listener_search().in_sample[("geometric", weight)]
    return f"the geometric pool at {weight:g} scores {points}"


def _agents_listener_own() -> str:
    """The geometric search by the convention of the rules (each clue at its own weight), and
    how many folds chose another weight than the most chosen."""
    got = _listener_search()
    f = got.families["geometric weight"]
    others = got.clues - f.chosen[0][1]
    said = _NUMBER_WORDS[others] if others < len(_NUMBER_WORDS) else str(others)
    return f"{f.own}, {_minus(f.own_less)}: the {said} folds"


@cache
def _spanish_listener_search(held: bool) -> Any:
    """scripts/evaluate_giver_listener.py's Spanish search (docs/agents.md), with the prose's
    claim on it checked: with the dev words' entries left out, no combination beats the Spanish
    giver's pool in sample."""
    from huescues.agents import default_agent

    script = _script("evaluate_giver_listener")
    got = script.search("es", held)
    if held:
        pool = default_agent("es").giver.pool
        if pool is None or got.shipped != ("geometric", pool[0]) or got.beaten_by:
            raise SystemExit(f"docs/agents.md: the Spanish pool is beaten by {got.beaten_by}")
    return got


def _agents_spanish_listener() -> str:
    """docs/agents.md's table of the Spanish giver's search: its geometric family held out."""
    lines = [
        "| the Spanish giver's models | the average | the pool held out by clue | less the average"
        " | chosen in the 39 folds |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for held, name in ((True, "dev words' entries left out"), (False, "the pack as it ships")):
        got = _spanish_listener_search(held)
        f = got.families["geometric weight"]
        (label, count), *rest = f.chosen
        folds = f"geometric {label.split()[1]} in {count}" + "".join(
            f", {k.split()[1]} in {v}" for k, v in rest
        )
        lines.append(f"| {name} | {got.as_it_is} | {f.held} | {f.held_less} | {folds} |")
    return "\n".join(lines)


def _agents_spanish_picks() -> str:
    """The Spanish search's data: the picks of the people who saw the clues in Spanish."""
    from huescues.research import dev_picks

    got = _spanish_listener_search(True)
    picks = len(_script("evaluate_giver_listener").spanish_picks(dev_picks()[0]).rows)
    return f"{picks:,} picks of the {got.clues} dev clues, {got.targets} targets"


def _agents_spanish_listener_own() -> str:
    """The Spanish geometric search's gains by the stricter convention, held and as shipped."""
    held, shipped = (
        _spanish_listener_search(h).families["geometric weight"].own_less for h in (True, False)
    )
    return f"{held} and {shipped}"


def _agents_spanish_pool() -> str:
    """The Spanish pack's giver pool, and the English weights' in-sample figure beside it (the
    dev words' entries left out)."""
    from huescues.agents import default_agent

    pool, english = default_agent("es").giver.pool, default_agent("en").giver.pool
    if pool is None or english is None or len(pool) != 3 or pool[1] != pool[2]:
        raise SystemExit("docs/agents.md: the Spanish pool is no longer as the prose words it")
    sample = _spanish_listener_search(True).in_sample
    ours = sample[("geometric", pool[0])][0].split()[0]
    theirs = sample[("geometric", english[0])][0].split()[0]
    return (
        f"{pool[0]:g} for the default model and {pool[1]:g} each for the naming data and the "
        f"word vectors (in sample, with the entries left out, the English weights, {english[0]:g}, "
        f"score {theirs} and the pack's {ours})"
    )


def _agents_giver_pool() -> str:
    """The default giver's pool of its listener models (DEFAULT_GIVER_POOL)."""
    from huescues.agents import DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL

    default, naming, vectors = DEFAULT_GIVER_POOL
    if DEFAULT_GIVER_MODELS != ("default", "naming", "embedding") or naming != vectors:
        raise SystemExit("docs/agents.md: the giver's pool is no longer as the prose words it")
    return (
        f"{default:g} for the default model and {naming:g} each for the naming data and the "
        "word vectors"
    )


def _agents_second_clues() -> str:
    """scripts/evaluate_second_clues.py's default run: the default giver's two-word second
    clues in 100 self-play games of four."""
    script = _script("evaluate_second_clues")
    run = script.self_play(100, 4)
    pairs, weighed = run.pairs, run.weighed
    fine, _ = script.form_counts(pairs)
    fine_weighed, _ = script.form_counts(weighed)
    if fine != len(pairs) or fine_weighed != len(weighed):
        raise SystemExit("docs/agents.md: the default giver's two-word clues are not as worded")
    played = f"second clues in {run.games} games ({run.passes} passes) were of two words"
    if pairs:
        named = " and ".join(f"`{p}`" for p in sorted(set(pairs))[:2])
        given = f"{len(pairs)} of its {len(run.given)} {played}, {named} among them,"
    else:
        given = f"none of its {len(run.given)} {played},"
    kinds = ", ".join(f"`{p}`" for p in sorted(set(weighed))[:3])
    return (
        f"{given} and the {len(weighed)} two-word clues it weighed ({kinds}, ...) "
        "are all in a form people say and a colour's name"
    )


def _knowledge_calibration() -> str:
    """docs/knowledge.md's calibration of the evidence on CoDa's objects, as the build stored it
    in the shipped summary (src/huescues/data/objects/objects.json); the prose's quotes of it
    are inline regions of their own."""
    import json

    summary = json.loads(
        (ROOT / "src/huescues/data/objects/objects.json").read_text(encoding="utf-8")
    )
    evidence = summary["evidence"]
    bands = evidence["calibration_held_out"]
    lines = [
        f"| on {evidence['objects']} CoDa objects (5-fold held out) "
        "| words | mean evidence | top-1 |",
        "| --- | ---: | ---: | ---: |",
    ]
    for i, band in enumerate(bands):
        low, high = band["band"]
        label = f"{'evidence ' if i == 0 else ''}{low:.2f}-{high:.2f}"
        lines.append(
            f"| {label} | {band['words']:,} | {band['mean_evidence']:.3f} | {band['top1']:.3f} |"
        )
    return "\n".join(lines)


def _languages_spanish() -> str:
    """docs/languages.md's Spanish picks read in Spanish, with the glossary entries of the dev
    words, without them, and with a blind translation of the words in their place
    (scripts/evaluate_languages.py's first three tables), and the sentence on them."""
    from huescues.research import agreement_by_language, dev_picks

    script = _script("evaluate_languages")
    responses, _ = dev_picks()
    words = script.dev_words()
    held, _ = script.dev_models(words, blind=False)
    blind, _ = script.dev_models(words, blind=True)
    plain = agreement_by_language(responses, language="spanish")
    honest = agreement_by_language(responses, {"es": held}, language="spanish")
    blinded = agreement_by_language(responses, {"es": blind}, language="spanish")
    shown = dict(honest.overall.players)["shown word"]
    by_blind = dict(blinded.overall.players)["shown word"]
    english = dict(plain.overall.players)["English clue"].mean
    return "\n".join(
        [
            plain.table(".3f").rstrip(),
            "",
            "glossary entries and the pack's own ratings of the dev words left out:",
            "",
            honest.table(".3f").rstrip(),
            "",
            "those glossary entries replaced by the blind translation of the dev words:",
            "",
            blinded.table(".3f").rstrip(),
            "",
            "With the dev words' glossary entries and own ratings left out, the Spanish reading "
            "scores "
            f"{shown.mean:.3f} a pick on the Spanish picks",
            f"(0.200 before this reading, the English clue {english:.3f} with the English model "
            "alone); with the blind",
            f"translation of the dev words in their place, {by_blind.mean:.3f} "
            f"[{by_blind.low:.3f}, {by_blind.high:.3f}]. The kept-back clues have not been "
            "measured.",
        ]
    )


def _board_statistics() -> str:
    """docs/board.md's statistics: what scripts/make_standard_board.py prints, and the table."""
    from huescues.colour import palette_stats, srgb_to_lab, standard_palette

    script = _script("make_standard_board")
    rgb = standard_palette()
    stats = palette_stats(srgb_to_lab(rgb / 255.0))
    (r1, c1), (r2, c2) = stats.closest
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    closest = f"`{letters[r1]}{c1 + 1}` and `{letters[r2]}{c2 + 1}`"
    rows = [
        ("4-neighbours (side by side): median", f"{stats.neighbour4_median:.2f}"),
        (
            "4-neighbours: smallest / largest",
            f"{stats.neighbour4_min:.2f} / {stats.neighbour4_max:.2f}",
        ),
        ("8-neighbours (diagonals too): median", f"{stats.neighbour8_median:.2f}"),
        ("any two of the 480 squares: smallest", f"{stats.pairwise_min:.2f} ({closest})"),
    ]
    width = 41  # the table's first column, as the page has always had it
    return "\n".join(
        [
            "```console",
            "$ PYTHONPATH=src python scripts/make_standard_board.py",
            f"wrote {script.OUT.relative_to(ROOT)}",
            script.report(rgb),
            "```",
            "",
            f"| {'measure'.ljust(width)} | value |",
            f"|{'-' * (width + 2)}|-------|",
            *(f"| {name.ljust(width)} | {value.ljust(5)} |" for name, value in rows),
        ]
    )


@cache
def _board_edge() -> tuple[int, float]:
    """The standard board's edge squares, in order round: how many, and the CIEDE2000 steps
    between consecutive ones added up."""
    from huescues import Board
    from huescues.colour import delta_e_2000

    lab = Board.standard().lab
    rows, cols = lab.shape[:2]
    ring = (
        [(0, c) for c in range(cols)]
        + [(r, cols - 1) for r in range(1, rows)]
        + [(rows - 1, c) for c in range(cols - 2, -1, -1)]
        + [(r, 0) for r in range(rows - 2, 0, -1)]
    )
    edge = [lab[r, c] for r, c in ring]
    steps = delta_e_2000(edge, edge[1:] + edge[:1])
    return len(ring), float(steps.sum())


def _board_edge_step() -> str:
    n, loop = _board_edge()
    return f"about {loop / n:.1f}"


def _board_edge_loop() -> str:
    n, loop = _board_edge()
    return (
        f"the edge squares' steps add up to about {loop:.0f} CIEDE2000 units round, and {n} "
        "squares share them, so consecutive edge squares differ by "
        f"{loop:.0f} / {n} = {loop / n:.1f}"
    )


def _naming_modifiers() -> str:
    """docs/naming.md's table of the common modifiers, read off the shipped naming model."""
    import math

    from huescues.language import NamingModel

    model = NamingModel.default()
    lines = [
        "| modifier | pairs | lightness | chroma \u00d7 | hue turn | mean shift (L*, a*, b*) |",
        "| --- | ---: | --- | ---: | ---: | --- |",
    ]

    def signed(x: float, digits: int = 1) -> str:
        return f"{x:+.{digits}f}".replace("-", "\u2212")

    for word in _MODIFIERS_SHOWN:
        m = model.modifier(word)
        sign = "+" if m.l_shift >= 0 else "\u2212"
        shift = ", ".join(signed(float(v)) for v in m.shift)
        lines.append(
            f"| `{word}` | {m.pairs} | {m.l_scale:.2f} L {sign} {abs(m.l_shift):.1f} "
            f"| {m.chroma_scale:.2f} | {signed(math.degrees(m.hue_turn))}\u00b0 | {shift} |"
        )
    # The prose under the table says what the maps do; hold the maps to it.
    lab = {w: model.modifier(w) for w in _MODIFIERS_SHOWN}
    says = [
        *(
            lab[w].shift[0] > 0 and lab[w].chroma_scale < 1
            for w in ("pale", "pastel", "soft", "faded")
        ),
        *(lab[w].shift[0] < 0 for w in ("dark", "deep")),
        *(lab[w].chroma_scale > 1 for w in ("bright", "vivid")),
    ]
    if not all(says):
        raise SystemExit(
            "docs/naming.md: the maps no longer read as the prose under the table says"
        )
    return "\n".join(lines)


#: The modifiers docs/naming.md shows: the common ones a reader knows.
_MODIFIERS_SHOWN = (
    "light", "dark", "pale", "deep", "soft", "bright", "rich", "vivid", "pastel", "faded", "neon",
)  # fmt: skip


def _naming_modifier_count() -> str:
    """docs/naming.md's count of the words that pass as modifiers, with the prose's examples
    checked: the words it says pass do, and the words it says do not, do not."""
    from huescues.language import NamingModel

    learned = NamingModel.default().modifiers()
    passing, failing = ("white", "midnight", "antique", "french"), ("dusty", "muted", "dull")
    rejected = ("ocean", "sea", "sky")
    wrong = [w for w in passing if w not in learned] + [
        w for w in failing + rejected if w in learned
    ]
    if wrong:
        raise SystemExit(f"docs/naming.md: the prose's modifier examples are wrong for {wrong}")
    return (
        f"In total, {len(learned)} words pass, and many are not modifiers in a grammar book: "
        "`white`, `midnight`, `antique`,\n"
        "`french`. They pass because the map beats the words for them. `dusty`, `muted` and "
        "`dull` do not pass:\n"
        "their names share a colour of their own (dusty pinks and blues), so multiplying the "
        "words' Gaussians\n"
        "predicts them better. `ocean`, `sea` and `sky` are rejected for the same reason."
    )


def _reports_example() -> str:
    """docs/reports.md's example: the printed report of a small tournament, as a file gets it."""
    import io

    from rich.console import Console

    from huescues.tournament import Tournament

    results = Tournament(["random", "naming", "embedding"], games=120, seed=0).run()
    out = io.StringIO()
    results.report().print(Console(file=out, width=120, color_system=None))
    return "```text\n" + "\n".join(line.rstrip() for line in out.getvalue().splitlines()) + "\n```"


#: Every figure: its page and how to compute its text.
def _languages_guesser() -> str:
    """docs/languages.md's sentence on the Spanish default player's guesser on the Spanish picks
    (scripts/evaluate_languages.py's last table)."""
    from huescues.agents import EmbeddingGuesser, default_agent
    from huescues.research import agreement_by_category

    script = _script("evaluate_languages")
    words = script.dev_words()
    by_word = script.spanish_picks()
    players = {
        "with": default_agent("es").guesser,
        "without": EmbeddingGuesser(model=script.dev_models(words, blind=False)),
        "blind": EmbeddingGuesser(model=script.dev_models(words, blind=True)),
    }
    report = agreement_by_category(by_word, players).overall
    overall = dict(report.players)
    honest, shipped, blind = overall["without"], overall["with"], overall["blind"]
    person, square = report.person, report.random
    return (
        f"On people's picks for the 39 dev clues shown in Spanish ({len(by_word.rows):,} picks, "
        "grouped "
        "by the shown\nword; `PYTHONPATH=src python scripts/evaluate_languages.py`, last table), "
        "the Spanish default\nplayer's guesser (outside a game; with entries left out, its "
        'two models read literally:\n`default_model("es")` and the naming model through the '
        f"table, averaged) scores **{honest.mean:.3f} [{honest.low:.3f}, {honest.high:.3f}]** "
        "points a pick with the glossary\nentries (and the pack's own ratings) of the dev words "
        f"left out ({shipped.mean:.3f} for the player as it ships, which the glossary was\n"
        "written knowing), and "
        f"**{blind.mean:.3f} [{blind.low:.3f}, {blind.high:.3f}]** with the blind translation "
        f"in their place; a person\n{person.mean:.3f}, a random square {square.mean:.3f}. "
        "The kept-back clues have not been measured."
    )


def _es_heldout_today(name: str = "heldout.tsv") -> str:
    """scripts/evaluate_spanish_heldout.py's figures on a held-out Spanish list
    (``knowledge/spanish/NAME``), all words: its points for the Spanish default model and
    guesser, the model's object words' and the share with the listed basic term
    (docs/languages.md)."""
    script = _script("evaluate_spanish_heldout")
    kinds = {k: v for k, v in script.groups().items() if k in ("object words", "all")}
    got = {
        reader: {group: script.summarise([(e, r) for e, r in rows if keep(e)])
                 for group, keep in kinds.items()}
        for reader, rows in script.measure(ROOT / "knowledge/spanish" / name).items()
    }  # fmt: skip
    model, guesser = got['default_model("es")'], got['default_agent("es").guesser']
    return (
        f'{model["all"].points:.2f} points for `default_model("es")` and '
        f"{guesser['all'].points:.2f} for the guesser (the object words "
        f"{model['object words'].points:.2f}), the listed basic term {model['all'].term:.2f}"
    )


def _people_data() -> str:
    """docs/people.md's first example, its comments what the code gives (the reprs)."""
    from huescues.research import dev_picks

    responses, board = dev_picks()
    r = responses.rows[0]
    first = (r.clue, r.square, r.extra["category"], r.extra["shown_word"])
    at = 42
    return "\n".join(
        [
            "```python",
            "from huescues.research import dev_picks",
            "",
            _code_line("responses, board = dev_picks()", "HumanResponses, Board", at),
            _code_line(
                "len(responses), len(responses.clues())",
                repr((len(responses), len(responses.clues()))),
                at,
            ),
            _code_line("board.id, board.shape", repr((board.id, board.shape)), at),
            "r = responses.rows[0]",
            _code_line(
                'r.clue, r.square, r.extra["category"], r.extra["shown_word"]', repr(first), at
            ),
            "```",
        ]
    )


def _code_line(code: str, comment: str, at: int = 51) -> str:
    """A line of an example: the code, then its comment from column ``at``."""
    return f"{code:<{at - 1}} # {comment}" if len(code) < at - 1 else f"{code} # {comment}"


def _naming_example() -> str:
    """docs/naming.md's first example, its comments the values the code gives."""
    from huescues.language import NamingModel

    model = NamingModel.default()
    p = model.predict("pale ocean")
    lab = ", ".join(f"{v:.1f}" for v in p.lab)
    m = model.modifier("pale")
    assert m is not None
    modifier = (
        f"Modifier(word='pale', pairs={m.pairs}, l_scale={m.l_scale:.2f}, "
        f"l_shift={m.l_shift:.1f}, chroma_scale={m.chroma_scale:.2f}, ...)"
    )
    lines = [
        "<!-- slow: a refit, 2-4 s -->",  # the docs' snippets test runs this page in the slow tier
        "```python",
        "from huescues import Board",
        "from huescues.language import NamingModel",
        "",
        "board = Board.standard()",
        _code_line("model = NamingModel.default()", "precomputed, ~0.05 s to load"),
        _code_line(
            'model.predict("pale ocean")', f'Prediction(lab=[{lab}], ..., source="{p.source}")'
        ),
        _code_line('model.score("banana", board.lab)', "(16, 30) log densities"),
        _code_line(
            'model.known("xyzzy"), model.is_modifier("pale")',
            f"{model.known('xyzzy')}, {model.is_modifier('pale')}",
        ),
        _code_line('model.modifier("pale")', modifier),
        _code_line(
            'held_out = NamingModel.fit(exclude={"ocean blue"})',
            "fitted without a name, in every source (2-4 s)",
        ),
        "```",
    ]
    return "\n".join(lines)


def _knowledge_example() -> str:
    """docs/knowledge.md's first example, its comments the values the code gives."""
    from huescues.language import BASIC_TERMS, ObjectColourModel

    knowledge = ObjectColourModel.default()
    banana, carried = knowledge.evidence("banana"), knowledge.evidence("quantumly")
    anger = knowledge.distribution("anger")
    top = sorted(range(len(anger)), key=lambda i: -anger[i])[:2]
    terms = ", ".join(f"{BASIC_TERMS[i]} {anger[i]:.1f}" for i in top)
    light, chroma = knowledge.tone("midnight")
    at = 46
    lines = [
        "```python",
        "from huescues.language import ObjectColourModel, default_model",
        "",
        _code_line("knowledge = ObjectColourModel.default()", "loads in well under a second", at),
        _code_line(
            'knowledge.distribution("anger")',
            f"11 probabilities (BASIC_TERMS): {terms}, ...",
            at,
        ),
        _code_line(
            'knowledge.tone("midnight")',
            f"(L*, C*) people picture: ({light:.1f}, {chroma:.1f}), dark",
            at,
        ),
        _code_line(
            'knowledge.evidence("banana"), knowledge.evidence("quantumly")',
            f"({banana:.2f}..., {carried:.3f}): attested, carried",
            at,
        ),
        _code_line(
            'knowledge.sources("anger")',
            f"{knowledge.sources('anger')!r}: where the knowledge comes from",
            at,
        ),
        _code_line(
            'default_model().predict("smurf").evidence',
            "every Prediction says how much is known",
            at,
        ),
        "```",
    ]
    return "\n".join(lines)


# -- docs/study.md ---------------------------------------------------------------------------
#: The walkthrough's simulated study: clues, participants, and how many stop before the end.
_STUDY_CLUES = ("banana", "lagoon", "moss", "brick", "lavender", "mustard")


@cache
def _study_run() -> dict[str, Any]:
    """docs/study.md's walkthrough: a real server (Starlette's test client) takes a study of 24
    simulated participants (each clue's picks drawn from the default model's belief, a seeded
    generator; three stop early), then the exports and the report, as a researcher would."""
    import tempfile

    import numpy as np
    from starlette.testclient import TestClient

    from huescues import Board
    from huescues.language import default_model
    from huescues.research import HumanResponses, people_agreement
    from huescues.web import StudyConfig, create_app, export_responses, study_report

    board = Board.standard()
    cells = [str(c) for c in board.cells()]
    model = default_model()
    beliefs = {}
    for clue in _STUDY_CLUES:
        scores = model.score(clue, board.lab).ravel()
        p = np.exp(scores - scores.max())
        beliefs[clue] = p / p.sum()
    # The k-th answer to a clue is drawn from its own generator, so the walkthrough's figures do
    # not depend on the order the server's secret gives each participant.
    answers: dict[str, int] = {}

    def draw(clue: str) -> tuple[str, int]:
        k = answers[clue] = answers.get(clue, -1) + 1
        g = np.random.default_rng([2026, _STUDY_CLUES.index(clue), k])
        return cells[int(g.choice(len(cells), p=beliefs[clue]))], int(g.lognormal(8.2, 0.4))

    rng = np.random.default_rng(2026)
    folder = Path(tempfile.mkdtemp())
    db = folder / "study.sqlite"
    config = StudyConfig(clues=_STUDY_CLUES, clues_per_person=4, attention_checks=1,
                         practice=1, rate=1000.0, burst=1000, starts_per_minute=1000)  # fmt: skip
    with TestClient(create_app(db, study=config)) as client:
        for person in range(24):
            body = client.post("/study/api/start", json={"consent": True}).json()
            p, answered = body["participant"], 0
            while not body.get("done"):
                item = body["item"]
                if person % 8 == 7 and answered == 3:
                    break  # stops before the end
                ms = int(rng.lognormal(8.2, 0.4))
                if item["kind"] == "attention":
                    square = item["square"]
                elif item["kind"] == "practice":
                    square = cells[int(rng.integers(len(cells)))]
                elif person % 8 == 7:
                    square = cells[int(rng.choice(len(cells), p=beliefs[item["clue"]]))]
                else:
                    square, ms = draw(item["clue"])
                body = client.post("/study/api/answer", json={
                    "participant": p, "item": item["index"], "square": square, "ms": ms,
                }).json()  # fmt: skip
                answered += 1
    out = folder / "responses.csv"
    export_responses(db, out)
    responses = HumanResponses.from_csv(out, board)
    return {
        "report": study_report(db, board, n_boot=1000, seed=0),
        "agreement": people_agreement(responses, n_boot=1000, seed=0),
        "responses": responses,
        "all": HumanResponses.from_csv(out, board, keep="all"),
        "config": config,
    }


def _study_report() -> str:
    return "```markdown\n" + _study_run()["report"].rstrip() + "\n```"


def _study_methods() -> str:
    """The methods paragraph, every claim in it read from the run: the participants by status,
    the study's settings, the answers per clue, the agreement."""
    import collections

    run = _study_run()
    responses, everyone, config = run["responses"], run["all"], run["config"]
    status = {r.participant: str(r.extra.get("status", "")) for r in everyone.rows}
    kept = len(responses.participants())
    total = len(everyone.participants())
    ways = collections.Counter(v for v in status.values() if v != "completed")
    why = {
        "incomplete": "stopped before the end",
        "screened_out": "missed more attention checks than allowed",
    }
    others = "; ".join(f"{n} {why.get(state, state)}" for state, n in sorted(ways.items()))
    who = (
        f"{total} started; {kept} completed and were analysed; of the others, {others}, and "
        "they were left out by huescues.research's default rule, completed participants only"
        if others
        else f"{total} started, and all completed and were analysed"
    )
    answers = collections.Counter(r.clue for r in responses.rows)
    low, high = min(answers.values()), max(answers.values())
    balance = (
        f"every clue was answered {low} times by those who completed"
        if low == high
        else f"every clue was answered {low} to {high} times by those who completed"
    )
    checks, allowed = config.attention_checks, config.attention_misses_allowed
    check = (
        f"with {_count(checks, 'attention check')} among them (a square to click; a click more "
        f"than one square away is a miss). With {_count(allowed, 'miss', 'misses')} allowed "
        "(one more ends the session), the checks could exclude nobody"
        if checks <= allowed
        else f"with {_count(checks, 'attention check')} among them (a square to click; a click "
        f"more than one square away is a miss; more than {allowed} misses ended the session)"
    )
    agreement = run["agreement"]
    best = max(agreement, key=lambda c: c.points.mean or 0.0)
    worst = min(agreement, key=lambda c: c.points.mean or 0.0)
    text = (
        f"> Participants ({who}) each saw {config.clues_per_person} of {len(_STUDY_CLUES)} clues, "
        "given to each participant from the clues the completed participants had answered "
        f"least (balanced assignment; {balance}), after "
        f"{_count(config.practice, 'practice item')}, {check}. "
        "For each clue we measured how far people agree: the mean R15 points of a pick against "
        "each other pick of the clue taken as the target (leave-one-out), with 95 % bootstrap "
        "intervals over the clue's picks (the mean recomputed on each resample). Agreement "
        f"ranged from {worst.points.format('.2f')} ({worst.clue}) to "
        f"{best.points.format('.2f')} ({best.clue}) points a pick (Figure 1)."
    )
    return "\n".join(textwrap.wrap(text, 98, initial_indent="", subsequent_indent="> "))


def _count(n: int, one: str, many: str | None = None) -> str:
    """``"one practice item"``, ``"2 practice items"``."""
    words = {0: "no", 1: "one", 2: "two", 3: "three"}
    return f"{words.get(n, str(n))} {one if n == 1 else many or one + 's'}"


def _study_agreement(path: Path) -> None:
    from huescues.render import new_figure

    agreement = sorted(_study_run()["agreement"], key=lambda c: c.points.mean or 0.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig = new_figure("the study's figure", figsize=(6.0, 3.2))
    ax = fig.add_subplot()
    for i, c in enumerate(agreement):
        ax.plot([c.points.low, c.points.high], [i, i], color="#555")
        ax.plot([c.points.mean], [i], "o", color="#0072b2")
    ax.set_yticks(range(len(agreement)), [f"{c.clue} ({c.n})" for c in agreement])
    ax.set_xlabel("people's agreement: mean R15 points a pick (leave-one-out)")
    ax.set_title("Figure 1. Agreement per clue, 95% bootstrap intervals")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def _study_plates() -> str:
    from huescues import Board
    from huescues.web._plates import plate_validation

    lines = [
        "| board | plate screens for | pairs | CIEDE2000, normal vision | as a protan sees it "
        "| as a deutan sees it | as a tritan sees it |",
        "| --- | --- | ---: | --- | --- | --- | --- |",
    ]

    def spread(v: tuple[float, float, float]) -> str:
        return f"{v[0]:.1f} ({v[1]:.1f}-{v[2]:.1f})"

    for board in (Board.standard(), Board.retail()):
        for check in plate_validation(board):
            views = " | ".join(spread(check.simulated[d]) for d in ("protan", "deutan", "tritan"))
            lines.append(
                f"| {board.id} | {check.deficiency} | {check.pairs} | {spread(check.normal)} | "
                f"{views} |"
            )
    return "\n".join(lines)


def _agents_pawn_evidence() -> str:
    """The guesser's reading of the other pawns: its defaults (docs/agents.md)."""
    from huescues.agents import ModelGuesser

    g = ModelGuesser()
    return (
        f"a Gaussian fall-off of {g.pawn_spread:g} squares, or nothing with probability "
        f"{g.pawn_floor:g}"
    )


def _crowd_reading(names: tuple[str, ...], squares: bool) -> str:
    """A shipped crowd reading (temperature, smoothing) as docs/agents.md words it."""
    from huescues.agents import CROWD_READINGS

    temperature, smoothing = CROWD_READINGS[names]
    width = "none" if smoothing == 0 else f"{smoothing:g}" + (" squares" if squares else "")
    return f"{temperature:.3g} and {width}"


def _agents_belief_table() -> str:
    """The size of a model's float32 table of word beliefs on the standard board (the giver's
    vocabulary, one float32 a square), in MB."""
    from huescues import Board
    from huescues.agents import clue_vocabulary

    squares = Board.standard().lab[..., 0].size
    return f"{len(clue_vocabulary()) * squares * 4 / 1e6:.1f} MB"


def _embedding_model() -> Any:
    from huescues.language import EmbeddingModel

    return EmbeddingModel.default()


#: docs/embedding.md's table: the texts, and what the page says of their colours.
_EMBEDDING_TEXTS = {
    "avocado": " (green)",
    "flamingo": " (pink)",
    "glacier": " (very light, cool)",
    "espresso": " (dark brown)",
    "deep ocean": "",
    "zzqxj": " (the mean colour)",
}


def _embedding_table() -> str:
    """docs/embedding.md's table of the shipped model's predictions."""
    import numpy as np

    model = _embedding_model()

    def values(v: Any) -> str:
        return ", ".join(f"{x:.1f}".replace("-", "\u2212") for x in v)

    lines = ["| text | CIELAB | std (L, a, b) | known |", "| --- | --- | --- | --- |"]
    for text, said in _EMBEDDING_TEXTS.items():
        p = model.predict(text)
        std = np.sqrt(np.diag(p.cov))
        lines.append(
            f"| `{text}` | {values(p.lab)}{said} | {values(std)} | {'yes' if p.known else 'no'} |"
        )
    flat = model.predict("\U0001f642")
    if flat.known:
        raise SystemExit("docs/embedding.md: the emoji is no longer the flat answer")
    lines.append("| `\U0001f642` | no known token: the flat answer | | no |")
    return "\n".join(lines)


def _embedding_params() -> str:
    params = _embedding_model()._fitted.params
    return f"\u03b3 = {params.gamma:g}, \u03b1 = {params.alpha:g}"


def _embedding_extra_words() -> str:
    return f"{len(_embedding_model()._fitted.extra_words):,} words"


def _embedding_cache() -> str:
    from huescues.language._embedding import _CACHE_SIZE

    return f"{_CACHE_SIZE:,} texts"


def _objects_summary() -> dict[str, Any]:
    import json

    text = (ROOT / "src/huescues/data/objects/objects.json").read_text(encoding="utf-8")
    summary: dict[str, Any] = json.loads(text)
    return summary


def _knowledge_carried() -> str:
    """A carried word's evidence, the carry's held-out accuracy (the shipped summary)."""
    return f"{_objects_summary()['reading']['carried_evidence']:.2f}"


def _knowledge_reading() -> str:
    """The knowledge's reading settings, as the build stored them."""
    reading = _objects_summary()["reading"]
    tempered = "tempered" if reading["temper"] else "untempered"
    return f"focus {reading['focus']:g}, tone weight {reading['tone_weight']:g}, {tempered}"


def _knowledge_rated() -> str:
    """docs/knowledge.md's second calibration table: the rated words, their ratings left out."""
    bands = _objects_summary()["evidence"]["authors_check"]
    words = sum(b["words"] for b in bands)
    lines = [
        f"| on {words:,} rated words another source covers, their ratings left out (truth: the "
        "authors' top colour) | words | mean evidence | top-1 |",
        "| --- | ---: | ---: | ---: |",
    ]
    for i, band in enumerate(bands):
        low, high = band["band"]
        label = f"{'evidence ' if i == 0 else ''}{low:.2f}-{high:.2f}"
        lines.append(
            f"| {label} | {band['words']:,} | {band['mean_evidence']:.3f} | {band['top1']:.3f} |"
        )
    return "\n".join(lines)


def _against(bands: list[dict[str, Any]]) -> str:
    return ", ".join(f"{b['mean_evidence']:.2f} against {b['top1']:.2f}" for b in bands)


def _knowledge_objects_quote() -> str:
    """The two largest bands on CoDa's objects: their mean evidence against their top-1."""
    bands = _objects_summary()["evidence"]["calibration_held_out"]
    return _against(sorted(bands, key=lambda b: -b["words"])[:2])


def _knowledge_smallest_band() -> str:
    bands = _objects_summary()["evidence"]["calibration_held_out"]
    return f"{min(b['words'] for b in bands)} words"


def _knowledge_rated_quote() -> str:
    return _against(_objects_summary()["evidence"]["authors_check"])


def _giver_evidence() -> str:
    from huescues.agents import GIVER_EVIDENCE

    return f"{GIVER_EVIDENCE:g}"


def _naming_floor() -> str:
    from huescues.language._naming import FLOOR

    return f"{FLOOR:.0%}"


def _naming_sources() -> str:
    """docs/naming.md's table of the sources' variances by agreement (the shipped model)."""
    from huescues.language import NamingModel
    from huescues.language._naming_arrays import SOURCES

    model = NamingModel.default()
    var = dict(zip(SOURCES, model._fitted.source_variance, strict=True))
    weights = model.source_weights()
    names = {
        "xkcd": "XKCD",
        "c3": "c3 (mean of p(bin \\| term))",
        "colornames": "`color-name-list`",
    }
    lines = ["| source | variance (\u0394E00\u00b2) | weight (XKCD = 1) |", "| --- | ---: | ---: |"]
    for source in ("xkcd", "c3", "colornames"):
        v, w = float(var[source]), weights[source]
        lines.append(
            f"| {names[source]} | {v:.2g} | {w:.2f} |"
            if source != "xkcd"
            else f"| XKCD | {v:.1f} | 1 |"
        )
    return "\n".join(lines)


def _naming_list_noise() -> str:
    """The noise of `color-name-list` by agreement: its variance's square root, in ΔE00."""
    import math

    from huescues.language import NamingModel
    from huescues.language._naming_arrays import SOURCES

    var = NamingModel.default()._fitted.source_variance[SOURCES.index("colornames")]
    return f"about {math.sqrt(float(var)):.1f} \u0394E00"


def _naming_banana_mass() -> str:
    """The mass of ``banana``'s density inside the sRGB gamut (docs/naming.md): exp(score) summed
    over a 3-unit CIELAB grid of the gamut's colours, times each cell's volume (the flat answer
    sums to 1 on it)."""
    import numpy as np

    from huescues.colour._convert import _D65, _SRGB_TO_XYZ  # srgb_to_lab's constants
    from huescues.language import NamingModel

    step = 3.0
    lightness = np.arange(step / 2, 100, step)
    ab = np.arange(-128 + step / 2, 128, step)
    grid = np.stack(np.meshgrid(lightness, ab, ab, indexing="ij"), -1).reshape(-1, 3)
    # In the gamut: linear sRGB in [0, 1] (CIELAB to XYZ, the inverse of srgb_to_lab's formulas;
    # without colour-science, whose import alone takes longer than this figure may).
    fy = (grid[:, 0] + 16) / 116
    f = np.stack([fy + grid[:, 1] / 500, fy, fy - grid[:, 2] / 200], axis=-1)
    xyz = np.where(f**3 > 216 / 24389, f**3, (116 * f - 16) / (24389 / 27)) * _D65
    linear = xyz @ np.linalg.inv(_SRGB_TO_XYZ).T
    inside = grid[np.all((linear >= 0) & (linear <= 1), axis=-1)]
    mass = float(np.exp(NamingModel.default().score("banana", inside)).sum() * step**3)
    return f"{mass:.2f} for `banana`"


def _shard_games() -> str:
    from huescues.tournament._shards import SHARD_GAMES

    return f"{SHARD_GAMES:,} games each"


def _carry(row: str, sep: str) -> str:
    """A row of the build's cross-validated carry (the shipped summary): top-1 and Spearman."""
    got = _objects_summary()["cross_validation"][row]
    return f"{got['top1']:.3f}{sep}{got['spearman']:.3f}"


@cache
def _embedding_build() -> dict[str, Any]:
    """The shipped embedding regressor's build figures (src/huescues/data/embedding/
    regressor.json, written by scripts/build_embeddings.py)."""
    import json

    path = ROOT / "src/huescues/data/embedding/regressor.json"
    build: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return build


#: docs/embedding.md's labels for the build's held-out rows (XKCD names), in the table's order.
_EMBEDDING_ROWS = {
    "mean colour": "mean colour",
    "nearest name (shared words, NearestNameModel)": (
        "nearest name (`NearestNameModel`: names sharing most words)"
    ),
    "nearest neighbour in the vectors": "nearest neighbour in the vectors",
    "kernel ridge alone": "kernel ridge alone",
    "kernel ridge + shared XKCD names": "kernel ridge + shared XKCD names",
    "kernel ridge + shared names + color-name-list words (shipped)": (
        "**kernel ridge + shared names + `color-name-list` words (shipped)**"
    ),
}


def _embedding_held_out() -> str:
    """docs/embedding.md's table of the held-out CIEDE2000 on XKCD names, as the build stored it."""
    rows = _embedding_build()["evaluation"]["xkcd_held_out"]
    lines = ["| model | median | mean |", "| --- | ---: | ---: |"]
    for key, label in _EMBEDDING_ROWS.items():
        median, mean = f"{rows[key]['median']:.1f}", f"{rows[key]['mean']:.1f}"
        if "shipped" in key:
            median, mean = f"**{median}**", f"**{mean}**"
        lines.append(f"| {label} | {median} | {mean} |")
    return "\n".join(lines)


def _embedding_one_word() -> tuple[str, str]:
    """The build's check on one-word color-name-list entries: how many, and the medians."""
    rows = _embedding_build()["evaluation"]["colornames_one_word_held_out"]
    (mean_key,) = [k for k in rows if k.startswith("mean colour")]
    count = int(re.search(r"\((\d+) words\)", mean_key).group(1))  # type: ignore[union-attr]
    medians = (
        f"{rows[mean_key]['median']:.1f}, kernel ridge alone "
        f"{rows['kernel ridge alone']['median']:.1f} and the shipped model "
        f"{rows['shipped model']['median']:.1f}"
    )
    return f"{count:,}", medians


def _embedding_tokens() -> str:
    """The shipped static vectors' WordPiece vocabulary."""
    import numpy as np

    with np.load(ROOT / "src/huescues/data/embedding/static_vectors.npz") as data:
        return f"{len(data['vocab']):,}"


@cache
def _naming_data() -> dict[str, int]:
    """The shipped naming data's sizes (src/huescues/data/naming/): color-name-list's names,
    c3's CIELAB bins and its naming counts."""
    import gzip
    import json

    where = ROOT / "src/huescues/data/naming"
    with gzip.open(where / "colornames.csv.gz", "rt", encoding="utf-8") as f:
        names = sum(1 for line in f if line.strip()) - 1  # its header
    with gzip.open(where / "c3_data.json.gz", "rt", encoding="utf-8") as f:
        c3 = json.load(f)
    # c3's colours are L, a, b triples; its counts are (index, count) pairs.
    return {"colornames": names, "bins": len(c3["color"]) // 3, "counts": sum(c3["T"][1::2])}


@cache
def _raters() -> tuple[list[str], list[tuple[str, float, bool]]]:
    """scripts/compare_raters.py's report on the authors' two raters (its lines, per word)."""
    lines, per_word = _script("compare_raters").agreement()
    return lines, per_word


def _knowledge_raters() -> str:
    """docs/knowledge.md's table of the two raters' agreement, from scripts/compare_raters.py's
    report (its rows, worded as the page words them)."""
    lines, per_word = _raters()
    rows = [line for line in lines if line.startswith("| ") and line[2].isalpha()][1:]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    n = len(per_word)
    words = len(_script("compare_raters").read(_script("compare_raters").SECOND))
    out = [
        f"| the two raters, on the {words} words | mean | 95 % interval |",
        "| --- | ---: | ---: |",
        f"| Spearman of the 11 colours ({n} words with colours from both) | {cells[0][1]} | "
        f"{cells[0][2]} |",
        f"| same top colour (the same {n}) | {cells[1][1]} | {cells[1][2]} |",
    ]
    for i, (name, mean, interval) in enumerate(cells[2:]):
        kind, rho = re.fullmatch(
            r"(\w+): Spearman over words ([\d.]+); within 1 point", name
        ).groups()
        said = f"Spearman over words {rho}" if i == 0 else rho
        out.append(f"| {kind} within 1 point ({said}) | {mean} | {interval} |")
    return "\n".join(out)


def _knowledge_raters_apart() -> str:
    """The three words the authors' two raters agree on least (scripts/compare_raters.py)."""
    worst = sorted(_raters()[1], key=lambda x: x[1])[:3]
    return ", ".join(f"{w.title()} {r:.2f}" for w, r, _ in worst)


@cache
def _fold_models() -> dict[str, Any]:
    """``standard_models()``, each fit made once a process: the held-out evaluations below use
    the same folds (five by ``fold_of``, on the XKCD names and on the second set), so they share
    their twenty fits (about 30 s) instead of making them once each."""
    from huescues.language import CombinedModel, standard_models

    models = standard_models()
    naming, embedding = cache(models["naming data"]), cache(models["embedding"])
    models.update(
        {
            "naming data": naming,
            "embedding": embedding,
            "combined": lambda held: CombinedModel(naming(held), embedding(held)),
        }
    )
    return models


@cache
def _held_out(second_set: bool) -> Any:
    """scripts/evaluate_language.py's evaluation, with or without --second-set."""
    from huescues.engine import Board
    from huescues.language import xkcd_names
    from huescues.research import evaluate, second_test_set

    if second_set:
        names, lab = second_test_set()
    else:
        xkcd = xkcd_names()
        names, lab = list(xkcd.names), xkcd.lab
    return evaluate(_fold_models(), names, lab, board=Board.standard())


def _language_held_out(second_set: bool) -> str:
    """scripts/evaluate_language.py's table (docs/language.md), with or without --second-set."""
    return str(_held_out(second_set).table().split("\n\n")[0])


def _chroma_ratio() -> str:
    """The naming data's held-out predictions' chroma over the names' (scripts/
    evaluate_language.py's), as docs/language.md and docs/naming.md quote it."""
    (row,) = [r for r in _held_out(False).rows if r.model == "naming data"]
    return f"{row.chroma_ratio:.2f}"


@cache
def _listen() -> Any:
    """scripts/evaluate_listen.py's reference games (docs/language.md)."""
    from huescues.research import listen_evaluation

    return listen_evaluation(factory=_fold_models()["combined"])


def _language_listen() -> str:
    return str(_listen().table().split("\n\n")[0])


@cache
def _name_reading(second_set: bool) -> Any:
    """scripts/evaluate_name_reading.py's (names, table, differences) (docs/agents.md)."""
    return _script("evaluate_name_reading").name_reading(second_set, _fold_models())


def _listen_gains() -> str:
    """``listen`` minus ``score`` alone on the names, by condition (XKCD, then the second set),
    as docs/language.md's prose reads the table."""
    rows = {(r.names, r.kind, r.condition): r for r in _listen().rows}

    def gains(condition: str) -> str:
        got = [rows[s, "name", condition] for s in ("XKCD", "color-name-list")]
        return " and ".join(_minus(f"{r.listen - r.literal:+.3f}") for r in got)

    return (
        f"split {gains('split')}, close {gains('close')} over the literal reading, far "
        f"{gains('far')}"
    )


def _prior_cost() -> str:
    """What starting at the prior costs the default guesser on people's names (docs/agents.md)."""
    label = "default, in a game's first round (its prior)"
    xkcd, second = (_name_reading(s)[2][label] for s in (False, True))
    costs = []
    for mean, low, high in (xkcd, second):
        costs.append("nothing" if low <= 0 <= high or mean >= 0 else f"{-mean:.2f} points a name")
    return f"{costs[0]} on the XKCD names and {costs[1]} on the second set"


def _naming_cost() -> str:
    """What mixing the naming data's reading into the combined model's costs on the XKCD names."""
    mean, _, _ = _name_reading(False)[2]["combined (EmbeddingGuesser())"]
    return f"{mean:.2f} points a name"


def _entrants_module(name: str) -> Any:
    """A script of scripts/ whose factories are a tournament's entrants by module path
    (``name=module:callable``): imported by its name, as a tournament's workers import it."""
    import importlib

    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    return importlib.import_module(name)


@cache
def _tournament(
    entrants: tuple[str, ...],
    games: int,
    language: str = "en",
    seed: int = 0,
    report_seed: int = 0,
) -> Any:
    """A tournament's report as ``huescues tournament`` makes it, played in this process; the
    command bootstraps on its ``--seed`` (``report_seed``)."""
    from huescues.tournament import Tournament

    rules = {} if language == "en" else {"language": language}
    tournament = Tournament(list(entrants), games=games, seed=seed, rules=rules)
    return tournament.run(workers=1).report(seed=report_seed)


def _agents_speakers() -> str:
    """scripts/evaluate_speakers.py's table (docs/agents.md), its tournaments played here."""
    speakers = _entrants_module("evaluate_speakers")

    def play(entrants: tuple[str, ...], games: int, seed: int) -> Any:
        # (Seed 0 called as the default tournament's figure calls it: the same cached games.)
        return (
            _tournament(entrants, games, "en", seed) if seed else _tournament(entrants, games, "en")
        )

    return str(speakers.table(play))


def _margin(report: Any, a: str, b: str) -> str:
    """``a``'s points a game minus ``b``'s with its interval, as the report pairs them."""
    return _minus(report.difference(a, b).format("+.2f"))


def _default_tournament(language: str = "en") -> str:
    """The default tournament's margin, default minus naming (``huescues tournament``: the
    command's entrants, games and seed; seconds once the models are loaded), as docs/agents.md
    quotes it."""
    from huescues.cli import DEFAULT_ENTRANTS, DEFAULT_GAMES

    report = _tournament(tuple(DEFAULT_ENTRANTS), DEFAULT_GAMES, language)
    return _margin(report, "default", "naming")


#: docs/agents.md's mixed table: the command it prints, as ``huescues tournament`` reads it.
MIXED_TABLE = ("--games 240 --seed 1 --entrants default combined naming", 240, 1)
MIXED_ENTRANTS = ("default", "combined", "naming")


def _paired_table(report: Any) -> str:
    """The report's "Paired comparisons" table as the command prints it to a file."""
    import io

    from rich.console import Console

    out = io.StringIO()
    report.print(Console(file=out, width=120, color_system=None))
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Paired"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("└"))
    return "\n".join(lines[start : end + 1])


def _agents_mixed_tables() -> str:
    """docs/agents.md's mixed table: the paired comparisons of ``huescues tournament --games 240
    --seed 1 --entrants default combined naming``."""
    _, games, seed = MIXED_TABLE
    report = _tournament(MIXED_ENTRANTS, games, seed=seed, report_seed=seed)
    return "```text\n" + _paired_table(report) + "\n```"


def _agents_mixed_now() -> str:
    """docs/agents.md's table of the default players' margin over the naming players in the
    mixed table's command and in the default tournament (``huescues tournament``)."""
    from huescues.cli import DEFAULT_ENTRANTS, DEFAULT_GAMES

    options, games, seed = MIXED_TABLE
    rows = [
        (
            f"`huescues tournament {options}`",
            _tournament(MIXED_ENTRANTS, games, seed=seed, report_seed=seed),
        ),
        (
            f"`huescues tournament` (seed 0: {', '.join(DEFAULT_ENTRANTS)}; {DEFAULT_GAMES} games)",
            _tournament(tuple(DEFAULT_ENTRANTS), DEFAULT_GAMES),
        ),
    ]
    lines = [
        "| tournament | default minus naming, points a game "
        "| blocks where the default scored more |",
        "| --- | ---: | ---: |",
    ]
    for command, report in rows:
        (pair,) = [p for p in report.paired if (p.a, p.b) == ("default", "naming")]
        lines.append(
            f"| {command} | {_margin(report, 'default', 'naming')} | {pair.a_better:.0%} |"
        )
    return "\n".join(lines)


def _averaged_margin(language: str) -> str:
    """scripts/evaluate_giver_listener.py's default tournament with the averaged giver in the
    default player's seat: its margin over naming (docs/agents.md)."""
    listener = _entrants_module("evaluate_giver_listener")

    def play(entrants: tuple[str, ...], games: int, seed: int, language: str) -> Any:
        assert seed == 0
        return _tournament(entrants, games, language)

    return _minus(listener.averaged_margin(language, play))


def _spanish_three_givers() -> str:
    """scripts/evaluate_giver_listener.py --self-play --language es: the three Spanish givers at
    one table, reported as its command reports them (docs/agents.md)."""
    from huescues.tournament import Tournament

    listener = _entrants_module("evaluate_giver_listener")

    def play(entrants: tuple[str, ...], games: int, seed: int, language: str) -> Any:
        tournament = Tournament(
            list(entrants), games=games, seed=seed, rules={"language": language}
        )
        return tournament.run(workers=1).report(seed=seed)

    from huescues.agents import default_agent

    pool = default_agent("es").giver.pool
    assert pool is not None
    report = listener.three_givers(play)
    giver = {e.entrant: e.giver_points_per_round.format(".2f") for e in report.entrants}
    return (
        f"the pool at {pool[0]:g} is {_margin(report, 'pooled', 'pooled_en_weights')} points a "
        f"game against the pool at 0.7 and {_margin(report, 'pooled', 'averaged')} against the "
        f"average, its giver's points a round {giver['pooled']} against the average's "
        f"{giver['averaged']} and the pool at 0.7's {giver['pooled_en_weights']}"
    )


def _languages_self_play() -> str:
    """docs/languages.md's table: the default player against random, 480 games, in Spanish and
    in English (``huescues tournament [--language es] --entrants default random --games 480``)."""
    lines = [
        "| table | default's points a game | random's | default minus random "
        "| default giving to default (points a pawn) |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, language in (
        ("Spanish (`--language es`)", "es"),
        ("English (the same command without it)", "en"),
    ):
        report = _tournament(("default", "random"), 480, language)
        points = {e.entrant: e.points_per_game.format(".1f") for e in report.entrants}
        (own,) = [c for c in report.crossplay if (c.giver, c.guesser) == ("default", "default")]
        lines.append(
            f"| {label} | {points['default']} | {points['random']} | "
            f"{_margin(report, 'default', 'random')} | {own.points_per_pawn:.2f} |"
        )
    return "\n".join(lines)


def _languages_self_play_gap() -> str:
    """The English default player's points a game minus the Spanish one's, in that table."""
    got = []
    for language in ("en", "es"):
        report = _tournament(("default", "random"), 480, language)
        (default,) = [e for e in report.entrants if e.entrant == "default"]
        got.append(default.points_per_game.mean)
    gap = round(got[0] - got[1], 1) + 0.0  # (+ 0.0: no "-0.0")
    return f"{gap:.1f} points".replace("-", "\u2212")  # (a minus sign)


#: The held-out evaluations of scripts/evaluate_*.py whose tables a page prints: minutes, not
#: seconds, so they are checked by a test of their own (tests/test_docs_evaluations.py), which
#: the suite's other worker runs beside the quick figures'; ``--quick`` leaves them out.
EVALUATIONS: dict[str, tuple[str, Callable[[], str]]] = {
    "language-held-out": ("docs/language.md", lambda: _language_held_out(False)),
    "language-second-set": ("docs/language.md", lambda: _language_held_out(True)),
    "language-listen": ("docs/language.md", _language_listen),
    "agents-name-reading": ("docs/agents.md", lambda: str(_name_reading(False)[1])),
    "agents-name-reading-second-set": ("docs/agents.md", lambda: str(_name_reading(True)[1])),
    "languages-self-play": ("docs/languages.md", _languages_self_play),
    "agents-speakers": ("docs/agents.md", _agents_speakers),
    "agents-mixed-tables": ("docs/agents.md", _agents_mixed_tables),
    "agents-mixed-now": ("docs/agents.md", _agents_mixed_now),
}

#: The inline figures that read the held-out evaluations or play a tournament: part of
#: :data:`INLINE`, and checked with :data:`EVALUATIONS` (the quick part leaves them out).
INLINE_EVALUATIONS: dict[str, tuple[tuple[str, ...], Callable[[], str]]] = {
    "language-listen-gains": (("docs/language.md",), _listen_gains),
    "agents-default-tournament": (("docs/agents.md",), _default_tournament),
    "agents-default-tournament-es": (("docs/agents.md",), lambda: _default_tournament("es")),
    "languages-self-play-gap": (("docs/languages.md",), _languages_self_play_gap),
    "agents-prior-cost": (("docs/agents.md",), _prior_cost),
    "agents-naming-cost": (("docs/agents.md",), _naming_cost),
    "language-chroma": (("docs/language.md", "docs/naming.md"), _chroma_ratio),
    "agents-averaged-giver": (("docs/agents.md",), lambda: _averaged_margin("en")),
    "agents-averaged-giver-es": (("docs/agents.md",), lambda: _averaged_margin("es")),
    "agents-spanish-three-givers": (("docs/agents.md",), _spanish_three_givers),
}


FIGURES: dict[str, tuple[str, Callable[[], str]]] = {
    "languages-guesser": ("docs/languages.md", _languages_guesser),
    "naming-example": ("docs/naming.md", _naming_example),
    "knowledge-example": ("docs/knowledge.md", _knowledge_example),
    "board-statistics": ("docs/board.md", _board_statistics),
    "knowledge-calibration": ("docs/knowledge.md", _knowledge_calibration),
    "languages-spanish": ("docs/languages.md", _languages_spanish),
    "naming-modifiers": ("docs/naming.md", _naming_modifiers),
    "naming-modifier-count": ("docs/naming.md", _naming_modifier_count),
    "reports-example": ("docs/reports.md", _reports_example),
    "people-data": ("docs/people.md", _people_data),
    "people-today": ("docs/people.md", _people_today),
    "people-hardest": ("docs/people.md", _people_hardest),
    "people-crowd-fit": ("docs/people.md", _people_crowd_table),
    "agents-listener-search": ("docs/agents.md", _agents_listener_search),
    "agents-spanish-listener": ("docs/agents.md", _agents_spanish_listener),
    "research-clue-choice": ("docs/research.md", _research_clue_choice),
    "research-skips": ("docs/research.md", _research_skips),
    "research-player": ("docs/research.md", _research_player),
    "research-comparison": ("docs/research.md", _research_comparison),
    "research-dev-compare": ("docs/research.md", _research_dev_compare),
    "research-dev-flat": ("docs/research.md", _research_dev_flat),
    "research-dev-indistinguishable": ("docs/research.md", _research_dev_indistinguishable),
    "research-dev-calibration": ("docs/research.md", _research_dev_calibration),
    "research-dev-picks": ("docs/research.md", _research_dev_picks),
    "research-dev-latex": ("docs/research.md", _research_dev_latex),
    "research-naming": ("docs/research.md", _research_naming),
    "study-plates": ("docs/study.md", _study_plates),
    "study-report": ("docs/study.md", _study_report),
    "study-methods": ("docs/study.md", _study_methods),
    "embedding-table": ("docs/embedding.md", _embedding_table),
    "knowledge-giver-listener": (
        "docs/knowledge.md",
        lambda: _script("evaluate_givers").listener_table(_dev_responses()),
    ),
    "knowledge-rated": ("docs/knowledge.md", _knowledge_rated),
    "knowledge-raters": ("docs/knowledge.md", _knowledge_raters),
    "embedding-held-out": ("docs/embedding.md", _embedding_held_out),
    "naming-sources": ("docs/naming.md", _naming_sources),
}

#: Pictures a page shows: the file and how to draw it. Drawn anew when the regions are
#: rewritten; a check only asks that the file is there (a PNG's bytes vary with matplotlib).
IMAGES: dict[str, Callable[[Path], None]] = {
    "docs/images/research-forest.png": _research_forest,
    "docs/images/study-agreement.png": _study_agreement,
}


def _vocabulary_size() -> str:
    from huescues.agents import clue_vocabulary

    return f"{len(clue_vocabulary()):,} words"


def _rl_vocabulary_size() -> str:
    """The environment's clue vocabulary: the shipped one plus the random agent's other words."""
    from huescues.rl import default_clue_vocabulary

    return f"{len(default_clue_vocabulary()):,} words"


def _rl_clue_ids() -> str:
    """examples/learn_guesser.py's clue ids: the batched engine's standard vocabulary, plus one
    for "no clue yet"."""
    from huescues.batch import ClueVocabulary

    return f"{len(ClueVocabulary.standard()) + 1:,}"


def _rl_table_cells() -> str:
    """examples/learn_guesser.py's table: two guesses, by clue id, by square."""
    from huescues import Board
    from huescues.batch import ClueVocabulary

    cells = 2 * (len(ClueVocabulary.standard()) + 1) * Board.standard().lab[..., 0].size
    return f"{cells / 1e6:.1f} million"


def _batch_clues() -> str:
    from huescues.batch import ClueVocabulary

    return f"{len(ClueVocabulary.standard()):,} clues"


def _common_words() -> str:
    from huescues.engine import common_words

    return f"{len(common_words()):,} words"


def _common_words_es() -> str:
    from huescues.engine import common_words

    return f"{len(common_words('es')):,} words"


def _own_knowledge_weight() -> str:
    from huescues.language._translate import OWN_KNOWLEDGE_WEIGHT  # the constant the page explains

    return f"{OWN_KNOWLEDGE_WEIGHT:g}"


def _es_vocabulary() -> tuple[int, int]:
    """The Spanish givers' words, and the English givers' words none of them stands for."""
    import csv

    from huescues.agents import clue_vocabulary

    path = ROOT / "src/huescues/data/languages/es/clue_vocabulary.tsv"
    with path.open(encoding="utf-8") as f:
        english = {row["english"] for row in csv.DictReader(f, delimiter="\t")}
    return len(clue_vocabulary("es")), len(set(clue_vocabulary()) - english)


def _es_vocabulary_size() -> str:
    return f"{_es_vocabulary()[0]:,} Spanish words"


def _es_vocabulary_none() -> str:
    return f"{_es_vocabulary()[1]:,} English words"


def _es_glossary(name: str, what: str) -> Callable[[], str]:
    """The entries of one of the Spanish pack's glossaries (scripts/build_spanish.py)."""

    def count() -> str:
        path = ROOT / "knowledge/spanish" / name
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        entries = [x for x in lines if not x.startswith("#")][1:]
        return f"{len(entries):,} {what}"

    return count


def _grey_share(board_id: str) -> str:
    """The share of a board's squares with a chroma below 15 (docs/web.md)."""
    import numpy as np

    from huescues import Board

    lab = (Board.standard() if board_id == "standard" else Board.retail()).lab
    return f"{(np.hypot(lab[..., 1], lab[..., 2]) < 15).mean():.1%}".replace("%", " %")


def _board_text_size() -> str:
    """The text agent's board, one line per row, in characters (docs/text-agent.md)."""
    from huescues import Board
    from huescues.agents._text import _board_text  # the prompt's own board text

    return f"about {round(len(_board_text(Board.standard())), -3):,} characters"


def _people_each_other() -> str:
    """A person's points against the others (docs/people.md's), as docs/language.md quotes it."""
    report, _, _ = _people()
    return f"{report.overall.person.mean:.2f}"


def _agents_people_default() -> str:
    """``default_agent()`` on the dev clues, all clues (docs/people.md's last row,
    scripts/evaluate_people.py's), as docs/agents.md quotes it."""
    report, _, _ = _people()
    return str(dict(report.overall.players)["default_agent()"].format())


def _knowledge_players() -> str:
    """The players on the dev clues, all clues (docs/people.md's last row), as docs/knowledge.md
    quotes them."""
    report, _, _ = _people()
    got = dict(report.overall.players)
    embedding, agent, naming = (
        got[k] for k in ("EmbeddingGuesser()", "default_agent()", "naming baseline")
    )
    return (
        f"`EmbeddingGuesser()` {embedding.format()} and `default_agent()`'s guesser "
        f"{agent.format()} points a pick, a person {report.overall.person.mean:.2f}, the naming "
        f"baseline {naming.mean:.2f}"
    )


@cache
def _givers() -> dict[str, Any]:
    """scripts/evaluate_givers.py's table on the dev clues, for the shipped models (docs/
    knowledge.md): each model's clue_choice_agreement."""
    from huescues.language import NamingModel, combined_model, default_model
    from huescues.research import clue_choice_agreement, dev_picks

    responses, _ = dev_picks()
    models = {"combined": combined_model(), "naming": NamingModel.default()}
    got = {name: clue_choice_agreement(responses, m) for name, m in models.items()}
    got["default"] = clue_choice_agreement(responses, default_model())
    return got


def _giver_row(name: str, which: str = "chosen", bold: bool = False) -> str:
    estimate = getattr(_givers()[name], which)
    if bold:
        return f"**{estimate.mean:.3f}** [{estimate.low:.3f}, {estimate.high:.3f}]"
    return str(estimate.format(".3f"))


def _calibration_quote() -> str:
    """The default model's log-likelihood of people's picks, as it is and against uniform, as
    docs/research.md and docs/knowledge.md quote it."""
    cal = _dev()["calibration"]
    raw, uniform = cal.raw_log_likelihood.mean, cal.uniform_log_likelihood
    return f"\u2212{-raw:.2f} a pick, below a uniform belief's \u2212{-uniform:.2f}"


def _people_crowd_share() -> str:
    """The share of the default model's belief (as it is) on squares 16-64 times a uniform
    belief's, and of people's picks there (docs/research.md's calibration table, as
    docs/people.md quotes it)."""
    (band,) = [b for b in _dev()["calibration"].raw_reliability if (b.low, b.high) == (16, 64)]
    return (
        f"{band.belief:.0%} of its belief on squares 16-64 times a uniform belief's, where "
        f"{band.picks:.0%} of the picks land"
    )


def _people_crowd_grid() -> str:
    """scripts/fit_crowd_reading.py's grid of temperatures and smoothing widths."""
    fit = _script("fit_crowd_reading")
    t, s = fit.TEMPERATURES, fit.SMOOTHING
    return (
        f"{len(t)} temperatures (1/{1 / t[0]:g} to {t[-1]:.2f}) and {len(s)} widths "
        f"({s[0]:g} to {s[-1]:g} squares)"
    )


def _people_uniform() -> str:
    """A uniform belief's log-likelihood a pick on the retail board (the dev picks')."""
    return f"uniform: {_dev()['calibration'].uniform_log_likelihood:.3f} a pick"


def _knowledge_words() -> str:
    """The shipped knowledge's words, and how many carry a tone (object_colours.npz)."""
    import numpy as np

    with np.load(ROOT / "src/huescues/data/objects/object_colours.npz") as data:
        tone = data["tone"]
    return f"{len(tone):,} words, {int((~np.isnan(tone).any(axis=1)).sum()):,} of them with a tone"


def _knowledge_size() -> str:
    """The shipped knowledge's size: its npz arrays and its JSON summary."""
    where = ROOT / "src/huescues/data/objects"
    size = sum((where / name).stat().st_size for name in ("object_colours.npz", "objects.json"))
    return f"{size / 1e6:.2f} MB"


def _knowledge_source(name: str, unit: str) -> str:
    """A source's size as the build stored it in the shipped summary (its first number)."""
    text = _objects_summary()["sources"][name]
    return f"{int(text.split()[0]):,} {unit}"


def _knowledge_ratings(patterns: tuple[str, ...], unit: str) -> str:
    """The authors' ratings in ``knowledge/ratings/``: a line a word, after each file's header."""
    files = [f for p in patterns for f in sorted((ROOT / "knowledge/ratings").glob(p))]
    rows = sum(len(f.read_text(encoding="utf-8").splitlines()) - 1 for f in files)
    return f"{rows:,} {unit}"


#: Figures inside a line of prose, ``<!-- figures:NAME -->...<!-- /figures -->`` on one line:
#: page to the names it holds (a name may sit on several pages), and how to compute each.
INLINE: dict[str, tuple[tuple[str, ...], Callable[[], str]]] = {
    "vocabulary-size": (("docs/agents.md", "docs/knowledge.md", "docs/rl.md"), _vocabulary_size),
    "rl-vocabulary-size": (("docs/rl.md",), _rl_vocabulary_size),
    "rl-clue-ids": (("docs/rl.md",), _rl_clue_ids),
    "rl-table-cells": (("docs/rl.md",), _rl_table_cells),
    "batch-clues": (("docs/batch.md",), _batch_clues),
    "board-edge-step": (("docs/board.md",), _board_edge_step),
    "board-edge-loop": (("docs/board.md",), _board_edge_loop),
    "common-words": (("docs/clues.md",), _common_words),
    "people-each-other": (("docs/language.md",), _people_each_other),
    "web-grey-standard": (("docs/web.md",), lambda: _grey_share("standard")),
    "web-grey-retail": (("docs/web.md",), lambda: _grey_share("retail")),
    "text-board-size": (("docs/text-agent.md",), _board_text_size),
    "common-words-es": (("docs/languages.md",), _common_words_es),
    "es-heldout-today": (("docs/languages.md",), _es_heldout_today),
    "es-heldout-2-today": (("docs/languages.md",), lambda: _es_heldout_today("heldout-2.tsv")),
    "es-heldout-3-today": (("docs/languages.md",), lambda: _es_heldout_today("heldout-3.tsv")),
    "own-knowledge-weight": (("docs/languages.md",), _own_knowledge_weight),
    "es-vocabulary-size": (("docs/languages.md",), _es_vocabulary_size),
    "es-vocabulary-none": (("docs/languages.md",), _es_vocabulary_none),
    "es-glossary-common": (
        ("docs/languages.md",),
        _es_glossary("glossary-common.tsv", "common things"),
    ),
    "es-glossary-more": (
        ("docs/languages.md",),
        _es_glossary("glossary-more.tsv", "more common things"),
    ),
    "es-glossary-abstract": (
        ("docs/languages.md",),
        _es_glossary("glossary-abstract.tsv", "abstract words, landmarks and phrases"),
    ),
    "es-glossary-modifiers": (
        ("docs/languages.md",),
        _es_glossary("glossary-modifiers.tsv", "adjectives and participles"),
    ),
    "es-colour-names": (
        ("docs/languages.md",),
        _es_glossary("colour-names.tsv", "Spanish colour words"),
    ),
    "calibration-quote": (("docs/knowledge.md", "docs/research.md"), _calibration_quote),
    "agents-pawn-evidence": (("docs/agents.md",), _agents_pawn_evidence),
    "agents-crowd-default": (("docs/agents.md",), lambda: _crowd_reading(("default",), False)),
    "agents-crowd-player": (
        ("docs/agents.md",),
        lambda: _crowd_reading(("default", "naming"), True),
    ),
    "agents-belief-table": (("docs/agents.md",), _agents_belief_table),
    "embedding-params": (("docs/embedding.md",), _embedding_params),
    "embedding-extra-words": (("docs/embedding.md",), _embedding_extra_words),
    "embedding-cache": (("docs/embedding.md",), _embedding_cache),
    "knowledge-carried": (("docs/knowledge.md",), _knowledge_carried),
    "knowledge-reading": (("docs/knowledge.md",), _knowledge_reading),
    "knowledge-objects-quote": (("docs/knowledge.md",), _knowledge_objects_quote),
    "knowledge-smallest-band": (("docs/knowledge.md",), _knowledge_smallest_band),
    "knowledge-rated-quote": (("docs/knowledge.md",), _knowledge_rated_quote),
    "giver-evidence": (("docs/knowledge.md",), _giver_evidence),
    "naming-floor": (("docs/naming.md",), _naming_floor),
    "naming-list-noise": (("docs/naming.md",), _naming_list_noise),
    "shard-games": (("docs/tournaments.md",), _shard_games),
    "naming-banana-mass": (("docs/naming.md",), _naming_banana_mass),
    "people-crowd-share": (("docs/people.md",), _people_crowd_share),
    "people-crowd-grid": (("docs/people.md",), _people_crowd_grid),
    "people-uniform": (("docs/people.md",), _people_uniform),
    "people-crowd-ll-embedding": (
        ("docs/people.md",),
        lambda: _crowd_gain("EmbeddingGuesser()", 0, ".2f"),
    ),
    "people-crowd-ll-player": (
        ("docs/people.md",),
        lambda: _crowd_gain("default_agent().guesser", 0, ".2f"),
    ),
    "people-crowd-points-embedding": (
        ("docs/people.md",),
        lambda: _crowd_gain("EmbeddingGuesser()", 1, "+.3f"),
    ),
    "people-crowd-points-player": (
        ("docs/people.md",),
        lambda: _crowd_gain("default_agent().guesser", 1, "+.3f"),
    ),
    "knowledge-words": (("docs/knowledge.md",), _knowledge_words),
    "knowledge-size": (("docs/knowledge.md",), _knowledge_size),
    "knowledge-coda": (("docs/knowledge.md",), lambda: _knowledge_source("coda", "objects")),
    "knowledge-wordnet": (("docs/knowledge.md",), lambda: _knowledge_source("wordnet", "lemmas")),
    "knowledge-names": (("docs/knowledge.md",), lambda: _knowledge_source("names", "words")),
    "knowledge-c3": (("docs/knowledge.md",), lambda: _knowledge_source("c3", "terms")),
    "knowledge-authors": (
        ("docs/knowledge.md",),
        lambda: _knowledge_ratings(("authors-batch-*.tsv", "authors-extra-en.tsv"), "ratings"),
    ),
    "knowledge-carry-prior": (
        ("docs/knowledge.md",),
        lambda: _carry("prior (mean of training words)", " | "),
    ),
    "knowledge-carry-shipped": (("docs/knowledge.md",), lambda: _carry("ridge alpha=10", " | ")),
    "knowledge-carry-quote": (("docs/knowledge.md",), lambda: _carry("ridge alpha=10", " / ")),
    "givers-random": (("docs/knowledge.md",), lambda: _giver_row("default", "random")),
    "givers-combined": (("docs/knowledge.md",), lambda: _giver_row("combined")),
    "givers-naming": (("docs/knowledge.md",), lambda: _giver_row("naming")),
    "givers-default": (("docs/knowledge.md",), lambda: _giver_row("default", bold=True)),
    "givers-best": (
        ("docs/agents.md", "docs/knowledge.md"),
        lambda: _giver_row("default", "best"),
    ),
    "agents-givers-default": (("docs/agents.md",), lambda: _giver_row("default")),
    "knowledge-floor-people": (
        ("docs/knowledge.md",),
        lambda: _script("evaluate_givers").people_on_floored(_dev_responses()),
    ),
    "agents-people-default": (("docs/agents.md",), _agents_people_default),
    "agents-listener-as-it-was": (
        ("docs/agents.md",),
        lambda: f"**{_listener_search().as_it_is}**",
    ),
    "agents-listener-in-sample": (("docs/agents.md",), _agents_listener_in_sample),
    "agents-listener-own": (("docs/agents.md",), _agents_listener_own),
    "agents-giver-pool": (("docs/agents.md",), _agents_giver_pool),
    "agents-second-clues": (("docs/agents.md",), _agents_second_clues),
    "agents-spanish-listener-own": (("docs/agents.md",), _agents_spanish_listener_own),
    "agents-spanish-pool": (("docs/agents.md",), _agents_spanish_pool),
    "agents-spanish-picks": (("docs/agents.md",), _agents_spanish_picks),
    "embedding-one-word-count": (("docs/embedding.md",), lambda: _embedding_one_word()[0]),
    "embedding-one-word-medians": (("docs/embedding.md",), lambda: _embedding_one_word()[1]),
    "embedding-tokens": (("docs/embedding.md",), _embedding_tokens),
    "naming-colornames": (
        ("docs/language.md", "docs/naming.md"),
        lambda: f"{_naming_data()['colornames']:,}",
    ),
    "naming-c3-bins": (("docs/naming.md",), lambda: f"{_naming_data()['bins']:,}"),
    "naming-c3-counts": (("docs/naming.md",), lambda: f"{_naming_data()['counts']:,}"),
    "objects-dev-picks": (("docs/objects.md",), lambda: f"{len(_dev()['responses'].rows):,} picks"),
    "knowledge-players": (("docs/knowledge.md",), _knowledge_players),
    "knowledge-raters-apart": (("docs/knowledge.md",), _knowledge_raters_apart),
    "knowledge-givers-list": (
        ("docs/knowledge.md",),
        lambda: f"{len((ROOT / 'knowledge/vocabulary/givers.txt').read_text().split()):,} words",
    ),
    "knowledge-culture": (
        ("docs/knowledge.md",),
        lambda: _knowledge_ratings(("authors-culture*.tsv",), "names"),
    ),
    **INLINE_EVALUATIONS,
}


def pages() -> list[str]:
    """Every page with a figure."""
    inline = {page for where, _ in INLINE.values() for page in where}
    blocks = {page for page, _ in [*FIGURES.values(), *EVALUATIONS.values()]}
    return sorted(blocks | inline)


# A region's body holds no other marker, so that a region left empty cannot swallow the next.
_REGION = re.compile(
    r"(<!-- figures:(?P<name>[\w-]+) -->\n)(?P<body>(?:(?!<!-- /?figures).)*?)\n?<!-- /figures -->",
    re.S,
)
# An inline region: on one line, inside the prose.
_INLINE = re.compile(
    r"(<!-- figures:(?P<name>[\w-]+) -->)(?P<body>(?!\n)(?:(?!<!-- /?figures)[^\n])*?)"
    r"<!-- /figures -->"
)


def regions(text: str) -> dict[str, str]:
    """The figures' regions of a page: name to the text between the markers."""
    return {m.group("name"): m.group("body") for m in _REGION.finditer(text)}


def inline_regions(text: str) -> list[tuple[str, str]]:
    """The inline regions of a page, in order: (name, the text between the markers)."""
    return [(m.group("name"), m.group("body")) for m in _INLINE.finditer(text)]


#: Each figure's text, once computed in this process: the tests call :func:`update` several
#: times, and some figures take seconds (a tournament, the World Color Survey's chart).
_DONE: dict[str, str] = {}


def _computed(name: str, compute: Callable[[], str]) -> str:
    if name not in _DONE:
        _DONE[name] = compute()
    return _DONE[name]


def update(
    check: bool,
    root: Path = ROOT,
    times: dict[str, float] | None = None,
    part: str = "all",
) -> list[str]:
    """Rewrite (or with ``check`` only compare) every region; returns the stale ones' names
    (an inline region's once a page). A figure whose page lacks its region, or a region no
    figure fills, is an error. ``times``, if given, gets each region's seconds to compute
    (work shared through a cache is counted by the first region that needs it). ``part`` is
    ``"all"``, ``"quick"`` (:data:`FIGURES`, :data:`INLINE` and the pictures) or
    ``"evaluations"`` (:data:`EVALUATIONS` and :data:`INLINE_EVALUATIONS`, which the quick part
    leaves out); the regions of the part left out are not computed, and kept as they are."""
    if part not in ("all", "quick", "evaluations"):
        raise ValueError(f"part must be 'all', 'quick' or 'evaluations', not {part!r}")
    blocks = {**FIGURES, **EVALUATIONS}
    doing = {
        name: figure
        for name, figure in blocks.items()
        if part == "all" or (name in EVALUATIONS) == (part == "evaluations")
    }
    quick = part != "evaluations"
    stale = []
    for page in pages():
        path = root / page
        text = path.read_text(encoding="utf-8")
        found = regions(text)
        for name in found:
            if name not in blocks or blocks[name][0] != page:
                raise SystemExit(f"{page}: region {name!r} is no figure of this script")
        wanted = {}
        for name, (where, compute) in doing.items():
            if where != page:
                continue
            if name not in found:
                raise SystemExit(f"{page}: no region <!-- figures:{name} --> for figure {name!r}")
            start = time.perf_counter()
            wanted[name] = _computed(name, compute)
            if times is not None:
                times[name] = time.perf_counter() - start
            if found[name] != wanted[name]:
                stale.append(f"{page}: {name}")
        inline = inline_regions(text)
        for name, _ in inline:
            if name not in INLINE or page not in INLINE[name][0]:
                raise SystemExit(f"{page}: inline region {name!r} is no figure of this script")
        short = {}
        for name, (where, compute) in INLINE.items():
            if page not in where:
                continue
            if name not in {n for n, _ in inline}:
                raise SystemExit(f"{page}: no inline region <!-- figures:{name} --> for {name!r}")
            if part != "all" and (name in INLINE_EVALUATIONS) != (part == "evaluations"):
                continue
            start = time.perf_counter()
            short[name] = _computed(f"inline:{name}", compute)
            if times is not None:
                times[name] = times.get(name, 0.0) + time.perf_counter() - start
            if any(n == name and body != short[name] for n, body in inline):
                stale.append(f"{page}: {name}")

        # A region of the part left out is kept as it is.
        def fill(m: re.Match[str], wanted: dict[str, str] = wanted) -> str:
            if m.group("name") not in wanted:
                return m.group(0)
            return m.group(1) + wanted[m.group("name")] + "\n<!-- /figures -->"

        def fill_inline(m: re.Match[str], short: dict[str, str] = short) -> str:
            if m.group("name") not in short:
                return m.group(0)
            return m.group(1) + short[m.group("name")] + "<!-- /figures -->"

        if not check:
            new = _INLINE.sub(fill_inline, _REGION.sub(fill, text))
            if new != text:
                path.write_text(new, encoding="utf-8")
    for image, draw in IMAGES.items() if quick else ():
        if not check:
            draw(root / image)
        elif not (root / image).is_file():
            stale.append(f"{image}: not drawn")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 if stale")
    parser.add_argument("--times", action="store_true", help="print each region's seconds")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="leave out the held-out evaluations (EVALUATIONS: about two minutes)",
    )
    args = parser.parse_args(argv)
    times: dict[str, float] = {}
    start = time.perf_counter()
    stale = update(args.check, times=times, part="quick" if args.quick else "all")
    if args.times:
        for name, seconds in times.items():
            print(f"{seconds:6.2f} s  {name}", file=sys.stderr)
        print(f"{time.perf_counter() - start:6.2f} s  in all (imports included)", file=sys.stderr)
    verb = "stale (run python scripts/docs_figures.py)" if args.check else "rewritten"
    for name in stale:
        print(f"{name}: {verb}", file=sys.stderr if args.check else sys.stdout)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
