"""The blind probes that measure Spanish against English (issue 34, item 5; docs/languages.md):
their files line up, and scripts/evaluate_spanish_probe.py scores a reading as it says."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from huescues.engine import Board, Rules
from huescues.language import BASIC_TERMS
from repo_scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = {"ANIMAL", "EDIBLE", "PLANT", "POP", "STONE", "SUBJECTIVE", "SURROUNDINGS"}


def _script() -> Any:
    return load_script("evaluate_spanish_probe")


def test_each_probe_lists_fifty_words_a_category_in_both_languages() -> None:
    script = _script()
    for path in (None, ROOT / "knowledge" / "work" / "probe-2.tsv"):
        words = script.probe(path)
        assert len(words) == 350
        assert Counter(w[1] for w in words) == dict.fromkeys(CATEGORIES, 50)
        for english, _, spanish, lab in words:
            assert english and spanish and english == english.lower(), (english, spanish)
            assert lab.shape == (3,) and 0 <= lab[0] <= 100, english
    rows = script._rows(ROOT / "knowledge" / "work" / "probe-2.tsv")
    assert {r[3] for r in rows} <= set(BASIC_TERMS)


def test_the_fifth_probe_lists_sixty_words_a_category_in_both_languages() -> None:
    """probe-5.tsv: written blind on 2026-12-07 and measured before any change it could choose
    (docs/knowledge.md): 420 words, 60 in each of the seven categories, none a dev clue's."""
    script = _script()
    words = script.probe(ROOT / "knowledge" / "work" / "probe-5.tsv")
    assert Counter(w[1] for w in words) == dict.fromkeys(CATEGORIES, 60)
    assert len({w[0] for w in words}) == len({w[2] for w in words}) == 420
    from huescues.research import dev_picks

    dev = {word for clue in dev_picks()[0].clues() for word in (clue, clue.split(" (")[0])}
    assert not dev & {w[0] for w in words}
    for english, _, spanish, lab in words:
        assert english and spanish and english == english.lower(), (english, spanish)
        assert lab.shape == (3,) and 0 <= lab[0] <= 100, english
    rows = script._rows(ROOT / "knowledge" / "work" / "probe-5.tsv")
    assert {r[3] for r in rows} <= set(BASIC_TERMS)


def test_the_third_probe_is_a_studys_cards() -> None:
    """probe-3.tsv: the study's seven categories by their Spanish codes, each Spanish word as a
    card prints it (upper case, at most 14 characters)."""
    script = _script()
    words = script.probe(ROOT / "knowledge" / "work" / "probe-3.tsv")
    study = {"ANIMAL", "COMESTIBLE", "ENTORNO", "PIEDRA", "PLANTA", "POP", "SUBJETIVO"}
    assert Counter(w[1] for w in words) == dict.fromkeys(study, 50)
    for english, _, spanish, lab in words:
        assert spanish == spanish.upper() and len(spanish) <= 14, spanish
        assert english == english.lower() and lab.shape == (3,), english
    assert len({w[2] for w in words}) == 350


def test_a_probe_in_another_order_is_refused(tmp_path: Path) -> None:
    script = _script()
    english = script._rows(script.PROBE_EN)
    spanish = tmp_path / "probe-es.tsv"
    rows = ["word_en\tcategory\tword_es"]
    rows += [f"{r[0]}\t{r[1]}\tx" for r in reversed(english)]
    spanish.write_text("\n".join(rows) + "\n", encoding="utf-8")
    script.PROBE_ES = spanish
    with pytest.raises(ValueError, match="in its order"):
        script.probe()


def test_a_word_scores_r15_points_of_the_readers_square_against_the_listed_colour() -> None:
    script = _script()
    board, rules = Board.retail(), Rules.standard(4)
    lab = board.lab.reshape(-1, 3)
    target = 7 * board.cols + 12  # H13
    belief = np.zeros(board.size)
    belief[target] = 1.0
    assert script.points(belief, lab[target], board, rules) == 3
    # A belief one square away earns the frame's points, two away the ring's, further none.
    for offset, want in ((1, 2), (2, 1), (3, 0)):
        moved = np.zeros(board.size)
        moved[target + offset] = 1.0
        assert script.points(moved, lab[target], board, rules) == want


