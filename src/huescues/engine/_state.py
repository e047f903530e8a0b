"""The game: an immutable state, the turn order, scoring and the end of the game (R2-R27)."""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ._actions import (
    Action,
    ChooseTarget,
    GiveClue,
    Pass,
    PlacePawn,
    action_to_dict,
)
from ._board import RETAIL_BOARD_ID, STANDARD_BOARD_ID, Board
from ._cell import ROW_LETTERS, Cell
from ._clues import check_clue
from ._deck import Card, Deck
from ._errors import (
    GameOver,
    IllegalAction,
    IllegalClue,
    InvalidRecord,
    InvalidRules,
    InvalidTarget,
    NotYourTurn,
    OccupiedSquare,
    OffBoard,
    PassNotAllowed,
    WrongPhase,
)
from ._ints import as_int
from ._load import RECORD_KEYS, load_json, read_game_fields, short
from ._random import as_seed, below, engine_stream, shuffled
from ._rules import Rules
from ._scoring import round_points

__all__ = ["GameSetup", "GameState", "Phase", "Result", "RoundResult", "View", "new_game"]

#: Bumped whenever the engine's behaviour changes, so old records are not replayed silently.
ENGINE_VERSION = 1


class Phase(enum.Enum):
    """The steps of a round (R8-R12), and the end of the game."""

    CHOOSE_TARGET = "choose_target"
    FIRST_CLUE = "first_clue"
    FIRST_GUESS = "first_guess"
    SECOND_CLUE = "second_clue"
    SECOND_GUESS = "second_guess"
    GAME_OVER = "game_over"


# Enum members looked up as Phase.X cost ~0.1 us each on Python 3.11; the hot paths use these.
_CHOOSE_TARGET = Phase.CHOOSE_TARGET
_FIRST_CLUE = Phase.FIRST_CLUE
_FIRST_GUESS = Phase.FIRST_GUESS
_SECOND_CLUE = Phase.SECOND_CLUE
_SECOND_GUESS = Phase.SECOND_GUESS
_GAME_OVER = Phase.GAME_OVER


_new = tuple.__new__
_EMPTY: frozenset[Cell] = frozenset()

#: The actions of a game, newest first, as nested pairs (a persistent list).
_Log = tuple[Action, Any] | None

_EXPECTS = {
    _CHOOSE_TARGET: "ChooseTarget (R8)",
    _FIRST_CLUE: "GiveClue (R9)",
    _FIRST_GUESS: "PlacePawn (R10)",
    _SECOND_CLUE: "GiveClue or Pass (R11)",
    _SECOND_GUESS: "PlacePawn (R12)",
}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round, public after the reveal (R14): who gave which clues, where the pawns
    went and what everyone scored."""

    #: 0-based index among all rounds played, tie-breakers included.
    round: int
    giver: int
    #: Whether this was a tie-breaker round (R25).
    tiebreak: bool
    target: Cell
    #: The clues as given; one clue when the giver passed (R11).
    clues: tuple[str, ...]
    #: ``(seat, square)`` for every pawn, in the order placed.
    pawns: tuple[tuple[int, Cell], ...]
    #: Points each seat scored in this round, by seat.
    points: tuple[int, ...]

    @property
    def passed(self) -> bool:
        """Whether the clue giver passed instead of giving a second clue (R11)."""
        return len(self.clues) < 2

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: squares by name (``"F12"``)."""
        return {
            "round": self.round,
            "giver": self.giver,
            "tiebreak": self.tiebreak,
            "target": str(self.target),
            "clues": list(self.clues),
            "pawns": [[seat, str(c)] for seat, c in self.pawns],
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], board: Board) -> RoundResult:
        """The round of :meth:`to_dict`, its squares read on ``board``."""
        return cls(
            int(data["round"]),
            int(data["giver"]),
            bool(data["tiebreak"]),
            board.cell(data["target"]),
            tuple(data["clues"]),
            tuple((int(seat), board.cell(n)) for seat, n in data["pawns"]),
            tuple(data["points"]),
        )


