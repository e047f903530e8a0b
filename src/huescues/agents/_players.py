"""Players built on colour-term models: a guesser that places the pawn with the most expected
points (R15), a clue giver that chooses target and clue by predicting where the guessers will
put their pawns (R16), and the baselines and bound around them."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from huescues.engine import (
    Board,
    Cell,
    ChooseTarget,
    GiveClue,
    IllegalClue,
    Pass,
    PlacePawn,
    Rules,
    View,
    normalise_clue,
    validate_clue,
)
from huescues.language import (
    ColourTermModel,
    EmbeddingModel,
    NamingModel,
    TranslatedModel,
    default_model,
    listen,
    reads_in_context,
    spanish_table,
    with_capabilities,
)

from ._attested import attested
from ._legal_words import legal_mask
from ._listener import log_literal, pawn_log_likelihood, posterior
from ._memo import ModelMemo, words_key
from ._points import expected_points, expected_points_many
from ._protocol import ClueGiver, Guesser
from ._random import RandomAgent
from ._speaker import log_pragmatic, speaker_reading
from ._vocabulary import BoardReading, board_reading, frame_table

__all__ = [
    "EmbeddingClueGiver",
    "EmbeddingGuesser",
    "ModelClueGiver",
    "ModelGuesser",
    "OracleGuesser",
    "Player",
    "combined_agent",
    "default_agent",
    "embedding_agent",
    "naming_agent",
    "oracle_agent",
    "resolve_model",
    "spanish_default_agent",
]

FloatArray = NDArray[np.float64]


@functools.cache
def _spanish(name: str) -> ColourTermModel:
    """The model called ``name`` reading Spanish clues through the shipped table (the default
    one is ``default_model("es")`` itself)."""
    if name == "default":
        return default_model("es")
    return TranslatedModel(MODELS[name](), spanish_table(), "es")


#: Models by name, so that agents stay small and picklable (each process loads its own). The
#: ``-es`` ones read Spanish clues: the English model through the Spanish-to-English table
#: (:class:`~huescues.language.TranslatedModel`; ``"default-es"`` is ``default_model("es")``).
MODELS: dict[str, Callable[[], ColourTermModel]] = {
    "default": default_model,
    "naming": NamingModel.default,
    "embedding": EmbeddingModel.default,
    "default-es": functools.partial(_spanish, "default"),
    "naming-es": functools.partial(_spanish, "naming"),
    "embedding-es": functools.partial(_spanish, "embedding"),
}

ModelSpec = str | ColourTermModel
#: One model, or several whose readings are averaged (an ensemble of listeners).
Models = ModelSpec | tuple[ModelSpec, ...]


#: The listener models of the default players: the clue giver predicts pawns with all three
#: (``default_model()``, the naming data, the word vectors) and averages; the guesser reads with
#: ``default_model()`` and the naming data, pragmatically. (An ensemble reads clues from other
#: players better; measured in docs/agents.md.)
DEFAULT_GIVER_MODELS: tuple[str, ...] = ("default", "naming", "embedding")
DEFAULT_GUESSER_MODELS: tuple[str, ...] = ("default", "naming")
#: The same for Spanish clues: each model reading Spanish through the shipped table.
SPANISH_GIVER_MODELS: tuple[str, ...] = ("default-es", "naming-es", "embedding-es")
SPANISH_GUESSER_MODELS: tuple[str, ...] = ("default-es", "naming-es")
#: The default clue giver's second clue is one word or two of its 8 best words together (the
#: phrases read in one batch per model, docs/agents.md).
DEFAULT_PAIR_FROM = 8

#: A pragmatic guesser's prior weight on the imagined givers' readings (the rest is literal):
#: chosen by self-play against the naming players, docs/knowledge.md (0.2 before issue 18).
PRAGMATIC_SHARE = 0.8
#: How much of an imagined giver's reading is the literal one, for words it would not choose.
_LITERAL_SHARE = 0.2


def resolve_model(spec: ModelSpec) -> ColourTermModel:
    """A model from its name in :data:`MODELS` (``"default"``: ``default_model()``;
    ``"naming"``; ``"embedding"``), or the model itself."""
    if isinstance(spec, str):
        if spec not in MODELS:
            raise ValueError(f"no model named {spec!r}; choose one of {sorted(MODELS)}")
        return MODELS[spec]()
    return spec


def _models(spec: Models, named: dict[str, ColourTermModel] | None = None) -> list[ColourTermModel]:
    """The models of ``spec``; ``named`` keeps those looked up by name across calls (a
    guesser's specs name the same few models over and over)."""
    specs = spec if isinstance(spec, tuple) else (spec,)
    if named is None:
        return [resolve_model(m) for m in specs]
    out = []
    for m in specs:
        if isinstance(m, str):
            model = named.get(m)
            if model is None:
                model = named[m] = resolve_model(m)
            out.append(model)
        else:
            out.append(resolve_model(m))
    return out


#: Readings of clues outside the vocabulary, per model while it lives, keyed by board id and
#: clue: at most this many per model (4 KB each on the standard board).
LOG_L0_KEPT = 4096
LOG_L0: ModelMemo[FloatArray] = ModelMemo(per_models=LOG_L0_KEPT)


def _log_l0(model: ColourTermModel, board: Board, text: str) -> FloatArray:
    """log L0(square | text) on the board, from the vocabulary's reading when the text is a
    word of it, else computed once and cached."""
    reading = board_reading(model, board)
    i = reading.index.get(text.lower().strip())
    if i is not None:
        row: FloatArray = reading.log_belief[i].astype(np.float64)
        return row
    key = (board.id, normalise_clue(text))
    return LOG_L0.get((model,), key, lambda: _read_clue(model, text, board))


def _read_clue(model: ColourTermModel, text: str, board: Board) -> FloatArray:
    """log L0 of a clue outside the vocabulary; one with a negation, a comparative or "other"
    ("not sky") is read against the board's squares (listen)."""
    if not reads_in_context(text):
        return log_literal(model, text, board)
    p = listen(text, board.lab.reshape(-1, 3), model=model)
    out: FloatArray = np.log(p).reshape(board.shape)
    return out


#: Readings of two-word second clues from the models' batched ``score_batch`` (equal to
#: :func:`_log_l0`'s but for the last bits), per model while it lives, keyed by board id and
#: clue: at most this many per model (4 KB each on the standard board).
PHRASE_L0_KEPT = 4096
PHRASE_L0: ModelMemo[FloatArray] = ModelMemo(per_models=PHRASE_L0_KEPT)


def _phrases_log_l0(model: ColourTermModel, board: Board, phrases: Sequence[str]) -> FloatArray:
    """log L0(square | phrase) for each phrase, a row per phrase (flat squares): those not yet
    read are read together by the model's ``score_batch`` (much faster than one by one; a model
    without one reads them one by one, :func:`~huescues.language.with_capabilities`). The rows
    may differ from :func:`_log_l0`'s in the last bits; a phrase read in context (a negation, a
    comparative, "other") is read as :func:`_log_l0` reads it."""
    keys = [(board.id, normalise_clue(p)) for p in phrases]
    rows = PHRASE_L0.cached_many((model,), keys)
    new = [i for i, r in enumerate(rows) if r is None and not reads_in_context(phrases[i])]
    if new:
        batch = with_capabilities(model).score_batch
        s = np.asarray(batch([phrases[i] for i in new], board.lab.reshape(-1, 3)), np.float64)
        top = s.max(axis=1, keepdims=True)
        read = s - (top + np.log(np.exp(s - top).sum(axis=1, keepdims=True)))
        for i, row in zip(new, read, strict=True):
            rows[i] = PHRASE_L0.get((model,), keys[i], functools.partial(_same, row))
    out: FloatArray = np.stack(
        [
            r.ravel() if r is not None else _log_l0(model, board, p).ravel()
            for r, p in zip(rows, phrases, strict=True)
        ]
    )
    return out


def _same(row: FloatArray) -> FloatArray:
    return row


#: How close (in giver points) a phrase's screened worth must come to the best candidate's for
#: its exact worth to be computed: far above the batched readings' error (about 1e-12).
_PHRASE_SLACK = 1e-7


#: A guesser's readings of a first clue, per tuple of its models (literal, then imagined givers'),
#: keyed by board id, clue and the imagined givers' sizes: at most this many per tuple.
GUESSER_READINGS_KEPT = 128
GUESSER_READINGS: ModelMemo[tuple[FloatArray, ...]] = ModelMemo(per_models=GUESSER_READINGS_KEPT)


#: A guesser's readings of a later clue (the models' literal readings averaged), per tuple of
#: its models, keyed by board id and clue: every guess after the clue reads it again.
LATER_READINGS_KEPT = 128
LATER_READINGS: ModelMemo[FloatArray] = ModelMemo(per_models=LATER_READINGS_KEPT)


def _later_reading(models: list[ColourTermModel], board: Board, clue: str) -> FloatArray:
    """The literal readings of a later clue by ``models``, averaged (flat squares; kept,
    read-only)."""

    def make() -> FloatArray:
        out: FloatArray = np.mean(
            [posterior([_log_l0(m, board, clue)]).ravel() for m in models], axis=0
        )
        out.flags.writeable = False
        return out

    return LATER_READINGS.get(models, (board.id, clue), make)


#: A guesser's belief in a round before the pawns (its readings of the first clue mixed with
#: its weights for the round's giver, times the later clues' readings: the same for every pawn
#: of the round), per tuple of its models, keyed by board id, what the weights come from (the
#: giver's earlier first clues and targets) and the clues. At most this many per tuple (4 KB
#: each on the standard board): a lockstep worker's 100 games keep two each between turns.
ROUND_BELIEFS_KEPT = 512
ROUND_BELIEFS: ModelMemo[FloatArray] = ModelMemo(per_models=ROUND_BELIEFS_KEPT)


#: What :meth:`EmbeddingGuesser._round_key` finds: the literal models, every model (the imagined
#: givers' too) and the key of the round's belief in :data:`ROUND_BELIEFS`.
Found = tuple[list[ColourTermModel], list[ColourTermModel], Hashable]
#: What :meth:`EmbeddingGuesser._round_models` finds: the literal models, every model and the
#: imagined givers' sizes.
Resolved = tuple[list[ColourTermModel], list[ColourTermModel], tuple[int, ...]]

#: Pawns placed for many games at once (:meth:`EmbeddingGuesser.prepare_pawns`), per tuple of
#: the guesser's models, keyed by what decides a pawn besides them (the round's key in
#: :data:`ROUND_BELIEFS`, how pawns are read, the pawns, the occupied squares, the points). A
#: lockstep worker's batch asks for each right after it is made: at most this many per tuple.
PAWNS_KEPT = 512
PAWNS: ModelMemo[PlacePawn] = ModelMemo(per_models=PAWNS_KEPT)

#: The pawns of the latest :meth:`EmbeddingGuesser.prepare_pawns` calls (in any thread), by
#: the identities of what decides them in a view (:func:`_view_ids`): :meth:`place_pawn` finds
#: its own here without making :data:`PAWNS`' key. Each entry holds its view, so that those
#: objects live (and their ids stay theirs) while it is kept, and the guesser that placed the
#: pawn, which must be the one asking or equal to it with every model named (equal names, the
#: same models). At most this many, the oldest dropped first (a lockstep worker's batches of a
#: pass, one per group of equal guessers, stay); a pawn missed here is found in :data:`PAWNS`.
LATEST_PAWNS_KEPT = 1024
_LATEST_PAWNS: OrderedDict[tuple[int, ...], tuple[EmbeddingGuesser, bool, View, PlacePawn]] = (
    OrderedDict()
)


def _view_ids(view: View) -> tuple[int, ...]:
    """What decides a guesser's pawn in ``view``, by identity (immutable objects: the same
    object, the same value): the board, the rules, the earlier rounds, the giver, the clues, the
    pawns, the occupied squares and the seat."""
    return (
        id(view.board),
        id(view.rules),
        id(view.history),
        view.giver,
        id(view.clues),
        id(view.pawns),
        id(view.occupied),
        view.seat,
    )


@functools.lru_cache(maxsize=4)
def _pawn_terms(shape: tuple[int, int], spread: float, floor: float) -> FloatArray:
    """Every square's term of :func:`pawn_log_likelihood` (flat), a row per square, and a last
    row of zeros (no pawn)."""
    rows, cols = shape
    out = np.zeros((rows * cols + 1, rows * cols))
    for r in range(rows):
        for c in range(cols):
            term = pawn_log_likelihood([Cell(r, c)], shape, spread=spread, floor=floor)
            out[r * cols + c] = term.ravel()
    out.flags.writeable = False
    return out


@dataclass(frozen=True, slots=True)
class EmbeddingGuesser:
    """Also :data:`ModelGuesser`: it reads with any colour-term model, ``default_model()`` by
    default, whatever its name says.

    Places its pawn where the expected R15 points are highest (frame clipped at the edges,
    R5), under a posterior over the target built from the round's clues (both clues combined for
    the second guess).

    ``use_pawns``: the other players' pawns this round count as noisy readings of the clues
    (``pawn_spread`` squares of fall-off, ``pawn_floor`` chance a pawn says nothing).
    ``pragmatic``: reasons about the clue giver (Rational Speech Acts). Besides reading the first
    clue literally with each of its models, it imagines the clue givers in ``speakers`` and asks
    which squares each would have chosen to clue with that word (a pragmatic listener); it weighs
    these readings by how well each explained the same giver's earlier targets in the game.
    """

    model: Models = "default"
    use_pawns: bool = True
    pragmatic: bool = False
    pawn_spread: float = 2.5
    pawn_floor: float = 0.5
    #: The clue givers a pragmatic guesser imagines: each the listener models of an
    #: :class:`EmbeddingClueGiver`.
    speakers: tuple[Models, ...] = (DEFAULT_GIVER_MODELS, "naming", "default", "embedding")

    def prepare(self, board: Board, rules: Rules) -> None:
        """Load the models and read the vocabulary on ``board`` with each (and, when
        ``pragmatic``, build the imagined givers), so that the game's decisions do not; cheap
        once done, and it changes no decision."""
        for model in _models(self.model):
            board_reading(model, board)
        if self.pragmatic:
            for spec in self.speakers:
                speaker_reading(_models(spec), board)

    def readings(self, board: Board, clue: str) -> list[FloatArray]:
        """The ways this guesser reads a first clue, each a distribution over the squares (flat):
        literally with each of its models, then (when ``pragmatic``) as each imagined giver
        would have meant it."""
        models, *groups = self._model_groups()
        # Every later decision of the round (and the weights of later rounds) reads it again.
        key = (board.id, clue, tuple(len(g) for g in groups))
        everyone = [*models, *(m for g in groups for m in g)]
        kept = GUESSER_READINGS.get(everyone, key, lambda: self._read(board, clue, models, groups))
        return list(kept)

    @staticmethod
    def _read(
        board: Board,
        clue: str,
        models: list[ColourTermModel],
        groups: list[list[ColourTermModel]],
    ) -> tuple[FloatArray, ...]:
        """:meth:`readings`, made (read-only arrays, as they are kept)."""
        literal = [posterior([_log_l0(m, board, clue)]).ravel() for m in models]
        out = list(literal)
        if groups:
            plain = np.mean(literal, axis=0)
            for group in groups:
                log_l1 = log_pragmatic(speaker_reading(group, board), clue)
                # A giver may say what the imagined one never would: keep some literal reading.
                out.append(
                    plain
                    if log_l1 is None
                    else _LITERAL_SHARE * plain + (1 - _LITERAL_SHARE) * np.exp(log_l1)
                )
        for a in out:
            a.flags.writeable = False
        return tuple(out)

    def prior(self) -> FloatArray:
        """The weights of :meth:`readings` before any evidence: the literal readings share
        equally, the imagined givers' readings share :data:`PRAGMATIC_SHARE`."""
        n = len(_models(self.model))
        if not self.pragmatic:
            return np.full(n, 1.0 / n)
        k = len(self.speakers)
        return np.array([(1 - PRAGMATIC_SHARE) / n] * n + [PRAGMATIC_SHARE / k] * k)

    def weights(self, view: View) -> FloatArray:
        """The weights of :meth:`readings` for this round's giver: the prior, times how well
        each reading predicted the target of that giver's earlier rounds (R14: targets are
        public once scored). Without ``pragmatic``, the prior."""
        log_w = np.log(self.prior())
        if self.pragmatic:
            board = view.board
            for r in view.history:
                if r.giver == view.giver and r.clues:
                    t = r.target.row * board.cols + r.target.col
                    seen = [h[t] for h in self.readings(board, r.clues[0])]
                    log_w += np.log(np.maximum(seen, 1e-12))
        w = np.exp(log_w - log_w.max())
        out: FloatArray = w / w.sum()
        return out

    def belief(
        self,
        board: Board,
        clues: Sequence[str],
        pawns: Sequence[Cell] = (),
        *,
        weights: FloatArray | None = None,
    ) -> FloatArray:
        """The posterior over the target square, shape ``(rows, cols)``, summing to 1: a mixture
        of the :meth:`readings` of the first clue with ``weights``, times the later clues read
        literally (the models averaged) and the pawns' evidence.

        Without ``weights`` (outside a game, as :meth:`rank` and
        :func:`~huescues.research.human_agreement` ask), the literal readings alone, equally:
        the imagined givers are this library's players, and a clue from outside a game most
        likely comes from a person. In a game, :meth:`place_pawn` passes :meth:`weights`."""
        if not clues:
            return np.full(board.shape, 1.0 / board.size)
        models = _models(self.model)
        if weights is None:
            weights = np.zeros(len(self.readings(board, clues[0])))
            weights[: len(models)] = 1.0 / len(models)
        joint = self._mixed(board, clues[0], weights)
        for clue in clues[1:]:
            joint = joint * _later_reading(models, board, clue)
        return self._with_pawns(board, joint, pawns)

    def _mixed(self, board: Board, clue: str, weights: FloatArray) -> FloatArray:
        """The :meth:`readings` of the first clue mixed with ``weights`` (flat, unnormalised)."""
        readings = self.readings(board, clue)
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(readings),) or not np.all(w >= 0) or not w.sum() > 0:
            raise ValueError(
                f"weights {w.tolist()} refused: give {len(readings)} non-negative weights, one "
                "per reading of the first clue (see readings()), not all zero"
            )
        joint = np.zeros(board.size)
        for wi, reading in zip(w, readings, strict=True):
            joint += wi * reading
        return joint

    def _with_pawns(self, board: Board, joint: FloatArray, pawns: Sequence[Cell]) -> FloatArray:
        """:meth:`belief` from the clues' ``joint`` (flat, not changed) and the pawns."""
        if self.use_pawns and pawns:
            term = pawn_log_likelihood(
                pawns, board.shape, spread=self.pawn_spread, floor=self.pawn_floor
            )
            joint = joint * np.exp(term - term.max()).ravel()
        out: FloatArray = (joint / joint.sum()).reshape(board.shape)
        return out

    def _round_joint(
        self,
        view: View,
        clues: tuple[str, ...],
        found: Found | None = None,
    ) -> FloatArray:
        """What :meth:`belief` makes of ``clues`` (at least one) with :meth:`weights` for
        ``view``'s round before the pawns (flat, read-only), kept in :data:`ROUND_BELIEFS`:
        each pawn of the round after the first takes it (the same numbers: they are the same
        operations on the same inputs). ``found``: :meth:`_round_key`'s, when known."""
        board = view.board
        models, everyone, key = self._round_key(view, clues) if found is None else found

        def make() -> FloatArray:
            if len(clues) > 1:
                out = self._round_joint(view, clues[:-1]) * _later_reading(models, board, clues[-1])
            else:
                out = self._mixed(board, clues[0], self.weights(view))
            out.flags.writeable = False
            return out

        return ROUND_BELIEFS.get(everyone, key, make)

    def _round_key(self, view: View, clues: tuple[str, ...]) -> Found:
        """The literal models, every model (the imagined givers' too) and the key of
        :meth:`_round_joint`'s belief in :data:`ROUND_BELIEFS`."""
        return self._round_key_with(self._round_models(), view, clues)

    def _round_models(self) -> Resolved:
        """The literal models, every model (the imagined givers' too) and the imagined givers'
        sizes (:meth:`_model_groups`)."""
        groups = self._model_groups()
        return groups[0], [m for g in groups for m in g], tuple(len(g) for g in groups[1:])

    def _model_groups(self) -> list[list[ColourTermModel]]:
        """The literal models, then (when ``pragmatic``) each imagined giver's: each name looked
        up once (the default guesser's 8 specs name 3 models)."""
        specs = (self.model, *self.speakers) if self.pragmatic else (self.model,)
        named: dict[str, ColourTermModel] = {}
        return [_models(spec, named) for spec in specs]

    def _round_key_with(
        self,
        found: Resolved,
        view: View,
        clues: tuple[str, ...],
    ) -> Found:
        """:meth:`_round_key` with :meth:`_round_models`' ``found``."""
        models, everyone, sizes = found
        board = view.board
        # The weights' inputs: the giver's earlier rounds, in order (none unless pragmatic).
        seen = (
            tuple(
                (r.clues[0], r.target.row * board.cols + r.target.col)
                for r in view.history
                if r.giver == view.giver and r.clues
            )
            if self.pragmatic
            else ()
        )
        return models, everyone, (board.id, self.pragmatic, sizes, seen, clues)

    def _pawn_key(self, view: View, round_key: Hashable) -> Hashable:
        """What decides :meth:`place_pawn` besides the models: the round's belief, how pawns
        are read, the pawns (their order is the order their terms are added), the occupied
        squares and the points (the key of :data:`PAWNS`)."""
        return (
            round_key,
            self.use_pawns,
            self.pawn_spread,
            self.pawn_floor,
            view.seat,
            view.pawns,
            view.occupied,
            view.rules.points_by_distance,
        )

    def prepare_pawns(self, views: Sequence[View]) -> None:
        """Place the pawns of many games' guesses at once (each step of :meth:`place_pawn`
        done for all of them in one array, with the same operations in the same order per
        board, so the same bits), kept in :data:`PAWNS`, where :meth:`place_pawn` finds them: it
        places the same pawns with or without this. For a runner that plays many games
        together; nothing is decided here."""
        ready: dict[Hashable, list[tuple[View, Found]]] = {}
        models = self._round_models()  # the same for every view
        for view in views:
            if view.clues:
                found = self._round_key_with(models, view, view.clues)
                # One board and one set of points for each batch (the models are the same).
                group = (view.board.id, view.rules.points_by_distance)
                ready.setdefault(group, []).append((view, found))
        for members in ready.values():
            self._place_many([v for v, _ in members], [f for _, f in members])
        while len(_LATEST_PAWNS) > LATEST_PAWNS_KEPT:
            try:
                _LATEST_PAWNS.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                break

    def _place_many(self, views: list[View], found: list[Found]) -> None:
        """:meth:`prepare_pawns` for views on one board, under one set of rules."""
        board, rules = views[0].board, views[0].rules
        size, cols = board.size, board.cols
        # The rounds' beliefs kept (found in one look), the others made one by one.
        kept = ROUND_BELIEFS.cached_many(found[0][1], [key for _, _, key in found])
        joint = np.stack(
            [
                self._round_joint(v, v.clues, f) if k is None else k
                for k, v, f in zip(kept, views, found, strict=True)
            ]
        )
        others = [[c for s, c in v.pawns if s != v.seat] for v in views]
        if self.use_pawns and any(others):
            # pawn_log_likelihood's sums: zeros, plus each pawn's term in order (plus zero,
            # which changes no sum, where a view has fewer pawns).
            table = _pawn_terms(board.shape, float(self.pawn_spread), float(self.pawn_floor))
            term = np.zeros((len(views), size))
            for k in range(max(map(len, others))):
                at = [o[k].row * cols + o[k].col if len(o) > k else size for o in others]
                term += table.take(at, axis=0)
            # exp(0) is 1 for a view without pawns: its joint is unchanged, as without them.
            joint = joint * np.exp(term - term.max(axis=1, keepdims=True))
        belief = joint / joint.sum(axis=1, keepdims=True)
        points = expected_points_many(belief.reshape(len(views), *board.shape), rules)
        flat = points.reshape(len(views), size)
        for i, view in enumerate(views):
            for c in view.occupied:
                flat[i, c.row * cols + c.col] = -np.inf
        best = np.argmax(flat, axis=1)
        cells = board.cells()
        placed = [
            (self._pawn_key(view, key), PlacePawn(cells[square]))
            for view, (_, _, key), square in zip(views, found, best.tolist(), strict=True)
        ]
        PAWNS.put_many(found[0][1], placed)
        named = self._named()
        _LATEST_PAWNS.update(
            (_view_ids(view), (self, named, view, pawn))
            for view, (_, pawn) in zip(views, placed, strict=True)
        )

    def _named(self) -> bool:
        """Whether every model of this guesser is given by name (:data:`MODELS`)."""
        specs = (self.model, *self.speakers)
        return all(isinstance(m, str) for s in specs for m in (s if isinstance(s, tuple) else (s,)))

    def rank(
        self,
        board: Board,
        clues: Sequence[str],
        occupied: Sequence[Cell] | frozenset[Cell] = (),
        *,
        rules: object = None,
    ) -> list[Cell]:
        """Every empty square, best first (most expected R15 points), for use outside a game."""
        r = rules if isinstance(rules, Rules) else Rules.standard(4)
        points = expected_points(self.belief(board, clues), r)
        taken = set(occupied)
        order = np.argsort(-points, axis=None, kind="stable")
        cells = board.cells()
        return [cells[int(i)] for i in order if cells[int(i)] not in taken]

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """The empty square with the most expected points (R13, R15)."""
        latest = _LATEST_PAWNS.get(_view_ids(view))
        if latest is not None:
            guesser, named, _, pawn = latest
            if guesser is self or (named and guesser == self):
                return pawn  # placed with other games' (prepare_pawns), just now
        others = [c for s, c in view.pawns if s != view.seat]
        if view.clues:
            found = self._round_key(view, view.clues)
            kept = PAWNS.cached(found[1], self._pawn_key(view, found[2]))
            if kept is not None:  # placed with other games' (prepare_pawns)
                return kept
            # belief(view.board, view.clues, others, weights=self.weights(view)), the clues'
            # part kept for the round's other pawns.
            joint = self._round_joint(view, view.clues, found)
            belief = self._with_pawns(view.board, joint, others)
        else:
            belief = self.belief(view.board, view.clues)
        points = expected_points(belief, view.rules)
        flat = points.ravel().copy()
        cells = view.board.cells()
        for c in view.occupied:
            flat[c.row * view.board.cols + c.col] = -np.inf
        return PlacePawn(cells[int(np.argmax(flat))])


