"""The text agent: prompts from a seat's view only (R8), tolerant parsing, retries with the
reason, a fallback that keeps the game legal, the record, reproducibility (R27) and pickling.
Only fake text functions: nothing here calls a network service."""

from __future__ import annotations

import pickle
import re
import zlib
from collections.abc import Callable

import numpy as np
import pytest

from huescues import (
    Board,
    Cell,
    ChooseTarget,
    GameState,
    GiveClue,
    IllegalClue,
    Pass,
    Phase,
    PlacePawn,
    Rules,
    View,
    new_game,
    validate_clue,
)
from huescues.agents import (
    RANDOM_CLUE_WORDS,
    Agent,
    RandomAgent,
    TextAgent,
    TextFailure,
    parse_clue,
    parse_square,
    parse_target,
    play_game,
    prompt_for,
)

F12 = Cell.parse("F12")

# -- fake text functions (module level, so agents using them pickle) -----------------------------


def _task(prompt: str) -> str:
    return prompt[prompt.rindex("YOUR TASK") :]


def legal_fake(prompt: str) -> str:
    """Answers every decision legally, reading only the prompt; deterministic."""
    task = _task(prompt)
    h = zlib.crc32(prompt.encode())
    if "Reply with its number" in task:
        return str(h % 4)
    if "Reply with one square name" in task:
        squares = list(dict.fromkeys(re.findall(r"\b([A-Z]\d{1,3}) #[0-9a-f]{6}\b", prompt)))
        pawns = re.search(r"^Pawns on the board: (.*)$", prompt, re.MULTILINE)
        assert pawns is not None
        occupied = set(re.findall(r"\b([A-Z]\d{1,3}) #", pawns.group(1)))
        free = [s for s in squares if s not in occupied]
        return str(free[h % len(free)])
    if "PASS" in task and h % 5 == 0:
        return "PASS"
    words = [w for w in RANDOM_CLUE_WORDS if f'"{w}"' not in prompt]
    return words[h % len(words)]


def chatty_fake(prompt: str) -> str:
    """Legal answers wrapped in chatter."""
    answer = legal_fake(prompt)
    if "Reply with one square name" in _task(prompt):
        return f"Sure! I'd pick {answer} because it matches the clue. Per R13 it is empty."
    if "Reply with its number" in _task(prompt):
        return f"Of the 4 squares, I'll take square {answer}."
    return f'Let me think about this.\n\nMy clue is "{answer}".'


def flaky_fake(prompt: str) -> str:
    """Legal about half the time, nonsense otherwise; deterministic."""
    if zlib.crc32(prompt.encode()) % 2:
        return "I am not sure."
    return legal_fake(prompt)


def broken(prompt: str) -> str:
    raise ConnectionError("no network here")


def fixed_square(prompt: str) -> str:
    return "Sure! F12"


class Recorder:
    """Answers with ``replies`` in turn (the last one repeated) and keeps every prompt."""

    def __init__(self, *replies: str) -> None:
        self.replies = replies
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.replies[min(len(self.prompts), len(self.replies)) - 1]


