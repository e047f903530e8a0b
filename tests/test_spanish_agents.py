"""Playing in Spanish (issue 22 item 3): the default player and the random one speak Spanish at
a Spanish table, the command line takes ``--language es``, and English play is unchanged."""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from huescues.agents import (
    CATALOGUE,
    RANDOM_CLUE_WORDS,
    RANDOM_CLUE_WORDS_ES,
    EmbeddingGuesser,
    Grammar,
    Player,
    RandomAgent,
    catalogue_entry,
    catalogue_names,
    clue_vocabulary,
    default_agent,
    naming_agent,
    play_game,
    spanish_default_agent,
)
from huescues.agents._languages import players_pack
from huescues.engine import Board, ChooseTarget, IllegalClue, Rules, new_game, validate_clue
from huescues.language import attested, default_model
from huescues.terminal import play_in_terminal
from huescues.tournament import Tournament

SPANISH = Rules.standard(4, language="es")


def hue_angle(lab: np.ndarray) -> float:
    return float(np.degrees(np.arctan2(lab[2], lab[1])) % 360)


def legal_in_spanish(text: str, *, second: bool = False) -> bool:
    try:
        validate_clue(text, language="es", second=second)
    except IllegalClue:
        return False
    return True


def test_every_spanish_vocabulary_word_passes_the_spanish_rules_and_reads_as_its_english() -> None:
    data = (
        resources.files("huescues.data")
        .joinpath("languages/es/clue_vocabulary.tsv")
        .read_text("utf-8")
    )
    rows = [line.split("\t") for line in data.splitlines()[1:]]
    words = clue_vocabulary("es")
    assert words == tuple(r[0] for r in rows) and len(set(words)) == len(words) > 500
    english = set(clue_vocabulary())
    reader = default_model("es")
    for spanish, meant, *_ in rows:
        assert legal_in_spanish(spanish) and legal_in_spanish(spanish, second=True), spanish
        read = reader.translate(spanish)
        # by its English, or as Spanish by the pack's own knowledge (oscuro, dorado)
        assert meant in english and (read.text == meant or read.own), spanish
    assert {"plátano", "cielo", "limón", "sangre", "océano"} <= set(words)


def test_the_random_agents_spanish_words_pass_the_spanish_rules_alone_and_in_pairs() -> None:
    rng = np.random.default_rng(0)
    for w in RANDOM_CLUE_WORDS_ES:
        assert legal_in_spanish(w) and legal_in_spanish(w, second=True), w
    for _ in range(300):
        a, b = rng.choice(len(RANDOM_CLUE_WORDS_ES), 2, replace=False)
        pair = f"{RANDOM_CLUE_WORDS_ES[a]} {RANDOM_CLUE_WORDS_ES[b]}"
        assert legal_in_spanish(pair, second=True), pair


def test_the_random_agent_speaks_the_tables_language_and_english_is_unchanged() -> None:
    for rules, words in ((SPANISH, RANDOM_CLUE_WORDS_ES), (Rules.standard(4), RANDOM_CLUE_WORDS)):
        _, state = play_game([RandomAgent() for _ in range(4)], seed=5, rules=rules)
        for r in state.history:
            assert all(w in words for clue in r.clues for w in clue.split()), r.clues
    # A list of the user's own is kept at a Spanish table.
    own = clue_vocabulary("es")[:80]
    _, state = play_game([RandomAgent(words=own)] * 4, seed=1, rules=SPANISH)
    assert {w for r in state.history for c in r.clues for w in c.split()} <= set(own)


def test_default_agent_takes_a_language_and_english_stays_the_default() -> None:
    assert default_agent() == default_agent("en")
    es = default_agent("es")
    assert es != default_agent() and es == spanish_default_agent()
    # its second clue pairs its best words by the Spanish grammar (a noun, then its adjective)
    assert es.giver.pair_from == 8 and es.giver.grammar is players_pack("es").grammar  # type: ignore[attr-defined]
    assert default_agent().giver.grammar is None  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="'fr'"):
        default_agent("fr")


def test_the_catalogue_says_who_speaks_spanish() -> None:
    assert catalogue_names(language="es") == ("default", "random")
    assert catalogue_entry("default").build("es") == default_agent("es")
    assert isinstance(catalogue_entry("random").build("es"), RandomAgent)
    for name, entry in CATALOGUE.items():
        assert entry.build("en") == entry.build() or name in {"random"}
        if "es" not in entry.languages:
            with pytest.raises(ValueError, match="speaks only en"):
                entry.build("es")


@pytest.mark.slow
def test_the_spanish_guesser_reads_platano_near_yellow_squares() -> None:
    board = Board.standard()
    guesser = default_agent("es").guesser
    assert isinstance(guesser, EmbeddingGuesser)
    for clue in ("plátano", "PLATANO", "plátanos"):
        top = guesser.rank(board, [clue], rules=SPANISH)[0]
        assert 70 <= hue_angle(board.lab[top.row, top.col]) <= 115, clue