def test_the_phrase_list_has_fifty_phrases_of_each_shape_and_the_script_counts_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    script = _script()
    rows = script._rows(script.PHRASES)
    assert len(rows) == 200 and all(len(r) == 3 for r in rows)
    assert Counter(r[2] for r in rows) == dict.fromkeys(("noun-adj", "adj-noun", "de", "other"), 50)
    script.phrases()
    table = capsys.readouterr().out
    assert "| **all** | 200 |" in table and "| adj-noun | 50 |" in table


def test_the_names_probes_list_names_with_a_colour_each() -> None:
    """probe-names.tsv (300 names typed as players type them, English), probe-names-es.tsv (200
    names Spanish speakers give, with their English), probe-short-names.tsv and
    probe-short-names-2.tsv (200 short forms each, with the name each stands for) and
    probe-rare-words.tsv (200 uncommon words that are no names), probe-brackets.tsv (150
    clue cards with a hint in brackets, in English and Spanish) and probe-long-names*.tsv (150
    longer forms of names and 50 phrases that name no one each) and probe-4.tsv (300 clue words
    in ten categories), written blind (docs/knowledge.md, docs/languages.md): each row a name,
    a kind, a basic term, a colour."""
    names = load_script("evaluate_name_probe")
    rows = names._rows(names.PROBE)
    assert len(rows) == 300 and len({r[0] for r in rows}) == 300
    assert {r[2] for r in rows} <= set(BASIC_TERMS)
    assert all(len(r) == 6 and 0 <= float(r[3]) <= 100 for r in rows)
    words = _script().probe(ROOT / "knowledge" / "work" / "probe-names-es.tsv")
    assert len(words) == 200 and len({w[2] for w in words}) == 200
    assert sum(" " in w[2].strip() for w in words) > 100  # most are names of several words
    for file in ("probe-short-names.tsv", "probe-short-names-2.tsv"):
        short = names._rows(ROOT / "knowledge" / "work" / file)
        assert len(short) == 200 and all(len(r) == 7 and r[6] for r in short)  # the full name
    cards = names._rows(ROOT / "knowledge" / "work" / "probe-brackets.tsv")
    assert len(cards) == 150 and all(len(r) == 7 and "(" in r[0] and "(" in r[6] for r in cards)
    for file in ("probe-long-names.tsv", "probe-long-names-2.tsv", "probe-long-names-3.tsv"):
        long = names._rows(ROOT / "knowledge" / "work" / file)
        assert len(long) == 200 and len({r[0] for r in long}) == 200
        kinds = [r[1] for r in long]
        assert kinds.count("LONG_NAME") == 150 and kinds.count("PHRASE") == 50
        assert all(len(r) == 7 and r[2] in BASIC_TERMS for r in long)
    rare = names._rows(ROOT / "knowledge" / "work" / "probe-rare-words.tsv")
    assert len(rare) == 200 and len({r[0] for r in rare}) == 200
    assert all(len(r) == 6 and r[2] in BASIC_TERMS for r in rare)
    fourth = names._rows(ROOT / "knowledge" / "work" / "probe-4.tsv")
    assert len(fourth) == 300 and len({r[0] for r in fourth}) == 300
    assert all(len(r) == 6 and r[2] in BASIC_TERMS for r in fourth)
    assert len({r[1] for r in fourth}) == 10  # ten categories, 30 words each


def test_the_name_probe_reports_paired_differences_against_another_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """scripts/evaluate_name_probe.py on a short list: --save writes each name's points and
    --against reads them back, so a tree against itself differs by nothing; a file of other
    names is refused, naming the row."""
    names = load_script("evaluate_name_probe")
    probe = tmp_path / "probe.tsv"
    probe.write_text(
        "# a test list\nword\tcategory\tbasic\tL\ta\tb\n"
        "pikachu\tCHARACTER\tyellow\t85\t0\t80\nshrek\tCHARACTER\tgreen\t60\t-35\t45\n",
        encoding="utf-8",
    )
    saved = tmp_path / "points.tsv"
    monkeypatch.setattr("sys.argv", ["x", "--probe", str(probe), "--save", str(saved)])
    names.main()
    assert saved.read_text(encoding="utf-8").splitlines()[1].startswith("pikachu\t")
    monkeypatch.setattr("sys.argv", ["x", "--probe", str(probe), "--against", str(saved)])
    names.main()
    out = capsys.readouterr().out
    assert "| **all** | 2 | 2 |" in out and "+0.000 [+0.000, +0.000]" in out
    assert out.count("0 names moved") == 2
    saved.write_text("word\ta\tb\nsmurf\t1\t1\nshrek\t1\t1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="row 1 is 'smurf'"):
        names.main()
