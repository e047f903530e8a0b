"""Hues and Cues in a terminal: a person at one seat against bots, and replays of recorded games,
drawn with :func:`huescues.render.board_text` (``huescues play``, ``huescues replay``)."""

from huescues.public import name_public_objects as _name_public_objects

from ._play import OPPONENTS, GameAbandoned, play_in_terminal, show_result, show_reveal
from ._replay import load_record, replay_file

__all__ = [
    "OPPONENTS",
    "GameAbandoned",
    "load_record",
    "play_in_terminal",
    "replay_file",
    "show_result",
    "show_reveal",
]

# Public objects name this package as their module, not a private one.
_name_public_objects(globals())
