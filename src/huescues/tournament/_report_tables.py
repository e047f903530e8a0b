"""What a tournament report holds, as small frozen records: the entrants' lines, cross-play,
paired comparisons, faults and unfinished games, and the tables together (:class:`ReportTables`).
The modules that compute, read, write, word and draw a report work with these;
:class:`~huescues.tournament.Report` (``_report``) is the one a user meets."""

from __future__ import annotations

from dataclasses import dataclass, replace

from huescues.stats import Estimate

__all__ = [
    "CrossPlay",
    "EntrantStats",
    "FaultCount",
    "PairedComparison",
    "ReportTables",
    "UnfinishedGame",
]


@dataclass(frozen=True, slots=True)
class EntrantStats:
    """One entrant's line of the report (every seat it held counts on its own)."""

    entrant: str
    #: Seats held in finished games (an entrant in two seats of a game counts twice).
    games: int
    #: Seats held in unfinished games, left out of every score statistic.
    unfinished: int
    #: Final score per seat, over finished games.
    points_per_game: Estimate
    #: R16 points per regular round as clue giver (tie-breakers excluded: no giver points, R25).
    giver_points_per_round: Estimate
    #: R15 points per pawn placed as guesser, regular rounds only.
    guesser_points_per_pawn: Estimate
    #: Share of its pawns inside the frame (distance at most 1 from the target), regular rounds.
    frame_share: Estimate
    #: Wins per seat, a win shared by k seats counting 1/k for each.
    win_rate: Estimate
    #: Total wins, shared wins as fractions.
    wins: float
    #: Plackett-Luce rating from the final scores (openskill): mean, uncertainty and
    #: ``mu - 3 * sigma``, a conservative estimate to sort by.
    mu: float
    sigma: float
    ordinal: float
    #: Faults of every kind, in finished and unfinished games.
    faults: int


@dataclass(frozen=True, slots=True)
class CrossPlay:
    """How the guessers of one entrant fared on the clues of another, over regular rounds."""

    giver: str
    guesser: str
    #: Pawns the guesser placed on this giver's clues.
    pawns: int
    #: Rounds in which this giver gave clues and this guesser guessed (one per guessing seat).
    rounds: int
    #: R15 points per pawn.
    points_per_pawn: float
    #: Share of the pawns inside the frame (distance at most 1 from the target).
    frame_share: float


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Entrant ``a`` against entrant ``b`` over the blocks (same seed, rotated lineup) both played.

    Per block, the difference is ``a``'s mean final score over its seats in the block minus
    ``b``'s; ``difference`` averages it over blocks, with a bootstrap CI over blocks.
    """

    a: str
    b: str
    blocks: int
    difference: Estimate
    #: Share of the blocks in which ``a`` scored more than ``b`` per seat, and in which they tied.
    a_better: float
    ties: float


@dataclass(frozen=True, slots=True)
class FaultCount:
    """How many faults of one kind an entrant made (in finished and unfinished games)."""

    entrant: str
    #: ``exception``, ``illegal`` or ``timeout``.
    kind: str
    count: int
    #: How many of them were in games that could not finish.
    in_unfinished: int


@dataclass(frozen=True, slots=True)
class UnfinishedGame:
    """A game that could not finish: listed, never dropped silently."""

    game: int
    seed: int
    seats: tuple[str, ...]
    #: Rounds completed before it stopped.
    rounds: int
    error: str | None


@dataclass(frozen=True, slots=True)
class ReportTables:
    """What a report holds: its tables, each a tuple of small frozen records in a fixed order,
    and the views over them (:class:`Report` is this with the doors to its files, words and
    pictures)."""

    #: Entrants in the order given (or of first appearance); :meth:`ranking` sorts by rating.
    entrants: tuple[EntrantStats, ...]
    crossplay: tuple[CrossPlay, ...]
    paired: tuple[PairedComparison, ...]
    faults: tuple[FaultCount, ...]
    unfinished: tuple[UnfinishedGame, ...]
    #: Games read, finished games and blocks (a seed and a lineup, rotated).
    n_games: int
    n_finished: int
    n_blocks: int
    seed: int
    n_boot: int

    # -- views ---------------------------------------------------------------------------------
    def ranking(self) -> tuple[EntrantStats, ...]:
        """The entrants by rating ordinal, best first (ties by mean rating, then name)."""
        return tuple(sorted(self.entrants, key=lambda s: (-s.ordinal, -s.mu, s.entrant)))

    def entrant(self, name: str) -> EntrantStats:
        """One entrant's line."""
        for row in self.entrants:
            if row.entrant == name:
                return row
        raise KeyError(f"no entrant {name!r} in the report")

    def difference(self, a: str, b: str) -> Estimate:
        """``a``'s points a game minus ``b``'s, paired over the blocks both played (the
        :attr:`paired` comparison of the two, negated if it is stored as ``b`` against ``a``)."""
        for pair in self.paired:
            if (pair.a, pair.b) == (a, b):
                return pair.difference
            if (pair.a, pair.b) == (b, a):
                d = pair.difference
                if d.mean is None:
                    return d
                if d.low is None or d.high is None:
                    return replace(d, mean=0.0 - d.mean)
                # (0.0 - x: a difference of 0 reads +0.00, not -0.00.)
                return replace(d, mean=0.0 - d.mean, low=0.0 - d.high, high=0.0 - d.low)
        raise KeyError(f"no paired comparison of {a!r} and {b!r} in the report")

    @property
    def timeouts(self) -> int:
        """Decisions that timed out, in finished and unfinished games. When there are any, the
        results depend on the speed of the machine that played them (see :attr:`speed_note`)."""
        return sum(f.count for f in self.faults if f.kind == "timeout")

    @property
    def speed_note(self) -> str | None:
        """What the timeouts mean for these results, or ``None`` when no decision timed out."""
        n = self.timeouts
        if n == 0:
            return None
        decisions = "decision" if n == 1 else "decisions"
        return (
            f"{n} {decisions} timed out: results with timeout faults depend on the speed of the "
            "machine that played them, so a rerun on another machine (or under another load) "
            "can differ."
        )