@pytest.mark.slow
def test_a_spanish_givers_first_clues_pass_the_spanish_rules_on_1000_random_targets() -> None:
    """1,000 first clues from a prepared Spanish giver, each on a random target of the board."""
    player = default_agent("es")
    state = new_game(4, seed=0, rules=SPANISH)
    player.prepare(state.board, state.rules)
    view = state.apply(ChooseTarget(0)).view(state.giver)
    rng = np.random.default_rng(22)
    cells = state.board.cells()
    vocabulary = set(clue_vocabulary("es"))
    for i in rng.choice(len(cells), 1000):
        clue = player.give_clue(view._replace(target=cells[int(i)]), rng).text
        assert clue in vocabulary and legal_in_spanish(clue), clue


@pytest.mark.slow
def test_the_spanish_default_agent_plays_whole_games_with_random_agents_in_spanish() -> None:
    vocabulary = set(clue_vocabulary("es"))
    for seed in range(2):
        agents: list[Player | RandomAgent] = [default_agent("es"), *[RandomAgent()] * 3]
        record, state = play_game(agents, seed=seed, rules=SPANISH)
        assert state.result is not None and record.rules.language == "es"
        for r in state.history:
            for k, clue in enumerate(r.clues):
                assert legal_in_spanish(clue, second=k > 0)
                if r.giver == 0:  # words of the Spanish vocabulary (an adjective agreeing)
                    assert clue in vocabulary or (k > 0 and attested(clue, "es")), clue


def test_play_in_spanish_in_the_terminal_checks_clues_by_the_spanish_rules() -> None:
    out = io.StringIO()
    firsts = iter(["verdoso", "pitufo", "nube", "lago", "musgo", "fresa", "arena"])

    asked = 0

    def person(prompt: str) -> str:
        nonlocal asked
        asked += 1
        # A refused answer is asked again: a bound keeps a refusal of ours from looping forever.
        assert asked < 500, f"asked {asked} times; the last: {prompt!r}"
        if "target" in prompt:
            answer = "1"  # the card's squares are numbered 1-4 (R8)
        elif "first clue" in prompt:
            answer = next(firsts)
        elif "second clue" in prompt:
            answer = "pass"
        else:
            answer = next(free)
        out.write(f"{prompt}{answer}\n")
        return answer

    free = iter(str(c) for c in Board.standard().cells())
    state = play_in_terminal(
        players=3, seed=2, opponents="random", input_fn=person, output=out, colour=False,
        language="es",
    )  # fmt: skip
    text = out.getvalue()
    assert state.rules.language == "es" and state.result is not None
    assert "Clues are in Español (es)" in text
    assert "Not allowed: clue 'verdoso' refused" in text and "'verde'" in text
    for r in state.history:
        assert all(legal_in_spanish(c, second=k > 0) for k, c in enumerate(r.clues))
        if r.giver != 0:
            assert all(w in RANDOM_CLUE_WORDS_ES for c in r.clues for w in c.split())


def test_huescues_play_takes_language_es(tmp_path: Path) -> None:
    from huescues.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--language", "fr"])
    assert "--language" in _help("play") and "--language" in _help("tournament")


def _help(command: str) -> str:
    from huescues.cli import _parser

    return _parser()._subparsers._group_actions[0].choices[command].format_help()  # type: ignore[union-attr]


@pytest.mark.slow
def test_a_spanish_tournament_seats_the_spanish_default_agent(tmp_path: Path) -> None:
    from huescues.cli import main

    out = tmp_path / "games.jsonl"
    argv = ["tournament", "--language", "es", "--entrants", "default", "random", "naming"]
    assert main([*argv, "--games", "3", "--workers", "1", "--out", str(out)]) == 0
    t = Tournament(["default", "random", "naming"], games=3, rules={"language": "es"})
    # Each worker builds the built-in entrants for the language (the default speaks Spanish,
    # the naming player only English: it gives English clues).
    assert {e.name: e.factory for e in t.entrants} == {
        n: n for n in ("default", "random", "naming")
    }
    vocabulary = set(clue_vocabulary("es"))
    spoke = 0
    for line in out.read_text().splitlines():
        game = json.loads(line)
        assert game["status"] == "finished" and game["record"]["rules"]["language"] == "es"
        for r in game["rounds"]:
            seat = game["seats"][r["giver"]]
            if seat == "default" and r["clues"]:
                assert r["clues"][0] in vocabulary
                spoke += 1
            if seat == "random":
                assert all(w in RANDOM_CLUE_WORDS_ES for c in r["clues"] for w in c.split())
    assert spoke > 0


def test_an_english_tournament_keeps_the_english_entrants() -> None:
    t = Tournament(["default", "random"], games=1)
    assert t.language == "en" and [e.factory for e in t.entrants] == ["default", "random"]


