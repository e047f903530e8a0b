"""The players built on colour-term models: behaviour a user relies on, not numbers copied from
a run."""

from __future__ import annotations

import dataclasses
import math
import pickle

import numpy as np
import pytest

from huescues import (
    Board,
    Cell,
    ChooseTarget,
    GameState,
    GiveClue,
    IllegalAction,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    View,
    new_game,
    play_game,
    validate_clue,
)
from huescues.agents import (
    Agent,
    EmbeddingClueGiver,
    EmbeddingGuesser,
    GameLoop,
    OracleGuesser,
    Player,
    RandomAgent,
    Readings,
    default_agent,
    evaluate,
    naming_agent,
    oracle_agent,
)

RNG = np.random.default_rng(0)


def hue_angle(lab: np.ndarray) -> float:
    return math.degrees(math.atan2(lab[2], lab[1])) % 360


def guess_view(clue: str, seed: int = 1):  # type: ignore[no-untyped-def]
    state = new_game(4, seed=seed).apply(ChooseTarget(0)).apply(GiveClue(clue))
    assert state.current_player is not None
    return state, state.view(state.current_player)


def test_a_banana_pawn_lands_among_the_yellows() -> None:
    state, view = guess_view("banana")
    cell = EmbeddingGuesser().place_pawn(view, RNG).cell
    lab = state.board.lab[cell.row, cell.col]
    assert 70 <= hue_angle(lab) <= 115 and lab[0] > 70, f"{cell} {lab}"


def test_rank_lists_empty_squares_best_first() -> None:
    board = Board.standard()
    taken = {Cell.parse("B16")}
    ranked = EmbeddingGuesser().rank(board, ["banana"], occupied=taken)
    assert len(ranked) == board.size - 1 and Cell.parse("B16") not in ranked
    top = board.lab[ranked[0].row, ranked[0].col]
    assert 70 <= hue_angle(top) <= 115


def test_rank_breaks_a_last_bit_tie_as_place_pawn_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """R27: two squares a belief makes equal, the later a last bit ahead: the first in reading
    order leads, as best_squares (and place_pawn) choose; an empty square, never a taken one."""
    import huescues.agents._guesser as guesser_module

    board = Board.standard()
    points = np.zeros(board.shape)
    points[3, 4], points[3, 9] = 0.8, np.nextafter(0.8, 1.0)
    points[0, 0] = 0.9
    monkeypatch.setattr(guesser_module, "expected_points", lambda belief, rules: points.copy())
    taken = {Cell(0, 0)}
    ranked = EmbeddingGuesser().rank(board, ["banana"], occupied=taken)
    assert ranked[:2] == [Cell(3, 4), Cell(3, 9)] and Cell(0, 0) not in ranked


def test_the_second_guess_combines_both_clues() -> None:
    guesser = EmbeddingGuesser(use_pawns=False)
    board = Board.standard()
    lemon = guesser.belief(board, ["lemon"])
    both = guesser.belief(board, ["lemon", "lime"])
    assert not np.allclose(lemon, both)
    # Both clues: the belief sharpens where they agree.
    assert both.max() > min(lemon.max(), guesser.belief(board, ["lime"]).max())


def giver_view_with_target(cell: str, seed: int = 3):  # type: ignore[no-untyped-def]
    """A state whose card holds ``cell`` as the chosen target (a custom deck)."""
    from huescues import Deck

    base = Deck.standard()
    target = Cell.parse(cell)
    card = (target, *[c for c in base.cards[0] if c.distance(target) > 4][:3])
    cards = tuple(card if len(card) == 4 else base.cards[1] for _ in range(100))
    deck = Deck("test-deck", cards)
    state = new_game(4, seed=seed, deck=deck).apply(ChooseTarget(0))
    return state, state.view(state.giver)