@dataclass(frozen=True, slots=True)
class EmbeddingClueGiver:
    """Also :data:`ModelClueGiver`: it listens with any colour-term model, ``default_model()``
    by default, whatever its name says.

    Chooses the target among the card's four and a clue from the vocabulary by predicting
    where the guessers will put their pawns: a listener inside the speaker (Rational Speech
    Acts) places each pawn by the literal belief the clue gives, and the giver takes the target
    and clue with the most expected R16 points. The second clue (one word, or two of the best
    words together) aims the second guesses at the frame around the pawns already placed; with
    ``competitive`` it passes when the second guesses would help the others more than the giver
    (always, in a tie-breaker, where the giver scores nothing). Every clue passes
    :func:`~huescues.validate_clue` (R18-R22) before it is given.
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
    #: (:func:`attested`: a colour name, a modifier before a known word, a word before a
    #: colour term).
    attested_only: bool = True

    def prepare(self, board: Board, rules: Rules) -> None:
        """Load the models and read the vocabulary on ``board`` with each, so that the game's
        decisions do not; cheap once done, and it changes no decision."""
        models = _models(self.model)
        self._by_square(board)
        for model in models:
            # The second clue reads the first one as the guessers did: with the shipped words.
            board_reading(model, board)

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """The card square the best legal first clue reaches best (R8)."""
        assert view.card is not None, "only the clue giver sees the card"
        board = view.board
        words, by_square, _ = self._by_square(board)
        said = self._said(words, view)
        if len(said) == len(words):
            # Every word is said (a small vocabulary): the first clue will be the random
            # agent's, so no card square is better than another.
            return ChooseTarget(0)
        # Each card square's best unsaid word (the frame chances are never below zero).
        rows = by_square.take([c.row * board.cols + c.col for c in view.card], axis=0)
        rows[:, said] = -np.inf
        return ChooseTarget(int(np.argmax(rows.max(axis=1))))

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """The legal word with the most expected pawns in the target's frame (R9, R16)."""
        target = _target(view)
        words = self._by_square(view.board)[0]
        square = target.row * view.board.cols + target.col
        for order in self._first_orders(view.board, square):
            for i in order:
                clue = self._legal(words[int(i)], view, second=False)
                if clue is not None:
                    return clue
        return RandomAgent().give_clue(view, rng)

    def _first_orders(self, board: Board, square: int) -> Iterator[NDArray[np.intp]]:
        """:func:`_best_first` of the square's frame chances (k = 16), its first order kept in
        :data:`FIRST_ORDERS`: it depends only on the square's column of the frame table."""
        _, by_square, _ = self._by_square(board)
        column = by_square[square]
        if len(column) <= 16:
            yield from _best_first(column, 16)
            return

        def make() -> tuple[tuple[str, ...] | None, NDArray[np.intp]]:
            few = next(_best_first(column, 16))
            few.flags.writeable = False
            return self.words, few

        key = (board.id, words_key(self.words), square)
        yield FIRST_ORDERS.get(_models(self.model), key, make)[1]
        yield np.argsort(-column, kind="stable")

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """One or two words that draw the second guesses into the frame, or a pass when that
        is worth more (R11)."""
        target = _target(view)
        board = view.board
        models = _models(self.model)
        empty = np.ones(board.size, dtype=bool)
        for c in view.occupied:
            empty[c.row * board.cols + c.col] = False
        frame_idx, ring_pts = _near(target, board, view.rules.points_by_distance)
        firsts = [_log_l0(m, board, view.clues[0]).ravel() for m in models]

        def values_of_phrases(phrases: list[str], *, exact: bool = True) -> FloatArray:
            """:func:`value_of` for each phrase alone, computed together (the same sums in the
            same order: each phrase's product with the points is its own, as before); from the
            batched readings unless ``exact``."""
            total: FloatArray = np.zeros(len(phrases))
            for model, first in zip(models, firsts, strict=True):
                if exact:
                    rows = np.stack([_log_l0(model, board, ph).ravel() for ph in phrases])
                else:
                    rows = _phrases_log_l0(model, board, phrases)
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
        readings = [board_reading(m, board, self.words) for m in models]
        words = readings[0].words
        legal = legal_mask(words, view, second=True)
        # The best single words: every word screened at once (float32, error bounded), the
        # few that may be among the best then valued exactly as before.
        shortlist = self._screen(view, readings, firsts, empty, ring_pts, legal, true_mask)
        exact = self._worth_of_words(view, readings, firsts, empty, shortlist)
        candidates: list[tuple[float, str]] = []
        singles = []
        for j in np.argsort(-exact, kind="stable"):
            word = words[int(shortlist[int(j)])]
            if legal[int(shortlist[int(j)])]:
                candidates.append((float(exact[int(j)]), word))
                singles.append(word)
                if len(singles) >= max(1, self.pair_from):
                    break
        limit = view.rules.second_clue_words
        phrases = [
            f"{a} {b}"
            for a_i, a in enumerate(singles if limit >= 2 else ())
            for b in singles[a_i + 1 :]
            # Whether people say it first (kept per phrase, and most pairs are not), then the
            # clue rules: both are pure, so the order changes no phrase.
            if (true_mask is None or attested(f"{a} {b}"))
            and self._legal(f"{a} {b}", view, second=True) is not None
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

    def _worth_of_words(
        self,
        view: View,
        readings: list[BoardReading],
        firsts: list[FloatArray],
        empty: NDArray[np.bool_],
        shortlist: NDArray[np.intp],
        *,
        alike: bool = True,
    ) -> FloatArray:
        """Each shortlisted word's worth as a second clue, averaged over the listener models.
        Words that every model reads alike (``alike``; the naming data reads hundreds of words
        it does not know the same way) share their numbers but for the product with the
        points, made for every word in its place: its bits depend on a row's place among the
        rows, and the order of equal words on them."""
        board = view.board
        frame_idx, ring_pts = _near(_target(view), board, view.rules.points_by_distance)
        n = len(readings[0].words)
        models = _models(self.model)
        # A short list is valued as it is (looking for alike words costs more than they save).
        few = len(shortlist) <= _ALIKE_FROM
        found = None if few or not alike else _alike_places(models, board, readings, shortlist)
        first_of, place = (shortlist, None) if found is None else (shortlist[found[0]], found[1])
        total: FloatArray = np.zeros(len(shortlist))
        for first, r in zip(firsts, readings, strict=True):
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
        out: FloatArray = total / len(readings)
        return out

    def prepare_second_clues(self, views: Sequence[View]) -> None:
        """Make the screening's word totals for many games' second clues at once, model by
        model: each game's own vector product (:func:`_screen_totals`, the same bits as
        :meth:`give_second_clue` makes alone), made one after another while the model's 6.5 MB
        table is in the cache (alone, each game reads it from memory). Not one matrix product
        for all the games: it is no faster, and its sums' other order needed a check, which
        sent 18% of the screenings back to be made alone. :meth:`give_second_clue` then finds
        its totals, and gives the same clue or pass as without them. For a runner that plays
        many games together; nothing is decided here."""
        ready = [v for v in views if v.target is not None and v.clues]
        for board_id in dict.fromkeys(v.board.id for v in ready):
            same = [v for v in ready if v.board.id == board_id]
            if len(same) < 2:
                continue
            board = same[0].board
            empties = []
            for view in same:
                empty = np.ones(board.size, dtype=bool)
                for c in view.occupied:
                    empty[c.row * board.cols + c.col] = False
                empties.append(empty)
            for model in _models(self.model):
                reading = board_reading(model, board, self.words)
                table = _belief32(model, board, reading)
                for view, empty in zip(same, empties, strict=True):
                    # The weights as _screen makes them (the same operations, so the same bits).
                    first = _log_l0(model, board, view.clues[0]).ravel()
                    w = (np.exp(first - first.max()) * empty).astype(np.float32)
                    SCREEN_TOTALS.get(
                        (model,),
                        _totals_key(board, reading, w),
                        functools.partial(_screen_totals, reading.words, w, table),
                    )

    def _screen(
        self,
        view: View,
        readings: list[BoardReading],
        firsts: list[FloatArray],
        empty: NDArray[np.bool_],
        ring_pts: FloatArray,
        legal: NDArray[np.bool_],
        allowed: NDArray[np.bool_] | None = None,
    ) -> NDArray[np.intp]:
        """The indices (ascending) of every word that may be among the ``pair_from`` best legal
        single second clues. Each word's worth is estimated in float32 from three sums over the
        squares (vector products per model) with an error bound of its own; a word is kept when
        its worth may reach the ``pair_from``-th best legal word's least possible worth. Words
        whose estimate is not trustworthy (their joint belief underflows float32) are kept.

        The largest sum (each word's total weight over the board) may have been made for a
        batch of games (:meth:`prepare_second_clues`): the same product, so the same bits."""
        models = _models(self.model)
        board = view.board
        weights = [np.exp(first - first.max()) * empty for first in firsts]
        totals = []
        for m, r, w in zip(models, readings, weights, strict=True):
            w32 = w.astype(np.float32)
            kept = _kept_totals(m, board, r, w32)
            totals.append(
                kept
                if kept is not None
                else _screen_totals(r.words, w32, _belief32(m, board, r))[1]
            )
        return self._shortlist(view, readings, weights, totals, ring_pts, legal, allowed)

    def _shortlist(
        self,
        view: View,
        readings: list[BoardReading],
        weights: list[FloatArray],
        totals: list[FloatArray],
        ring_pts: FloatArray,
        legal: NDArray[np.bool_],
        allowed: NDArray[np.bool_] | None,
    ) -> NDArray[np.intp]:
        """:meth:`_screen` from each model's word totals (:func:`_screen_totals`)."""
        # Only allowed words can be kept: past the vector products (over every word, as they
        # always are) each word's numbers are its own, so the rest looks at those words alone.
        at = None if allowed is None else np.flatnonzero(allowed)
        n = len(readings[0].words) if at is None else len(at)
        # Only the squares within the points' reach of the target add to the frame and points.
        target = _target(view)
        near, in_frame = _reach(
            target.row, target.col, view.board.shape, view.rules.points_by_distance
        )
        # The worth is own * in_frame - others * points (see _value): both weights, as bounds.
        n_guessers = len(view.guessers)
        own = float(view.rules.giver_points_per_pawn) * n_guessers
        others = n_guessers / max(1, view.rules.n_players - 1)
        approx = np.zeros(n)
        error = np.zeros(n)
        unsure = np.zeros(n, dtype=bool)
        board = view.board
        for model, reading, v, z in zip(
            _models(self.model), readings, weights, totals, strict=True
        ):
            # weight(w, s) ∝ L0(s | w) exp(first(s)) over the empty squares (v): its total (z),
            # its mass in the frame and its expected points, each a sum of non-negative terms.
            table = _belief32(model, board, reading)  # squares x words
            part = table.take(near, axis=0)  # the same rows as table[near], taken sooner
            frame_mass = (v[near] * in_frame).astype(np.float32) @ part
            points = (v[near] * ring_pts[near]).astype(np.float32) @ part
            if at is not None:
                frame_mass, points, z = frame_mass[at], points[at], z[at]
            unsure |= ~(z > _SURE_TOTAL)
            safe = np.where(unsure, 1.0, z)
            frame_share, points_share = frame_mass / safe, points / safe
            approx += self._value(view, frame_share, points_share)
            # Each sum is within _REL_ERROR of its exact value, so each ratio within 2.5 times.
            error += 2.5 * _REL_ERROR * (own * frame_share + others * points_share)
        approx /= len(readings)
        # What underflows adds at most this much to a ratio whose total is sure.
        error = error / len(readings) + (own + others * float(ring_pts.max())) * 1e-9
        lower = np.where(unsure, -np.inf, approx - error)
        # The pair_from-th largest least worth among legal words: the best few first (most
        # words are legal), all of them if need be.
        keep = max(1, self.pair_from)
        legal_here = legal if at is None else legal[at]
        threshold = _kth_legal(lower, keep, legal_here)
        keep_mask = (approx + error >= threshold) | unsure
        out: NDArray[np.intp] = np.flatnonzero(keep_mask)
        return out if at is None else at[out]

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
        models = _models(self.model)

        def make() -> tuple[tuple[str, ...], NDArray[np.float32], NDArray[np.float32]]:
            words, frame = frame_table(models, board, self.words)
            by_square = np.ascontiguousarray(frame.reshape(len(words), -1).T)
            peaks = frame.reshape(len(words), -1).max(axis=1)
            for a in (by_square, peaks):
                a.flags.writeable = False
            return words, by_square, peaks

        # Without words of its own, the models' language chooses the vocabulary (held in the
        # value, so that its id stays a safe key).
        return FRAME_BY_SQUARE.get(models, (board.id, words_key(self.words)), make)

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
        index = _word_index(words)
        said = {i for c in view.clues_given for i in index.get(normalise_clue(c), ())}
        return sorted(said)

    def _legal(self, text: str, view: View, *, second: bool) -> GiveClue | None:
        try:
            validate_clue(text, second=second, rules=view.rules, previous=view.clues_given)
        except IllegalClue:
            return None
        return GiveClue(text)


#: How large a share of its best frame's chance a word's reading must give the target's frame
#: for the word to be a second clue (by design: a quarter).
TRUE_SHARE = 0.5

#: Each vocabulary's frame chances a row per square, and its best frame chance per word, per
#: tuple of listener models while they live, keyed by board id and the giver's own vocabulary
#: (``None``: the models' shipped one; with the vocabulary, which keeps its id a safe key);
#: 7 MB each on the standard board.
FRAME_BY_SQUARE: ModelMemo[tuple[tuple[str, ...], NDArray[np.float32], NDArray[np.float32]]] = (
    ModelMemo(per_models=4)
)


#: The first clue's best words for a target square, best first (see
#: :meth:`EmbeddingClueGiver._first_orders`), per tuple of listener models, keyed by board id,
#: the giver's own vocabulary (held in the value, so its id stays a safe key) and the square:
#: at most a board's squares' worth per tuple (about 130 bytes each).
FIRST_ORDERS_KEPT = 1024
FIRST_ORDERS: ModelMemo[tuple[tuple[str, ...] | None, NDArray[np.intp]]] = ModelMemo(
    per_models=FIRST_ORDERS_KEPT
)


def _best_first(values: NDArray[np.floating], k: int) -> Iterator[NDArray[np.intp]]:
    """The indices of ``values``, largest first and ties in index order (a stable sort of the
    negated values): first only those at least the ``k``-th largest, then all of them."""
    if k < len(values):
        kth = np.partition(values, len(values) - k)[len(values) - k]
        few = np.flatnonzero(values >= kth)
        yield few[np.argsort(-values[few], kind="stable")]
    yield np.argsort(-values, kind="stable")


#: Each vocabulary's word index, by the vocabulary's id (the value keeps the tuple, so the id
#: stays its own); a few vocabularies at most. Guarded by a lock: bots decide in threads (the
#: web), and dropping the oldest (``next(iter(...))``, then ``pop``) is not atomic.
_WORD_INDEX: dict[int, tuple[tuple[str, ...], dict[str, list[int]]]] = {}
_WORD_INDEX_LOCK = threading.Lock()


def _word_index(words: tuple[str, ...]) -> dict[str, list[int]]:
    """The positions of each word in ``words``."""
    with _WORD_INDEX_LOCK:
        kept = _WORD_INDEX.get(id(words))
        if kept is None or kept[0] is not words:
            index: dict[str, list[int]] = {}
            for i, w in enumerate(words):
                index.setdefault(w, []).append(i)
            kept = (words, index)
            if len(_WORD_INDEX) >= 8:
                _WORD_INDEX.pop(next(iter(_WORD_INDEX)))
            _WORD_INDEX[id(words)] = kept
        return kept[1]


def _target(view: View) -> Cell:
    if view.target is None:
        raise ValueError("only the clue giver, after choosing a target, gives clues (R8)")
    return view.target


#: A word's float32 screening is trusted when its weights' total is at least this (far above
#: float32's smallest normal, so that what underflows cannot matter).
_SURE_TOTAL = 1e-25
#: A bound on the relative error of the screening's float32 sums over a board's squares
#: (rounding of exp and of up to a thousand products and additions).
_REL_ERROR = 1e-4

#: exp(log L0) of a vocabulary in float32 per model, kept while the model lives, keyed by board
#: id and vocabulary (with the vocabulary, which keeps its id a safe key); 7 MB each on the
#: standard board.
BELIEF32: ModelMemo[tuple[tuple[str, ...], NDArray[np.float32]]] = ModelMemo(per_models=4)


def _belief32(model: ColourTermModel, board: Board, reading: BoardReading) -> NDArray[np.float32]:
    """L0(square | word) for every square (rows) and word of ``reading`` (``model``'s on
    ``board``), float32: a row per square, so that a few squares' rows are quick to take."""
    n = len(reading.words)
    return BELIEF32.get(
        (model,),
        (board.id, words_key(reading.words)),
        lambda: (reading.words, np.ascontiguousarray(np.exp(reading.log_belief.reshape(n, -1)).T)),
    )[1]


#: Each word's total weight in a second clue's screening (see :meth:`EmbeddingClueGiver._screen`)
#: made for a batch of games by :meth:`EmbeddingClueGiver.prepare_second_clues`, per model while
#: it lives, keyed by board id, vocabulary and the weights' bytes (the screening's whole input):
#: at most this many per model (27 KB each on the standard board's vocabulary).
SCREEN_TOTALS_KEPT = 256
SCREEN_TOTALS: ModelMemo[tuple[tuple[str, ...], FloatArray]] = ModelMemo(
    per_models=SCREEN_TOTALS_KEPT
)


def _screen_totals(
    words: tuple[str, ...], weights32: NDArray[np.float32], table: NDArray[np.float32]
) -> tuple[tuple[str, ...], FloatArray]:
    """The vocabulary, and each word's total weight over the board: one float32 vector product
    (``weights32`` by the table of :func:`_belief32`). The one way the screening's totals are
    made, for one game or a batch's games: the same call on the same numbers, so the same bits
    (a matrix product for many games at once would sum in another order)."""
    return words, (weights32 @ table).astype(np.float64)


#: A shortlist this long or shorter is valued without looking for words read alike.
_ALIKE_FROM = 32
#: Which words of a vocabulary a model reads alike (the same bits), per model while it lives,
#: keyed by board id and vocabulary (kept with the value): each word's first alike (an index).
ALIKE: ModelMemo[tuple[tuple[str, ...], NDArray[np.intp]]] = ModelMemo(per_models=4)


def _first_alike(reading: BoardReading) -> tuple[tuple[str, ...], NDArray[np.intp]]:
    """The vocabulary, and for each of its words the first whose reading has the same bytes."""
    rows = np.ascontiguousarray(reading.log_belief.reshape(len(reading.words), -1))
    as_bytes = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, inverse = np.unique(as_bytes, return_index=True, return_inverse=True)
    out: NDArray[np.intp] = first[inverse.ravel()]
    out.flags.writeable = False
    return reading.words, out


def _alike_places(
    models: list[ColourTermModel],
    board: Board,
    readings: list[BoardReading],
    shortlist: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp]] | None:
    """The places in ``shortlist`` of the first of each set of words that every model reads
    alike, and each word's set (an index into those places); ``None`` when no two are."""
    n = len(readings[0].words)
    firsts = [
        ALIKE.get((m,), (board.id, words_key(r.words)), functools.partial(_first_alike, r))[1]
        for m, r in zip(models, readings, strict=True)
    ]
    if n ** len(firsts) < 2**62:
        # One number per word for its first alike in every model (a digit per model, base n).
        kinds = np.zeros(len(shortlist), dtype=np.int64)
        for first in firsts:
            kinds = kinds * n + first.take(shortlist)
    else:
        rows = np.stack([first.take(shortlist) for first in firsts], axis=1)
        kinds = np.unique(rows, axis=0, return_inverse=True)[1].ravel()
    _, first_place, place = np.unique(kinds, return_index=True, return_inverse=True)
    if len(first_place) == len(shortlist):
        return None
    return first_place, place.ravel()


