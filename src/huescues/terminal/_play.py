"""Play Hues and Cues in a terminal: a person at one seat against bots (R2-R27).

The person sees only their seat's view (R8): the card and the target only when giving the clue.
Every mistake (a square that is not on the board, an occupied square, a clue that breaks a clue
rule) is explained with the rule's number and asked again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from huescues.agents import Agent, Table, catalogue_entry, catalogue_names
from huescues.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    Board,
    Cell,
    ChooseTarget,
    GameState,
    GiveClue,
    Pass,
    Phase,
    PlacePawn,
    RoundResult,
    Rules,
    View,
    language_pack,
)
from huescues.render import board_text, colour_wanted

__all__ = ["OPPONENTS", "GameAbandoned", "play_in_terminal", "show_result", "show_reveal"]

#: The ``opponents`` a game can be played against: every fair player of the catalogue
#: (:data:`huescues.agents.CATALOGUE`; the oracle sees the target).
OPPONENTS: tuple[str, ...] = catalogue_names(sees_target=False)

_QUIT = frozenset({"quit", "q", "exit"})

InputFn = Callable[[str], str]


class GameAbandoned(Exception):
    """The person ended the game: they typed ``quit`` (``chosen`` is true), or the input ended
    (EOF)."""

    def __init__(self, message: str, *, chosen: bool = False) -> None:
        super().__init__(message)
        #: Whether the person chose to stop (typed ``quit``), rather than the input ending.
        self.chosen = chosen


def paint_for(colour: bool | None, out: TextIO) -> bool:
    """Whether to paint in colour: ``colour`` if given, else only on a terminal and unless
    ``NO_COLOR`` is set (escapes in a file or a pipe are noise)."""
    if colour is not None:
        return colour
    try:
        tty = out.isatty()
    except (AttributeError, ValueError):  # an output without isatty, or closed
        tty = False
    return tty and colour_wanted()


def _words(n: int, *, exact: bool) -> str:
    count = {1: "one", 2: "two", 3: "three"}.get(n, str(n)) + (" word" if n == 1 else " words")
    return count if exact or n == 1 else f"up to {count}"


def _seat_name(seat: int, you: int) -> str:
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


def _who(seat: int, you: int | None, names: Sequence[str] | None) -> str:
    """A seat as the text calls it: "you", its player's name with the seat (the board marks
    pawns by seat), or the bare seat when no names are known."""
    if seat == you:
        return "you"
    return f"{names[seat]} (seat {seat})" if names else f"seat {seat}"


def _scores_line(scores: Sequence[int], you: int | None, names: Sequence[str] | None = None) -> str:
    parts = [f"{_who(s, you, names)} {v}" for s, v in enumerate(scores)]
    return "scores: " + ", ".join(parts)


def _pawn_marks(pawns: Sequence[tuple[int, Cell]]) -> dict[Cell, str]:
    return {cell: str(seat) for seat, cell in pawns}


def show_reveal(
    result: RoundResult,
    board: Board,
    scores: Sequence[int],
    *,
    you: int | None = None,
    colour: bool = True,
    names: Sequence[str] | None = None,
) -> str:
    """The reveal of a finished round (R14-R17): clues, the board with the pawns, the target
    (``*``) and its frame, each seat's points and the totals after the round. ``names``: the
    players' names by seat, when known (a replay of a stored game)."""
    kind = "tie-breaker round" if result.tiebreak else "round"
    giver = _who(result.giver, you, names)
    lines = [f"--- {kind} {result.round + 1}: the reveal (R14) ---"]
    clues = " / ".join(repr(c) for c in result.clues)
    lines.append(f"{giver} gave {clues}" + (", then passed (R11)" if result.passed else ""))
    marks = {cell: str(seat) for seat, cell in result.pawns}
    marks[result.target] = "*" + marks.get(result.target, "")
    lines.append(board_text(board, marks=marks, frame=result.target, colour=colour))
    lines.append(f"target: {result.target} {board.hex(result.target)}")
    pawns = ", ".join(
        f"{_seat_name(seat, you) if you is not None else _who(seat, None, names)} on {cell} "
        f"(distance {cell.distance(result.target)})"
        for seat, cell in result.pawns
    )
    lines.append(f"pawns: {pawns}")
    gains = ", ".join(f"{_who(s, you, names)} +{p}" for s, p in enumerate(result.points) if p)
    lines.append(f"points: {gains or 'nobody scored'}")
    lines.append(_scores_line(scores, you, names))
    return "\n".join(lines)


def show_result(
    state: GameState, *, you: int | None = None, names: Sequence[str] | None = None
) -> str:
    """The final scores and the winners (R24-R26); ``names`` as for :func:`show_reveal`."""
    result = state.result
    if result is None:
        scores = _scores_line(state.scores, you, names)
        return scores + f" (the game is not over: {state.phase.value})"
    lines = ["=== game over ===", "final " + _scores_line(result.scores, you, names)]
    who = " and ".join(_who(w, you, names) for w in result.winners)
    verdict = f"shared win (R26): {who}" if result.shared else f"winner (R24): {who}"
    if result.tiebreak_rounds:
        n = result.tiebreak_rounds
        verdict += f", after {n} tie-breaker round{'s' if n > 1 else ''} (R25)"
    lines.append(verdict)
    if you is not None:
        if you in result.winners:
            lines.append("You share the win!" if result.shared else "You win!")
        else:
            lines.append("You did not win this time.")
    return "\n".join(lines)