# A round's result made as RoundResult's own __init__ makes it (it checks nothing), each field
# set through its slot rather than by the seven object.__setattr__ calls of a frozen
# dataclass's __init__: every round of every game and replay makes one (a replay 3 % sooner).
_SET_ROUND, _SET_GIVER, _SET_TIEBREAK, _SET_TARGET, _SET_CLUES, _SET_PAWNS, _SET_POINTS = (
    getattr(RoundResult, f.name).__set__ for f in dataclasses.fields(RoundResult)
)


def _round_result(
    rnd: int,
    giver: int,
    tiebreak: bool,
    target: Cell,
    clues: tuple[str, ...],
    pawns: tuple[tuple[int, Cell], ...],
    points: tuple[int, ...],
) -> RoundResult:
    made: RoundResult = object.__new__(RoundResult)
    _SET_ROUND(made, rnd)
    _SET_GIVER(made, giver)
    _SET_TIEBREAK(made, tiebreak)
    _SET_TARGET(made, target)
    _SET_CLUES(made, clues)
    _SET_PAWNS(made, pawns)
    _SET_POINTS(made, points)
    return made


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game (R24-R26)."""

    #: The seats with the highest total: one, or several when the win is shared (R26).
    winners: tuple[int, ...]
    #: Final totals by seat.
    scores: tuple[int, ...]
    #: How many tie-breaker rounds were played (R25).
    tiebreak_rounds: int

    @property
    def shared(self) -> bool:
        """Whether several players share the win (R26)."""
        return len(self.winners) > 1


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What stays fixed for a whole game: rules, board, deck, seed and what the seed decided."""

    rules: Rules
    board: Board
    deck: Deck
    seed: int
    #: The shuffled deck: card indices in the order they are drawn (R3).
    order: tuple[int, ...]
    first_giver: int
    #: ``rules.regular_rounds`` (R7), kept here because every view asks.
    regular_rounds: int = field(init=False, repr=False, compare=False)
    #: The guessers of a regular round by clue giver, clockwise from the giver's left (R10).
    guessers_by_giver: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regular_rounds", self.rules.regular_rounds)
        object.__setattr__(self, "guessers_by_giver", _guessers_by_giver(self.rules.n_players))


@functools.cache
def _guessers_by_giver(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((g + k) % n for k in range(1, n)) for g in range(n))


class View(NamedTuple):
    """What one seat may know (hidden information, R8): a guesser's view has no card and no
    target. Agents only ever receive views. (A named tuple: views are made for every decision.)
    """

    seat: int
    phase: Phase
    #: The seat whose turn it is, or ``None`` when the game is over.
    current_player: int | None
    giver: int
    #: The seats guessing this round, in the order of the first guesses (R10).
    guessers: tuple[int, ...]
    #: 0-based index of this round among all rounds, tie-breakers included.
    round: int
    tiebreak: bool
    scores: tuple[int, ...]
    #: This round's clues so far.
    clues: tuple[str, ...]
    #: This round's pawns so far: ``(seat, square)`` in the order placed.
    pawns: tuple[tuple[int, Cell], ...]
    #: Every clue given in the game so far, this round's included (R22).
    clues_given: tuple[str, ...]
    #: The rounds already scored.
    history: tuple[RoundResult, ...]
    #: The squares holding a pawn this round (R13).
    occupied: frozenset[Cell]
    rules: Rules
    board: Board
    #: The card's four squares: the clue giver's view only (R8).
    card: Card | None = None
    #: The target, once chosen: the clue giver's view only (R8).
    target: Cell | None = None

    @property
    def is_giver(self) -> bool:
        """Whether this seat is the clue giver this round."""
        return self.seat == self.giver


