"""The text agent: any function from text to text (a language model the user calls, a person at a
terminal, a test fake) plays as an agent.

Each decision becomes a prompt (:func:`prompt_for`) that describes the seat's view only (R8): the
rules in brief, the board as square names with their colours, the scores, earlier rounds, this
round's clues and pawns and, for the clue giver only, the card and the target. The reply is parsed
tolerantly (:func:`parse_square`, :func:`parse_target`, :func:`parse_clue`). An illegal reply is
retried with the reason appended, then replaced by a fallback agent's move, and recorded
(:class:`TextFailure`). The library itself calls no network service.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from huescues.engine import (
    Board,
    Cell,
    ChooseTarget,
    GiveClue,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    View,
    validate_clue,
)

from ._protocol import Agent
from ._random import RandomAgent

__all__ = ["TextAgent", "TextFailure", "parse_clue", "parse_square", "parse_target", "prompt_for"]

_A = TypeVar("_A")

#: The heading of the last part of every prompt: what to decide and how to reply.
TASK_HEADING = "YOUR TASK"
_EXCERPT = 600  # characters of the prompt kept in a failure record

# -- parsing ---------------------------------------------------------------------------------------

# A square's name as a token of its own: a letter then 1-3 digits ("F12", "f12", "**F12**").
_SQUARE_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A-Za-z])([0-9]{1,3})(?![A-Za-z0-9])")
# A number or a square's name as a token of its own.
_TARGET_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]?)([0-9]{1,3})(?![A-Za-z0-9])")
# Markdown, quotes and list marks around a line.
_QUOTES = "\"'\u201c\u201d\u2018\u2019"
_LINE_EDGES = re.compile(rf"^[\s*_`#>{_QUOTES}\-\u2022]+|[\s*_`#>{_QUOTES}.!?,;:]+$")
# A short label before an answer: "Answer: F12", "My clue: ocean", "Final answer - 2".
_LABEL = re.compile(r"^[A-Za-z][A-Za-z' ]{0,30}?\s*(?::|=|->|\u2014|-\s)\s*(.+)$")
# Quoted text: double quotes, curly quotes, back ticks, or single quotes not inside a word (I'd).
_QUOTED = re.compile(
    r"\"([^\"\n]+)\"|\u201c([^\u201d\n]+)\u201d|\u2018([^\u2019\n]+)\u2019|`([^`\n]+)`"
    r"|(?<!\w)'([^'\n]+)'(?!\w)"
)
# Punctuation at either end of a word.
_WORD_EDGES = re.compile(r"^[\W_]+|[\W_]+$")


def _clean_line(line: str) -> str:
    """A line without markdown, quotes, list marks or end punctuation around it."""
    return _LINE_EDGES.sub("", line.strip())


def _answer_lines(reply: str) -> list[str]:
    """The reply's lines, cleaned and stripped of a short label, last line first."""
    out = []
    for raw in reversed(reply.splitlines()):
        line = _clean_line(raw)
        label = _LABEL.match(line)
        if label is not None:
            line = _clean_line(label.group(1))
        if line:
            out.append(line)
    return out


