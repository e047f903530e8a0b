"""Research on colour language with the game: human responses (a clue and the square a person
chose) read into a typed dataset, and measures of how well a player or a colour-term model agrees
with them, in the game's own points (R15), with bootstrap intervals over clues (and
participants); real people's picks for 39 clues on the measured retail board (:func:`dev_picks`)
and the measures per category of clue (:func:`agreement_by_category`); paired comparisons of two
players (:func:`compare`), one row per pick (:func:`pick_table`), the calibration of a belief
(:func:`calibration`) and whether a model's picks can be told apart from people's
(:func:`indistinguishable`); tables and a forest plot for a paper (:func:`markdown_table`,
:func:`latex_table`, :func:`forest_plot`); the information-bottleneck measures of a naming
system (:class:`NamingSystem`, :func:`naming_measures`); what to cite (:func:`citations`); the
held-out evaluation of colour-term models (colour error, a reference game, points on the board);
how well people understand a clue giver's clues (:func:`points_by_giver`) and choose among clues
(:func:`clue_choice_agreement`); and the clues people gave in the clue-giving study
(:class:`GivenClues`, :func:`points_on_given_clues`, :func:`givers_against_people`)."""

from huescues.stats import Estimate

from ._agreement import Agreement, ClueAgreement, calibration, human_agreement
from ._calibration import TEMPERATURES, Calibration, ReliabilityBin
from ._categories import (
    ALL_CATEGORIES,
    CategoryAgreement,
    CategoryReport,
    agreement_by_category,
    library_players,
)
from ._citations import Citation, Citations, citations
from ._clue_choice import (
    ClueChoiceAgreement,
    ClueChoiceResamples,
    TargetChoice,
    clue_choice_agreement,
)
from ._compare import Comparison, compare
from ._consensus import ClueConsensus, people_agreement
from ._given import (
    GivenClue,
    GivenCluePoints,
    GivenClues,
    GiverComparison,
    giver_clue,
    givers_against_people,
    points_on_given_clues,
)
from ._givers import DEFAULT_GUESSERS, GiverReport, GiverRow, points_by_giver
from ._indistinguishable import (
    ClueTest,
    HistogramGuesser,
    Indistinguishability,
    NullRate,
    indistinguishable,
    null_rejection_rate,
)
from ._languages import LANGUAGE_CODES, agreement_by_language
from ._listen_evaluation import ListenEvaluation, ListenScores, listen_evaluation
from ._model_evaluation import Evaluation, ModelScores, evaluate
from ._naming_system import (
    MEANING_VARIANCE,
    NamingMeasures,
    NamingSystem,
    naming_measures,
    wcs_chips,
)
from ._paper import forest_plot, latex_table, markdown_table, table_rows
from ._people import DEV_PICKS, RETAIL_BOARD, dev_picks, retail_board
from ._picks import MEASURES, PickRow, PickTable, pick_table
from ._play import GameAction, GameActions, ReadingInPlay, reading_in_play
from ._responses import KEEP, SYNTHETIC_RESPONSES, HumanResponses, Response, synthetic_responses
from ._standard_evaluation import second_test_set, standard_evaluation
from ._variables import export_variables

__all__ = [
    "ALL_CATEGORIES",
    "DEFAULT_GUESSERS",
    "DEV_PICKS",
    "KEEP",
    "LANGUAGE_CODES",
    "MEANING_VARIANCE",
    "MEASURES",
    "RETAIL_BOARD",
    "SYNTHETIC_RESPONSES",
    "TEMPERATURES",
    "Agreement",
    "Calibration",
    "CategoryAgreement",
    "CategoryReport",
    "Citation",
    "Citations",
    "ClueAgreement",
    "ClueChoiceAgreement",
    "ClueChoiceResamples",
    "ClueConsensus",
    "ClueTest",
    "Comparison",
    "Estimate",
    "Evaluation",
    "GameAction",
    "GameActions",
    "GivenClue",
    "GivenCluePoints",
    "GivenClues",
    "GiverComparison",
    "GiverReport",
    "GiverRow",
    "HistogramGuesser",
    "HumanResponses",
    "Indistinguishability",
    "ListenEvaluation",
    "ListenScores",
    "ModelScores",
    "NamingMeasures",
    "NamingSystem",
    "NullRate",
    "PickRow",
    "PickTable",
    "ReadingInPlay",
    "ReliabilityBin",
    "Response",
    "TargetChoice",
    "agreement_by_category",
    "agreement_by_language",
    "calibration",
    "citations",
    "clue_choice_agreement",
    "compare",
    "dev_picks",
    "evaluate",
    "export_variables",
    "forest_plot",
    "giver_clue",
    "givers_against_people",
    "human_agreement",
    "indistinguishable",
    "latex_table",
    "library_players",
    "listen_evaluation",
    "markdown_table",
    "naming_measures",
    "null_rejection_rate",
    "people_agreement",
    "pick_table",
    "points_by_giver",
    "points_on_given_clues",
    "reading_in_play",
    "retail_board",
    "second_test_set",
    "standard_evaluation",
    "synthetic_responses",
    "table_rows",
    "wcs_chips",
]

# Public objects name the public module they are used from (as httpx's do), not a private one.
for _obj in map(globals().__getitem__, __all__):
    if getattr(_obj, "__qualname__", "") and _obj.__module__.startswith(f"{__name__}._"):
        _obj.__module__ = __name__