def _totals_key(board: Board, reading: BoardReading, weights32: NDArray[np.float32]) -> Hashable:
    return (board.id, words_key(reading.words), weights32.tobytes())


def _kept_totals(
    model: ColourTermModel, board: Board, reading: BoardReading, weights32: NDArray[np.float32]
) -> FloatArray | None:
    """The word totals a batch made for these weights, if kept."""
    kept = SCREEN_TOTALS.cached((model,), _totals_key(board, reading, weights32))
    return None if kept is None else kept[1]


def _kth_legal(values: FloatArray, k: int, legal: NDArray[np.bool_]) -> float:
    """The ``k``-th largest of ``values`` (``-inf`` for words left out) among the words
    ``legal`` marks (one flag per value), or ``-inf`` when fewer are. A value, so the order in
    which ties are met changes nothing."""
    kept = values[legal & (values > -np.inf)]
    n = len(kept)
    if n < k:
        return -np.inf
    # A sort, not a partition: the screening's values have many ties (words read alike), on
    # which a partition takes ten times as long.
    return float(np.sort(kept)[n - k])


def _near(
    target: Cell, board: Board, points: tuple[int, ...]
) -> tuple[NDArray[np.intp], FloatArray]:
    """The flat indices of the target's frame (R4, clipped, R5), and every square's R15 points
    against the target (read-only: kept for every round with this target)."""
    return _near_square(target.row, target.col, board.shape, points)


