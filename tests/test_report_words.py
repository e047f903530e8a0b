"""The tournament report in plain words: the verdict, who is who, the legend."""

from __future__ import annotations

import dataclasses
import io

from rich.console import Console

from huescues.stats import Estimate
from huescues.tournament import PairedComparison, Report
from test_report import three_games


def _with(paired: list[tuple[str, str, Estimate]], names: tuple[str, ...]) -> Report:
    """A report whose entrants are ``names`` (ranked in that order) and whose paired
    comparisons are the given ones: a constructed result, so the verdict's direction is known."""
    base = Report.from_games(three_games(), n_boot=20)
    by_rank = base.ranking()
    entrants = tuple(
        dataclasses.replace(r, entrant=name) for r, name in zip(by_rank, names, strict=True)
    )
    comparisons = tuple(PairedComparison(a, b, 40, d, a_better=0.5, ties=0.0) for a, b, d in paired)
    return dataclasses.replace(base, entrants=entrants, paired=comparisons)


def test_a_clear_winner_is_named_with_its_margin_and_interval() -> None:
    # naming - default is clearly negative: default wins, whichever way round the pair is stored.
    report = _with(
        [
            ("naming", "default", Estimate(-0.47, -0.71, -0.22, 40, 40)),
            ("default", "random", Estimate(2.1, 1.8, 2.4, 40, 40)),
            ("naming", "random", Estimate(1.6, 1.3, 1.9, 40, 40)),
        ],
        ("default", "naming", "random"),
    )
    assert report.verdict() == (
        "default beats naming by 0.47 points a game (95% interval [+0.22, +0.71]), "
        "and random by 2.10 points a game (95% interval [+1.80, +2.40])."
    )


def test_overlapping_intervals_give_no_clear_winner() -> None:
    report = _with(
        [
            ("default", "naming", Estimate(0.12, -0.10, 0.33, 40, 40)),
            ("default", "random", Estimate(2.1, 1.8, 2.4, 40, 40)),
            ("naming", "random", Estimate(1.6, 1.3, 1.9, 40, 40)),
        ],
        ("default", "naming", "random"),
    )
    text = report.verdict()
    assert text.startswith("No clear winner: ")
    assert (
        "default - naming is +0.12 points a game, 95% interval [-0.10, +0.33] covers zero" in text
    )
    assert "random" not in text  # the clear comparisons are not the open question


def test_the_printed_report_starts_with_the_verdict_and_explains_itself() -> None:
    report = _with(
        [
            ("default", "naming", Estimate(0.5, 0.2, 0.8, 40, 40)),
            ("default", "random", Estimate(2.1, 1.8, 2.4, 40, 40)),
            ("naming", "random", Estimate(1.6, 1.3, 1.9, 40, 40)),
        ],
        ("default", "naming", "random"),
    )
    out = io.StringIO()
    report.print(Console(file=out, width=200, color_system=None))
    lines = out.getvalue().splitlines()
    assert lines[0] == report.verdict() and lines[0].startswith("default beats naming by 0.50")
    # Who each catalogue player is, from the catalogue's descriptions.
    from huescues.agents import CATALOGUE

    assert lines[1:4] == [
        f"  {n}: {CATALOGUE[n].description}" for n in ("default", "naming", "random")
    ]
    text = out.getvalue()
    for column in ("Ordinal:", "Blocks:", "In frame:", "Difference:"):
        assert column in text