def test_a_giver_with_a_deep_blue_target_does_not_clue_lemon() -> None:
    board = Board.standard()
    blues = [c for c in board.cells() if board.lab[c.row, c.col, 0] < 40
             and 250 <= hue_angle(board.lab[c.row, c.col]) <= 310]  # fmt: skip
    _state, view = giver_view_with_target(str(blues[0]))
    clue = EmbeddingClueGiver().give_clue(view, RNG)
    assert clue.text != "lemon"
    guess = EmbeddingGuesser().rank(board, [clue.text])[0]
    assert guess.distance(view.target) <= 3, f"{clue.text!r} leads to {guess}, not {view.target}"


def test_the_giver_chooses_a_card_square_and_legal_clues() -> None:
    state = new_game(5, seed=4)
    giver = EmbeddingClueGiver()
    choice = giver.choose_target(state.view(state.giver), RNG)
    assert choice in state.legal_actions()
    state = state.apply(choice)
    clue = giver.give_clue(state.view(state.giver), RNG)
    validate_clue(clue.text, rules=state.rules)


def test_the_competitive_giver_passes_in_a_tiebreaker() -> None:
    state, _ = giver_view_with_target("F12")
    state = state.apply(GiveClue("ocean"))
    while state.phase is Phase.FIRST_GUESS:
        state = state.apply(PlacePawn(Cell(0, len(state.pawns))))
    view = state.view(state.giver)
    assert isinstance(EmbeddingClueGiver().give_second_clue(view, RNG), GiveClue)
    tiebreak = view._replace(tiebreak=True)
    assert EmbeddingClueGiver().give_second_clue(tiebreak, RNG) == Pass()
    no_pass = tiebreak._replace(rules=Rules.standard(4, second_clue_may_pass=False))
    assert isinstance(EmbeddingClueGiver().give_second_clue(no_pass, RNG), GiveClue)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.standard(3),
        pytest.param(Rules.standard(6), marks=pytest.mark.slow),
        Rules.standard(4, second_clue_words=1),
        pytest.param(
            Rules.standard(4, banned_terms=("red", "green", "blue", "sea", "sky", "ocean", "gold")),
            marks=pytest.mark.slow,
        ),
        pytest.param(Rules.standard(5, second_clue_may_pass=False), marks=pytest.mark.slow),
    ],
    ids=["3p", "6p", "one-word-second", "stricter-banned-list", "no-pass"],
)
def test_r18_r22_every_clue_the_default_players_give_is_legal(rules: Rules) -> None:
    seats = [default_agent() for _ in range(rules.n_players)]
    _record, state = play_game(seats, seed=7, rules=rules)  # the engine refuses illegal clues
    earlier: list[str] = []
    for r in state.history:
        for i, clue in enumerate(r.clues):
            validate_clue(clue, second=i == 1, rules=rules, previous=earlier)
            earlier.append(clue)
    assert len(earlier) >= rules.regular_rounds


@pytest.mark.slow
def test_default_players_score_well_above_random_in_self_play() -> None:
    """Margin: random pawns earn about 0.06 points each (25 scoring squares of 480 at most);
    the default players' pawns earn over 1 point each in self-play (docs/agents.md). Requiring
    0.8 more than random over 3 fixed seeds leaves a wide margin for noise."""
    result = evaluate(
        {"random": RandomAgent, "default": EmbeddingClueGiver},
        {"random": RandomAgent, "default": EmbeddingGuesser},
        games=3,
        seed=11,
    )
    by = {(p.giver, p.guesser): p for p in result.pairs}
    default = by["default", "default"]
    random = by["random", "random"]
    assert default.guesser_points_per_pawn.mean > random.guesser_points_per_pawn.mean + 0.8
    assert default.giver_points_per_round.mean > random.giver_points_per_round.mean + 1.0
    assert "| default | default |" in result.table()
    # Paired by seed: the default pair minus the random pair, and a pair minus itself.
    giver_gain, guesser_gain = result.difference(("default", "default"), ("random", "random"))
    assert guesser_gain.low > 0.5 and giver_gain.low > 1.0
    same = result.difference(("default", "random"), ("default", "random"))
    assert same[0].mean == same[1].mean == 0.0
    with pytest.raises(KeyError, match="no pair"):
        result.pair("oracle", "default")


