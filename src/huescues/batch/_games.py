"""B games of one configuration (rules, board, deck, clue vocabulary) stepped together as numpy
arrays, each game one row, by the rules the engine plays (R2-R27)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from huescues.engine import (
    Board,
    Deck,
    GameRecord,
    IllegalAction,
    InvalidRules,
    Phase,
    Rules,
    new_game,
    points_array,
)

from ._action_space import PASS, TARGETS, ActionSpace, whole
from ._vocabulary import ClueVocabulary

__all__ = ["MAX_SEED", "PHASES", "FinishedGame", "GameBatch"]

#: The engine's phases by the number the batch's ``phase`` array holds.
PHASES: tuple[Phase, ...] = (
    Phase.CHOOSE_TARGET,
    Phase.FIRST_CLUE,
    Phase.FIRST_GUESS,
    Phase.SECOND_CLUE,
    Phase.SECOND_GUESS,
    Phase.GAME_OVER,
)
_TARGET, _CLUE1, _GUESS1, _CLUE2, _GUESS2, _OVER = range(6)
#: The largest seed the batch's ``seed`` array (int64) holds (R27).
MAX_SEED = 2**63 - 1

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game played out in a batch: its seed, its actions as codes, and how it ended."""

    seed: int
    #: The actions, in order, as codes of :attr:`space`.
    codes: tuple[int, ...]
    #: Final totals by seat (R17).
    scores: tuple[int, ...]
    #: The seats with the highest total (R24, R26).
    winners: tuple[int, ...]
    #: Tie-breaker rounds played (R25).
    tiebreak_rounds: int
    rules: Rules = field(repr=False)
    deck_id: str = field(repr=False)
    space: ActionSpace = field(repr=False, compare=False)

    def record(self) -> GameRecord:
        """The game as a record of the engine's actions, which :meth:`GameRecord.replay`
        plays to the same scores and winners (R27)."""
        return GameRecord(
            self.rules, self.space.board.id, self.deck_id, self.seed, self.space.actions(self.codes)
        )