def parse_square(reply: str, board: Board, occupied: Collection[Cell] = frozenset()) -> Cell:
    """The square a reply names, if a pawn may go there (R1, R13); else ``ValueError`` saying why.

    Case does not matter and chatter is allowed: a line that is only a square's name (``F12``,
    ``**F12**``, ``Answer: F12``) wins, the last such line; otherwise the first square of the
    board named anywhere in the reply. Names off the board (``Q5``, a rule number such as
    ``R19`` on a 16-row board) are passed over; when nothing else is named, the reply is refused
    as off the board. A named square that already holds a pawn is refused (R13), not passed over.
    """
    if not isinstance(reply, str):
        raise TypeError(f"a reply is text, not {type(reply).__name__}")
    off_board: list[str] = []
    cell: Cell | None = None
    for line in _answer_lines(reply):
        if _SQUARE_TOKEN.fullmatch(line):
            cell = _on_board(line, board, off_board)
            if cell is not None:
                break
    if cell is None:
        for match in _SQUARE_TOKEN.finditer(reply):
            cell = _on_board(match.group(0), board, off_board)
            if cell is not None:
                break
    if cell is None:
        size = _board_size(board)
        if off_board:
            raise ValueError(
                f"{off_board[0]!r} is not a square of this board, {size} (R1); "
                "reply with the name of an empty square of the board, such as F12"
            )
        raise ValueError(
            f"the reply names no square of the board, {size}; reply with one square name, "
            "such as F12"
        )
    if cell in occupied:
        raise ValueError(
            f"{cell} is occupied: a square holds at most one pawn (R13); "
            "reply with the name of an empty square"
        )
    return cell


def _on_board(name: str, board: Board, off_board: list[str]) -> Cell | None:
    try:
        return board.cell(name)
    except ValueError:
        off_board.append(name)
        return None


def _board_size(board: Board) -> str:
    last_row = chr(ord("A") + board.rows - 1)
    return f"{board.rows} x {board.cols}: rows A-{last_row}, columns 1-{board.cols}"


def parse_target(reply: str, card: Sequence[Cell]) -> int:
    """The index of the card's square a reply chooses (R8); else ``ValueError`` saying why.

    A reply may give the index (``2``) or the square's name (``F12``), with chatter around it: a
    line that is only an index or a name wins, the last such line; otherwise the first index in
    range or square of the card named anywhere in the reply. Other numbers and squares are passed
    over (``"Of the 4 squares I pick 2"`` chooses 2).
    """
    if not isinstance(reply, str):
        raise TypeError(f"a reply is text, not {type(reply).__name__}")
    names = {str(c).upper(): i for i, c in enumerate(card)}
    indices = ", ".join(str(i) for i in range(len(card)))
    candidates = [line for line in _answer_lines(reply) if _TARGET_TOKEN.fullmatch(line)]
    candidates += [m.group(0) for m in _TARGET_TOKEN.finditer(reply)]
    for token in candidates:
        if token.isdigit():
            if int(token) < len(card):
                return int(token)
        elif token.upper() in names:
            return names[token.upper()]
    raise ValueError(
        f"the reply names none of the card's squares; reply with one of {indices} "
        f"(or the square's name: {', '.join(names)}) (R8)"
    )


#: The rules of a reply read without a game's (the standard ones).
_STANDARD_RULES = Rules.standard(4)


def parse_clue(
    reply: str,
    *,
    second: bool = False,
    rules: Rules | None = None,
    previous: Iterable[str] = (),
) -> GiveClue | Pass:
    """The clue a reply gives (or a pass, for the second clue), if the clue rules accept it
    (R9, R11, R18-R22); else ``ValueError`` (:class:`~huescues.IllegalClue` for a clue the
    rules refuse, its message naming the rule).

    The clue is found in this order: the last labelled line short enough (``Clue: ocean``);
    the whole reply, when it is one line short enough for the clue; the first quoted text short
    enough (``My clue is "ocean".``); the last line short enough; else the last line. Markdown,
    quotes and punctuation around words are dropped. For the second clue the reply ``PASS``
    (any case) passes, where ``rules`` allow it (R11). ``rules=None`` means the standard rules;
    ``previous`` are the clues given earlier in the game (R22).
    """
    if not isinstance(reply, str):
        raise TypeError(f"a reply is text, not {type(reply).__name__}")
    r = rules if rules is not None else _STANDARD_RULES
    max_words = r.second_clue_words if second else r.first_clue_words
    text = _extract_clue(reply, max_words)
    if not text:
        raise ValueError(
            "the reply is empty; reply with the clue only"
            + (", or PASS" if second and r.second_clue_may_pass else "")
            + " (R18)"
        )
    if second and text.lower() == "pass":
        if not r.second_clue_may_pass:
            raise ValueError(
                "these rules do not allow passing the second clue (R11); reply with a clue"
            )
        return Pass()
    validate_clue(text, second=second, rules=r, previous=previous)
    return GiveClue(text)