class _Session:
    """One person's game: reads their answers, writes what they may see."""

    def __init__(self, seat: int, input_fn: InputFn, output: TextIO, colour: bool) -> None:
        self.seat = seat
        self.input_fn = input_fn
        self.output = output
        self.colour = colour

    def say(self, text: str = "") -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str:
        try:
            answer = self.input_fn(prompt)
        except (EOFError, StopIteration):
            raise GameAbandoned("the input ended, so the game was abandoned") from None
        except KeyboardInterrupt:
            raise GameAbandoned("interrupted (Ctrl-C), so the game was abandoned") from None
        if answer.strip().lower() in _QUIT:
            raise GameAbandoned("you quit the game", chosen=True)
        return answer

    def show_table(self, view: View) -> None:
        """The person's view: the board with this round's pawns (and, for the clue giver, the
        card's squares or the target), the clues so far and the scores."""
        board = view.board
        kind = "tie-breaker round" if view.tiebreak else "round"
        total = view.rules.regular_rounds
        where = f"{kind} {view.round + 1}" + ("" if view.tiebreak else f" of {total}")
        giver = "you" if view.is_giver else f"seat {view.giver}"
        self.say(f"=== {where}: {giver} giving the clue ===")
        marks = _pawn_marks(view.pawns)
        if view.is_giver and view.card is not None:
            if view.target is None:
                # Numbered 1-4, as the browser numbers them (the protocol's index is 0-3).
                for i, cell in enumerate(view.card):
                    marks[cell] = str(i + 1)
            else:
                marks[view.target] = "*" + marks.get(view.target, "")
        self.say(board_text(board, marks=marks, colour=self.colour))
        if view.clues:
            self.say("clues: " + " / ".join(repr(c) for c in view.clues))
        if view.pawns:
            self.say(
                "pawns: " + ", ".join(f"{_seat_name(s, self.seat)} on {c}" for s, c in view.pawns)
            )
        self.say(_scores_line(view.scores, self.seat))

    def decide(self, state: GameState) -> Action:
        """Ask the person for the action of their turn; only their view is shown."""
        view = state.view(self.seat)
        self.show_table(view)
        phase = view.phase
        rules = view.rules
        if phase is Phase.CHOOSE_TARGET:
            assert view.card is not None
            self.say("Your card (only you see it, R8):")
            for i, cell in enumerate(view.card, start=1):
                self.say(f"  {i}: {cell} {view.board.hex(cell)}")
            return self._ask_action(state, f"Your target, 1-{len(view.card)}: ", self._target(view))
        if phase is Phase.FIRST_CLUE:
            assert view.target is not None
            self.say(f"Your target is {view.target} {view.board.hex(view.target)}.")
            prompt = f"Your first clue, {_words(rules.first_clue_words, exact=True)}: "
            return self._ask_action(state, prompt, lambda text: GiveClue(text.strip()))
        if phase is Phase.SECOND_CLUE:
            assert view.target is not None
            self.say(f"Your target is {view.target} {view.board.hex(view.target)}.")
            may_pass = " or 'pass'" if rules.second_clue_may_pass else ""
            prompt = f"Your second clue, {_words(rules.second_clue_words, exact=False)}{may_pass}: "
            return self._ask_action(state, prompt, self._second_clue)
        which = "first" if phase is Phase.FIRST_GUESS else "second"
        prompt = f"Your {which} pawn: a square name (row letter, then column number): "
        return self._ask_action(state, prompt, lambda text: PlacePawn(view.board.cell(text)))

    @staticmethod
    def _target(view: View) -> Callable[[str], Action]:
        card = view.card
        assert card is not None

        def parse(text: str) -> Action:
            text = text.strip()
            # The card's squares are numbered 1-4 for people (ChooseTarget's index is 0-3).
            if text.isdigit() and 1 <= int(text) <= len(card):
                return ChooseTarget(int(text) - 1)
            names = [str(c) for c in card]
            if text.upper() in names:
                return ChooseTarget(names.index(text.upper()))
            raise ValueError(
                f"{text!r} refused: answer with the number of one of the card's squares, "
                f"1-{len(card)}, or its name (R8)"
            )

        return parse

    @staticmethod
    def _second_clue(text: str) -> Action:
        if text.strip().lower() == "pass":
            return Pass()
        return GiveClue(text.strip())

    @staticmethod
    def _lookup(board: Board, name: str) -> str:
        """``F12?`` shows a square's colour (handy without colour, ``NO_COLOR``)."""
        try:
            cell = board.cell(name)
        except ValueError as e:
            return f"Not a square: {e}"
        return f"{cell} is {board.hex(cell)}"

    def _ask_action(self, state: GameState, prompt: str, parse: Callable[[str], Action]) -> Action:
        """Ask until the answer parses and the engine accepts it; explain every refusal."""
        board = state.board
        while True:
            answer = self.ask(prompt)
            if answer.strip().endswith("?"):
                self.say(self._lookup(board, answer.strip()[:-1]))
                continue
            try:
                action = parse(answer)
                state.apply(action, seat=self.seat)
            except ValueError as e:  # IllegalAction and IllegalClue are ValueErrors too
                self.say(f"Not allowed: {e}")
                continue
            return action