class GameBatch:
    """``size`` games played at once, one row of each array per game, reset to a new game as
    each ends (its seed the next of ``seeds``; a row with no seed left stays over).

    A game's deck is shuffled and its first clue giver drawn exactly as :func:`new_game` does
    for its seed (R3, R6, R27). :meth:`step` applies one action code per game (see
    :class:`ActionSpace`); rows whose game is over ignore theirs. The arrays are the batch's
    own: read them, do not write them.
    """

    def __init__(
        self,
        rules: Rules,
        size: int,
        seeds: Iterable[int],
        *,
        board: Board | None = None,
        deck: Deck | None = None,
        vocabulary: ClueVocabulary | None = None,
        keep_finished: bool = True,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"a batch's rules are a Rules object, not {rules!r:.80}")
        size = whole(size, "a batch's size")
        if size < 1:
            raise ValueError(f"a batch holds at least one game, not {size}")
        board = Board.standard() if board is None else board
        deck = Deck.for_board(board.rows, board.cols) if deck is None else deck
        vocabulary = ClueVocabulary.standard() if vocabulary is None else vocabulary
        n = rules.n_players
        self.rules, self.board, self.deck, self.size = rules, board, deck, size
        self.space = ActionSpace(board, vocabulary)
        self.first_clue_ok, self.second_clue_ok = vocabulary.verdicts(rules)
        if not self.first_clue_ok.any():
            raise InvalidRules(
                f"no clue of the batch's vocabulary is a legal first clue of "
                f"{rules.first_clue_words} words (R9, R18-R20)"
            )
        if not self.second_clue_ok.any() and not rules.second_clue_may_pass:
            raise InvalidRules("no clue of the batch's vocabulary is a legal second clue (R11)")
        single = np.array(vocabulary.word_counts) == 1
        #: The ids of legal first clues, of legal one-word second clues and of longer ones.
        self.first_clue_ids = np.flatnonzero(self.first_clue_ok)
        self.second_word_ids = np.flatnonzero(self.second_clue_ok & single)
        self.second_pair_ids = np.flatnonzero(self.second_clue_ok & ~single)
        self.keep_finished = keep_finished
        self.finished: list[FinishedGame] = []
        self._seeds: Iterator[int] = iter(seeds)
        #: Seeds drawn ahead and checked (R27), in order: a step checks the seeds its ending
        #: games may need before it applies anything, so a bad seed refuses the step whole.
        self._ahead: deque[int] = deque()

        cols = board.cols
        squares = np.arange(board.size)
        where = np.stack([squares // cols, squares % cols], axis=-1)
        #: The cards' squares (as ``row * cols + col``), in the deck's order (R3).
        self.card_squares = np.array(
            [[c.row * cols + c.col for c in card] for card in deck.cards], dtype=np.int64
        )
        #: A guesser's points for a pawn on square ``j`` when the target is ``i`` (R15).
        self.points = points_array(rules, where[:, None, :], where[None, :, :])
        #: Whether square ``j`` is inside the frame around target ``i`` (R4, R16).
        self.inside = np.abs(where[:, None, :] - where[None, :, :]).max(axis=-1) <= 1
        self._guessers_by_giver = np.array(
            [[(g + k) % n for k in range(1, n)] for g in range(n)], dtype=np.int64
        )
        self._seats = np.arange(n)
        rounds = rules.regular_rounds + rules.max_tiebreak_rounds
        max_pawns = 2 * (n - 1)
        b = size

        def ints(*shape: int, fill: int = 0) -> IntArray:
            return np.full(shape, fill, dtype=np.int64)

        #: Each game's seed (R27); -1 in a row with no game.
        self.seed = ints(b, fill=-1)
        #: The phase, as an index into :data:`PHASES`.
        self.phase = ints(b, fill=_OVER)
        #: 0-based round, tie-breakers included.
        self.round = ints(b)
        self.giver = ints(b)
        #: The seat to act; -1 when the game is over.
        self.current_player = ints(b, fill=-1)
        #: The seats guessing this round in the order of the first guesses (R10, R25), padded.
        self.guessers = ints(b, max(n - 1, 1))
        self.n_guessers = ints(b)
        #: Pawns placed so far in this guessing phase.
        self.turn = ints(b)
        self.scores = ints(b, n)
        self.tiebreak_rounds = ints(b)
        #: The card drawn this round, as squares (R8).
        self.card = ints(b, TARGETS)
        #: The chosen square of the card (0-3), -1 before it is chosen; ``target`` its square.
        self.target_index = ints(b, fill=-1)
        self.target = ints(b, fill=-1)
        #: This round's clue ids (first, second); -1 for none yet or a pass.
        self.clue_ids = ints(b, 2, fill=-1)
        #: Squares holding a pawn this round (R13).
        self.occupied = np.zeros((b, board.size), dtype=bool)
        #: This round's pawns in the order placed: square, seat, and how many.
        self.pawn_squares = ints(b, max_pawns)
        self.pawn_seats = ints(b, max_pawns)
        self.n_pawns = ints(b)
        #: Clue ids already given in the game (R22).
        self.used = np.zeros((b, len(vocabulary)), dtype=bool)
        #: At the end of a game: the seats that share the highest total (R24, R26).
        self.winners = np.zeros((b, n), dtype=bool)
        #: The shuffled deck: card indices in the order drawn (R3).
        self.order = ints(b, rounds)
        #: Which rows' games ended in the last :meth:`step` (their rows now hold new games),
        #: and those games' final totals (R24-R26).
        self.ended = np.zeros(b, dtype=bool)
        self.ended_scores = ints(b, n)
        #: Every action of the game so far, as codes.
        self.log = np.zeros((b, rounds * (3 + max_pawns)), dtype=np.int32)
        self.n_actions = ints(b)
        self._reset(np.arange(b))

    # -- reading ---------------------------------------------------------------------------
    @property
    def playing(self) -> int:
        """How many rows hold a game not yet over."""
        return int(np.count_nonzero(self.phase != _OVER))

    def legal_actions(self) -> BoolArray:
        """``(size, space.size)``: which codes each row's current player may play (R8-R13,
        R18-R22); all false in a row whose game is over."""
        space = self.space
        mask = np.zeros((self.size, space.size), dtype=bool)
        phase = self.phase
        mask[phase == _TARGET, :TARGETS] = True
        pawns = slice(space.first_pawn, space.first_clue)
        guess = (phase == _GUESS1) | (phase == _GUESS2)
        mask[guess, pawns] = ~self.occupied[guess]
        fresh = ~self.used if self.rules.refuse_repeated_clues else np.ones_like(self.used)
        first = phase == _CLUE1
        mask[first, space.first_clue :] = fresh[first] & self.first_clue_ok
        second = phase == _CLUE2
        mask[second, space.first_clue :] = fresh[second] & self.second_clue_ok
        mask[second, PASS] = self.rules.second_clue_may_pass
        return mask

    # -- playing ---------------------------------------------------------------------------
    def step(self, actions: ArrayLike, where: ArrayLike | None = None) -> int:
        """Apply one action code per row (ignored where the game is over, and where ``where``,
        a ``(size,)`` boolean mask, is false: those rows wait); return how many actions were
        applied. An illegal code raises :class:`IllegalAction` and changes nothing. Games that
        end are kept in :attr:`finished` (if ``keep_finished``) and their rows dealt the next
        seed's game."""
        a = np.asarray(actions)
        if a.shape != (self.size,):
            raise ValueError(f"step takes {self.size} action codes, not shape {a.shape}")
        if a.dtype.kind not in "iu":  # a float would be cut to a code, a string read as one
            raise TypeError(
                f"action codes are whole numbers 0-{self.space.size - 1}, not {a.dtype} values"
            )
        a = a.astype(np.int64, copy=False)
        phase = self.phase
        going = phase != _OVER
        if where is not None:
            rows = np.asarray(where)
            if rows.shape != (self.size,):
                raise ValueError(f"where is a mask of {self.size} rows, not shape {rows.shape}")
            if rows.dtype != bool:  # row numbers would be read as a mask
                raise TypeError(f"where is a boolean mask of the rows, not {rows.dtype} values")
            going &= rows
        live = np.flatnonzero(going)
        if live.size == 0:
            self.ended[:] = False
            return 0
        ph = phase[live]
        t = live[ph == _TARGET]
        c1 = live[ph == _CLUE1]
        g = live[(ph == _GUESS1) | (ph == _GUESS2)]
        c2 = live[ph == _CLUE2]
        space = self.space
        vocab = len(self.first_clue_ok)
        ti = a[t]
        cid1 = a[c1] - space.first_clue
        sq = a[g] - space.first_pawn
        code2 = a[c2]
        passed = code2 == PASS
        cid2 = code2 - space.first_clue
        self._refuse_illegal(t, ti, c1, cid1, g, sq, c2, passed, cid2, vocab)
        self._draw_ahead(live.size)  # every game could end: their next seeds, checked
        self.ended[:] = False  # after the checks: a refused step changes nothing

        n = self.n_actions
        self.log[live, n[live]] = a[live]
        n[live] += 1
        # R8: the target.
        self.target_index[t] = ti
        self.target[t] = self.card[t, ti]
        phase[t] = _CLUE1
        # R9: the first clue; the first guesses start at the giver's left (R10).
        self.used[c1, cid1] = True
        self.clue_ids[c1, 0] = cid1
        phase[c1] = _GUESS1
        self.turn[c1] = 0
        self.current_player[c1] = self.guessers[c1, 0]
        # R10, R12, R13: a pawn.
        ending = self._place(g, sq)
        # R11: the second clue or a pass; the second guesses' order (R12).
        ending = np.concatenate([ending, c2[passed]])
        c2 = c2[~passed]
        cid2 = cid2[~passed]
        self.used[c2, cid2] = True
        self.clue_ids[c2, 1] = cid2
        phase[c2] = _GUESS2
        self.turn[c2] = 0
        if self.rules.second_guess_order == "reverse":
            self.current_player[c2] = self.guessers[c2, self.n_guessers[c2] - 1]
        else:
            self.current_player[c2] = self.guessers[c2, 0]
        if ending.size:
            over = self._end_round(ending)
            if over.size:
                self._finish(over)
        return int(live.size)

    def _refuse_illegal(
        self,
        t: IntArray,
        ti: IntArray,
        c1: IntArray,
        cid1: IntArray,
        g: IntArray,
        sq: IntArray,
        c2: IntArray,
        passed: BoolArray,
        cid2: IntArray,
        vocab: int,
    ) -> None:
        repeats = self.rules.refuse_repeated_clues
        bad: list[tuple[IntArray, str]] = []
        bad.append((t[(ti < 0) | (ti >= TARGETS)], "not a square of the card (R8)"))
        ok = (cid1 >= 0) & (cid1 < vocab)
        ok[ok] = self.first_clue_ok[cid1[ok]]
        if repeats:
            ok[ok] = ~self.used[c1[ok], cid1[ok]]
        bad.append((c1[~ok], "not a legal first clue (R9, R18-R20, R22)"))
        ok = (sq >= 0) & (sq < self.board.size)
        ok[ok] = ~self.occupied[g[ok], sq[ok]]
        bad.append((g[~ok], "not an empty square (R1, R13)"))
        ok = (cid2 >= 0) & (cid2 < vocab)
        ok[ok] = self.second_clue_ok[cid2[ok]]
        if repeats:
            ok[ok] = ~self.used[c2[ok], cid2[ok]]
        ok |= passed & self.rules.second_clue_may_pass
        bad.append((c2[~ok], "not a legal second clue or pass (R11, R18-R22)"))
        for rows, why in bad:
            if rows.size:
                row = int(rows[0])
                raise IllegalAction(
                    f"game in row {row} (seed {self.seed[row]}), "
                    f"{PHASES[self.phase[row]].value}: the action's code is {why}"
                )

    def _place(self, g: IntArray, sq: IntArray) -> IntArray:
        """Place the pawns of rows ``g``; return the rows whose round is now over."""
        self.occupied[g, sq] = True
        k = self.n_pawns[g]
        self.pawn_squares[g, k] = sq
        self.pawn_seats[g, k] = self.current_player[g]
        self.n_pawns[g] = k + 1
        turn = self.turn[g] + 1
        self.turn[g] = turn
        n_guessers = self.n_guessers[g]
        second = self.phase[g] == _GUESS2
        more = turn < n_guessers
        rows, turn, n_guessers = g[more], turn[more], n_guessers[more]
        if self.rules.second_guess_order == "reverse":
            turn = np.where(second[more], n_guessers - 1 - turn, turn)
        self.current_player[rows] = self.guessers[rows, turn]
        to_second_clue = g[~more & ~second]
        self.phase[to_second_clue] = _CLUE2
        self.turn[to_second_clue] = 0
        self.current_player[to_second_clue] = self.giver[to_second_clue]
        ending: IntArray = g[~more & second]
        return ending

    def _end_round(self, rows: IntArray) -> IntArray:
        """Reveal and score (R14-R17), then start the next round; return the rows whose game
        is now over (R24-R26)."""
        target = self.target[rows]
        placed = np.arange(self.pawn_squares.shape[1]) < self.n_pawns[rows][:, None]
        squares = self.pawn_squares[rows]
        points = self.points[target[:, None], squares] * placed
        own = self.pawn_seats[rows][:, :, None] == self._seats
        self.scores[rows] += (points[:, :, None] * own).sum(axis=1)
        inside = (self.inside[target[:, None], squares] & placed).sum(axis=1)
        tiebreak = self.round[rows] >= self.rules.regular_rounds
        # R16, and nothing for the clue giver in a tie-breaker (R25).
        self.scores[rows, self.giver[rows]] += np.where(
            tiebreak, 0, inside * self.rules.giver_points_per_pawn
        )
        self.tiebreak_rounds[rows] += tiebreak
        self.round[rows] += 1
        return self._start_round(rows)

    def _start_round(self, rows: IntArray) -> IntArray:
        """Seat the next clue giver and guessers and draw the card (R6, R7, R10, R25), or end
        the game (R24, R26); return the rows whose game is over."""
        rules = self.rules
        n = rules.n_players
        regular = self.round[rows] < rules.regular_rounds
        reg = rows[regular]
        giver = (self.giver[reg] + 1) % n  # R6: clockwise
        self.giver[reg] = giver
        self.guessers[reg] = self._guessers_by_giver[giver]
        self.n_guessers[reg] = n - 1
        tb = rows[~regular]
        over = tb[:0]
        if tb.size:
            scores = self.scores[tb]
            tied = scores == scores.max(axis=1, keepdims=True)
            n_tied = tied.sum(axis=1)
            ends = (
                (n_tied == 1)
                | (n_tied == n)
                | (self.tiebreak_rounds[tb] >= rules.max_tiebreak_rounds)
            )
            over = tb[ends]
            self.phase[over] = _OVER
            self.current_player[over] = -1
            self.winners[over] = tied[ends]
            tb, tied = tb[~ends], tied[~ends]
            if tb.size:
                # R25: the first untied seat clockwise after the last giver gives the clue...
                k = np.arange(tb.size)[:, None]
                after = (self.giver[tb][:, None] + np.arange(1, n + 1)) % n
                giver = after[k[:, 0], np.argmax(~tied[k, after], axis=1)]
                self.giver[tb] = giver
                # ...and the tied seats guess, clockwise from the giver's left.
                around = (giver[:, None] + np.arange(1, n)) % n
                guessing = tied[k, around]
                first = np.argsort(~guessing, axis=1, kind="stable")
                self.guessers[tb] = around[k, first]
                self.n_guessers[tb] = guessing.sum(axis=1)
            reg = np.concatenate([reg, tb])
        self.phase[reg] = _TARGET
        self.current_player[reg] = self.giver[reg]
        self.turn[reg] = 0
        self.card[reg] = self.card_squares[self.order[reg, self.round[reg]]]
        self.target_index[reg] = -1
        self.target[reg] = -1
        self.clue_ids[reg] = -1
        self.occupied[reg] = False
        self.n_pawns[reg] = 0
        return over

    def _finish(self, rows: IntArray) -> None:
        """Keep the games that ended and deal the next seeds' games in their rows."""
        self.ended[rows] = True
        self.ended_scores[rows] = self.scores[rows]
        if self.keep_finished:
            log, n = self.log, self.n_actions
            for row in rows.tolist():
                self.finished.append(
                    FinishedGame(
                        int(self.seed[row]),
                        tuple(log[row, : n[row]].tolist()),
                        tuple(self.scores[row].tolist()),
                        tuple(np.flatnonzero(self.winners[row]).tolist()),
                        int(self.tiebreak_rounds[row]),
                        self.rules,
                        self.deck.id,
                        self.space,
                    )
                )
        self._reset(rows)

    def _draw_ahead(self, count: int) -> None:
        """Draw seeds until ``count`` wait in :attr:`_ahead` (or the seeds run out), each a
        whole number from 0 to 2**63 - 1 (R27) or a ValueError naming it."""
        ahead = self._ahead
        while len(ahead) < count:
            seed = next(self._seeds, None)
            if seed is None:
                return
            try:
                value = whole(seed, "a seed")
            except TypeError:
                value = -1
            if not 0 <= value <= MAX_SEED:
                raise ValueError(
                    f"seed {seed!r} refused: a batch's seeds are whole numbers from 0 to "
                    "2**63 - 1 (R27)"
                )
            ahead.append(value)

    def _reset(self, rows: IntArray) -> None:
        """Deal each row the game :func:`new_game` deals for the next seed (R3, R6, R27)."""
        rules, n = self.rules, self.rules.n_players
        dealt = []
        self._draw_ahead(len(rows))
        ahead = self._ahead
        for row in rows.tolist():
            if not ahead:
                self.seed[row] = -1
                continue
            seed = ahead.popleft()
            setup = new_game(n, seed=seed, rules=rules, board=self.board, deck=self.deck).setup
            self.seed[row] = setup.seed
            self.order[row] = setup.order[: self.order.shape[1]]
            self.giver[row] = (setup.first_giver - 1) % n
            dealt.append(row)
        new = np.array(dealt, dtype=np.int64)
        self.round[new] = 0
        self.scores[new] = 0
        self.tiebreak_rounds[new] = 0
        self.used[new] = False
        self.winners[new] = False
        self.n_actions[new] = 0
        self._start_round(new)
