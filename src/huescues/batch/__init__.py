"""The batched engine: many games of one configuration stepped together as numpy arrays, for
random baselines and learning agents (beside, not instead of, :class:`huescues.GameState`).

Every game of a batch is a game of the engine: its deck is dealt as :func:`huescues.new_game`
deals for its seed, and its record replays in :class:`huescues.GameState` to the same scores
and winners.

    >>> from huescues.batch import play_random_batch
    >>> records = play_random_batch(8, 4, seed=1)
    >>> [record.seed for record in records]
    [1, 2, 3, 4, 5, 6, 7, 8]
    >>> records[0].replay().is_terminal
    True
"""

from huescues.public import name_public_objects as _name_public_objects

from ._action_space import PASS, TARGETS, ActionSpace
from ._games import PHASES, FinishedGame, GameBatch
from ._naming import NamingGiver, naming_ranking
from ._random import play_random_batch, random_actions, random_batch_games
from ._vocabulary import PAIR_STEPS, ClueVocabulary

__all__ = [
    "PAIR_STEPS",
    "PASS",
    "PHASES",
    "TARGETS",
    "ActionSpace",
    "ClueVocabulary",
    "FinishedGame",
    "GameBatch",
    "NamingGiver",
    "naming_ranking",
    "play_random_batch",
    "random_actions",
    "random_batch_games",
]

# Public objects name this package as their module, not a private one.
_name_public_objects(globals())