def test_evaluate_can_play_only_the_pairs_asked_for() -> None:
    agents = {"random": RandomAgent, "oracle": OracleGuesser}
    result = evaluate({"random": RandomAgent}, agents, games=2, pairs=[("random", "oracle")])
    assert [(p.giver, p.guesser) for p in result.pairs] == [("random", "oracle")]
    assert len(result.pair("random", "oracle").per_game) == 2
    with pytest.raises(ValueError, match="not given to evaluate"):
        evaluate({"random": RandomAgent}, agents, games=2, pairs=[("naming", "oracle")])


def test_the_oracle_is_an_upper_bound_and_only_it_sees_the_target() -> None:
    assert oracle_agent().sees_target and not default_agent().sees_target
    seen: list[Cell | None] = []

    class Spy(RandomAgent):
        def place_pawn(self, view, rng):  # type: ignore[no-untyped-def]
            seen.append(view.target)
            return super().place_pawn(view, rng)

    _, state = play_game([Player(RandomAgent(), OracleGuesser())] + [Spy()] * 3, seed=2)
    assert seen and all(t is None for t in seen)  # R8: guessers never see the target
    oracle_points = sum(r.points[0] for r in state.history if r.giver != 0)
    assert oracle_points > 0


def test_same_seed_same_decisions_and_agents_pickle() -> None:
    a = play_game([default_agent()] * 3, seed=5)
    again = pickle.loads(pickle.dumps([default_agent(), naming_agent(), oracle_agent()]))
    b = play_game([default_agent()] * 3, seed=5)
    assert a.record == b.record
    assert isinstance(again[1], Player) and again[1].guesser == EmbeddingGuesser(model="naming")
    for agent in again:
        assert isinstance(agent, Agent)


def test_guesser_options_make_legal_moves() -> None:
    for guesser in (EmbeddingGuesser(pragmatic=True), EmbeddingGuesser(use_pawns=False)):
        _, state = play_game([Player(EmbeddingClueGiver(), guesser)] * 4, seed=9)
        assert state.is_terminal


def test_unknown_model_name_is_a_clear_error() -> None:
    _, view = guess_view("ocean")
    with pytest.raises(ValueError, match="no model named"):
        EmbeddingGuesser(model="gpt").place_pawn(view, RNG)


@pytest.mark.slow
def test_the_shipped_vocabulary_is_what_the_script_makes() -> None:
    import subprocess
    import sys
    from pathlib import Path

    from huescues.agents import clue_vocabulary

    script = Path(__file__).resolve().parents[1] / "scripts" / "make_clue_vocabulary.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    words = clue_vocabulary()
    assert len(words) > 3000 and len(set(words)) == len(words)
    for w in words[:200]:
        validate_clue(w)


def test_the_second_study_board_runs_hue_along_columns_and_lightness_down_rows() -> None:
    from huescues.colour import hue_lightness_palette

    board = Board.from_rgb(hue_lightness_palette())
    lightness = board.lab[:, :, 0].mean(axis=1)
    assert np.all(np.diff(lightness) < 0)  # lighter at the top
    hues = [hue_angle(board.lab[8, c]) for c in range(30)]
    assert len({round(h / 30) for h in hues}) >= 10  # hues go round the columns


def _with_store(player: Player, store: Readings) -> Player:
    """``player`` keeping what it reads in ``store`` (both halves)."""
    return Player(
        dataclasses.replace(player.giver, store=store),  # type: ignore[type-var]
        dataclasses.replace(player.guesser, store=store),  # type: ignore[type-var]
    )


