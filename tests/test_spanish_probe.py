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