def _clean_words(text: str) -> str:
    words = (_WORD_EDGES.sub("", w) for w in _clean_line(text).split())
    return " ".join(w for w in words if w)


def _extract_clue(reply: str, max_words: int) -> str:
    def short(text: str) -> bool:
        return 0 < len(text.split()) <= max_words

    lines = [c for c in (_clean_words(x) for x in reply.splitlines()) if c]
    if not lines:
        return ""
    # A label comes first even on a one-line reply: "Clue: ocean" means "ocean", not "Clue ocean".
    for raw in reversed(reply.splitlines()):
        label = _LABEL.match(_clean_line(raw))
        if label is not None and short(_clean_words(label.group(1))):
            return _clean_words(label.group(1))
    if len(lines) == 1 and short(lines[0]):
        return lines[0]
    for match in _QUOTED.finditer(reply):
        quoted = _clean_words(next(g for g in match.groups() if g is not None))
        if short(quoted):
            return quoted
    for line in reversed(lines):
        if short(line):
            return line
    return lines[-1]


# -- the prompt ------------------------------------------------------------------------------------


def _board_text(board: Board) -> str:
    """The board as one line per row: ``A1 #rrggbb A2 #rrggbb ...`` (a millisecond: nothing
    beside a model's answer)."""
    rgb = np.round(np.asarray(board.srgb) * 255.0).astype(int)
    lines = []
    for r in range(board.rows):
        letter = chr(ord("A") + r)
        lines.append(
            " ".join(
                f"{letter}{c + 1} #{rgb[r, c, 0]:02x}{rgb[r, c, 1]:02x}{rgb[r, c, 2]:02x}"
                for c in range(board.cols)
            )
        )
    return "\n".join(lines)


def _words(n: int) -> str:
    return "1 word" if n == 1 else f"{n} words"


def _quote(clue: str) -> str:
    return f'"{clue}"'


def _quoted(clues: Iterable[str]) -> str:
    return ", ".join(map(_quote, clues))


def _rules_text(rules: Rules) -> list[str]:
    pts = rules.points_by_distance
    by_distance = [f"{pts[0]} on the target"]
    by_distance += [f"{p} at distance {d}" for d, p in enumerate(pts[1:], start=1)]
    frame = "" if len(pts) < 2 else " (distance 1 is the 3 x 3 frame around the target)"
    pass_text = " or passes" if rules.second_clue_may_pass else ""
    second_order = "in reverse order" if rules.second_guess_order == "reverse" else "in order"
    lines = [
        "RULES IN BRIEF",
        "- The board is a grid of coloured squares, each named by its row letter (A at the top) "
        "and column number (1 at the left): A1, F12.",
        "- Each round the clue giver secretly picks a target from a card of squares and gives a "
        f"first clue of exactly {_words(rules.first_clue_words)} (R9); each guesser, in order, "
        "places a pawn on the square the clue suggests (R10). Then the giver gives a second clue "
        f"of at most {_words(rules.second_clue_words)}{pass_text} (R11), and the guessers place "
        f"a second pawn {second_order} (R12).",
        "- R13: a square holds at most one pawn; a pawn may not go on an occupied square.",
        "- R15: each pawn scores " + ", ".join(by_distance) + frame + ", else 0. Distance is "
        "max(row difference, column difference).",
        f"- R16: the clue giver scores {rules.giver_points_per_pawn} for every pawn within "
        "distance 1 of the target (nothing in a tie-breaker round).",
        "- Clues: R18 the word count above, and a clue is not empty; R19 no basic colour terms ("
        + ", ".join(rules.banned_terms)
        + ") nor their forms (reddish, bluebird); R20 no board coordinates, numbers, single "
        "letters or words for places on the board (left, top, corner, row, ...); R21 in the "
        "second clue no words relative to the pawns (" + ", ".join(rules.relative_words) + ")",
    ]
    if rules.refuse_repeated_clues:
        lines[-1] += "; R22 no clue already given in this game"
    lines[-1] += "."
    return lines


