"""A public checker for rules variants, boards and agents (in the manner of OpenSpiel's).

:func:`check_games` plays many games and checks the invariants every game must keep, with
code of its own rather than the engine's: every action applied was legal and came from the
right seat, scores never go down, each round's points are what R15/R16 give for its pawns, the
number of rounds is what R7 and R25 give, records and states survive JSON and replay, views
hide the card and target, and the same seed gives the same game (R27).

    >>> from huescues import Rules
    >>> from huescues.testing import check_games
    >>> report = check_games(Rules.standard(5, points_by_distance=(4, 2, 1)), games=5)
    >>> report.games
    5
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from huescues.agents import Agent, RandomAgent, Table
from huescues.engine import (
    Action,
    Board,
    Cell,
    ChooseTarget,
    GameRecord,
    GameState,
    GiveClue,
    IllegalClue,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    new_game,
    points_array,
    validate_clue,
)

__all__ = ["AgentFactory", "CheckFailed", "CheckReport", "check_games"]

#: Makes the players of a game: given the number of seats, one agent per seat.
AgentFactory = Callable[[int], Sequence[Agent]]


class CheckFailed(AssertionError):
    """An invariant did not hold; the message names the game's seed and what went wrong."""


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What :func:`check_games` played and checked."""

    games: int
    actions: int
    rounds: int
    tiebreak_rounds: int
    shared_wins: int
    passes: int


def _random_agents(n: int) -> list[Agent]:
    return [RandomAgent() for _ in range(n)]


def check_games(
    rules: Rules | None = None,
    board: Board | None = None,
    *,
    n_players: int | None = None,
    games: int = 20,
    seed: int = 0,
    agents: AgentFactory = _random_agents,
) -> CheckReport:
    """Play ``games`` games and check every invariant; raise :class:`CheckFailed` on the first
    broken one. ``rules`` default to the standard rules for ``n_players`` (default 4);
    ``agents(n)`` makes the players (random ones by default). Game ``i`` uses seed
    ``seed + i``."""
    if rules is None:
        rules = Rules.standard(4 if n_players is None else n_players)
    elif not isinstance(rules, Rules):
        raise TypeError(f"check_games' rules are a Rules object, not {rules!r:.80}")
    elif n_players is not None and n_players != rules.n_players:
        raise ValueError(f"rules for {rules.n_players} players, n_players={n_players}")
    if board is not None and not isinstance(board, Board):
        raise TypeError(f"check_games' board is a Board object, not {board!r:.80}")
    if type(games) is not int or games < 0:
        raise ValueError(f"check_games plays a whole number of games >= 0, not {games!r}")
    totals = [0, 0, 0, 0, 0]
    for i in range(games):
        game_seed = seed + i
        checker = _GameChecker(rules, board, game_seed, agents(rules.n_players))
        record, state = checker.play()
        checker.check_end(state)
        checker.check_records(record, state)
        # R27: the same seed and agents give the same game, action for action.
        again, _ = _GameChecker(rules, board, game_seed, agents(rules.n_players)).play()
        checker.require(again == record, "the same seed gave a different game (R27)")
        result = state.result
        assert result is not None
        totals[0] += len(record.actions)
        totals[1] += len(state.history)
        totals[2] += result.tiebreak_rounds
        totals[3] += result.shared
        totals[4] += sum(r.passed for r in state.history)
    return CheckReport(games, *totals)


class _GameChecker(Table):
    """A table of bots, stepped one decision at a time and checked around every step against
    the rules with code of its own."""

    def __init__(
        self, rules: Rules, board: Board | None, seed: int, agents: Sequence[Agent]
    ) -> None:
        if len(agents) != rules.n_players:
            raise ValueError(f"{len(agents)} agents for {rules.n_players} players")
        super().__init__(agents, seed=seed)
        self.rules = rules
        self.board = board

    def require(self, ok: bool, what: str) -> None:
        if not ok:
            raise CheckFailed(f"game with seed {self.seed}: {what}")

    def play(self) -> tuple[GameRecord, GameState]:
        state = self.start(rules=self.rules, board=self.board)
        while self.pending() is not None:
            self.check_turn(state)
            self.check_views(state)
            after = self.step()
            self.require(
                all(b >= a for a, b in zip(state.scores, after.scores, strict=True)),
                f"scores went down from {state.scores} to {after.scores} (R17)",
            )
            if len(after.history) > len(state.history):
                self.check_round(state, after)
            else:
                self.require(after.scores == state.scores, "points added before the reveal (R17)")
            state = after
        self.require(state.is_terminal, "the game stopped before its end")
        return GameRecord.of(state), state

    def decide(self, state: GameState, seat: int) -> Action:
        """The agent's decision (the table asks it), checked before the engine applies it."""
        action = super().decide(state, seat)
        self.check_legal(state, action)
        return action

    def check_turn(self, state: GameState) -> None:
        """The current player is who R6, R10, R12 and R25 say, computed independently."""
        n = self.rules.n_players
        giver = state.giver
        if state.round < self.rules.regular_rounds:
            first = self.rules.first_giver
            if first != "random":
                self.require(giver == (first + state.round) % n, f"seat {giver} gives clues (R6)")
            expected = [(giver + k) % n for k in range(1, n)]
        else:
            expected = [(giver + k) % n for k in range(1, n) if (giver + k) % n in state.guessers]
            top = max(state.scores)
            tied = [s for s in range(n) if state.scores[s] == top]
            self.require(
                sorted(state.guessers) == tied and giver not in tied,
                "a tie-breaker round's guessers are the tied players and its giver is not (R25)",
            )
        self.require(list(state.guessers) == expected, f"guessers {state.guessers} (R10)")
        placed = len(state.pawns)
        phase = state.phase
        if phase in (Phase.CHOOSE_TARGET, Phase.FIRST_CLUE, Phase.SECOND_CLUE):
            who = giver
        elif phase is Phase.FIRST_GUESS:
            who = expected[placed]
        else:
            second = expected[::-1] if self.rules.second_guess_order == "reverse" else expected
            who = second[placed - len(expected)]
        self.require(state.current_player == who, f"seat {state.current_player} to play, not {who}")

    def check_views(self, state: GameState) -> None:
        """Guessers never see the card or the target (R8)."""
        for seat in range(self.rules.n_players):
            view = state.view(seat)
            if seat == state.giver:
                self.require(view.card == state.card, "the clue giver's view lacks the card (R8)")
            else:
                self.require(
                    view.card is None and view.target is None,
                    f"seat {seat} (a guesser) sees the card or target (R8)",
                )

    def check_legal(self, state: GameState, action: Action) -> None:
        """The action is legal by the rules, checked without the engine's own checks."""
        phase = state.phase
        board = state.board
        if isinstance(action, ChooseTarget):
            self.require(phase is Phase.CHOOSE_TARGET, f"{action} in {phase.value}")
            self.require(action.index in range(4), f"{action}: not a square of the card (R8)")
        elif isinstance(action, PlacePawn):
            self.require(
                phase in (Phase.FIRST_GUESS, Phase.SECOND_GUESS), f"{action} in {phase.value}"
            )
            cell = action.cell
            self.require(
                isinstance(cell, Cell)
                and 0 <= cell.row < board.rows
                and 0 <= cell.col < board.cols,
                f"{action}: not a square of the board (R1)",
            )
            self.require(all(c != cell for _, c in state.pawns), f"{action}: square occupied (R13)")
        elif isinstance(action, Pass):
            self.require(phase is Phase.SECOND_CLUE, f"pass in {phase.value} (R11)")
            self.require(self.rules.second_clue_may_pass, "pass where the rules forbid it (R11)")
        elif isinstance(action, GiveClue):
            second = phase is Phase.SECOND_CLUE
            self.require(second or phase is Phase.FIRST_CLUE, f"{action} in {phase.value}")
            earlier = [c for r in state.history for c in r.clues] + list(state.clues)
            try:
                validate_clue(action.text, second=second, rules=self.rules, previous=earlier)
            except IllegalClue as e:
                self.require(False, f"an illegal clue was played: {e}")
        else:
            self.require(False, f"not an action: {action!r}")

    def check_round(self, before: GameState, after: GameState) -> None:
        """A finished round: its points are R15/R16's for its pawns (checked with the
        vectorised twin of the engine's scoring)."""
        done = after.history[-1]
        rules = self.rules
        n_guessers = len(before.guessers)
        expected_pawns = n_guessers * (1 if done.passed else 2)
        self.require(len(done.pawns) == expected_pawns, f"{len(done.pawns)} pawns in a round")
        squares = [c for _, c in done.pawns]
        self.require(len(set(squares)) == len(squares), "two pawns on one square (R13)")
        self.require(done.target in before.card, "the target is not on the card (R8)")
        points = np.zeros(rules.n_players, dtype=np.int64)
        if done.pawns:
            seats = np.array([s for s, _ in done.pawns])
            where = np.array([(c.row, c.col) for c in squares])
            guessed = points_array(rules, (done.target.row, done.target.col), where)
            np.add.at(points, seats, guessed)
            if not done.tiebreak:
                inside = int((np.abs(where - (done.target.row, done.target.col)).max(1) <= 1).sum())
                points[done.giver] += inside * rules.giver_points_per_pawn
        self.require(
            tuple(points.tolist()) == done.points,
            f"round {done.round} scored {done.points}, R15/R16 give {tuple(points.tolist())}",
        )
        self.require(
            tuple(a + p for a, p in zip(before.scores, done.points, strict=True)) == after.scores,
            "the round's points were not added to the totals (R17)",
        )

    def check_end(self, state: GameState) -> None:
        """The number of rounds is what R7 and R25 give, and the winners are right (R24-R26)."""
        rules = self.rules
        result = state.result
        self.require(result is not None, "a finished game has no result")
        assert result is not None
        regular = rules.regular_rounds
        self.require(
            len(state.history) == regular + result.tiebreak_rounds,
            f"{len(state.history)} rounds, R7 and R25 give {regular} + {result.tiebreak_rounds}",
        )
        self.require(
            sum(r.tiebreak for r in state.history) == result.tiebreak_rounds,
            "tie-breaker rounds miscounted (R25)",
        )
        self.require(result.tiebreak_rounds <= rules.max_tiebreak_rounds, "too many tie-breakers")
        scores = state.scores
        totals = [sum(r.points[s] for r in state.history) for s in range(rules.n_players)]
        self.require(list(scores) == totals, "final scores are not the sum of the rounds' points")
        top = max(scores)
        tied = tuple(s for s in range(rules.n_players) if scores[s] == top)
        self.require(result.winners == tied, f"winners {result.winners}, highest totals {tied}")
        if len(tied) > 1:
            self.require(
                len(tied) == rules.n_players or result.tiebreak_rounds == rules.max_tiebreak_rounds,
                "a shared win before the tie-breakers ran out (R25, R26)",
            )
        # After the regular rounds, a tie-breaker is played exactly when the top is shared.
        if regular < len(state.history):
            after_regular = [
                sum(r.points[s] for r in state.history[:regular]) for s in range(rules.n_players)
            ]
            self.require(
                after_regular.count(max(after_regular)) > 1, "a tie-breaker without a tie (R25)"
            )

    def check_records(self, record: GameRecord, state: GameState) -> None:
        """Records and states survive JSON, and replaying gives the identical state."""
        board = state.board
        self.require(GameRecord.from_json(record.to_json()) == record, "record JSON round trip")
        self.require(record.replay(board=board, deck=state.deck) == state, "replay differs")
        self.require(
            GameState.from_json(state.to_json(), board=board, deck=state.deck) == state,
            "state JSON round trip",
        )
        # A state in the middle of the game, too.
        middle = new_game(self.rules.n_players, seed=self.seed, rules=self.rules, board=board)
        for action in record.actions[: len(record.actions) // 2]:
            middle = middle.apply(action)
        again = GameState.from_json(middle.to_json(), board=board, deck=state.deck)
        self.require(again == middle, "mid-game state JSON round trip")
        if len(record.actions) > len(record.actions) // 2:
            nxt = record.actions[len(record.actions) // 2]
            self.require(again.apply(nxt) == middle.apply(nxt), "a restored state plays on")
