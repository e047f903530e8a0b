"""Drawing: a board as a PNG picture or as text for a terminal, and a clue's heat map on a board.

The engine and the language models do not draw; this package does, on top of them. The PNGs need
matplotlib, an optional extra (``pip install 'huescues[plot]'``), imported only when a picture is
drawn; the terminal text needs nothing.
"""

from huescues.public import name_public_objects as _name_public_objects

from ._board_png import render_board
from ._board_text import board_text, colour_wanted
from ._clue_png import render_clue
from ._figure import new_figure

__all__ = ["board_text", "colour_wanted", "new_figure", "render_board", "render_clue"]

# Public objects name this package as their module, not a private one.
_name_public_objects(globals())
