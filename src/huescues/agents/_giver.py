"""The clue giver built on colour-term models: it chooses the target among the card's four and
the clue from its vocabulary by predicting where the guessers will put their pawns (a listener
inside the speaker, Rational Speech Acts), and gives a second clue or passes (R8-R11, R16). It
can give many games' second clues at once (:meth:`ModelClueGiver.give_second_clues`), the same
clues as one by one."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from huescues.engine import (
    Action,
    Board,
    Cell,
    ChooseTarget,
    GiveClue,
    IllegalClue,
    Pass,
    Rules,
    View,
    normalise_clue,
    validate_clue,
)
from huescues.language import ColourTermModel, attested

from ._alike import alike_chances, is_chance
from ._belief import log_l0, phrases_log_l0
from ._grammar import Grammar
from ._legal_words import legal_mask
from ._models import Models, models_of, pooled_model
from ._points import best_squares
from ._random import RandomAgent
from ._readings import Kind, Readings, Same
from ._screening import (
    ALIKE_FROM,
    alike_places,
    belief32,
    near,
    screen_totals,
    shortlist,
    target_of,
)
from ._vocabulary import BoardReading, board_reading, frame_table, words_key

__all__ = ["TRUE_SHARE", "EmbeddingClueGiver", "ModelClueGiver"]

FloatArray = NDArray[np.float64]

#: How large a share of its best frame's chance a word's reading must give the target's frame
#: for the word to be a second clue: a half, by design (the target's frame gets at least half
#: the pawns the word's best frame would, docs/knowledge.md).
TRUE_SHARE = 0.5
#: How close (in giver points) a phrase's screened worth must come to the best candidate's for
#: its exact worth to be computed: far above the batched readings' error (about 1e-12).
_PHRASE_SLACK = 1e-7

#: Each vocabulary's frame chances a row per square, and its best frame chance per word, per
#: tuple of listener models, keyed by board id and the giver's own vocabulary (``None``: the
#: models' shipped one); 7 MB each on the standard board.
FRAME_BY_SQUARE: Kind[tuple[tuple[str, ...], NDArray[np.float32], NDArray[np.float32]]] = Kind(
    "a vocabulary's frame chances by square", 4
)
#: The first clue's best words for a target square, best first (see
#: :meth:`ModelClueGiver._first_orders`), per tuple of listener models, keyed by board id,
#: the giver's own vocabulary and the square: a board's squares' worth (about 130 bytes each).
FIRST_ORDERS: Kind[NDArray[np.intp]] = Kind("a square's best first clues", 1024)
#: Each word's total weight in a second clue's screening, per model, keyed by board id,
#: vocabulary and the weights' bytes (the screening's whole input): 27 KB each on the standard
#: board's vocabulary.
SCREEN_TOTALS: Kind[FloatArray] = Kind("a screening's word totals", 256)
#: Each vocabulary's word positions, by normalised word (no models).
WORD_INDEX: Kind[dict[str, list[int]]] = Kind("a vocabulary's index", 8)
#: Which words of a vocabulary people picture alike enough to be said, as a mask and as a
#: penalty on a row of frame chances (0, or minus infinity), keyed by the vocabulary, the
#: language and the giver's ``alike_from`` (no models).
SAYABLE: Kind[tuple[NDArray[np.bool_], NDArray[np.float32]]] = Kind(
    "a vocabulary's words people picture alike", 8
)


@dataclass(frozen=True, slots=True)
class ModelClueGiver:
    """Also :data:`EmbeddingClueGiver` (its name before it was known to listen with any
    model): it listens with any colour-term model, ``default_model()`` by default.

    Chooses the target among the card's four and a clue from the vocabulary by predicting
    where the guessers will put their pawns: a listener inside the speaker (Rational Speech
    Acts) places each pawn by the literal belief the clue gives, and the giver takes the target
    and clue with the most expected R16 points. The second clue (one word, or two of the best
    words together) aims the second guesses at the frame around the pawns already placed; with
    ``competitive`` it passes when the second guesses would help the others more than the giver
    (always, in a tie-breaker, where the giver scores nothing). Every clue passes
    :func:`~huescues.validate_clue` (R18-R22) before it is given. ``store``: the
    :class:`~huescues.agents.Readings` it keeps what it reads in (``None``, the default: the
    process's shared one); it changes no clue, only how soon one is given.
    """

    model: Models = "default"
    competitive: bool = True
    #: How many of the best single words are paired into two-word second clues (0 or 1: single
    #: words only, as the default player does).
    pair_from: int = 8
    #: The words to choose clues from (default: the shipped vocabulary, every word of which
    #: has attested colour evidence, see :func:`clue_vocabulary`).
    words: tuple[str, ...] | None = None
    #: Second clues people understand: each word true of the target read alone (see
    #: :meth:`_true_of`), and two-word clues only when people would give them
    #: (:func:`attested`: an XKCD colour name, or a modifier before a known word in a form
    #: people say when the two are a colour's name).
    attested_only: bool = True
    #: How the listener models are combined: ``None`` (the default here), their beliefs
    #: averaged; else one weight a model, their beliefs pooled geometrically
    #: (:func:`~huescues.agents.pooled_model`; the default player's, :data:`DEFAULT_GIVER_POOL`).
    pool: tuple[float, ...] | None = None
    #: How two words go together as a second clue: ``None``, the better word first (English);
    #: a :class:`~huescues.agents.Grammar`, a noun and then its adjective in its gender, in
    #: either order of worth (Spanish: ``bosque profundo``, ``agua turbia``). Either way the
    #: pair is said only if people would say it (:func:`attested`, in the game's language).
    grammar: Grammar | None = None
    #: Words people read apart are not said: only words whose :func:`alike_chance` in the game's
    #: language is at least this (``None``, the default here: any word of the vocabulary; the
    #: default player's is its pack's, ``docs/agents.md``). The words stay read, by the giver
    #: and the guessers alike. A two-word second clue is two such words (and a phrase people
    #: say, :func:`attested`). When no such word is legal (a small vocabulary, all said), the
    #: giver falls back to the random agent's clue, as it does when its vocabulary runs out.
    alike_from: float | None = None
    store: Readings | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        cut = self.alike_from
        if cut is not None and not is_chance(cut):
            raise ValueError(f"alike_from is a chance from 0 to 1 (or None), not {cut!r}")

    def listeners(self) -> list[ColourTermModel]:
        """The listener models whose beliefs the giver averages: ``model``'s, or the one model
        that pools them (``pool``)."""
        if self.pool is None:
            return models_of(self.model, store=self._kept)
        return [pooled_model(self.model, self.pool, self._kept)]

    @property
    def _kept(self) -> Readings:
        return self.store if self.store is not None else Readings.shared()

    def prepare(self, board: Board, rules: Rules) -> None:
        """Load the models and read the vocabulary on ``board`` with each, so that the game's
        decisions do not; cheap once done, and it changes no decision."""
        models = self.listeners()
        self._by_square(board)
        for model in models:
            # The second clue reads the first one as the guessers did: with the shipped words.
            board_reading(self._kept, model, board)

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """The card square the best legal first clue reaches best (R8)."""
        assert view.card is not None, "only the clue giver sees the card"
        board = view.board
        words, by_square, _ = self._by_square(board)
        # Each card square's best word unsaid and fit to say (the frame chances are never
        # below zero, so a word left is finite in every row).
        rows = by_square.take([c.row * board.cols + c.col for c in view.card], axis=0)
        rows[:, self._said(words, view)] = -np.inf
        sayable = self._sayable(words, view)
        if sayable is not None:
            rows += sayable[1]  # (one add: unsayable words to minus infinity)
        best = rows.max(axis=1)
        if best[0] == -np.inf:
            # Every word is said (a small vocabulary) or unfit: the first clue will be the
            # random agent's, so no card square is better than another.
            return ChooseTarget(0)
        return ChooseTarget(int(best_squares(best)))

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """The legal word with the most expected pawns in the target's frame (R9, R16)."""
        target = target_of(view)
        words = self._by_square(view.board)[0]
        sayable = self._sayable(words, view)
        square = target.row * view.board.cols + target.col
        for order in self._first_orders(view.board, square):
            for i in order:
                if sayable is not None and not sayable[0][int(i)]:
                    continue
                clue = self._legal(words[int(i)], view, second=False)
                if clue is not None:
                    return clue
        return RandomAgent().give_clue(view, rng)

    def _first_orders(self, board: Board, square: int) -> Iterator[NDArray[np.intp]]:
        """:func:`_best_first` of the square's frame chances (k = 16), its first order kept
        (:data:`FIRST_ORDERS`): it depends only on the square's column of the frame table."""
        _, by_square, _ = self._by_square(board)
        column = by_square[square]
        if len(column) <= 16:
            yield from _best_first(column, 16)
            return

        def make() -> NDArray[np.intp]:
            few = next(_best_first(column, 16))
            few.flags.writeable = False
            return few

        key = (board.id, words_key(self.words), square)
        yield self._kept.get(self.listeners(), FIRST_ORDERS, key, make)
        yield np.argsort(-column, kind="stable")

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """One or two words that draw the second guesses into the frame, or a pass when that
        is worth more (R11)."""
        return self._second_clue(view, rng, None)

    def give_second_clues(
        self, views: Sequence[View], rngs: Sequence[np.random.Generator]
    ) -> list[Action]:
        """:meth:`give_second_clue` for many games at once (each view with its generator), the
        same clues and passes as one by one. What is done at once is the screening's word
        totals, model by model: each game's own vector product (:func:`screen_totals`, the same
        bits as a game makes alone), made one after another while the model's 6.5 MB table is
        in the cache (alone, each game reads it from memory). Not one matrix product for all
        the games: it is no faster, and its sums' other order would need a check. For a
        runner that plays many games together (:func:`~huescues.agents.run_together`)."""
        made: dict[int, list[FloatArray]] = {}
        ready = [i for i, v in enumerate(views) if v.target is not None and v.clues]
        kept = self._kept
        for board_id in dict.fromkeys(views[i].board.id for i in ready):
            same = [i for i in ready if views[i].board.id == board_id]
            if len(same) < 2:
                continue
            board = views[same[0]].board
            for model in self.listeners():
                reading = board_reading(kept, model, board, self.words)
                table = belief32(kept, model, board, reading, self.words)
                for i in same:
                    first = log_l0(kept, model, board, views[i].clues[0]).ravel()
                    w = _screen_weights(first, _empty(views[i]))
                    made.setdefault(i, []).append(self._totals(model, board, w, table))
        return [
            self._second_clue(view, rng, made.get(i))
            for i, (view, rng) in enumerate(zip(views, rngs, strict=True))
        ]

    def _second_clue(
        self, view: View, rng: np.random.Generator, totals: list[FloatArray] | None
    ) -> GiveClue | Pass:
        """:meth:`give_second_clue`, with the screening's word totals when a batch made them
        (:meth:`give_second_clues`)."""
        target = target_of(view)
        board = view.board
        kept = self._kept
        models = self.listeners()
        empty = _empty(view)
        frame_idx, ring_pts = near(kept, target, board, view.rules.points_by_distance)
        firsts = [log_l0(kept, m, board, view.clues[0]).ravel() for m in models]

        def values_of_phrases(phrases: list[str], *, exact: bool = True) -> FloatArray:
            """:meth:`_value` for each phrase alone, computed together (the same sums in the
            same order: each phrase's product with the points is its own, as before); from the
            batched readings unless ``exact``."""
            total: FloatArray = np.zeros(len(phrases))
            for model, first in zip(models, firsts, strict=True):
                if exact:
                    rows = np.stack([log_l0(kept, model, board, ph).ravel() for ph in phrases])
                else:
                    rows = phrases_log_l0(kept, model, board, phrases)
                joint = rows + first
                joint = joint - joint.max(axis=-1, keepdims=True)
                weight = np.exp(joint) * empty
                weight /= weight.sum(axis=-1, keepdims=True)
                points = np.array([(weight[i : i + 1] @ ring_pts)[0] for i in range(len(phrases))])
                total += self._value(view, weight.take(frame_idx, axis=-1).sum(axis=-1), points)
            out: FloatArray = total / len(models)
            return out

        # Only words true of the target are second clues (a mask over the vocabulary).
        true_mask = self._true_of(board, target) if self.attested_only else None
        read = [board_reading(kept, m, board, self.words) for m in models]
        words = read[0].words
        legal = legal_mask(kept, words, view, second=True)
        sayable = self._sayable(words, view)
        if sayable is not None:
            legal = legal & sayable[0]
        # The best single words: every word screened at once (float32, error bounded), the
        # few that may be among the best then valued exactly as before.
        few = self._screen(view, read, firsts, empty, ring_pts, legal, true_mask, totals)
        exact = self._worth_of_words(view, read, firsts, empty, few)
        candidates: list[tuple[float, str]] = []
        singles = []
        for j in np.argsort(-exact, kind="stable"):
            word = words[int(few[int(j)])]
            if legal[int(few[int(j)])]:
                candidates.append((float(exact[int(j)]), word))
                singles.append(word)
                if len(singles) >= max(1, self.pair_from):
                    break
        paired = singles if view.rules.second_clue_words >= 2 else []
        if self.grammar is None:
            pairs = [f"{a} {b}" for a_i, a in enumerate(paired) for b in paired[a_i + 1 :]]
        else:
            pairs = self.grammar.pairs(paired)
        language = view.rules.language
        phrases = [
            phrase
            for phrase in pairs
            # Whether people say it first (kept per phrase, and most pairs are not), then the
            # clue rules: both are pure, so the order changes no phrase.
            if (true_mask is None or attested(phrase, language))
            and self._legal(phrase, view, second=True) is not None
        ]
        n_singles = len(candidates)
        if phrases:
            # Every phrase valued from batched readings; the exact worth (as each phrase read
            # alone gives it) only where it can matter: phrases within the slack of the best
            # candidate when several are, or when the best's worth is near the pass line.
            values = values_of_phrases(phrases, exact=False)
            candidates += [(float(v), ph) for v, ph in zip(values, phrases, strict=True)]
            top = max(v for v, _ in candidates)
            close = [i for i, (v, _) in enumerate(candidates) if v >= top - _PHRASE_SLACK]
            if len(close) > 1 or abs(top) <= _PHRASE_SLACK:
                again = [i for i in close if i >= n_singles]
                if again:
                    exact = values_of_phrases([candidates[i][1] for i in again])
                    for i, v in zip(again, exact, strict=True):
                        candidates[i] = (float(v), candidates[i][1])
        if not candidates:
            if view.rules.second_clue_may_pass:
                return Pass()
            return RandomAgent().give_second_clue(view, rng)
        best_value, best = max(candidates, key=lambda vc: vc[0])
        if self.competitive and view.rules.second_clue_may_pass and best_value <= 0.0:
            return Pass()
        return GiveClue(best)

    def _screen(
        self,
        view: View,
        read: list[BoardReading],
        firsts: list[FloatArray],
        empty: NDArray[np.bool_],
        ring_pts: FloatArray,
        legal: NDArray[np.bool_],
        allowed: NDArray[np.bool_] | None = None,
        totals: list[FloatArray] | None = None,
    ) -> NDArray[np.intp]:
        """The indices (ascending) of every word that may be among the ``pair_from`` best legal
        single second clues (:func:`~huescues.agents._screening.shortlist`), from each model's
        word totals: ``totals`` when a batch made them (:meth:`give_second_clues`), else made
        here by the same product (the same bits)."""
        kept = self._kept
        models = self.listeners()
        board = view.board
        weights = [_screen_weights(first, empty) for first in firsts]
        tables = [
            belief32(kept, m, board, r, self.words) for m, r in zip(models, read, strict=True)
        ]
        if totals is None:
            totals = [
                screen_totals(w.astype(np.float32), t) for w, t in zip(weights, tables, strict=True)
            ]
        return shortlist(
            view,
            tables,
            weights,
            totals,
            ring_pts,
            legal,
            allowed,
            keep=max(1, self.pair_from),
            value=self._value,
            readings=kept,
        )

    def _totals(
        self, model: ColourTermModel, board: Board, weights: FloatArray, table: NDArray[np.float32]
    ) -> FloatArray:
        """Each word's total weight in the screening (:func:`screen_totals`), kept by the
        weights' bytes: games of a tournament's block share their seed, and often a first clue
        on the same empty squares."""
        w32 = weights.astype(np.float32)
        key = (board.id, words_key(self.words), w32.tobytes())
        return self._kept.get(
            (model,), SCREEN_TOTALS, key, functools.partial(screen_totals, w32, table)
        )

    def _worth_of_words(
        self,
        view: View,
        read: list[BoardReading],
        firsts: list[FloatArray],
        empty: NDArray[np.bool_],
        listed: NDArray[np.intp],
        *,
        alike: bool = True,
    ) -> FloatArray:
        """Each word of ``listed``'s worth as a second clue, averaged over the listener models.
        Words that every model reads alike (``alike``; the naming data reads hundreds of words
        it does not know the same way) share their numbers but for the product with the
        points, made for every word in its place: its bits depend on a row's place among the
        rows, and the order of equal words on them."""
        board = view.board
        kept = self._kept
        frame_idx, ring_pts = near(kept, target_of(view), board, view.rules.points_by_distance)
        n = len(read[0].words)
        models = self.listeners()
        # A short list is valued as it is (looking for alike words costs more than they save).
        few = len(listed) <= ALIKE_FROM
        found = None
        if not few and alike:
            found = alike_places(kept, models, board, read, self.words, listed)
        first_of, place = (listed, None) if found is None else (listed[found[0]], found[1])
        total: FloatArray = np.zeros(len(listed))
        for first, r in zip(firsts, read, strict=True):
            log_p = r.log_belief.reshape(n, -1).take(first_of, axis=0).astype(np.float64)
            joint = log_p + first
            joint = joint - joint.max(axis=-1, keepdims=True)
            weight = np.exp(joint) * empty
            weight /= weight.sum(axis=-1, keepdims=True)
            frame = weight.take(frame_idx, axis=-1).sum(axis=-1)
            if place is not None:
                # Each word's own row again, in its place (a copy of its first alike's).
                weight, frame = weight.take(place, axis=0), frame.take(place)
            total += self._value(view, frame, weight @ ring_pts)
        out: FloatArray = total / len(read)
        return out

    def _true_of(self, board: Board, target: Cell) -> NDArray[np.bool_]:
        """Which words of the vocabulary, read alone, are true of the target: a pawn placed by
        a word's literal reading lands in the target's frame at least :data:`TRUE_SHARE` as
        often as in the frame it suits best. A second clue people understand points at the
        target itself, not only away from the pawns already placed (``ocean``, then
        ``blood``, would steer the guesses but mislead a person)."""
        _, by_square, peaks = self._by_square(board)
        out: NDArray[np.bool_] = by_square[target.row * board.cols + target.col] >= (
            TRUE_SHARE * peaks
        )
        return out

    def _by_square(
        self, board: Board
    ) -> tuple[tuple[str, ...], NDArray[np.float32], NDArray[np.float32]]:
        """The vocabulary; for each square and word (a row per square: a square's words in one
        place, not strided across the table), the chance a pawn lands in the square's frame,
        averaged over the listener models; and each word's best chance over the squares."""
        models = self.listeners()
        kept = self._kept

        def make() -> tuple[tuple[str, ...], NDArray[np.float32], NDArray[np.float32]]:
            words, frame = frame_table(kept, models, board, self.words)
            by_square = np.ascontiguousarray(frame.reshape(len(words), -1).T)
            peaks = frame.reshape(len(words), -1).max(axis=1)
            for a in (by_square, peaks):
                a.flags.writeable = False
            return words, by_square, peaks

        # Without words of its own, the models' language chooses the vocabulary.
        return kept.get(models, FRAME_BY_SQUARE, (board.id, words_key(self.words)), make)

    def _value(self, view: View, in_frame: FloatArray, guesser_points: FloatArray) -> FloatArray:
        """What the second guesses are worth to the giver: its own expected R16 points, less
        (when competitive) the others' average gain (R15)."""
        n_guessers = len(view.guessers)
        giver = 0.0 if view.tiebreak else float(view.rules.giver_points_per_pawn)
        own = giver * n_guessers * in_frame
        if not self.competitive:
            return own
        others = n_guessers * guesser_points / max(1, view.rules.n_players - 1)
        out: FloatArray = own - others
        return out

    def _said(self, words: tuple[str, ...], view: View) -> list[int]:
        """The positions in ``words`` of the clues said in the game (R22: not said again)."""
        index = self._kept.get((), WORD_INDEX, Same(words), lambda: _word_index(words))
        said = {i for c in view.clues_given for i in index.get(normalise_clue(c), ())}
        return sorted(said)

    def _sayable(
        self, words: tuple[str, ...], view: View
    ) -> tuple[NDArray[np.bool_], NDArray[np.float32]] | None:
        """Which of ``words`` people picture alike enough to be said (:attr:`alike_from`), and
        the same as a row to add to frame chances (0 where a word may be said, minus infinity
        where not); ``None`` when any may be."""
        if self.alike_from is None:
            return None
        language, least = view.rules.language, self.alike_from

        def make() -> tuple[NDArray[np.bool_], NDArray[np.float32]]:
            mask = alike_chances(words, language) >= least
            penalty = np.where(mask, np.float32(0), np.float32(-np.inf)).astype(np.float32)
            for a in (mask, penalty):
                a.flags.writeable = False
            return mask, penalty

        return self._kept.get((), SAYABLE, (Same(words), language, least), make)

    def _legal(self, text: str, view: View, *, second: bool) -> GiveClue | None:
        try:
            validate_clue(text, second=second, rules=view.rules, previous=view.clues_given)
        except IllegalClue:
            return None
        return GiveClue(text)


def _empty(view: View) -> NDArray[np.bool_]:
    """Which squares of the board hold no pawn (R13), flat."""
    board = view.board
    empty = np.ones(board.size, dtype=bool)
    for c in view.occupied:
        empty[c.row * board.cols + c.col] = False
    return empty


def _screen_weights(first: FloatArray, empty: NDArray[np.bool_]) -> FloatArray:
    """Each square's weight in the second clue's screening: the first clue's reading (``first``,
    log L0, flat) over the empty squares, scaled to a largest of 1."""
    out: FloatArray = np.exp(first - first.max()) * empty
    return out


def _best_first(values: NDArray[np.floating], k: int) -> Iterator[NDArray[np.intp]]:
    """The indices of ``values``, largest first and ties in index order (a stable sort of the
    negated values): first only those at least the ``k``-th largest, then all of them."""
    if k < len(values):
        kth = np.partition(values, len(values) - k)[len(values) - k]
        few = np.flatnonzero(values >= kth)
        yield few[np.argsort(-values[few], kind="stable")]
    yield np.argsort(-values, kind="stable")


def _word_index(words: tuple[str, ...]) -> dict[str, list[int]]:
    """The positions of each word in ``words``."""
    index: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        index.setdefault(w, []).append(i)
    return index


#: :class:`ModelClueGiver` by its first name (kept: programs and checks use it). It listens
#: with any colour-term model, not only the word vectors.
EmbeddingClueGiver = ModelClueGiver
