"""People's picks against the library's players, per category of clue (the table of
docs/people.md): for each category, the mean R15 points of a person against the others
(leave-one-out), of EmbeddingGuesser(), of default_agent()'s guesser, of the naming-only baseline
and of a random square, each with a 95% bootstrap interval over the category's clues.

    python scripts/evaluate_people.py                    # the 39 shipped dev clues (seconds)
    python scripts/evaluate_people.py --responses picks.csv --board board.csv   # your own file
    python scripts/evaluate_people.py --markdown         # a Markdown table instead of rich's

The responses file needs a header row with a clue column, a square column (such as ``F12``) and,
for the breakdown, a category column; the board file is read by ``Board.from_csv`` (row letter,
column number, red, green, blue).
"""

from __future__ import annotations

import argparse
import sys

from huescues.engine import Board
from huescues.research import (
    CategoryReport,
    HumanResponses,
    agreement_by_category,
    dev_picks,
    human_agreement,
    library_players,
)

#: The study's categories are named in Spanish; their English gloss for the table.
GLOSS = {
    "ANIMAL": "animal",
    "COMESTIBLE": "food",
    "ENTORNO": "place, nature",
    "PIEDRA": "stone",
    "PLANTA": "plant",
    "POP": "pop culture",
    "SUBJETIVO": "feeling, season",
}


def _label(category: str) -> str:
    gloss = GLOSS.get(category)
    return f"{category} ({gloss})" if gloss else category


def markdown(report: CategoryReport) -> str:
    """The report as a Markdown table, the study's categories glossed in English."""
    lines = report.table().splitlines()
    out = lines[:2]
    for line, row in zip(lines[2:], report.rows, strict=True):
        out.append(line.replace(f"| {row.category} |", f"| {_label(row.category)} |", 1))
    return "\n".join(out)


def print_rich(report: CategoryReport, title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    table.add_column("category")
    table.add_column("clues", justify="right")
    table.add_column("picks", justify="right")
    table.add_column("a person (leave-one-out)", justify="right")
    for name in report.players:
        table.add_column(name, justify="right")
    table.add_column("random square", justify="right")
    for r in report.rows:
        table.add_row(
            _label(r.category),
            str(r.clues),
            str(r.picks),
            r.person.format(),
            *(e.format() for _, e in r.players),
            r.random.format(),
            end_section=r is report.rows[-2],
        )
    Console(width=200).print(table)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--responses", help="a CSV of picks (default: the 39 shipped dev clues)")
    parser.add_argument("--board", help="the board's CSV (needed with --responses)")
    parser.add_argument("--clue-column", default="clue")
    parser.add_argument("--square-column", default="square")
    parser.add_argument("--category-column", default="category")
    parser.add_argument("--n-boot", type=int, default=2000, help="bootstrap resamples (2000)")
    parser.add_argument("--seed", type=int, default=0, help="the resamples' seed (0)")
    parser.add_argument("--hardest", type=int, default=0, help="also list the N hardest clues")
    parser.add_argument("--markdown", action="store_true", help="print Markdown, not rich")
    args = parser.parse_args(argv)

    if args.responses is None:
        if args.board is not None:
            parser.error("--board goes with --responses")
        responses, board = dev_picks()
        title = "People's picks for the 39 dev clues (Alabau-Bosque et al. 2025), retail board"
    else:
        if args.board is None:
            parser.error("--responses needs --board (the board the picks were made on)")
        board = Board.from_csv(args.board)
        responses = HumanResponses.from_csv(
            args.responses,
            board,
            clue_column=args.clue_column,
            square_column=args.square_column,
        )
        title = f"People's picks in {args.responses}"
        if responses.skipped:
            print(responses.skip_report(), file=sys.stderr)

    players = library_players()
    report = agreement_by_category(
        responses,
        players,
        category_column=args.category_column,
        n_boot=args.n_boot,
        seed=args.seed,
    )
    print(f"{len(responses)} picks of {report.overall.clues} clues; mean R15 points a pick")
    print(f"[{report.level:.0%} bootstrap interval over the clues, {report.n_boot} resamples]")
    if args.markdown:
        print(markdown(report))
    else:
        print_rich(report, title)
    if args.hardest > 0:
        name, player = next(iter(players.items()))
        per_clue = human_agreement(player, responses, n_boot=0).per_clue
        print(f"\nThe {args.hardest} hardest clues for {name} (its points, a person's):")
        for c in sorted(per_clue, key=lambda c: c.model_points)[: args.hardest]:
            person = "-" if c.human_points is None else f"{c.human_points:.2f}"
            print(f"  {c.clue}: {c.model_points:.2f}, {person}")


if __name__ == "__main__":
    main()