class GameState(NamedTuple):
    """A moment of a game of Hues and Cues. Immutable: :meth:`apply` returns the next state.

    The state knows everything, the card and target included; give players :meth:`view`.
    Make one with :func:`new_game`. (A named tuple, because a state is made for every action;
    it equals only another ``GameState``.)
    """

    #: What stays fixed for the whole game.
    setup: GameSetup
    phase: Phase
    #: The seat to act, or ``None`` when the game is over.
    current_player: int | None
    #: 0-based index of the round among all rounds, tie-breakers included.
    round: int
    giver: int
    #: The seats guessing this round, in the order of the first guesses (R10).
    guessers: tuple[int, ...]
    #: Index into the current guessing order.
    turn: int
    #: The card drawn for this round (R8); empty when the game is over.
    card: Card
    #: The chosen square of the card, 0-3, or ``None`` before it is chosen.
    target_index: int | None
    clues: tuple[str, ...]
    pawns: tuple[tuple[int, Cell], ...]
    occupied: frozenset[Cell]
    scores: tuple[int, ...]
    clues_given: tuple[str, ...]
    history: tuple[RoundResult, ...]
    tiebreak_rounds: int
    result: Result | None
    #: The actions so far, newest first, as nested pairs ``(action, older)`` so that adding
    #: one costs the same at any point of the game; :attr:`actions` is the flat tuple.
    log: _Log

    def __eq__(self, other: object) -> bool:
        return type(other) is GameState and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.n_players} players, round {self.round}, {self.phase.value}, "
            f"seat {self.current_player} to play, scores {self.scores}>"
        )

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied since :func:`new_game`, in order."""
        out: list[Action] = []
        log = self.log
        while log is not None:
            out.append(log[0])
            log = log[1]
        return tuple(reversed(out))

    # -- what the game is ----------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules this game is played by."""
        return self.setup.rules

    @property
    def board(self) -> Board:
        """The board."""
        return self.setup.board

    @property
    def deck(self) -> Deck:
        """The deck of cue cards (R3)."""
        return self.setup.deck

    @property
    def seed(self) -> int:
        """The seed all chance came from (R27)."""
        return self.setup.seed

    @property
    def n_players(self) -> int:
        """Number of players (R2)."""
        return self.setup.rules.n_players

    @property
    def tiebreak(self) -> bool:
        """Whether the current round is a tie-breaker (R25); a finished game has no current
        round, so False then (R24-R26), however many rounds were played."""
        return self.phase is not _GAME_OVER and self.round >= self.setup.rules.regular_rounds

    @property
    def target(self) -> Cell | None:
        """The target square, once chosen (R8)."""
        return None if self.target_index is None else self.card[self.target_index]

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over (R24-R26)."""
        return self.phase is _GAME_OVER

    # -- what may happen next ------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions that can be listed: the card's four squares, the empty squares, a
        pass. Clues are free text: check one with :func:`huescues.validate_clue`."""
        phase = self.phase
        if phase is _CHOOSE_TARGET:
            return tuple(ChooseTarget(i) for i in range(len(self.card)))
        if phase is _FIRST_GUESS or phase is _SECOND_GUESS:
            occ = self.occupied
            return tuple(PlacePawn(c) for c in self.setup.board.cells() if c not in occ)
        if phase is _SECOND_CLUE and self.setup.rules.second_clue_may_pass:
            return (Pass(),)
        return ()

    def is_legal(self, action: Action, *, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` (from ``seat``, if given)."""
        try:
            self.apply(action, seat=seat)
        except IllegalAction:
            return False
        return True

    def view(self, seat: int) -> View:
        """What ``seat`` may know: the card and target only for the clue giver (R8)."""
        # One function, not a check around a second one: runners call it for every decision.
        (setup, phase, current, rnd, giver, guessers, _, card, target, clues, pawns, occupied,
         scores, given, history, _, _, _) = self  # fmt: skip
        rules = setup.rules
        if type(seat) is not int or not 0 <= seat < rules.n_players:
            seat = _seat(seat, rules.n_players)  # a numpy int becomes an int; else refused
        if seat == giver and phase is not _GAME_OVER:
            target_cell = None if target is None else card[target]
            return _new(
                View,
                (seat, phase, current, giver, guessers, rnd, rnd >= setup.regular_rounds, scores,
                 clues, pawns, given, history, occupied, rules, setup.board, card, target_cell),
            )  # fmt: skip
        # A finished game has no current round: not a tie-breaker (R24-R26).
        tiebreak = rnd >= setup.regular_rounds and phase is not _GAME_OVER
        return _new(
            View,
            (seat, phase, current, giver, guessers, rnd, tiebreak, scores,
             clues, pawns, given, history, occupied, rules, setup.board, None, None),
        )  # fmt: skip

    # -- playing -------------------------------------------------------------------------------
    def apply(self, action: Action, *, seat: int | None = None) -> GameState:
        """The state after ``action`` by the current player.

        Raises a subclass of :class:`IllegalAction` saying what is wrong, and why, when the
        rules refuse it (also when ``seat`` is given and it is not that seat's turn); this state
        is unchanged either way.
        """
        phase = self.phase
        if phase is _GAME_OVER:
            raise GameOver(f"{action} refused: the game is over (R24-R26)")
        if seat is not None and seat != self.current_player:
            raise NotYourTurn(
                f"{action} by seat {seat!r} refused: it is seat {self.current_player}'s turn "
                f"to play {_EXPECTS[phase]}"
            )
        kind = type(action)
        if kind is PlacePawn and (phase is _FIRST_GUESS or phase is _SECOND_GUESS):
            return _place_pawns(self, action)  # type: ignore[arg-type]
        if kind is GiveClue and (phase is _FIRST_CLUE or phase is _SECOND_CLUE):
            return self._clue(action)  # type: ignore[arg-type]
        if kind is ChooseTarget and phase is _CHOOSE_TARGET:
            return self._choose(action)  # type: ignore[arg-type]
        if kind is Pass and phase is _SECOND_CLUE:
            if not self.setup.rules.second_clue_may_pass:
                raise PassNotAllowed("pass refused: these rules do not allow passing (R11)")
            return self._end_round(self.pawns, (action, self.log))
        if kind not in (PlacePawn, GiveClue, ChooseTarget, Pass):
            raise TypeError(f"not an action: {action!r}")
        raise WrongPhase(
            f"{action} refused: the round is at {phase.value} and waits for "
            f"{_EXPECTS[phase]} from seat {self.current_player}"
        )

    def _choose(self, action: ChooseTarget) -> GameState:
        (setup, _, _, rnd, giver, guessers, _, card, _, _, _, _, scores, given, history,
         tiebreaks, _, log) = self  # fmt: skip
        index = action.index
        if type(index) is not int or not 0 <= index < len(card):
            raise InvalidTarget(
                f"target {index!r} refused: choose one of the card's squares, 0-"
                f"{len(card) - 1} (R8)"
            )
        return _new(
            GameState,
            (setup, _FIRST_CLUE, giver, rnd, giver, guessers, 0, card, index, (), (), _EMPTY,
             scores, given, history, tiebreaks, None, (action, log)),
        )  # fmt: skip

    def _clue(self, action: GiveClue) -> GameState:
        (setup, phase, _, rnd, giver, guessers, _, card, target, clues, pawns, occupied,
         scores, given, history, tiebreaks, _, log) = self  # fmt: skip
        text = action.text
        second = phase is _SECOND_CLUE
        if type(text) is not str:
            if not isinstance(text, str):
                raise IllegalClue(
                    f"clue {text!r} refused: a clue is text (R18)", rule="R18", clue=repr(text)
                )
            # A str subclass (numpy's str_) is text, as validate_clue reads it: kept as a str.
            text = str(text)
            action = GiveClue(text)
        check_clue(text, second, setup.rules, given)
        first = guessers if not second else self._second_order()
        return _new(
            GameState,
            (setup, _SECOND_GUESS if second else _FIRST_GUESS, first[0], rnd, giver, guessers,
             0, card, target, (*clues, text), pawns, occupied, scores, (*given, text), history,
             tiebreaks, None, (action, log)),
        )  # fmt: skip

    def _second_order(self) -> tuple[int, ...]:
        if self.setup.rules.second_guess_order == "reverse":
            return self.guessers[::-1]  # R12: counter-clockwise from the giver's right
        return self.guessers

    def _end_round(self, pawns: tuple[tuple[int, Cell], ...], log: _Log) -> GameState:
        """Reveal and score (R14-R17), then start the next round or end the game (R24-R26).
        ``pawns`` and ``log`` are the round's with its last action (a pawn or a pass)."""
        (setup, _, _, rnd, giver, _, _, card, target_index, clues, _, _, scores, given, history,
         tiebreaks, _, _) = self  # fmt: skip
        tiebreak = rnd >= setup.regular_rounds
        target = card[target_index]  # type: ignore[index]
        points = round_points(setup.rules, giver, target, pawns, tiebreak=tiebreak)
        done = _round_result(rnd, giver, tiebreak, target, clues, pawns, points)
        return _start_round(
            setup,
            rnd + 1,
            giver,
            tuple(map(operator.add, scores, points)),
            given,
            (*history, done),
            tiebreaks + tiebreak,
            log,
        )

    # -- records -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data for the whole state (see :meth:`from_dict`)."""
        s = self.setup
        return {
            "engine_version": ENGINE_VERSION,
            "rules": s.rules.to_dict(),
            "board_id": s.board.id,
            "deck_id": s.deck.id,
            "seed": s.seed,
            "order": list(s.order),
            "first_giver": s.first_giver,
            "phase": self.phase.value,
            "current_player": self.current_player,
            "round": self.round,
            "giver": self.giver,
            "guessers": list(self.guessers),
            "turn": self.turn,
            "card": [str(c) for c in self.card],
            "target_index": self.target_index,
            "clues": list(self.clues),
            "pawns": [[seat, str(c)] for seat, c in self.pawns],
            "scores": list(self.scores),
            "clues_given": list(self.clues_given),
            "history": [r.to_dict() for r in self.history],
            "tiebreak_rounds": self.tiebreak_rounds,
            "result": None if self.result is None else _result_to_dict(self.result),
            "actions": [action_to_dict(a) for a in self.actions],
        }

    def to_json(self) -> str:
        """The state as JSON text; :meth:`from_json` reads it back to an equal state."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, board: Board | None = None, deck: Deck | None = None
    ) -> GameState:
        """The inverse of :meth:`to_dict`. The standard board and deck, and generated decks, are
        found by id; pass any other ``board`` or ``deck`` the game was played with.

        The state is rebuilt by replaying its actions from its seed (R27), and every other field
        must agree with the replay: data that is not a state the rules can reach (scores nobody
        scored, a seat that is not the one to play, a target off the card) raises
        :class:`InvalidRecord` naming the first field that disagrees. Nothing is taken on trust.
        """
        what = "a game state"
        if isinstance(data, dict) and data.get("engine_version") != ENGINE_VERSION:
            raise InvalidRecord(
                f"state from engine version {short(data.get('engine_version'))}; this is "
                f"version {ENGINE_VERSION}"
            )
        fields = read_game_fields(data, what, tuple(_STATE_KEYS))
        board = resolve_board(fields.board_id, board)
        deck = resolve_deck(fields.deck_id, deck)
        rules = fields.rules
        try:
            state = new_game(rules.n_players, seed=fields.seed, rules=rules, board=board, deck=deck)
        except InvalidRules as e:
            raise InvalidRecord(f"{what} cannot be set up: {e}") from e
        for i, action in enumerate(fields.actions):
            try:
                state = state.apply(action)
            except IllegalAction as e:
                raise InvalidRecord(f"{what}'s action {i} cannot be played: {e}") from e
        canonical = state.to_dict()
        for key, value in canonical.items():
            if key not in _REPLAYED_KEYS and not _same_json(data[key], value):
                raise InvalidRecord(
                    f"{what}'s {key} is {short(data[key])}, but its actions lead to "
                    f"{short(value)}: not a state these actions reach"
                )
        return state

    @classmethod
    def from_json(
        cls, text: str, *, board: Board | None = None, deck: Deck | None = None
    ) -> GameState:
        """The inverse of :meth:`to_json`, checked as :meth:`from_dict` says."""
        return cls.from_dict(load_json(text, "a game state"), board=board, deck=deck)


def _place_pawns(
    state: GameState,
    action: PlacePawn,
    following: Iterator[Action] | None = None,
    left: list[Action | None] | None = None,
) -> GameState:
    """The state after a pawn (R10, R12, R13) in a guessing phase, and, in a replay (an iterator
    of the actions ``following`` it, and ``left`` to hand back the first of them that is not a
    pawn, for the replay to apply next), after every pawn that comes next in the same round,
    placed in the same call by the same rules: one state made for a run of pawns instead of
    one each.

    The engine's fast path, one tuple unpacked and one built per call; ``_state_plain`` is the
    plain version it is tested against (``tests/test_engine_fast.py``)."""
    (setup, phase, seat, rnd, giver, guessers, turn, card, target, clues, pawns, occupied,
     scores, given, history, tiebreaks, result, log) = state  # fmt: skip
    board = setup.board
    while True:
        cell = action.cell
        if type(cell) is not Cell:
            raise TypeError(f"PlacePawn takes a Cell, such as Cell.parse('F12'), not {cell!r}")
        if not (0 <= cell.row < board.rows and 0 <= cell.col < board.cols):
            raise OffBoard(
                f"pawn on {cell} refused: the board has rows "
                f"A-{ROW_LETTERS[board.rows - 1]} and columns 1-{board.cols} (R1)"
            )
        after = occupied | {cell}  # one hash of the square: its check and the new set
        if len(after) == len(occupied):
            owner = next(s for s, c in pawns if c == cell)
            raise OccupiedSquare(
                f"pawn on {cell} refused: the square already holds seat {owner}'s pawn (R13)"
            )
        assert seat is not None  # a guessing phase always has a player to act
        pawns = (*pawns, (seat, cell))
        occupied = after
        log = (action, log)
        turn += 1
        if turn < len(guessers):
            if phase is _SECOND_GUESS and setup.rules.second_guess_order == "reverse":
                seat = guessers[-1 - turn]  # R12: counter-clockwise from the giver's right
            else:
                seat = guessers[turn]
        elif phase is _FIRST_GUESS:
            phase, seat, turn = _SECOND_CLUE, giver, 0
            break
        else:
            return state._end_round(pawns, log)
        if following is None or left is None:
            break
        # A replay's next action, if it is a pawn: placed here, by the same rules; another is
        # handed back for the replay to apply next.
        nxt = next(following, None)
        if type(nxt) is not PlacePawn:
            left[0] = nxt
            break
        action = nxt
    return _new(
        GameState,
        (setup, phase, seat, rnd, giver, guessers, turn, card, target, clues, pawns, occupied,
         scores, given, history, tiebreaks, result, log),
    )  # fmt: skip


#: The fields of a saved state (:meth:`GameState.to_dict`).
_STATE_KEYS = (
    *RECORD_KEYS,
    "order",
    "first_giver",
    "phase",
    "current_player",
    "round",
    "giver",
    "guessers",
    "turn",
    "card",
    "target_index",
    "clues",
    "pawns",
    "scores",
    "clues_given",
    "history",
    "tiebreak_rounds",
    "result",
)
#: The fields a state is rebuilt from (the rest must agree with the rebuilt state).
_REPLAYED_KEYS = frozenset(RECORD_KEYS)


def _same_json(loaded: object, made: object) -> bool:
    """Whether ``loaded`` is the same JSON as ``made`` (``1`` is not ``true`` nor ``1.0``)."""
    try:
        return json.dumps(loaded) == json.dumps(made)
    except (TypeError, ValueError):
        return False


def _seat(seat: object, n_players: int) -> int:
    """``seat`` as an int seat of the game, or a ValueError naming it (R2)."""
    try:
        value = as_int(seat, "a seat")
    except TypeError:
        value = -1
    if not 0 <= value < n_players:
        raise ValueError(f"no seat {seat!r} in a {n_players}-player game (R2)")
    return value


def _log_of(actions: Iterable[Action]) -> _Log:
    log: _Log = None
    for action in actions:
        log = (action, log)
    return log


def resolve_board(board_id: str, board: Board | None) -> Board:
    """The board with this id: the one given, or one the library ships (the standard board,
    the measured retail board, the WCS chart)."""
    if board is None:
        board = known_board(board_id) or Board.standard()
    if board.id != board_id:
        raise ValueError(
            f"the game was played on board {board_id!r}; pass that board, not {board.id!r}"
        )
    return board


def known_board(board_id: str) -> Board | None:
    """The board the library ships with this id, or None."""
    from huescues.colour import WCS_BOARD_ID

    if board_id == STANDARD_BOARD_ID:
        return Board.standard()
    if board_id == RETAIL_BOARD_ID:
        return Board.retail()
    if board_id == WCS_BOARD_ID:
        return Board.wcs()
    return None


def resolve_deck(deck_id: str, deck: Deck | None) -> Deck:
    """The deck with this id: the one given, or the standard or a generated deck."""
    if deck is None:
        return Deck.from_id(deck_id)
    if deck.id != deck_id:
        raise ValueError(
            f"the game was played with deck {deck_id!r}; pass that deck, not {deck.id!r}"
        )
    return deck


def _result_to_dict(r: Result) -> dict[str, Any]:
    return {
        "winners": list(r.winners),
        "scores": list(r.scores),
        "tiebreak_rounds": r.tiebreak_rounds,
    }


@functools.cache
def _standard_rules(n_players: int) -> Rules:
    return Rules.standard(n_players)


def new_game(
    n_players: int,
    *,
    seed: int,
    rules: Rules | None = None,
    board: Board | None = None,
    deck: Deck | None = None,
) -> GameState:
    """A new game: the deck shuffled with ``seed`` (R3, R27), the first clue giver to choose a
    target (R6, R8).

    ``rules`` default to :meth:`Rules.standard` for ``n_players``; ``board`` to the standard
    board; ``deck`` to the standard deck on a 16 x 30 board and a generated one otherwise.
    """
    if type(n_players) is not int:
        n_players = Rules.standard(n_players).n_players  # numpy ints become ints; else refused
    if type(seed) is not int:
        seed = as_seed(seed)
    if rules is None:
        rules = _standard_rules(n_players)
    elif not isinstance(rules, Rules):
        raise TypeError(f"new_game's rules are a Rules object, not {rules!r:.80}")
    elif rules.n_players != n_players:
        raise InvalidRules(f"the rules are for {rules.n_players} players, not {n_players} (R2)")
    if board is None:
        board = Board.standard()
    elif not isinstance(board, Board):
        raise TypeError(f"new_game's board is a Board object, not {board!r:.80}")
    if deck is None:
        deck = Deck.for_board(board.rows, board.cols)
    elif not isinstance(deck, Deck):
        raise TypeError(f"new_game's deck is a Deck object, not {deck!r:.80}")
    if deck.extent[0] > board.rows or deck.extent[1] > board.cols:
        raise InvalidRules(
            f"deck {deck.id!r} shows squares off board {board.id!r} "
            f"({board.rows} x {board.cols}) (R1, R3)"
        )
    rounds_needed = rules.regular_rounds + rules.max_tiebreak_rounds
    if rounds_needed > len(deck):
        raise InvalidRules(
            f"these rules may play {rounds_needed} rounds (R7, R25) but deck {deck.id!r} has "
            f"{len(deck)} cards and a drawn card is not reused (R3)"
        )
    pawns_needed = 2 * (n_players - 1)
    if board.size < pawns_needed:
        raise InvalidRules(
            f"board {board.id!r} has {board.size} squares, too few for {pawns_needed} pawns (R13)"
        )
    stream = engine_stream(seed)
    order = tuple(shuffled(stream, range(len(deck))))
    first = below(stream, n_players) if rules.first_giver == "random" else rules.first_giver
    setup = GameSetup(rules, board, deck, seed, order, int(first))
    return _start_round(
        setup,
        round=0,
        last_giver=(first - 1) % n_players,
        scores=(0,) * n_players,
        clues_given=(),
        history=(),
        tiebreak_rounds=0,
        log=None,
    )


def _start_round(
    setup: GameSetup,
    round: int,
    last_giver: int,
    scores: tuple[int, ...],
    clues_given: tuple[str, ...],
    history: tuple[RoundResult, ...],
    tiebreak_rounds: int,
    log: _Log,
) -> GameState:
    """Draw the next card and seat the clue giver and guessers (R6, R7, R10, R25), or end the
    game (R24, R26)."""
    if round < setup.regular_rounds:  # (next_seats' first case, inline: every round asks)
        giver = (last_giver + 1) % setup.rules.n_players  # R6: the role passes clockwise
        seats: tuple[int, tuple[int, ...]] | Result = (giver, setup.guessers_by_giver[giver])
    else:
        seats = next_seats(setup, round, last_giver, scores, tiebreak_rounds)
    if isinstance(seats, Result):
        return _new(
            GameState,
            (setup, _GAME_OVER, None, round, last_giver, (), 0, (), None, (), (), _EMPTY,
             scores, clues_given, history, tiebreak_rounds, seats, log),
        )  # fmt: skip
    giver, guessers = seats
    card = setup.deck.cards[setup.order[round]]
    return _new(
        GameState,
        (setup, _CHOOSE_TARGET, giver, round, giver, guessers, 0, card, None, (), (), _EMPTY,
         scores, clues_given, history, tiebreak_rounds, None, log),
    )  # fmt: skip


def next_seats(
    setup: GameSetup,
    round: int,
    last_giver: int,
    scores: tuple[int, ...],
    tiebreak_rounds: int,
) -> tuple[int, tuple[int, ...]] | Result:
    """The clue giver and guessers of round ``round`` (R6, R7, R10, R25), or the game's result
    when it is over (R24, R26)."""
    rules = setup.rules
    n = rules.n_players
    giver = (last_giver + 1) % n  # R6: the role passes clockwise
    if round < setup.regular_rounds:
        return giver, setup.guessers_by_giver[giver]
    top = max(scores)
    tied = {s for s in range(n) if scores[s] == top}
    if len(tied) == 1 or len(tied) == n or tiebreak_rounds >= rules.max_tiebreak_rounds:
        return Result(tuple(sorted(tied)), scores, tiebreak_rounds)
    # R25: a player who is not tied gives the clue, clockwise from after the last giver, and
    # only the tied players guess, clockwise from the giver's left.
    while giver in tied:
        giver = (giver + 1) % n
    return giver, tuple((giver + k) % n for k in range(1, n) if (giver + k) % n in tied)


#: The new game the last replay started from: a tournament's games come in blocks that share a
#: seed, rules, board and deck, so the next replay usually starts from the same (frozen) state,
#: and dealing it again would cost a sixth of a replay.
_last_start: tuple[Rules, int, Board | None, Deck | None, GameState] | None = None


def replay(
    rules: Rules,
    actions: Sequence[Action],
    *,
    seed: int,
    board: Board | None = None,
    deck: Deck | None = None,
) -> GameState:
    """The state after playing ``actions`` from a new game."""
    global _last_start
    last = _last_start
    if (
        last is not None
        and type(seed) is int
        and last[1] == seed
        and last[0] is rules
        and last[2] is board
        and last[3] is deck
    ):
        state = last[4]
    else:
        state = new_game(rules.n_players, seed=seed, rules=rules, board=board, deck=deck)
        _last_start = (rules, seed, board, deck, state)
    # Runs of pawns are placed in one call each (_place_pawns).
    following = iter(actions)
    left: list[Action | None] = [None]
    for first in following:
        action: Action | None = first
        while action is not None:
            phase = state.phase
            if type(action) is PlacePawn and (phase is _FIRST_GUESS or phase is _SECOND_GUESS):
                state = _place_pawns(state, action, following, left)
                action, left[0] = left[0], None
            else:
                state, action = state.apply(action), None
    return state
