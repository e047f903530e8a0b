"""Tournaments: many games between entrants, seats rotated and seeds drawn up front, played by
local worker processes or a Dask cluster, with results streamed to a JSON-lines file that a
killed run resumes from (``docs/tournaments.md``), and the report that says who is better, with
confidence (``docs/reports.md``)."""

from huescues.stats import Estimate

from ._entrants import BUILTIN_ENTRANTS, Entrant, embedding_agent, entrant
from ._ratings import PlackettLuce
from ._report import (
    CrossPlay,
    EntrantStats,
    FaultCount,
    PairedComparison,
    Report,
    UnfinishedGame,
)
from ._results import ResultsFileError, TournamentResults
from ._schedule import GameSpec
from ._tournament import Tournament, run_tournament

__all__ = [
    "BUILTIN_ENTRANTS",
    "CrossPlay",
    "Entrant",
    "EntrantStats",
    "Estimate",
    "FaultCount",
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

# Public objects name the public module they are used from (as httpx's do), not a private one.
for _obj in map(globals().__getitem__, __all__):
    if getattr(_obj, "__qualname__", "") and _obj.__module__.startswith(f"{__name__}._"):
        _obj.__module__ = __name__