def _opponent(kind: str, language: str = "en") -> Agent:
    if kind not in OPPONENTS:
        raise ValueError(f"opponents {kind!r}: choose one of {', '.join(OPPONENTS)}")
    entry = catalogue_entry(kind)
    # A player that does not speak the game's language gives English clues (checked by the
    # game's rules).
    return entry.build(language if language in entry.languages else "en")


def play_in_terminal(
    *,
    players: int = 4,
    seat: int = 0,
    seed: int = 0,
    opponents: str = "default",
    input_fn: InputFn = input,
    output: TextIO | None = None,
    colour: bool | None = None,
    board: Board | None = None,
    language: str = "en",
) -> GameState:
    """Play one game in the terminal: the person at ``seat`` against bots, and return the final
    state.

    ``language``: the language of the clues (``"es"``: Spanish, ``Rules.standard(players,
    language="es")``): every clue is checked by that language's rules (R18-R21), and the bots
    that speak it (the catalogue's ``languages``: ``default``, ``random``) give and read clues
    in it; the others give English clues. The terminal's own words stay English.

    ``opponents`` names a player of :data:`OPPONENTS`, the fair players of the catalogue
    (``"default"``: :func:`huescues.agents.default_agent`; ``"random"``:
    :class:`huescues.agents.RandomAgent`; ...). The deck, the first clue giver and the bots' choices
    come from ``seed`` as in :func:`huescues.agents.play_game` (R27). ``input_fn`` is called
    with a prompt and returns the person's answer, like :func:`input`; ``output`` defaults to
    ``sys.stdout``. ``colour=None`` paints the board in true colour when ``output`` is a terminal
    and ``NO_COLOR`` is not set.
    ``board`` defaults to the standard board.

    Raises :class:`GameAbandoned` when the person types ``quit`` or the input ends, and
    ``ValueError`` for a bad number of players (R2), seat or ``opponents``.
    """
    if opponents not in OPPONENTS:
        raise ValueError(f"opponents {opponents!r}: choose one of {', '.join(OPPONENTS)}")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"players={players!r}: Hues and Cues is for {MIN_PLAYERS} to {MAX_PLAYERS} players (R2)"
        )
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"seat {seat!r}: a {players}-player game has seats 0-{players - 1}")
    rules = Rules.standard(players, language=language)
    out = sys.stdout if output is None else output
    session = _Session(seat, input_fn, out, paint_for(colour, out))
    bot = _opponent(opponents, language)
    agents: list[Agent | None] = [None if s == seat else bot for s in range(players)]
    loop = _TerminalGame(session, agents, seed=seed)
    session.say(
        f"Hues and Cues: {players} players, seed {seed}; you are seat {seat}, the others are "
        f"{opponents} bots. Type 'quit' to stop, a square's name then '?' to see its colour."
    )
    if language != "en":
        session.say(
            f"Clues are in {language_pack(language).name} ({language}): the clue rules "
            "R18-R21 are that language's."
        )
    state = loop.play(board=board, rules=rules)
    session.say(show_result(state, you=seat))
    return state


class _TerminalGame(Table):
    """A table with a person at one seat, driven step by step: the person is asked for their
    action, the bots step, their moves are announced as the table would see them, and every
    round ends with its reveal."""

    def __init__(self, session: _Session, agents: Sequence[Agent | None], *, seed: int) -> None:
        super().__init__(agents, seed=seed)
        self.session = session

    def play(self, *, board: Board | None, rules: Rules | None = None) -> GameState:
        """Play the whole game; return its final state."""
        session = self.session
        state = self.start(rules=rules, board=board)
        while (pending := self.pending()) is not None:
            seat = pending.seat
            if pending.person:
                after = self.act(seat, session.decide(state))
            else:
                after = self.step()
                assert after.log is not None
                _announce(session, state, seat, after.log[0])
            if len(after.history) > len(state.history):
                session.say(
                    show_reveal(
                        after.history[-1],
                        after.board,
                        after.scores,
                        you=session.seat,
                        colour=session.colour,
                    )
                )
            state = after
        return state


def _announce(session: _Session, state: GameState, seat: int, action: Action) -> None:
    """Say what a bot did, as the table would see it (never the target, R8)."""
    if isinstance(action, ChooseTarget):
        session.say(f"seat {seat} draws a card and secretly chooses a target.")
    elif isinstance(action, GiveClue):
        which = "first" if state.phase is Phase.FIRST_CLUE else "second"
        session.say(f"seat {seat} gives the {which} clue: {action.text!r}")
    elif isinstance(action, Pass):
        session.say(f"seat {seat} passes: no second clue this round (R11).")
    else:
        session.say(f"seat {seat} places a pawn on {action.cell}.")