@functools.lru_cache(maxsize=1024)
def _near_square(
    row: int, col: int, shape: tuple[int, int], points: tuple[int, ...]
) -> tuple[NDArray[np.intp], FloatArray]:
    rows, cols = np.indices(shape)
    d = np.maximum(np.abs(rows - row), np.abs(cols - col)).ravel()
    table = np.array([*points, 0], dtype=np.float64)
    pts = table[np.minimum(d, len(points))]
    frame = np.flatnonzero(d <= 1)
    for a in (frame, pts):
        a.flags.writeable = False
    return frame, pts


@functools.lru_cache(maxsize=1024)
def _reach(
    row: int, col: int, shape: tuple[int, int], points: tuple[int, ...]
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """The flat indices of the squares that earn points against the target (R15), and which
    of them are in its frame (read-only: kept for every second clue with this target)."""
    frame_idx, ring_pts = _near_square(row, col, shape, points)
    near = np.flatnonzero(ring_pts > 0)
    frame_mask = np.zeros(len(ring_pts), dtype=bool)
    frame_mask[frame_idx] = True
    in_frame = frame_mask[near]
    for a in (near, in_frame):
        a.flags.writeable = False
    return near, in_frame


#: :class:`EmbeddingGuesser` by a name that does not mislead: it reads clues with any
#: colour-term model (``default_model()`` by default), not only the word vectors.
ModelGuesser = EmbeddingGuesser
#: :class:`EmbeddingClueGiver` by a name that does not mislead: it listens with any colour-term
#: model (``default_model()`` by default), not only the word vectors.
ModelClueGiver = EmbeddingClueGiver


@dataclass(frozen=True, slots=True)
class OracleGuesser:
    """An upper bound, not a fair entrant: it is shown the target (``sees_target``) and places
    its pawn on it, or on the best empty square next to it (R15). The game loop gives the
    target only to agents that declare ``sees_target``."""

    sees_target: bool = field(default=True, init=False)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """The target, or the empty square with the most points against it."""
        target = _target(view)
        rows, cols = np.indices(view.board.shape)
        d = np.maximum(np.abs(rows - target.row), np.abs(cols - target.col))
        cells = view.board.cells()
        order = np.argsort(d, axis=None, kind="stable")
        for i in order:
            cell = cells[int(i)]
            if cell not in view.occupied:
                return PlacePawn(cell)
        raise RuntimeError("no empty square is left (R13)")


@dataclass(frozen=True, slots=True)
class Player:
    """One seat playing both roles: ``giver`` gives the clues, ``guesser`` places the pawns."""

    giver: ClueGiver = field(default_factory=EmbeddingClueGiver)
    guesser: Guesser = field(default_factory=EmbeddingGuesser)

    @property
    def sees_target(self) -> bool:
        """Whether the guesser is an oracle that is shown the target (never a fair entrant)."""
        return bool(getattr(self.guesser, "sees_target", False))

    def prepare(self, board: Board, rules: Rules) -> None:
        """Prepare both halves for a game on ``board`` (those that have a ``prepare``)."""
        halves: list[object] = [self.giver, self.guesser]
        for half in halves[: 1 if halves[1] is halves[0] else 2]:
            prepare = getattr(half, "prepare", None)
            if prepare is not None:
                prepare(board, rules)

    def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
        """The giver's choice (R8)."""
        return self.giver.choose_target(view, rng)

    def give_clue(self, view: View, rng: np.random.Generator) -> GiveClue:
        """The giver's first clue (R9)."""
        return self.giver.give_clue(view, rng)

    def give_second_clue(self, view: View, rng: np.random.Generator) -> GiveClue | Pass:
        """The giver's second clue or pass (R11)."""
        return self.giver.give_second_clue(view, rng)

    def prepare_second_clues(self, views: Sequence[View]) -> None:
        """The giver's work for many games' second clues at once, if it does any
        (:meth:`EmbeddingClueGiver.prepare_second_clues`): the clues stay the same."""
        prepare = getattr(self.giver, "prepare_second_clues", None)
        if prepare is not None:
            prepare(views)

    def prepare_pawns(self, views: Sequence[View]) -> None:
        """The guesser's work for many games' pawns at once, if it does any
        (:meth:`EmbeddingGuesser.prepare_pawns`): the pawns stay the same."""
        prepare = getattr(self.guesser, "prepare_pawns", None)
        if prepare is not None:
            prepare(views)

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """The guesser's pawn (R10, R12)."""
        return self.guesser.place_pawn(view, rng)


def default_agent(language: str = "en") -> Player:
    """The library's best player of both roles (settings chosen in ``docs/agents.md``): a new
    one each call, so that no two seats or tables share a player (what it reads from the
    models is shared, kept per model in the memos).

    ``language``: the language of its clues and of the clues it reads, ``"en"`` (the default)
    or ``"es"`` (anything else is a ValueError). The Spanish player is the same kind of player
    on the same models, each reading Spanish through the shipped Spanish-to-English table
    (:data:`SPANISH_GIVER_MODELS`), with the Spanish vocabulary (``clue_vocabulary("es")``),
    whose words pass the Spanish clue rules; its second clue is one word (no two-word clues:
    which Spanish pairs people say is not known to the library). See ``docs/languages.md``."""
    if language == "es":
        return Player(
            EmbeddingClueGiver(model=SPANISH_GIVER_MODELS, pair_from=1),
            EmbeddingGuesser(
                model=SPANISH_GUESSER_MODELS,
                pragmatic=True,
                speakers=(SPANISH_GIVER_MODELS, "naming-es", "default-es", "embedding-es"),
            ),
        )
    if language != "en":
        raise ValueError(f"unknown language {language!r}: the default player speaks 'en', 'es'")
    return Player(
        EmbeddingClueGiver(model=DEFAULT_GIVER_MODELS, pair_from=DEFAULT_PAIR_FROM),
        EmbeddingGuesser(model=DEFAULT_GUESSER_MODELS, pragmatic=True),
    )


def spanish_default_agent() -> Player:
    """``default_agent("es")``, by a name that takes no arguments (a tournament's or the
    catalogue's factory)."""
    return default_agent("es")


def combined_agent() -> Player:
    """Both roles on ``default_model()`` alone: one listener model each, no ensembles, a literal
    guesser (:class:`EmbeddingClueGiver` and :class:`EmbeddingGuesser` as they come). The name
    is the default players' before the ensembles, when the default model was the combined one;
    the players read with whatever ``default_model()`` is now (the blend)."""
    return Player(EmbeddingClueGiver(), EmbeddingGuesser())


def naming_agent() -> Player:
    """A baseline: the same players on the naming data alone (no word vectors)."""
    return Player(EmbeddingClueGiver(model="naming"), EmbeddingGuesser(model="naming"))


def embedding_agent() -> Player:
    """The same players on word vectors alone (no naming data)."""
    return Player(EmbeddingClueGiver(model="embedding"), EmbeddingGuesser(model="embedding"))


def oracle_agent() -> Player:
    """The upper bound: :func:`combined_agent`'s clue giver (``default_model()`` alone) and an
    :class:`OracleGuesser`."""
    return Player(EmbeddingClueGiver(), OracleGuesser())
