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

Spanish (``--language es``): the same with the Spanish words of ``probe-2.tsv`` and
``probe-5.tsv`` (folded: no accents), read by ``default_model("es")``, whose pack puts a word it
neither rates nor translates right to a word its own knowledge or its glossaries hold; a typo is
put back when it is read as the word is (the same English and own words).

``--list FILE``: a list of real misspellings, not made by a rule (``knowledge/work/
misspellings-en.tsv``, ``-es.tsv`` and ``-es-2.tsv``, written blind; columns typed, meant,
category, basic, L, a, b): how many of the typed clues are read as the word meant, as another
or as they are, and the points of the typed clues and of the words meant.

Run: ``python scripts/evaluate_spelling.py`` (``--language es``, ``--list FILE``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
from evaluate_spanish_probe import _rows, points

from huescues import Board, Rules
from huescues.language import TranslatedModel, default_model, fold, in_view, name_key

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "knowledge" / "work"
SOURCES = {"en": ("probe-4.tsv", "probe-5.tsv"), "es": ("probe-2.tsv", "probe-5.tsv")}
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


class Reader:
    """A language's default model, as the probes read it: points of a text, and the text as it
    is read (English: the words put right; Spanish: the English and own words it is read as)."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.board, self.rules = Board.retail(), Rules.standard(4)
        self.lab = self.board.lab.reshape(-1, 3)
        self.default = default_model(language)
        self.model = in_view(self.default, self.lab)

    def points(self, text: str, colour: np.ndarray) -> int:
        s = np.asarray(self.model.score(text, self.lab), dtype=np.float64)
        w = np.exp(s - s.max())
        return points(w / w.sum(), colour, self.board, self.rules)

    def as_read(self, text: str) -> object:
        if isinstance(self.default, TranslatedModel):
            t = self.default.translate(text)
            return (t.text, t.own)
        return name_key(getattr(self.default, "spelled", lambda x: x)(text))

    def as_it_is(self, text: str) -> object:
        """What :meth:`as_read` gives a text read as it is, unknown."""
        if isinstance(self.default, TranslatedModel):
            return (fold(text), ())
        return name_key(text)

    def knows(self, text: str) -> bool:
        """Whether the reading knows the text as it is (a typo that is another word)."""
        if isinstance(self.default, TranslatedModel):
            # The pack's own lookups: a word it rates or translates as it is.
            word = fold(text)
            return self.default._own(word) is not None or self.default._word(word) is not None
        return bool(self.default.other.knows(text))  # type: ignore[attr-defined]

    def word_of(self, row: list[str]) -> str:
        """A probe row's word in the language (the Spanish column of a bilingual list)."""
        return fold(row[2]) if self.language == "es" else row[0]


def typos(reader: Reader) -> None:
    rng = np.random.default_rng(SEED)
    for source in SOURCES[reader.language]:
        back = other = left = 0
        typo_points: list[int] = []
        word_points: list[int] = []
        for row in _rows(WORK / source):
            word, colour = reader.word_of(row), colour_of(row)
            if colour is None or len(word) < MIN_LETTERS or not word.isalpha():
                continue
            wrong = typo(word, rng)
            if wrong == word or reader.knows(wrong):
                continue
            got = reader.as_read(wrong)
            back += got == reader.as_read(word)
            left += got == reader.as_it_is(wrong)
            other += got not in (reader.as_read(word), reader.as_it_is(wrong))
            typo_points.append(reader.points(wrong, colour))
            word_points.append(reader.points(word, colour))
        n = len(typo_points)
        print(
            f"{source}: {n} typos; put back to the word {back}, to another word {other}, left "
            f"{left}; points a typo {np.mean(typo_points):.3f}, a word {np.mean(word_points):.3f}"
        )


def misspellings(reader: Reader, path: Path, show: Callable[[str], None] = print) -> None:
    """A list of real misspellings: how each typed clue is read, and points."""
    back = other = left = 0
    typed_points: list[int] = []
    meant_points: list[int] = []
    for row in _rows(path):
        typed, meant, colour = row[0], row[1], colour_of(row)
        if colour is None:
            continue
        got = reader.as_read(typed)
        if got == reader.as_read(meant):
            back += 1
        elif got == reader.as_it_is(typed):
            left += 1
        else:
            other += 1
            show(f"  {typed} ({meant}): read as {got}")
        typed_points.append(reader.points(typed, colour))
        meant_points.append(reader.points(meant, colour))
    print(
        f"{path.name}: {len(typed_points)} misspellings; read as the word meant {back}, as "
        f"another {other}, as they are {left}; points a misspelling "
        f"{np.mean(typed_points):.3f}, the word meant {np.mean(meant_points):.3f}"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--language", choices=("en", "es"), default="en")
    ap.add_argument("--list", type=Path, help="a list of real misspellings (typed, meant, ...)")
    args = ap.parse_args(argv)
    reader = Reader(args.language)
    if args.list is not None:
        misspellings(reader, args.list)
        return
    typos(reader)
    if args.language != "en":
        return
    spelled = getattr(reader.default, "spelled", lambda text: text)
    print()
    print("Probe texts read as another word:")
    for path in sorted(WORK.glob("probe*.tsv")):
        for row in _rows(path):
            text, colour = row[0], colour_of(row)
            if colour is None:
                continue
            fixed = spelled(text)
            if fixed != text:
                print(f"  {path.name}: {text} -> {fixed}: {reader.points(text, colour)} points")


if __name__ == "__main__":
    main()
