"""Research on colour language with the game: human responses (a clue and the square a person
chose) read into a typed dataset, and measures of how well a player or a colour-term model agrees
with them, in the game's own points (R15), with bootstrap intervals over clues."""

from huescues.stats import Estimate

from ._agreement import Agreement, ClueAgreement, human_agreement
from ._responses import SYNTHETIC_RESPONSES, HumanResponses, Response, synthetic_responses

__all__ = [
    "SYNTHETIC_RESPONSES",
    "Agreement",
    "ClueAgreement",
    "Estimate",
    "HumanResponses",
    "Response",
    "human_agreement",
    "synthetic_responses",
]