@pytest.mark.slow
def test_prepare_reads_the_board_before_the_game_and_changes_no_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # private, as are _speaker and _vocabulary: their kinds of reading show what was read
    from huescues.agents import DEFAULT_GIVER_MODELS, _models, _speaker, _vocabulary, resolve_model

    board = Board.from_rgb(np.random.default_rng(5).integers(0, 256, (6, 9, 3)))
    rules = Rules.standard(3)
    # As in a new process: nothing read yet (a store of its own, not the process's).
    unprepared = play_game(
        [_with_store(default_agent(), Readings())] * 3, seed=4, rules=rules, board=board
    )

    store = Readings()
    player = _with_store(default_agent(), store)
    player.prepare(board, rules)
    # Every model the player reads with has read the vocabulary on the board, and every giver
    # its guesser imagines is built.
    for model in [resolve_model(name) for name in DEFAULT_GIVER_MODELS]:
        assert store.cached((model,), _vocabulary.READINGS, (board.id, None)) is not None
    assert isinstance(player.guesser, EmbeddingGuesser)
    for spec in player.guesser.speakers:
        imagined = _models.models_of(spec, store=store)  # (a pool is made in its store)
        assert store.cached(imagined, _speaker.SPEAKERS, (board.id, None)) is not None

    # From here on nothing is read from a model's vocabulary: not by a second prepare, not
    # in the game.
    def refuse(*args: object) -> None:
        raise AssertionError("a reading was made after prepare")

    monkeypatch.setattr(_vocabulary, "read_board", refuse)
    monkeypatch.setattr(_speaker, "_imagine", refuse)
    ensembles = store.count(_vocabulary.ENSEMBLE_FRAMES)
    player.prepare(board, rules)
    prepared = play_game([player] * 3, seed=4, rules=rules, board=board)
    assert store.count(_vocabulary.ENSEMBLE_FRAMES) == ensembles
    assert prepared.record == unprepared.record


def test_prepare_is_optional_and_players_without_models_have_nothing_to_do() -> None:
    board, rules = Board.standard(), Rules.standard(4)
    Player(RandomAgent(), OracleGuesser()).prepare(board, rules)  # halves without prepare


# -- the plain game loop and the random agent's draws (engine speed, issue 13) --------------------


class _ViewingLoop(GameLoop):
    """A loop that overrides a hook (with the same behaviour), so that run() steps through them."""

    def view(self, state: GameState, seat: int) -> View:
        return super().view(state, seat)


@pytest.mark.parametrize("n_players", [3, 6, 10])
def test_r27_the_plain_loop_plays_the_game_the_hooks_play(n_players: int) -> None:
    agents = [RandomAgent() for _ in range(n_players)]
    for seed in range(5):
        plain = GameLoop(agents, seed=seed)
        hooked = _ViewingLoop(agents, seed=seed)
        a = plain.run(plain.start())
        b = hooked.run(hooked.start())
        assert a.to_json() == b.to_json()


def test_the_plain_loop_names_the_seat_of_an_illegal_action() -> None:
    class _Repeater(RandomAgent):
        def place_pawn(self, view: View, rng: np.random.Generator) -> PlacePawn:
            return PlacePawn(Cell(0, 0))  # the second pawn there is refused (R13)

    loop = GameLoop([_Repeater() for _ in range(3)], seed=1)
    with pytest.raises(IllegalAction) as info:
        loop.run(loop.start())
    assert "OccupiedSquare" in type(info.value).__name__ or "R13" in str(info.value)
    assert any("played by seat" in note for note in info.value.__notes__)


def test_random_agent_draws_the_numbers_of_rng_random() -> None:
    """RandomAgent reads PCG64's raw words for speed: the same draws as ``rng.random()``, so a
    seat's choices do not depend on the shortcut (a wrapped generator takes the plain path)."""
    state = new_game(6, seed=4)
    state = state.apply(ChooseTarget(0)).apply(GiveClue("ocean"))
    view = state.view(state.current_player)  # type: ignore[arg-type]
    agent = RandomAgent()
    for seed in range(50):
        fast = agent.place_pawn(view, np.random.Generator(np.random.PCG64(seed)))
        rng = np.random.Generator(np.random.PCG64(seed))
        n = len(view.board.cells())
        while True:
            cell = view.board.cells()[int(rng.random() * n)]
            if cell not in view.occupied:
                break
        assert fast == PlacePawn(cell)
