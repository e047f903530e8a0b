"""How the English readers read misspelt clues: typos made from blind probe lists, and the
probes' own words that the reading puts right.

Typos: every single word of five letters or more of ``knowledge/work/probe-4.tsv`` and
``probe-5.tsv`` (English; written blind, each word with the colour its writer pictured) gets one
edit drawn with a fixed seed (a letter left out, added or changed, or two neighbouring letters
swapped); a typo the knowledge reads as a word of its own (another word) is left out. Each typo,
and the word itself, is read by ``default_model()`` in view of the retail board (as
``scripts/evaluate_name_probe.py`` reads) and scores R15's points against the square nearest the
listed colour. Printed: how many typos the reading puts back to the word meant
(:meth:`~huescues.language.ObjectColourModel.spelled`), to another word, or leaves; and the mean
points of the typos and of the words.

Then every text of every English probe list that the reading puts right, which are no typos (a
name or a rare word read as another word), with its points as it is read and as it was read
before (run the script on a tree without the rule for the before column:
``PYTHONPATH=<tree>/src python scripts/evaluate_spelling.py``; without ``spelled`` the texts are
read as they are).

Run: ``python scripts/evaluate_spelling.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from evaluate_spanish_probe import _rows, points

from huescues import Board, Rules
from huescues.language import default_model, in_view, name_key

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "knowledge" / "work"
SOURCES = ("probe-4.tsv", "probe-5.tsv")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SEED = 34
MIN_LETTERS = 5


def colour_of(row: list[str]) -> np.ndarray | None:
    """A probe row's listed CIELAB colour: its first three numeric fields in a row."""
    for i in range(len(row) - 2):
        try:
            return np.array([float(x) for x in row[i : i + 3]])
        except ValueError:
            continue
    return None


def typo(word: str, rng: np.random.Generator) -> str:
    """One edit of ``word``: a letter left out, added or changed, or two letters swapped."""
    i = int(rng.integers(len(word)))
    kind = int(rng.integers(4))
    if kind == 0:
        return word[:i] + word[i + 1 :]
    if kind == 1:
        return word[:i] + LETTERS[int(rng.integers(26))] + word[i:]
    if kind == 2:
        return word[:i] + LETTERS[int(rng.integers(26))] + word[i + 1 :]
    return word[:i] + word[i + 1 : i + 2] + word[i] + word[i + 2 :]


def main() -> None:
    board, rules = Board.retail(), Rules.standard(4)
    lab = board.lab.reshape(-1, 3)
    model = in_view(default_model(), lab)
    knowledge = default_model().other
    spelled = getattr(default_model(), "spelled", lambda text: text)

    def read(text: str, colour: np.ndarray) -> int:
        s = np.asarray(model.score(text, lab), dtype=np.float64)
        w = np.exp(s - s.max())
        return points(w / w.sum(), colour, board, rules)

    rng = np.random.default_rng(SEED)
    for source in SOURCES:
        back = other = left = 0
        typo_points: list[int] = []
        word_points: list[int] = []
        for row in _rows(WORK / source):
            word, colour = row[0], colour_of(row)
            if colour is None or len(word) < MIN_LETTERS or not word.isalpha():
                continue
            wrong = typo(word, rng)
            if wrong == word or knowledge.knows(wrong):
                continue
            fixed = name_key(spelled(wrong))
            back += fixed == word
            other += fixed not in (word, wrong)
            left += fixed == wrong
            typo_points.append(read(wrong, colour))
            word_points.append(read(word, colour))
        n = len(typo_points)
        print(
            f"{source}: {n} typos; put back to the word {back}, to another word {other}, left "
            f"{left}; points a typo {np.mean(typo_points):.3f}, a word {np.mean(word_points):.3f}"
        )
    print()
    print("Probe texts read as another word:")
    for path in sorted(WORK.glob("probe*.tsv")):
        for row in _rows(path):
            text, colour = row[0], colour_of(row)
            if colour is None:
                continue
            fixed = spelled(text)
            if fixed != text:
                print(f"  {path.name}: {text} -> {fixed}: {read(text, colour)} points")


if __name__ == "__main__":
    main()
