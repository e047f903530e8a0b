"""The report drawn: tables in the terminal with ``rich``, and a PNG with matplotlib (an
optional extra, ``huescues[plot]``, imported only when a picture is asked for)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from ._report_tables import ReportTables
from ._report_words import LEGEND, verdict, who_is_who

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["plot_report", "print_report"]

#: The console width when the report goes to a file or a pipe.
_WIDE = 200


def print_report(report: ReportTables, console: Console | None = None) -> None:
    """Print the report as tables with ``rich`` (to ``console``, or a new one on stdout)."""
    from rich.console import Console
    from rich.table import Table

    if console is None:
        console = Console()
        if not console.is_terminal:
            # A file or a pipe has no width: 80 columns would wrap the rows and cut the headers.
            console = Console(width=max(console.width, _WIDE))

    # The answer first, in words; the tables below are its evidence.
    # soft_wrap: a line stays one line in a file or a pipe, for grep and for scripts.
    console.print(f"[bold]{verdict(report)}[/bold]", highlight=False, soft_wrap=True)
    for player in who_is_who(report):
        console.print(f"  {player}", highlight=False, soft_wrap=True, markup=False)
    console.print(
        f"[bold]{report.n_games} games[/bold], {report.n_finished} finished, "
        f"{report.n_blocks} blocks; 95% bootstrap intervals over blocks "
        f"({report.n_boot} resamples, seed {report.seed})"
    )
    if report.speed_note is not None:
        console.print(f"[bold yellow]Machine speed:[/bold yellow] {report.speed_note}")

    ranking = report.ranking()
    t = Table(title="Entrants, by rating ordinal")
    t.add_column("Entrant", no_wrap=True)
    for name in ("Seats", "Rating", "Ordinal", "Points/game", "Win rate", "Faults", "Unfinished"):
        t.add_column(name, justify="right")
    for r in ranking:
        t.add_row(
            r.entrant,
            str(r.games),
            f"{r.mu:.1f} ± {r.sigma:.1f}",
            f"{r.ordinal:.1f}",
            r.points_per_game.format(".1f"),
            r.win_rate.format(".0%"),
            str(r.faults),
            str(r.unfinished),
        )
    console.print(t)

    t = Table(title="Points by role (regular rounds), by rating ordinal")
    t.add_column("Entrant", no_wrap=True)
    for name in ("Giver rounds", "Giver pts/round", "Pawns", "Guesser pts/pawn", "In frame"):
        t.add_column(name, justify="right")
    for r in ranking:
        t.add_row(
            r.entrant,
            str(r.giver_points_per_round.n),
            r.giver_points_per_round.format(".2f"),
            str(r.guesser_points_per_pawn.n),
            r.guesser_points_per_pawn.format(".2f"),
            r.frame_share.format(".0%"),
        )
    console.print(t)

    if report.crossplay:
        t = Table(title="Cross-play (regular rounds)")
        for name in ("Giver", "Guesser", "Pawns", "Points/pawn", "In frame"):
            t.add_column(name, justify="left" if name in ("Giver", "Guesser") else "right")
        for c in report.crossplay:
            t.add_row(
                c.giver, c.guesser, str(c.pawns), f"{c.points_per_pawn:.2f}", f"{c.frame_share:.0%}"
            )
        console.print(t)

    if report.paired:
        t = Table(title="Paired comparisons (A minus B)")
        for name in ("A", "B", "Blocks", "Difference", "A better", "Ties"):
            t.add_column(name, justify="left" if name in ("A", "B") else "right")
        for p in report.paired:
            t.add_row(
                p.a,
                p.b,
                str(p.blocks),
                p.difference.signed(),
                f"{p.a_better:.0%}",
                f"{p.ties:.0%}",
            )
        console.print(t)

    if report.faults:
        t = Table(title="Faults")
        for name in ("Entrant", "Kind", "Count", "In unfinished games"):
            t.add_column(name, justify="left" if name in ("Entrant", "Kind") else "right")
        for f in report.faults:
            t.add_row(f.entrant, f.kind, str(f.count), str(f.in_unfinished))
        console.print(t)
    else:
        console.print("No faults.")

    if report.unfinished:
        t = Table(title="Unfinished games (left out of the score statistics)")
        for name in ("Game", "Seed", "Seats", "Rounds", "Error"):
            t.add_column(name)
        for u in report.unfinished:
            t.add_row(str(u.game), str(u.seed), ", ".join(u.seats), str(u.rounds), u.error or "")
        console.print(t)
    else:
        console.print("Every game finished.")
    console.print("What the columns mean:", highlight=False)
    for line in LEGEND:
        console.print(f"  {line}", highlight=False, soft_wrap=True)


def plot_report(report: ReportTables, path: str | os.PathLike[str], *, dpi: int = 120) -> None:
    """Draw points per game with their CIs, and the cross-play heat map, to a PNG file.

    Needs matplotlib: ``pip install 'huescues[plot]'``.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError(
            "plotting the report needs matplotlib: pip install 'huescues[plot]'"
        ) from e

    ranking = [r for r in report.ranking() if r.points_per_game.has_data][::-1]
    names = [r.entrant for r in report.entrants]
    givers = [e for e in names if any(c.giver == e for c in report.crossplay)]
    guessers = [e for e in names if any(c.guesser == e for c in report.crossplay)]
    height = max(3.5, 0.45 * max(len(ranking), len(givers)) + 1.5)
    fig = Figure(figsize=(12.0, height))
    FigureCanvasAgg(fig)
    left: Any = fig.add_subplot(1, 2, 1)
    right: Any = fig.add_subplot(1, 2, 2)

    if ranking:
        ys = np.arange(len(ranking))
        estimates = [r.points_per_game for r in ranking]
        means = np.array([e.mean for e in estimates], dtype=np.float64)
        # An estimate without an interval (no resamples) is drawn as a point.
        lows = np.array([e.mean if e.low is None else e.low for e in estimates], dtype=np.float64)
        highs = np.array(
            [e.mean if e.high is None else e.high for e in estimates], dtype=np.float64
        )
        left.errorbar(means, ys, xerr=[means - lows, highs - means], fmt="o", capsize=4, color="C0")
        left.set_yticks(ys, [r.entrant for r in ranking])
    else:
        left.text(0.5, 0.5, "no finished games", ha="center", va="center")
    left.set_xlabel("points per game (95% bootstrap CI)")
    left.set_title("Entrants, best rated at the top")
    left.grid(axis="x", alpha=0.3)

    if report.crossplay:
        grid = np.full((len(givers), len(guessers)), np.nan)
        for c in report.crossplay:
            grid[givers.index(c.giver), guessers.index(c.guesser)] = c.points_per_pawn
        image = right.imshow(grid, cmap="viridis", aspect="auto")
        fig.colorbar(image, ax=right, label="guesser points per pawn")
        right.set_xticks(np.arange(len(guessers)), guessers, rotation=30, ha="right")
        right.set_yticks(np.arange(len(givers)), givers)
        low, top = float(np.nanmin(grid)), float(np.nanmax(grid))
        for c in report.crossplay:
            i, j = givers.index(c.giver), guessers.index(c.guesser)
            # viridis is dark at the low end and light at the high end.
            light = top > low and (c.points_per_pawn - low) / (top - low) > 0.5
            ink = "black" if light else "white"
            right.text(j, i, f"{c.points_per_pawn:.2f}", ha="center", va="center", color=ink)
        right.set_xlabel("guesser")
        right.set_ylabel("clue giver")
    else:
        right.text(0.5, 0.5, "no regular rounds", ha="center", va="center")
    right.set_title("Cross-play (regular rounds)")
    if report.timeouts:
        decisions = "decision" if report.timeouts == 1 else "decisions"
        fig.suptitle(
            f"{report.timeouts} {decisions} timed out: these results depend on machine speed"
        )
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png", dpi=dpi)