def _task_text(view: View) -> list[str]:
    rules = view.rules
    phase = view.phase
    if view.current_player != view.seat:
        return [f"It is not your turn (seat {view.current_player} plays); nothing to decide."]
    if phase is Phase.CHOOSE_TARGET:
        n = len(view.card or ())
        indices = (", ".join(str(i) for i in range(n - 1)) + f" or {n - 1}") if n > 1 else "0"
        return [
            "Choose your target: one of your card's squares, whose colour you can describe "
            "well with a clue (R8).",
            f"Reply with its number only: {indices}.",
        ]
    if phase is Phase.FIRST_CLUE:
        return [
            "Give the first clue: words that make the guessers think of your target's colour "
            "(R9, R18-R22).",
            f"Reply with the clue only: exactly {_words(rules.first_clue_words)}, "
            "no quotes, no explanation.",
        ]
    if phase is Phase.SECOND_CLUE:
        pass_text = (
            ", or the single word PASS to give no second clue" if rules.second_clue_may_pass else ""
        )
        return [
            "Give the second clue, to steer the guessers' second pawns towards your target "
            "(R11, R18-R22).",
            f"Reply with the clue only: at most {_words(rules.second_clue_words)}{pass_text}; "
            "no quotes, no explanation.",
        ]
    which = "first" if phase is Phase.FIRST_GUESS else "second"
    return [
        f"Place your {which} pawn on the empty square whose colour the clues best describe "
        "(R10, R12, R13).",
        "Reply with one square name only, such as F12.",
    ]


def prompt_for(view: View) -> str:
    """The prompt for the decision ``view`` waits for: the rules in brief, the board, the
    scores, earlier rounds, this round's clues and pawns, the card and target for the clue giver
    only (R8), then the task and the exact reply format, under the heading ``YOUR TASK``.

    Everything comes from the view, so a guesser's prompt holds nothing hidden from that seat.
    """
    rules, board, seat = view.rules, view.board, view.seat
    n = rules.n_players
    if view.tiebreak:
        round_text = f"tie-breaker round {view.round - rules.regular_rounds + 1}"
    else:
        round_text = f"round {view.round + 1} of {rules.regular_rounds}"
    role = "the clue giver" if view.is_giver else "a guesser"
    last_row = chr(ord("A") + board.rows - 1)

    def who(s: int) -> str:
        return f"seat {s} (you)" if s == seat else f"seat {s}"

    lines = [
        f"You play Hues and Cues as seat {seat} of {n} (seats 0-{n - 1}). This is {round_text}; "
        f"you are {role}.",
        "",
        *_rules_text(rules),
        "",
        f"BOARD ({board.rows} rows A-{last_row}, {board.cols} columns 1-{board.cols}; "
        "each square with its colour as #rrggbb)",
        _board_text(board),
        "",
        "SCORES: " + ", ".join(f"{who(s)} {p}" for s, p in enumerate(view.scores)),
    ]
    if view.history:
        lines += ["", "EARLIER ROUNDS"]
        for r in view.history:
            passed = " then passed" if r.passed else ""
            lines.append(
                f"round {r.round + 1}: seat {r.giver} gave {' then '.join(map(_quote, r.clues))}"
                f"{passed}; target {r.target} {board.hex(r.target)}; points "
                + ", ".join(f"seat {s} +{p}" for s, p in enumerate(r.points) if p)
            )
    pawns = ", ".join(f"{c} {board.hex(c)} ({who(s)})" for s, c in view.pawns)
    lines += [
        "",
        "THIS ROUND",
        f"Clue giver: {who(view.giver)}. Guessers in order: "
        + ", ".join(who(s) for s in view.guessers)
        + ".",
        f"Clues so far: {_quoted(view.clues) or 'none yet'}",
        f"Pawns on the board: {pawns or 'none yet'}",
    ]
    if view.is_giver and view.card is not None:
        if view.clues_given and rules.refuse_repeated_clues:
            lines.append(f"Clues given in this game (R22): {_quoted(view.clues_given)}")
        lines += [
            "",
            "YOUR CARD (secret, only you see it)",
            *(f"{i}: {c} {board.hex(c)}" for i, c in enumerate(view.card)),
        ]
        if view.target is not None:
            lines.append(f"YOUR TARGET (secret): {view.target} {board.hex(view.target)}")
    lines += ["", TASK_HEADING, *_task_text(view)]
    return "\n".join(lines)


