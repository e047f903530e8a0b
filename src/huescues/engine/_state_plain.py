"""The engine's moves written plainly, field by field: the reference that the fast paths of
:class:`~huescues.GameState` are tested against (``tests/test_engine_fast.py``).

The fast paths, in ``_state``: :meth:`GameState.apply` and :meth:`GameState.view` unpack the
state's 18 fields by position and build the next state or view as one tuple
(``tuple.__new__``), and a replay places a run of pawns in one call (``_place_pawns``), because
a state is made for every action of every game. Here each move names the fields it changes
(``state._replace``) and each view is built by keyword; the rules' own checks and scoring
(clues, R15-R17 points, who sits where next) are the ones the fast paths call. A refused action
raises the same kind of :class:`~huescues.IllegalAction` (its message is the fast path's
concern).
"""

from __future__ import annotations

import operator

from ._actions import Action, ChooseTarget, GiveClue, Pass, PlacePawn
from ._cell import Cell
from ._clues import check_clue
from ._errors import (
    GameOver,
    IllegalClue,
    InvalidTarget,
    NotYourTurn,
    OccupiedSquare,
    OffBoard,
    PassNotAllowed,
    WrongPhase,
)
from ._scoring import round_points
from ._state import GameState, Phase, Result, RoundResult, View, next_seats

__all__ = ["apply_plainly", "view_plainly"]

_GUESSES = (Phase.FIRST_GUESS, Phase.SECOND_GUESS)
_CLUES = (Phase.FIRST_CLUE, Phase.SECOND_CLUE)


def apply_plainly(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """What :meth:`GameState.apply` gives, move by move."""
    phase = state.phase
    if phase is Phase.GAME_OVER:
        raise GameOver("the game is over")
    if seat is not None and seat != state.current_player:
        raise NotYourTurn("not this seat's turn")
    if type(action) is PlacePawn and phase in _GUESSES:
        return _pawn(state, action)
    if type(action) is GiveClue and phase in _CLUES:
        return _clue(state, action)
    if type(action) is ChooseTarget and phase is Phase.CHOOSE_TARGET:
        return _target(state, action)
    if type(action) is Pass and phase is Phase.SECOND_CLUE:
        if not state.rules.second_clue_may_pass:
            raise PassNotAllowed("these rules do not allow passing")
        return _end_round(state, state.pawns, (action, state.log))
    if type(action) not in (PlacePawn, GiveClue, ChooseTarget, Pass):
        raise TypeError("not an action")
    raise WrongPhase("not an action of this phase")


def _pawn(state: GameState, action: PlacePawn) -> GameState:
    cell = action.cell
    if type(cell) is not Cell:
        raise TypeError("PlacePawn takes a Cell")
    if cell not in state.board:
        raise OffBoard("off the board")
    if cell in state.occupied:
        raise OccupiedSquare("the square holds a pawn")
    assert state.current_player is not None
    pawns = (*state.pawns, (state.current_player, cell))
    log = (action, state.log)
    turn = state.turn + 1
    if turn < len(state.guessers):
        order = state.guessers
        if state.phase is Phase.SECOND_GUESS and state.rules.second_guess_order == "reverse":
            order = order[::-1]  # R12: counter-clockwise from the giver's right
        return state._replace(
            current_player=order[turn],
            turn=turn,
            pawns=pawns,
            occupied=state.occupied | {cell},
            log=log,
        )
    if state.phase is Phase.FIRST_GUESS:
        return state._replace(
            phase=Phase.SECOND_CLUE,
            current_player=state.giver,
            turn=0,
            pawns=pawns,
            occupied=state.occupied | {cell},
            log=log,
        )
    return _end_round(state, pawns, log)


def _clue(state: GameState, action: GiveClue) -> GameState:
    text = action.text
    if not isinstance(text, str):
        raise IllegalClue("a clue is text (R18)", rule="R18", clue=repr(text))
    if type(text) is not str:  # a str subclass is text: kept as a str
        text = str(text)
        action = GiveClue(text)
    second = state.phase is Phase.SECOND_CLUE
    check_clue(text, second, state.rules, state.clues_given)
    order = state.guessers
    if second and state.rules.second_guess_order == "reverse":
        order = order[::-1]
    return state._replace(
        phase=Phase.SECOND_GUESS if second else Phase.FIRST_GUESS,
        current_player=order[0],
        turn=0,
        clues=(*state.clues, text),
        clues_given=(*state.clues_given, text),
        result=None,
        log=(action, state.log),
    )


def _target(state: GameState, action: ChooseTarget) -> GameState:
    index = action.index
    if type(index) is not int or not 0 <= index < len(state.card):
        raise InvalidTarget("not a square of the card")
    return state._replace(
        phase=Phase.FIRST_CLUE,
        current_player=state.giver,
        turn=0,
        target_index=index,
        clues=(),
        pawns=(),
        occupied=frozenset(),
        result=None,
        log=(action, state.log),
    )


def _end_round(state: GameState, pawns: tuple[tuple[int, Cell], ...], log: object) -> GameState:
    """Score the round (R14-R17) and start the next one, or end the game (R24-R26)."""
    setup = state.setup
    tiebreak = state.round >= setup.regular_rounds
    target = state.target
    assert target is not None
    points = round_points(setup.rules, state.giver, target, pawns, tiebreak=tiebreak)
    done = RoundResult(state.round, state.giver, tiebreak, target, state.clues, pawns, points)
    scores = tuple(map(operator.add, state.scores, points))
    history = (*state.history, done)
    rounds = state.tiebreak_rounds + tiebreak
    seats = next_seats(setup, state.round + 1, state.giver, scores, rounds)
    common = {
        "setup": setup,
        "round": state.round + 1,
        "turn": 0,
        "target_index": None,
        "clues": (),
        "pawns": (),
        "occupied": frozenset(),
        "scores": scores,
        "clues_given": state.clues_given,
        "history": history,
        "tiebreak_rounds": rounds,
        "log": log,
    }
    if isinstance(seats, Result):
        return GameState(
            phase=Phase.GAME_OVER,
            current_player=None,
            giver=state.giver,
            guessers=(),
            card=(),
            result=seats,
            **common,  # type: ignore[arg-type]
        )
    giver, guessers = seats
    return GameState(
        phase=Phase.CHOOSE_TARGET,
        current_player=giver,
        giver=giver,
        guessers=guessers,
        card=setup.deck.cards[setup.order[state.round + 1]],
        result=None,
        **common,  # type: ignore[arg-type]
    )


def view_plainly(state: GameState, seat: int) -> View:
    """What :meth:`GameState.view` gives, field by field (R8: the card and target for the
    clue giver only)."""
    over = state.phase is Phase.GAME_OVER
    giver = seat == state.giver and not over
    return View(
        seat=seat,
        phase=state.phase,
        current_player=state.current_player,
        giver=state.giver,
        guessers=state.guessers,
        round=state.round,
        tiebreak=state.round >= state.setup.regular_rounds and not over,
        scores=state.scores,
        clues=state.clues,
        pawns=state.pawns,
        clues_given=state.clues_given,
        history=state.history,
        occupied=state.occupied,
        rules=state.rules,
        board=state.board,
        card=state.card if giver else None,
        target=state.target if giver else None,
    )