def test_the_spanish_grammar_names_every_vocabulary_word() -> None:
    """data/languages/es/grammar.tsv gives every word of the Spanish givers' vocabulary, in its
    order, a kind; a noun its gender, an adjective its two forms (the first of which, or the
    word itself, is its masculine)."""
    data = resources.files("huescues.data").joinpath("languages/es/grammar.tsv").read_text("utf-8")
    rows = [line.split("\t") for line in data.splitlines() if not line.startswith("#")][1:]
    assert tuple(r[0] for r in rows) == clue_vocabulary("es")
    grammar = players_pack("es").grammar
    assert grammar is not None and players_pack("en").grammar is None
    assert len(grammar.nouns) > 800 and len(grammar.adjectives) > 150
    assert dict(grammar.nouns)["agua"] == "f" and dict(grammar.nouns)["bosque"] == "m"


def test_a_grammar_pairs_a_noun_and_then_its_adjective_in_its_gender() -> None:
    grammar = Grammar(
        nouns=(("agua", "f"), ("bosque", "m"), ("mar", "mf"), ("plata", "f")),
        adjectives=(("turbio", "turbio", "turbia"), ("tropical", "tropical", "tropical")),
    )
    assert grammar.pair("agua", "turbio") == "agua turbia"
    assert grammar.pair("bosque", "turbio") == "bosque turbio"
    assert grammar.pair("mar", "tropical") == "mar tropical"
    assert grammar.pair("turbio", "agua") is None  # the adjective after its noun
    assert grammar.pair("plata", "agua") is None  # two nouns are not put side by side


def test_a_bad_grammar_file_is_named() -> None:
    from huescues.agents._grammar import grammar_of

    def reading(text: str) -> Grammar:
        return grammar_of(text, "g.tsv")

    head = "word\tkind\tgender\tmasculine\tfeminine\n"
    assert reading(head + "agua\tnoun\tf\t\t\n").pair("agua", "x") is None
    with pytest.raises(ValueError, match="the noun 'agua' has gender 'n'"):
        reading(head + "agua\tnoun\tn\t\t\n")
    with pytest.raises(ValueError, match="the adjective 'seco' lacks its two forms"):
        reading(head + "seco\tadjective\t\tseco\t\n")
    with pytest.raises(ValueError, match="the header is"):
        reading("word\tkind\n")


def test_attested_in_spanish_reads_the_pair_in_english_in_spanish_order() -> None:
    """A Spanish pair is one people say when the Spanish reading carries it, surely, to an
    English phrase people say: bosque profundo is "deep forest"; profundo bosque reads
    "forest deep", which people do not say."""
    assert attested("bosque profundo", "es") and attested("cielo despejado", "es")
    assert not attested("profundo bosque", "es")
    assert not attested("bosque oscuro", "es")  # oscuro: read by the pack's own rating
    assert attested("oscuro", "es") and attested("pikachu", "es")
    assert attested("deep forest") and not attested("forest deep")


def test_spanish_two_word_second_clues_are_a_noun_and_its_agreeing_adjective(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Spanish givers' two-word second clues (R11), at tables of default and naming players:
    every one a giver weighs (pairs rarely beat the best word: since two words must be a colour's
    name, none is given in these games) is a noun and then an adjective in its gender, and a pair
    people say; any given is legal by the Spanish rules."""
    import huescues.agents._giver as giver_module

    grammar = players_pack("es").grammar
    assert grammar is not None
    gender, forms = dict(grammar.nouns), {m: (m, f) for _, m, f in grammar.adjectives}
    forms |= {f: (m, f) for _, m, f in grammar.adjectives}
    weighed: list[str] = []
    said_by_people = giver_module.attested

    def recording(text: str, language: str = "en") -> bool:
        if said_by_people(text, language):
            weighed.append(text)
            return True
        return False

    monkeypatch.setattr(giver_module, "attested", recording)
    given = []
    for seed in range(120):
        agents = [default_agent("es") if seat % 2 else naming_agent("es") for seat in range(4)]
        game = play_game(agents, seed=seed, rules=SPANISH)
        given += [r.clues[1] for r in game.state.history if not r.passed]
    pairs = [p for p in given if len(p.split()) == 2]
    assert set(pairs) <= set(weighed)
    assert len(set(weighed)) >= 4, "fewer than four two-word second clues weighed in 120 games"
    for pair in sorted(set(weighed)):
        noun, adjective = pair.split()
        assert noun in gender and adjective in forms, pair
        masculine, feminine = forms[adjective]
        assert adjective == (feminine if gender[noun] == "f" else masculine), pair
    assert all(legal_in_spanish(pair, second=True) for pair in pairs), pairs


def test_every_spanish_vocabulary_word_is_judged_to_mean_its_english() -> None:
    """Each Spanish givers' word was judged (knowledge/spanish/vocabulary-check.tsv) to mean the
    English word it stands for: the false friends the table brought (mendigo, "beggar", for
    "indigo") are judged no and are not in the vocabulary."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "knowledge/spanish/vocabulary-check.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    means = {(s, e): m for s, e, m in rows[1:]}
    data = resources.files("huescues.data").joinpath("languages/es/clue_vocabulary.tsv")
    for line in data.read_text("utf-8").splitlines()[1:]:
        spanish, english, *_ = line.split("\t")
        assert means.get((spanish, english)) == "yes", (spanish, english)
    assert means[("mendigo", "indigo")] == "no" and "mendigo" not in clue_vocabulary("es")