# -- the agent ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextFailure:
    """One reply that could not be played, or a call to the text function that failed."""

    #: The round of the decision (0-based, as in the view).
    round: int
    seat: int
    phase: Phase
    #: 0 for the first try, 1 for the first retry, ...
    attempt: int
    #: The end of the prompt: the task, the reply format and any earlier refusals.
    prompt_excerpt: str
    #: The reply as given, or ``None`` when the text function raised.
    reply: str | None
    #: Why the reply was refused (the parser's or the clue rules' message, naming the rule), or
    #: the exception the text function raised.
    reason: str

    def __str__(self) -> str:
        return (
            f"round {self.round}, seat {self.seat}, {self.phase.value}, try {self.attempt + 1}: "
            f"reply {self.reply!r}: {self.reason}"
        )


class TextAgent:
    """An agent that asks a function from text to text for each decision.

    ``ask`` gets a prompt (by default :func:`prompt_for`, or the ``prompt`` function given) and
    returns a reply. Replies are parsed tolerantly (:func:`parse_target`, :func:`parse_clue`,
    :func:`parse_square`).

    **Fallback policy.** A reply is illegal when it cannot be parsed, names an off-board or
    occupied square (R1, R13) or a square not on the card (R8), or gives a clue the rules refuse
    (R18-R22). The text function raising an exception (any ``Exception``), or returning
    something other than text, counts as an illegal reply. After an illegal reply the agent asks
    again, up to ``retries`` times, with the prompt followed by the refused replies and the
    reasons (a raised exception is not shown to the function: the same prompt is asked again).
    When every try fails, the ``fallback`` agent (default :class:`RandomAgent`) makes the
    decision with the same view and generator, so the game never stops because of the text
    function and stays legal as long as the fallback is.

    **The record.** Every illegal reply is appended to :attr:`failures` as a
    :class:`TextFailure`; :attr:`decisions` counts decisions, :attr:`calls` calls to ``ask`` and
    :attr:`fallbacks` decisions made by the fallback. The record grows over every game the
    agent plays (make a new agent to start afresh); an agent sent to a worker process keeps its
    record there.

    **Reproducibility.** The agent draws no random numbers itself: with a deterministic ``ask``
    the same seed and view give the same decision (R27). A ``TextAgent`` pickles when ``ask``,
    ``prompt`` and ``fallback`` do (module-level functions, not lambdas).
    """

    def __init__(
        self,
        ask: Callable[[str], str],
        *,
        fallback: Agent | None = None,
        retries: int = 1,
        prompt: Callable[[View], str] = prompt_for,
    ) -> None:
        if not callable(ask):
            raise TypeError(f"ask must be a function from text to text, not {ask!r}")
        if type(retries) is not int or retries < 0:
            raise ValueError(f"retries must be a whole number of at least 0, not {retries!r}")
        self.ask = ask
        self.fallback: Agent = RandomAgent() if fallback is None else fallback
        self.retries = retries
        self.prompt = prompt
        #: Every illegal reply, in order.
        self.failures: list[TextFailure] = []
        #: Decisions asked of this agent.
        self.decisions = 0
        #: Calls to ``ask``, retries included.
        self.calls = 0
        #: Decisions made by the fallback agent.
        self.fallbacks = 0

    def __repr__(self) -> str:
        ask = getattr(self.ask, "__qualname__", repr(self.ask))
        return (
            f"TextAgent({ask}, fallback={type(self.fallback).__name__}, retries={self.retries}; "
            f"{self.decisions} decisions, {self.calls} calls, {self.fallbacks} fallbacks)"
        )

    # -- the four decisions ------------------------------------------------------------------------
    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """As clue giver, the card's square the reply names (R8)."""
        card = view.card or ()
        return self._decide(
            view,
            rng,
            lambda reply: ChooseTarget(parse_target(reply, card)),
            self.fallback.choose_target,
        )

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """As clue giver, the first clue the reply gives (R9, R18-R22)."""

        def parse(reply: str) -> GiveClue:
            clue = parse_clue(reply, second=False, rules=view.rules, previous=view.clues_given)
            assert isinstance(clue, GiveClue)  # a first clue is never a pass
            return clue

        return self._decide(view, rng, parse, self.fallback.give_clue)

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """As clue giver, the second clue the reply gives, or a pass (R11, R18-R22)."""

        def parse(reply: str) -> GiveClue | Pass:
            return parse_clue(reply, second=True, rules=view.rules, previous=view.clues_given)

        return self._decide(view, rng, parse, self.fallback.give_second_clue)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """As guesser, a pawn on the empty square the reply names (R10, R12, R13)."""
        board, occupied = view.board, view.occupied
        return self._decide(
            view,
            rng,
            lambda reply: PlacePawn(parse_square(reply, board, occupied)),
            self.fallback.place_pawn,
        )

    # -- asking, retrying, falling back --------------------------------------------------------
    def _decide(
        self,
        view: View,
        rng: np.random.Generator,
        parse: Callable[[str], _A],
        fallback: Callable[[View, np.random.Generator], _A],
    ) -> _A:
        self.decisions += 1
        base = self.prompt(view)
        prompt = base
        refused: list[tuple[str, str]] = []
        for attempt in range(self.retries + 1):
            self.calls += 1
            try:
                reply: object = self.ask(prompt)
            except Exception as e:
                self._record(view, attempt, prompt, None, f"ask raised {type(e).__name__}: {e}")
                continue
            if not isinstance(reply, str):
                self._record(
                    view,
                    attempt,
                    prompt,
                    repr(reply),
                    f"ask returned {type(reply).__name__}, not text",
                )
                continue
            try:
                return parse(reply)
            except ValueError as e:
                reason = str(e)
            self._record(view, attempt, prompt, reply, reason)
            refused.append((reply, reason))
            prompt = base + _refusals_text(refused)
        self.fallbacks += 1
        return fallback(view, rng)

    def _record(
        self, view: View, attempt: int, prompt: str, reply: str | None, reason: str
    ) -> None:
        self.failures.append(
            TextFailure(view.round, view.seat, view.phase, attempt, _excerpt(prompt), reply, reason)
        )


def _refusals_text(refused: Sequence[tuple[str, str]]) -> str:
    lines = [""]
    for reply, reason in refused:
        shown = reply.strip()
        if len(shown) > 200:
            shown = shown[:200] + "..."
        lines.append(f"Your reply {shown!r} was refused. Why: {reason}")
    lines.append("Reply again, exactly in the format asked for.")
    return "\n".join(lines)


def _excerpt(prompt: str) -> str:
    start = prompt.rfind(TASK_HEADING)
    text = prompt[start:] if start >= 0 else prompt
    return text if len(text) <= _EXCERPT else "..." + text[-_EXCERPT:]