class RecordingFake:
    """``legal_fake``, keeping (prompt, reply) pairs."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []

    def __call__(self, prompt: str) -> str:
        reply = legal_fake(prompt)
        self.log.append((prompt, reply))
        return reply


# -- states to decide in -------------------------------------------------------------------------


def at_first_clue(seed: int = 1, target: int = 2) -> GameState:
    return new_game(4, seed=seed).apply(ChooseTarget(target))


def at_first_guess(seed: int = 1, target: int = 2) -> GameState:
    return at_first_clue(seed, target).apply(GiveClue("ocean"))


def rng() -> np.random.Generator:
    return np.random.default_rng(7)


def decisions_of(seat: int, state: GameState) -> int:
    """The decisions a seat was asked for in a finished game (R8-R12)."""
    n = 0
    for r in state.history:
        if r.giver == seat:
            n += 3  # target, first clue, second clue or pass
        n += sum(1 for s, _ in r.pawns if s == seat)
    return n


# -- whole games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_legal_fake_plays_whole_games_without_fallbacks(seed: int) -> None:
    fakes = [RecordingFake(), RecordingFake()]
    texts = [TextAgent(fakes[0]), TextAgent(fakes[1])]
    agents: list[Agent] = [texts[0], RandomAgent(), texts[1], RandomAgent(), RandomAgent()]
    _, final = play_game(agents, seed=seed)
    assert final.result is not None
    for seat, agent, fake in ((0, texts[0], fakes[0]), (2, texts[1], fakes[1])):
        assert agent.failures == []
        assert agent.fallbacks == 0
        assert agent.decisions == agent.calls == len(fake.log) == decisions_of(seat, final)
        # Every pawn of the seat is a square the fake named (R10, R12).
        named = [Cell.parse(reply) for prompt, reply in fake.log if "square name" in _task(prompt)]
        placed = [c for r in final.history for s, c in r.pawns if s == seat]
        assert placed == named
        # And every clue it gave is one the fake gave (R9, R11).
        clues = [reply for prompt, reply in fake.log if "the clue only" in _task(prompt)]
        given = [c for r in final.history if r.giver == seat for c in r.clues]
        assert given == [c for c in clues if c != "PASS"]


def test_a_chatty_fake_plays_a_whole_game() -> None:
    agent = TextAgent(chatty_fake)
    _, final = play_game([agent, RandomAgent(), RandomAgent(), RandomAgent()], seed=5)
    assert final.result is not None
    assert agent.fallbacks == 0 and agent.failures == []
    assert agent.decisions == decisions_of(0, final)


def test_a_text_function_that_raises_never_stops_the_game() -> None:
    agent = TextAgent(broken)
    _, final = play_game([agent, RandomAgent(), RandomAgent()], seed=3)
    assert final.result is not None
    assert agent.decisions == decisions_of(0, final) > 0
    assert agent.fallbacks == agent.decisions
    assert agent.calls == 2 * agent.decisions  # one retry each
    assert len(agent.failures) == agent.calls
    assert all(f.reply is None for f in agent.failures)
    assert all("ConnectionError: no network here" in f.reason for f in agent.failures)


def test_repeating_an_occupied_square_falls_back_and_the_game_goes_on() -> None:
    agent = TextAgent(fixed_square, retries=0)
    _, final = play_game([RandomAgent(), agent, RandomAgent()], seed=4)
    assert final.result is not None
    reasons = [f.reason for f in agent.failures if f.phase is not Phase.CHOOSE_TARGET]
    assert any("occupied" in r and "R13" in r for r in reasons)
    assert agent.fallbacks == len(agent.failures)


# -- reproducibility (R27) and pickling ----------------------------------------------------------


@pytest.mark.parametrize("ask", [legal_fake, flaky_fake])
def test_the_same_seed_gives_the_same_game(ask: Callable[[str], str]) -> None:
    def game(seed: int) -> GameState:
        agents: list[Agent] = [TextAgent(ask), RandomAgent(), TextAgent(ask)]
        return play_game(agents, seed=seed).state

    first, again, other = game(11), game(11), game(12)
    assert first.actions == again.actions
    assert first.actions != other.actions


def test_the_same_view_and_generator_give_the_same_decision_even_when_falling_back() -> None:
    view = at_first_guess().view(1)
    a = TextAgent(flaky_fake).place_pawn(view, np.random.default_rng(3))
    b = TextAgent(flaky_fake).place_pawn(view, np.random.default_rng(3))
    assert a == b


def test_a_text_agent_with_a_module_level_function_pickles() -> None:
    agent = TextAgent(flaky_fake, retries=2)
    play_game([agent, RandomAgent(), RandomAgent()], seed=8)
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.ask is flaky_fake and copy.retries == 2
    assert copy.failures == agent.failures and copy.calls == agent.calls
    assert copy.fallbacks == agent.fallbacks and copy.decisions == agent.decisions
    view = at_first_guess().view(1)
    assert copy.place_pawn(view, rng()) == agent.place_pawn(view, rng())


# -- retries, fallback and the record ------------------------------------------------------------


def test_an_occupied_square_is_retried_with_the_reason_then_falls_back() -> None:
    state = at_first_guess().apply(PlacePawn(F12))  # seat 1 on F12; seat 2 to play
    view = state.view(2)
    fake = Recorder("F12")
    agent = TextAgent(fake)
    action = agent.place_pawn(view, rng())
    state.apply(action, seat=2)  # legal
    assert action == RandomAgent().place_pawn(view, rng())  # the fallback, same generator
    assert len(fake.prompts) == 2
    first, second = fake.prompts
    assert second.startswith(first)
    assert "occupied" in second and "R13" in second and "'F12'" in second
    assert (agent.decisions, agent.calls, agent.fallbacks) == (1, 2, 1)
    assert [f.attempt for f in agent.failures] == [0, 1]
    for f in agent.failures:
        assert (f.round, f.seat, f.phase, f.reply) == (0, 2, Phase.FIRST_GUESS, "F12")
        assert "occupied" in f.reason and "R13" in f.reason
        assert f.prompt_excerpt.startswith("YOUR TASK")
    assert "refused" in agent.failures[1].prompt_excerpt
    assert "F12" in str(agent.failures[0])


def test_an_illegal_clue_is_retried_with_the_rule_then_falls_back() -> None:
    state = at_first_clue()
    view = state.view(0)
    fake = Recorder("reddish")
    agent = TextAgent(fake)
    action = agent.give_clue(view, rng())
    state.apply(action, seat=0)
    assert isinstance(action, GiveClue)
    validate_clue(action.text, rules=view.rules)
    assert action == RandomAgent().give_clue(view, rng())
    assert len(fake.prompts) == 2 and "R19" in fake.prompts[1]
    assert "reddish" in fake.prompts[1]
    assert agent.fallbacks == 1
    assert all("R19" in f.reason and f.phase is Phase.FIRST_CLUE for f in agent.failures)


def test_a_reply_that_recovers_on_the_retry_is_played() -> None:
    view = at_first_clue().view(0)
    fake = Recorder("Sure, let me think.", "lagoon")
    agent = TextAgent(fake)
    assert agent.give_clue(view, rng()) == GiveClue("lagoon")
    assert (agent.calls, agent.fallbacks, len(agent.failures)) == (2, 0, 1)
    assert "R18" in fake.prompts[1]


@pytest.mark.parametrize("retries", [0, 1, 3])
def test_retries_bound_the_calls(retries: int) -> None:
    view = at_first_guess().view(1)
    fake = Recorder("no idea")
    agent = TextAgent(fake, retries=retries)
    agent.place_pawn(view, rng())
    assert agent.calls == len(fake.prompts) == retries + 1
    assert len(agent.failures) == retries + 1 and agent.fallbacks == 1
    assert fake.prompts[-1].count("was refused") == retries


def test_a_raising_text_function_is_asked_again_with_the_same_prompt() -> None:
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        raise TimeoutError("too slow")

    agent = TextAgent(ask, retries=2)
    view = at_first_guess().view(1)
    agent.place_pawn(view, rng())
    assert prompts == [prompt_for(view)] * 3
    assert agent.failures[0].reason == "ask raised TimeoutError: too slow"


def test_a_reply_that_is_not_text_is_refused() -> None:
    agent = TextAgent(lambda prompt: None, retries=0)  # type: ignore[arg-type,return-value]
    view = at_first_guess().view(1)
    agent.place_pawn(view, rng())
    assert agent.failures[0].reply == "None" and "not text" in agent.failures[0].reason


def test_the_fallback_agent_can_be_chosen() -> None:
    class Stubborn(RandomAgent):
        def choose_target(self, view: View, rng: np.random.Generator) -> ChooseTarget:
            return ChooseTarget(3)

    agent = TextAgent(Recorder("seven"), fallback=Stubborn(), retries=0)
    assert agent.choose_target(new_game(4, seed=1).view(0), rng()) == ChooseTarget(3)
    assert agent.fallbacks == 1


def test_pass_is_refused_where_the_rules_forbid_it() -> None:
    rules = Rules.standard(4, second_clue_may_pass=False)
    state = new_game(4, seed=2, rules=rules).apply(ChooseTarget(0)).apply(GiveClue("ocean"))
    for seat in (1, 2, 3):
        state = state.apply(RandomAgent().place_pawn(state.view(seat), rng()))
    agent = TextAgent(Recorder("PASS"))
    action = agent.give_second_clue(state.view(0), rng())
    assert isinstance(action, GiveClue)
    state.apply(action)
    assert all("R11" in f.reason for f in agent.failures)
    assert (
        TextAgent(Recorder("PASS")).give_second_clue(at_second_clue(), rng()) == Pass()
    )  # allowed by default


def at_second_clue() -> View:
    state = at_first_guess()
    for seat in (1, 2, 3):
        state = state.apply(RandomAgent().place_pawn(state.view(seat), rng()))
    return state.view(0)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="retries"):
        TextAgent(legal_fake, retries=-1)
    with pytest.raises(TypeError, match="ask"):
        TextAgent("not a function")  # type: ignore[arg-type]


def test_failures_are_frozen_records() -> None:
    f = TextFailure(0, 1, Phase.FIRST_GUESS, 0, "YOUR TASK ...", "Q5", "off the board")
    with pytest.raises(AttributeError):
        f.reason = "x"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(f)) == f


# -- the prompt ----------------------------------------------------------------------------------


def test_the_prompt_lists_every_square_with_its_colour() -> None:
    board = Board.standard()
    prompt = prompt_for(new_game(4, seed=1).view(1))
    for cell in board.cells():
        assert f"{cell} {board.hex(cell)}" in prompt
    assert "A1 #" in prompt.splitlines()[prompt.splitlines().index(_board_heading(prompt)) + 1]
    assert len(prompt) < 9000  # compact: about 11 characters a square


def _board_heading(prompt: str) -> str:
    return next(line for line in prompt.splitlines() if line.startswith("BOARD"))


def test_the_prompt_states_the_rules_in_brief() -> None:
    state = new_game(3, seed=1).apply(ChooseTarget(0)).apply(GiveClue("ocean"))
    prompt = prompt_for(state.view(1))
    for rule in ("R13", "R15", "R16", "R18", "R19", "R20", "R21", "R22"):
        assert rule in prompt
    assert "scores 3 on the target, 2 at distance 1, 1 at distance 2" in prompt
    assert "the clue giver scores 2 for every pawn" in prompt  # 3 players (R16)


def test_the_prompt_shows_clues_pawns_and_scores() -> None:
    state = at_first_guess().apply(PlacePawn(F12))
    board = state.board
    prompt = prompt_for(state.view(2))
    assert 'Clues so far: "ocean"' in prompt
    assert f"F12 {board.hex(F12)} (seat 1)" in prompt
    assert "SCORES: seat 0 0, seat 1 0, seat 2 (you) 0, seat 3 0" in prompt
    assert "Place your first pawn" in prompt
    assert _task(prompt).splitlines()[-1] == "Reply with one square name only, such as F12."


def test_the_prompt_shows_earlier_rounds() -> None:
    _, final = play_game([RandomAgent()] * 3, seed=2)
    view = final.view(0)
    prompt = prompt_for(view._replace(phase=Phase.FIRST_GUESS))
    first = final.history[0]
    assert f'round 1: seat {first.giver} gave "{first.clues[0]}"' in prompt
    assert f"target {first.target} {final.board.hex(first.target)}" in prompt


def test_the_givers_prompt_shows_the_card_and_then_the_target() -> None:
    state = new_game(4, seed=1)
    board = state.board
    prompt = prompt_for(state.view(0))
    assert "YOUR CARD" in prompt and "YOUR TARGET" not in prompt
    for i, cell in enumerate(state.card):
        assert f"{i}: {cell} {board.hex(cell)}" in prompt
    assert _task(prompt).splitlines()[-1] == "Reply with its number only: 0, 1, 2 or 3."
    state = state.apply(ChooseTarget(2))
    target = state.card[2]
    prompt = prompt_for(state.view(0))
    assert f"YOUR TARGET (secret): {target} {board.hex(target)}" in prompt
    assert "exactly 1 word" in _task(prompt)


def test_a_guessers_prompt_hides_the_card_and_the_target() -> None:
    # R8: the guesser's prompt is the same whichever square the giver chose.
    for seat in (1, 2, 3):
        prompts = {prompt_for(at_first_guess(target=t).view(seat)) for t in range(4)}
        assert len(prompts) == 1
        prompt = prompts.pop()
        assert "YOUR CARD" not in prompt and "YOUR TARGET" not in prompt
    giver = {prompt_for(at_first_guess(target=t).view(0)) for t in range(4)}
    assert len(giver) == 4


def test_a_prompt_for_a_seat_not_to_play_says_so() -> None:
    prompt = prompt_for(new_game(4, seed=1).view(2))
    assert _task(prompt).endswith("It is not your turn (seat 0 plays); nothing to decide.")


def test_the_second_clue_prompt_offers_a_pass_only_where_allowed() -> None:
    assert "PASS" in _task(prompt_for(at_second_clue()))
    rules = Rules.standard(4, second_clue_may_pass=False)
    view = at_second_clue()._replace(rules=rules)
    assert "PASS" not in _task(prompt_for(view))


def test_a_custom_prompt_function_is_used() -> None:
    fake = Recorder("F13")
    agent = TextAgent(fake, prompt=lambda view: f"seat {view.seat}: where?")
    assert agent.place_pawn(at_first_guess().view(1), rng()) == PlacePawn(Cell.parse("F13"))
    assert fake.prompts == ["seat 1: where?"]


# -- parsing -------------------------------------------------------------------------------------

BOARD = Board.standard()


@pytest.mark.parametrize(
    ("reply", "square"),
    [
        ("F12", "F12"),
        (" f12 ", "F12"),
        ("Sure! I'd pick F12 because it's near E11", "F12"),
        ("**F12**", "F12"),
        ("Per R19 and R20, my square is g7.", "G7"),  # R19, R20: off a 16-row board
        ("The clue suggests E10 to G14.\n\nAnswer: G13", "G13"),
        ("P30", "P30"),
    ],
)
def test_parse_square_finds_the_square_in_chatter(reply: str, square: str) -> None:
    assert parse_square(reply, BOARD) == Cell.parse(square)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("Q5", "not a square of this board"),
        ("A31", "not a square of this board"),
        ("the blue one", "names no square"),
        ("", "names no square"),
        ("F12", "occupied"),
    ],
)
def test_parse_square_says_why_it_refuses(reply: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_square(reply, BOARD, {F12})


def test_parse_square_knows_the_board_size() -> None:
    small = Board.from_rgb(np.zeros((4, 5, 3), dtype=np.int64))
    assert parse_square("D5", small) == Cell.parse("D5")
    with pytest.raises(ValueError, match="rows A-D, columns 1-5"):
        parse_square("E1", small)


CARD = (Cell.parse("L3"), Cell.parse("A20"), Cell.parse("J15"), Cell.parse("H24"))


@pytest.mark.parametrize(
    ("reply", "index"),
    [
        ("2", 2),
        ("I choose 0.", 0),
        ("Of the 4 squares I'll take 3", 3),
        ("a20", 1),
        ("I'd go for J15, it is easy to describe", 2),
        ("Thinking...\n**Answer:** 1", 1),
    ],
)
def test_parse_target_reads_an_index_or_a_card_square(reply: str, index: int) -> None:
    assert parse_target(reply, CARD) == index


@pytest.mark.parametrize("reply", ["7", "F12", "the yellow one", ""])
def test_parse_target_refuses_anything_else(reply: str) -> None:
    with pytest.raises(ValueError, match="R8"):
        parse_target(reply, CARD)


@pytest.mark.parametrize(
    ("reply", "second", "clue"),
    [
        ("ocean", False, "ocean"),
        ("Ocean.", False, "Ocean"),
        ('My clue is "lagoon".', False, "lagoon"),
        ("I'd say 'lagoon' here", False, "lagoon"),
        ("Let me think about it.\n\nlagoon", False, "lagoon"),
        ("Clue: deep sea", True, "deep sea"),
        ("**Clue:** *tropical lagoon*", True, "tropical lagoon"),
        ("sky-high", False, "sky-high"),
    ],
)
def test_parse_clue_finds_the_clue_in_chatter(reply: str, second: bool, clue: str) -> None:
    assert parse_clue(reply, second=second) == GiveClue(clue)


@pytest.mark.parametrize("reply", ["PASS", "pass.", "**Pass**"])
def test_parse_clue_reads_a_pass_in_the_second_clue(reply: str) -> None:
    assert parse_clue(reply, second=True) == Pass()
    assert parse_clue(reply, second=False) == GiveClue(reply.strip("*."))  # only a word here


@pytest.mark.parametrize(
    ("reply", "second", "rule"),
    [
        ("reddish", False, "R19"),
        ("F12", False, "R20"),
        ("deep sea", False, "R18"),
        ("Sure! I'd go with ocean.", False, "R18"),
        ("darker sea", True, "R21"),
        ("ocean", False, "R22"),
    ],
)
def test_parse_clue_refuses_with_the_rule(reply: str, second: bool, rule: str) -> None:
    with pytest.raises(IllegalClue, match=rule) as info:
        parse_clue(reply, second=second, previous=("Ocean",))
    assert info.value.rule == rule


def test_parse_clue_refuses_an_empty_reply() -> None:
    with pytest.raises(ValueError, match="empty"):
        parse_clue("  \n ")


def test_a_text_agent_is_an_agent_with_a_short_repr() -> None:
    agent = TextAgent(legal_fake)
    assert isinstance(agent, Agent)
    assert repr(agent) == (
        "TextAgent(legal_fake, fallback=RandomAgent, retries=1; 0 decisions, 0 calls, 0 fallbacks)"
    )


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Clue: ocean", GiveClue("ocean")),
        ("Answer: pass", Pass()),
        ("Clue: deep sea", GiveClue("deep sea")),
    ],
)
def test_a_one_line_labelled_second_clue_drops_its_label(
    reply: str, expected: GiveClue | Pass
) -> None:
    # R11: "Clue: ocean" as a second clue is the clue "ocean", not the two words "Clue ocean".
    assert parse_clue(reply, second=True) == expected
