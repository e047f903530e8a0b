"""Tournaments: many games between entrants, seats rotated and seeds drawn up front, played by
local worker processes or a Dask cluster, with results streamed to a JSON-lines file that a
killed run resumes from (``docs/tournaments.md``), and the report that says who is better, with
confidence (``docs/reports.md``)."""

from huescues.public import name_public_objects as _name_public_objects
from huescues.stats import Estimate

from ._entrants import BUILTIN_ENTRANTS, Entrant, embedding_agent, entrant
from ._game_result import EntrantFault, GameResult
from ._ratings import PlackettLuce
from ._report import (
    CrossPlay,
    EntrantStats,
    FaultCount,
    PairedComparison,
    Report,
    UnfinishedGame,
)
from ._results import TournamentResults
from ._results_file import ResultsFileError
from ._schedule import GameSpec
from ._tournament import Tournament, run_tournament

__all__ = [
    "BUILTIN_ENTRANTS",
    "CrossPlay",
    "Entrant",
    "EntrantFault",
    "EntrantStats",
    "Estimate",
    "FaultCount",
    "GameResult",
    "GameSpec",
    "PairedComparison",
    "PlackettLuce",
    "Report",
    "ResultsFileError",
    "Tournament",
    "TournamentResults",
    "UnfinishedGame",
    "embedding_agent",
    "entrant",
    "run_tournament",
]

# Public objects name this package as their module, not a private one.
_name_public_objects(globals())
