"""Research on colour language with the game: human responses (a clue and the square a person
chose) read into a typed dataset, and measures of how well a player or a colour-term model agrees
with them, in the game's own points (R15), with bootstrap intervals over clues; and the held-out
evaluation of colour-term models (colour error, a reference game, points on the board)."""

from ._agreement import Agreement, ClueAgreement, Estimate, human_agreement
from ._model_evaluation import Evaluation, ModelScores, evaluate
from ._responses import SYNTHETIC_RESPONSES, HumanResponses, Response, synthetic_responses
from ._standard_evaluation import second_test_set, standard_evaluation

__all__ = [
    "SYNTHETIC_RESPONSES",
    "Agreement",
    "ClueAgreement",
    "Estimate",
    "Evaluation",
    "HumanResponses",
    "ModelScores",
    "Response",
    "evaluate",
    "human_agreement",
    "second_test_set",
    "standard_evaluation",
    "synthetic_responses",
]
