"""Real people's picks shipped with the package: 39 clues of the study by Alabau-Bosque et al.
(2025), "Hues and Cues: Human vs. CLIP", each answered by about 40 people on the retail board,
whose 480 squares were measured with a colorimeter (Apache-2.0, see
``data/research/HUES-AND-CUES-PEOPLE-LICENSE.txt``)."""

from __future__ import annotations

from importlib import resources

from huescues.engine import Board

from ._responses import HumanResponses

__all__ = ["DEV_PICKS", "RETAIL_BOARD", "dev_picks", "retail_board"]

#: The people's picks for the 39 dev clues, relative to the package's data folder. Columns:
#: ``clue`` (the study's English wording), ``square``, ``shown_word`` and ``shown_language``
#: (what the person saw, mostly Spanish), ``category`` (the study's own, in Spanish: ANIMAL,
#: COMESTIBLE, ENTORNO, PIEDRA, PLANTA, POP, SUBJETIVO), ``participant``, ``gender``,
#: ``age_range``, ``colour_blind``.
DEV_PICKS = "research/picks-dev.csv"
#: The retail board as measured (16 x 30 squares), relative to the package's data folder.
RETAIL_BOARD = "research/retail-board.csv"


def retail_board() -> Board:
    """The retail game's board, its squares measured with a colorimeter (id ``"retail"``):
    :meth:`Board.retail <huescues.Board.retail>`."""
    return Board.retail()


def dev_picks() -> tuple[HumanResponses, Board]:
    """Real people's picks for the 39 dev clues (1,461 picks) and the retail board they were
    made on.

    Each response keeps the file's other columns in :attr:`Response.extra`: ``category``,
    ``shown_word``, ``shown_language``, ``gender``, ``age_range``, ``colour_blind``. These
    clues are the project's development set; the study's other clues are kept back to judge
    the library on clues it never saw."""
    board = retail_board()
    with resources.as_file(resources.files("huescues.data").joinpath(DEV_PICKS)) as p:
        responses = HumanResponses.from_csv(p, board, strict=True)
    return responses, board
