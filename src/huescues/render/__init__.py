"""Drawing: a board as a PNG picture or as text for a terminal, and a clue's heat map on a board.

The engine and the language models do not draw; this package does, on top of them. The PNGs need
matplotlib, an optional extra (``pip install 'huescues[plot]'``), imported only when a picture is
drawn; the terminal text needs nothing.
"""

from ._board_png import render_board
from ._board_text import board_text, colour_wanted
from ._clue_png import render_clue

__all__ = ["board_text", "colour_wanted", "render_board", "render_clue"]
