"""The report in plain words: a one-line verdict from the paired comparisons, who each entrant
is, and what the tables' columns mean."""

from __future__ import annotations

from huescues.stats import Estimate

from ._report_tables import ReportTables

__all__ = ["LEGEND", "verdict", "who_is_who"]

#: What the printed tables' columns mean, one line each.
LEGEND: tuple[str, ...] = (
    "Blocks: games with the same seed and lineup, seats rotated; intervals resample blocks.",
    "Seats: seats held in finished games (an entrant in two seats of a game counts twice).",
    "Rating: Plackett-Luce mean ± uncertainty from the final scores; Ordinal: mean - 3 x "
    "uncertainty, a cautious rating the tables sort by.",
    "Points/game: final score per seat; Win rate: wins per seat, a shared win split.",
    "Giver pts/round: R16 points per round as clue giver; Guesser pts/pawn: R15 points per pawn.",
    "In frame: share of pawns within one square of the target (the 3 x 3 frame, R4).",
    "Difference: A's points per game minus B's in the same blocks; A better: share of blocks "
    "where A scored more per seat.",
)


def _difference(report: ReportTables, a: str, b: str) -> Estimate | None:
    """``a``'s points a game minus ``b``'s, over the blocks both played (``None``: never met)."""
    try:
        return report.difference(a, b)
    except KeyError:
        return None


def _interval(d: Estimate) -> str:
    if d.low is None or d.high is None:
        return "no interval"
    return f"95% interval [{d.low:+.2f}, {d.high:+.2f}]"


def verdict(report: ReportTables) -> str:
    """One line: the entrant that beats every other in the paired comparisons (each interval
    above zero), by how much; or "no clear winner" and the closest comparison of the leader."""
    names = [r.entrant for r in report.ranking()]
    if len(names) < 2:
        return "One entrant: nobody to compare it with."
    for winner in names:
        diffs = {other: _difference(report, winner, other) for other in names if other != winner}
        if all(d is not None and d.low is not None and d.low > 0 for d in diffs.values()):
            margins = [
                f"{other} by {d.mean:.2f} points a game ({_interval(d)})"
                for other, d in diffs.items()
                if d is not None and d.mean is not None
            ]
            return f"{winner} beats " + ", and ".join(margins) + "."
    # No entrant is clearly ahead of all others: say where the leader's case fails.
    leader = names[0]
    unclear = []
    for other in names[1:]:
        d = _difference(report, leader, other)
        if d is None or d.mean is None:
            unclear.append(f"{leader} and {other} never met in a block")
        elif d.low is None or d.high is None:
            unclear.append(f"{leader} - {other} is {d.mean:+.2f} points a game, no interval")
        elif d.low <= 0 <= d.high:
            unclear.append(
                f"{leader} - {other} is {d.mean:+.2f} points a game, {_interval(d)} covers zero"
            )
        elif d.high < 0:
            unclear.append(
                f"{other} beats {leader} by {-d.mean:.2f} points a game, "
                f"{_interval(d)} for {leader} - {other}"
            )
    return "No clear winner: " + "; ".join(unclear) + "."


def who_is_who(report: ReportTables) -> tuple[str, ...]:
    """One line per entrant that is a catalogue player, saying what it is (its description)."""
    from huescues.agents import CATALOGUE

    return tuple(
        f"{r.entrant}: {CATALOGUE[r.entrant].description}"
        for r in report.entrants
        if r.entrant in CATALOGUE
    )
