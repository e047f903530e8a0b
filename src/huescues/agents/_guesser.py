"""The guesser built on colour-term models: it places its pawn on the empty square with the most
expected R15 points under a belief about the target, built from the round's clues, the other
pawns and (when pragmatic) the givers it imagines. It can place many games' pawns at once
(:meth:`ModelGuesser.place_pawns`), the same pawns as one by one."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from huescues.engine import Action, Board, Cell, PlacePawn, Rules, View
from huescues.language import ColourTermModel

from ._belief import later_reading, log_l0, pawn_terms
from ._crowd import CrowdReading, check_crowd_reading, crowd_belief, crowd_reading_of
from ._listener import posterior
from ._models import DEFAULT_SPEAKERS, Models, models_of
from ._points import best_squares, expected_points, kept_kernel, ring_sums
from ._readings import Kind, Readings
from ._speaker import log_pragmatic, speaker_reading
from ._vocabulary import board_reading

__all__ = ["PRAGMATIC_SHARE", "EmbeddingGuesser", "ModelGuesser"]

FloatArray = NDArray[np.float64]

#: A pragmatic guesser's prior weight on the imagined givers' readings (the rest is literal):
#: chosen by self-play against the naming players, docs/knowledge.md (0.2 before issue 18).
PRAGMATIC_SHARE = 0.8
#: How much of an imagined giver's reading is the literal one, for words it would not choose.
_LITERAL_SHARE = 0.2

#: A guesser's readings of a first clue, per tuple of its models (literal, then imagined givers'),
#: keyed by board id, clue and the imagined givers' sizes.
GUESSER_READINGS: Kind[tuple[FloatArray, ...]] = Kind("a first clue read by a guesser", 128)
#: A guesser's belief in a round before the pawns (its readings of the first clue mixed with
#: its weights for the round's giver, times the later clues' readings: the same for every pawn
#: of the round), per tuple of its models, keyed by board id, what the weights come from (the
#: giver's earlier first clues and targets) and the clues. At most this many per tuple (4 KB
#: each on the standard board): a lockstep worker's 100 games keep two each between turns.
ROUND_BELIEFS: Kind[FloatArray] = Kind("a round's belief", 512)
#: A round's belief read for the crowd (:attr:`ModelGuesser.crowd_reading`), keyed as
#: :data:`ROUND_BELIEFS` and by the reading: every pawn of the round reads it again.
CROWD_ROUNDS: Kind[FloatArray] = Kind("a round's belief read for the crowd", 512)

#: What :meth:`ModelGuesser._round_key` finds: the literal models, every model (the imagined
#: givers' too) and the key of the round's belief in :data:`ROUND_BELIEFS`.
Found = tuple[list[ColourTermModel], list[ColourTermModel], Hashable]
#: What :meth:`ModelGuesser._round_models` finds: the literal models, every model and the
#: imagined givers' sizes.
Resolved = tuple[list[ColourTermModel], list[ColourTermModel], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class ModelGuesser:
    """Also :data:`EmbeddingGuesser` (its name before it was known to read with any model): it
    reads clues with any colour-term model, ``default_model()`` by default.

    Places its pawn where the expected R15 points are highest (frame clipped at the edges,
    R5), under a posterior over the target built from the round's clues (both clues combined for
    the second guess).

    ``use_pawns``: the other players' pawns this round count as noisy readings of the clues
    (``pawn_spread`` squares of fall-off, ``pawn_floor`` chance a pawn says nothing).
    ``pragmatic``: reasons about the clue giver (Rational Speech Acts). Besides reading the first
    clue literally with each of its models, it imagines the clue givers in ``speakers`` and asks
    which squares each would have chosen to clue with that word (a pragmatic listener); it weighs
    these readings by how well each explained the same giver's earlier targets in the game.
    ``temperature`` and ``smoothing``: how its belief is read for the crowd (issue 34): the
    clues' belief raised to ``temperature`` (below 1: broader) and smoothed by a Gaussian of
    ``smoothing`` squares, so that it spreads as people's picks spread; ``None``: the pair fitted
    for its models (:data:`~huescues.agents.CROWD_READINGS`; 1 and 0, its models' own reading,
    when none is). It places where the expected R15 points against that spread are highest.
    ``store``: the :class:`~huescues.agents.Readings` it keeps what it reads in (``None``, the
    default: the process's shared one); it changes no pawn, only how soon one is placed.
    """

    model: Models = "default"
    use_pawns: bool = True
    pragmatic: bool = False
    pawn_spread: float = 2.5
    pawn_floor: float = 0.5
    #: The clue givers a pragmatic guesser imagines: each the listener models of a
    #: :class:`~huescues.agents.ModelClueGiver` (several averaged, or a
    #: :class:`~huescues.agents.Pooled`: pooled as the giver's ``pool`` pools them). By default
    #: :data:`~huescues.agents.DEFAULT_SPEAKERS`: a giver averaging the default giver's three
    #: models and a giver on each model alone.
    speakers: tuple[Models, ...] = DEFAULT_SPEAKERS
    temperature: float | None = None
    smoothing: float | None = None
    store: Readings | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        fitted = crowd_reading_of(self.model)
        check_crowd_reading(
            fitted[0] if self.temperature is None else self.temperature,
            fitted[1] if self.smoothing is None else self.smoothing,
        )

    @property
    def _kept(self) -> Readings:
        return self.store if self.store is not None else Readings.shared()

    @property
    def crowd_reading(self) -> CrowdReading:
        """The (temperature, smoothing) its belief is read with: its own, else the pair fitted
        for its models."""
        fitted = crowd_reading_of(self.model)
        return (
            float(fitted[0] if self.temperature is None else self.temperature),
            float(fitted[1] if self.smoothing is None else self.smoothing),
        )

    def prepare(self, board: Board, rules: Rules) -> None:
        """Load the models and read the vocabulary on ``board`` with each (and, when
        ``pragmatic``, build the imagined givers), so that the game's decisions do not; cheap
        once done, and it changes no decision."""
        kept = self._kept
        for model in models_of(self.model, store=kept):
            board_reading(kept, model, board)
        if self.pragmatic:
            for spec in self.speakers:
                speaker_reading(kept, models_of(spec, store=kept), board)

    def readings(self, board: Board, clue: str) -> list[FloatArray]:
        """The ways this guesser reads a first clue, each a distribution over the squares (flat):
        literally with each of its models, then (when ``pragmatic``) as each imagined giver
        would have meant it."""
        models, *groups = self._model_groups()
        # Every later decision of the round (and the weights of later rounds) reads it again.
        key = (board.id, clue, tuple(len(g) for g in groups))
        everyone = [*models, *(m for g in groups for m in g)]
        kept = self._kept.get(
            everyone, GUESSER_READINGS, key, lambda: self._read(board, clue, models, groups)
        )
        return list(kept)

    def _read(
        self,
        board: Board,
        clue: str,
        models: list[ColourTermModel],
        groups: list[list[ColourTermModel]],
    ) -> tuple[FloatArray, ...]:
        """:meth:`readings`, made (read-only arrays, as they are kept)."""
        kept = self._kept
        literal = [posterior([log_l0(kept, m, board, clue)]).ravel() for m in models]
        out = list(literal)
        if groups:
            plain = np.mean(literal, axis=0)
            for group in groups:
                log_l1 = log_pragmatic(speaker_reading(kept, group, board), clue)
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
        n = len(models_of(self.model, store=self._kept))
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
        models = models_of(self.model, store=self._kept)
        if weights is None:
            weights = np.zeros(len(self.readings(board, clues[0])))
            weights[: len(models)] = 1.0 / len(models)
        joint = self._mixed(board, clues[0], weights)
        for clue in clues[1:]:
            joint = joint * later_reading(self._kept, models, board, clue)
        return self._with_pawns(board, self._for_crowd(board, joint), pawns)

    def _for_crowd(self, board: Board, joint: FloatArray) -> FloatArray:
        """The clues' ``joint`` (flat) read for the crowd (:attr:`crowd_reading`)."""
        return crowd_belief(self._kept, joint, board.shape, self.crowd_reading)

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
        """:meth:`belief` from the clues' ``joint`` (flat, not changed) and the pawns: each
        pawn's term of :func:`pawn_log_likelihood` added in order (from :func:`pawn_terms`:
        the same sums)."""
        if self.use_pawns and pawns:
            table = pawn_terms(
                self._kept, board.shape, float(self.pawn_spread), float(self.pawn_floor)
            )
            term = np.zeros(board.size)
            for p in pawns:
                term += table[p.row * board.cols + p.col]
            joint = joint * np.exp(term - term.max())
        out: FloatArray = (joint / joint.sum()).reshape(board.shape)
        return out

    def _round_joint(
        self,
        view: View,
        clues: tuple[str, ...],
        found: Found | None = None,
    ) -> FloatArray:
        """What :meth:`belief` makes of ``clues`` (at least one) with :meth:`weights` for
        ``view``'s round before the pawns (flat, read-only), kept (:data:`ROUND_BELIEFS`):
        each pawn of the round after the first takes it (the same numbers: they are the same
        operations on the same inputs). ``found``: :meth:`_round_key`'s, when known."""
        board = view.board
        models, everyone, key = self._round_key(view, clues) if found is None else found

        def make() -> FloatArray:
            if len(clues) > 1:
                out = self._round_joint(view, clues[:-1]) * later_reading(
                    self._kept, models, board, clues[-1]
                )
            else:
                out = self._mixed(board, clues[0], self.weights(view))
            out.flags.writeable = False
            return out

        return self._kept.get(everyone, ROUND_BELIEFS, key, make)

    def _crowd_round(
        self, view: View, clues: tuple[str, ...], found: Found | None = None
    ) -> FloatArray:
        """:meth:`_round_joint` read for the crowd (flat, read-only), kept
        (:data:`CROWD_ROUNDS`): the same numbers as :meth:`_for_crowd` of it."""
        reading = self.crowd_reading
        if reading == (1.0, 0.0):
            return self._round_joint(view, clues, found)
        found = self._round_key(view, clues) if found is None else found
        known = found

        def make() -> FloatArray:
            out = self._for_crowd(view.board, self._round_joint(view, clues, known))
            out.flags.writeable = False
            return out

        return self._kept.get(found[1], CROWD_ROUNDS, (found[2], reading), make)

    def _round_key(self, view: View, clues: tuple[str, ...]) -> Found:
        """The literal models, every model (the imagined givers' too) and the key of
        :meth:`_round_joint`'s belief."""
        return self._round_key_with(self._round_models(), view, clues)

    def _round_models(self) -> Resolved:
        """The literal models, every model (the imagined givers' too) and the imagined givers'
        sizes (:meth:`_model_groups`)."""
        groups = self._model_groups()
        return groups[0], [m for g in groups for m in g], tuple(len(g) for g in groups[1:])

    def _model_groups(self) -> list[list[ColourTermModel]]:
        """The literal models, then (when ``pragmatic``) each imagined giver's: each name looked
        up once (the default guesser's specs name 3 models, and the default giver's pool)."""
        specs = (self.model, *self.speakers) if self.pragmatic else (self.model,)
        named: dict[str, ColourTermModel] = {}
        return [models_of(spec, named, self._kept) for spec in specs]

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

    def place_pawns(
        self, views: Sequence[View], rngs: Sequence[np.random.Generator]
    ) -> list[Action]:
        """The pawns of many games' guesses at once (:meth:`place_pawn` of each view, with its
        generator): each step done for all of them in one array, with the same operations in
        the same order per board, so the same bits and the same pawns as one by one. For a
        runner that plays many games together (:func:`~huescues.agents.run_together`)."""
        out: list[Action | None] = [None] * len(views)
        ready: dict[Hashable, list[tuple[int, Found]]] = {}
        models = self._round_models()  # the same for every view
        for i, view in enumerate(views):
            if view.clues:
                found = self._round_key_with(models, view, view.clues)
                # One board and one set of points for each batch (the models are the same).
                group = (view.board.id, view.rules.points_by_distance)
                ready.setdefault(group, []).append((i, found))
            else:
                out[i] = self.place_pawn(view, rngs[i])
        for members in ready.values():
            placed = self._place_many([views[i] for i, _ in members], [f for _, f in members])
            for (i, _), pawn in zip(members, placed, strict=True):
                out[i] = pawn
        return [a for a in out if a is not None]

    def _place_many(self, views: list[View], found: list[Found]) -> list[PlacePawn]:
        """:meth:`place_pawns` for views with clues on one board, under one set of rules."""
        board, rules = views[0].board, views[0].rules
        size, cols = board.size, board.cols
        kept = self._kept
        # The rounds' beliefs read for the crowd, kept (found in one look), the others made one
        # by one, as place_pawn makes them.
        reading = self.crowd_reading
        if reading == (1.0, 0.0):
            kind, keys = ROUND_BELIEFS, [key for _, _, key in found]
        else:
            kind, keys = CROWD_ROUNDS, [(key, reading) for _, _, key in found]
        beliefs = kept.cached_many(found[0][1], kind, keys)
        joint = np.stack(
            [
                self._crowd_round(v, v.clues, f) if k is None else k
                for k, v, f in zip(beliefs, views, found, strict=True)
            ]
        )
        others = [[c for s, c in v.pawns if s != v.seat] for v in views]
        if self.use_pawns and any(others):
            # pawn_log_likelihood's sums: zeros, plus each pawn's term in order (plus zero,
            # which changes no sum, where a view has fewer pawns).
            table = pawn_terms(kept, board.shape, float(self.pawn_spread), float(self.pawn_floor))
            term = np.zeros((len(views), size))
            for k in range(max(map(len, others))):
                at = [o[k].row * cols + o[k].col if len(o) > k else size for o in others]
                term += table.take(at, axis=0)
            # exp(0) is 1 for a view without pawns: its joint is unchanged, as without them.
            joint = joint * np.exp(term - term.max(axis=1, keepdims=True))
        belief = joint / joint.sum(axis=1, keepdims=True)
        # expected_points_many, with the board's kernel kept.
        kernel = kept_kernel(kept, board.shape, rules.points_by_distance)
        points = ring_sums(belief.reshape(len(views), *board.shape), kernel)
        flat = points.reshape(len(views), size)
        for i, view in enumerate(views):
            for c in view.occupied:
                flat[i, c.row * cols + c.col] = -np.inf
        best = best_squares(flat)
        cells = board.cells()
        return [PlacePawn(cells[square]) for square in best.tolist()]

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
        points = expected_points(self.belief(board, clues), r).ravel().copy()
        cells = board.cells()
        taken = set(occupied)
        for c in taken:
            points[c.row * board.cols + c.col] = -np.inf
        # The first is the square place_pawn takes (ties within POINTS_TIE in reading order).
        best = int(best_squares(points))
        order = [best, *(int(i) for i in np.argsort(-points, kind="stable") if i != best)]
        return [cells[i] for i in order if cells[i] not in taken]

    def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
        """The empty square with the most expected points (R13, R15)."""
        others = [c for s, c in view.pawns if s != view.seat]
        if view.clues:
            # belief(view.board, view.clues, others, weights=self.weights(view)), the clues'
            # part kept for the round's other pawns.
            joint = self._crowd_round(view, view.clues)
            belief = self._with_pawns(view.board, joint, others)
        else:
            belief = self.belief(view.board, view.clues)
        # expected_points, with the board's kernel kept.
        kernel = kept_kernel(self._kept, view.board.shape, view.rules.points_by_distance)
        flat = ring_sums(belief, kernel).ravel().copy()
        cells = view.board.cells()
        for c in view.occupied:
            flat[c.row * view.board.cols + c.col] = -np.inf
        return PlacePawn(cells[int(best_squares(flat))])


#: :class:`ModelGuesser` by its first name (kept: programs and checks use it). It reads with any
#: colour-term model, not only the word vectors.
EmbeddingGuesser = ModelGuesser
