"""Hues and Cues in a terminal: a person at one seat against bots, and replays of recorded games,
drawn with :func:`huescues.render.board_text` (``huescues play``, ``huescues replay``)."""

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

# Public objects name the public module they are used from (as httpx's do), not a private one.
for _obj in map(globals().__getitem__, __all__):
    if getattr(_obj, "__qualname__", "") and _obj.__module__.startswith(f"{__name__}._"):
        _obj.__module__ = __name__
