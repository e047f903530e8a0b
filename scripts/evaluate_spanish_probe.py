"""Issue 34, item 5: Spanish as good as English, on words neither the pack nor its measures saw.

``knowledge/work/probe-en.tsv`` is 350 English words a Hues and Cues study might give as clues,
50 in each of the study's seven categories, each with the colour its writer pictured (a basic
term and a rough CIELAB colour), written blind by a helper session. ``knowledge/work/probe-es.tsv``
is their Spanish, as a study's translator would show them in Spain, written blind by another
helper session that opened nothing but the English list (its header says how). No rating or
setting was written from either; the fourth glossary (``glossary-abstract.tsv``) was written after
``docs/languages.md`` named some of the probe's misreadings, so its gain here is not held out
(the page says by how much).

Each English word is read by an English reader and its Spanish word by the same reader in
Spanish: ``default_model(language)`` (its scores over the board as a belief, read against the
board's squares as the players read: ``in_view``) and the default
player's guesser (``default_agent(language).guesser.belief``, outside a game). A reader places
where its belief's expected R15 points are highest (first in reading order on a tie), and the
word scores R15's points of that square against the square nearest the listed colour (3 on it,
2 in its frame, 1 in the ring). Per category: the mean points in English and in Spanish, and
Spanish less English, paired by word, with a 95% bootstrap interval over the words (4,000
resamples, seed 0). Then what the Spanish table makes of the Spanish words: the same English
word as the probe's, the pack's own rating of the word, or another reading.

Run: ``python scripts/evaluate_spanish_probe.py`` (the retail board, the one people's picks are
on; ``--board standard``; ``--words`` lists the words read otherwise than in English;
``--probe knowledge/work/probe-2.tsv`` reads a second probe, both languages in one file, written
blind by a third helper session after the fourth glossary; ``knowledge/work/probe-3.tsv``, a
fourth session's, prints the Spanish as a study's cards do: upper case, at most 14 characters,
and shares most of its words with the first two; ``knowledge/work/probe-names-es.tsv``, a fifth
session's, 200 names Spanish speakers give, with their English; ``knowledge/work/probe-5.tsv``,
420 words, 60 in each category, written blind on 2026-12-07 and not yet used to choose anything:
docs/knowledge.md); ``--phrases`` instead counts
the Spanish phrases of ``knowledge/work/phrases-es.tsv`` (200, in four shapes, with the English a
player would say, written blind) that the table translates to the listed English word for word.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from huescues import Board, Cell, Rules
from huescues.agents import best_squares, default_agent, expected_points
from huescues.colour import delta_e_2000
from huescues.engine import points_map
from huescues.language import default_model, in_view

ROOT = Path(__file__).resolve().parents[1]
PROBE_EN = ROOT / "knowledge" / "work" / "probe-en.tsv"
PROBE_ES = ROOT / "knowledge" / "work" / "probe-es.tsv"
PHRASES = ROOT / "knowledge" / "work" / "phrases-es.tsv"
FloatArray = NDArray[np.float64]


def _rows(path: Path) -> list[list[str]]:
    """A probe file's rows under its header (``#`` lines are its comment)."""
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x and x[0] != "#"]
    return [line.split("\t") for line in lines[1:]]


def probe(path: Path | None = None) -> list[tuple[str, str, str, FloatArray]]:
    """(English word, category, Spanish word, listed CIELAB colour) for every probe word: of
    probe-en.tsv and probe-es.tsv, or of one file ``path`` with both languages (``word_en
    category word_es basic L a b``, as ``knowledge/work/probe-2.tsv``)."""
    if path is not None:
        return [(r[0], r[1], r[2], np.array([float(x) for x in r[4:7]])) for r in _rows(path)]
    english, spanish = _rows(PROBE_EN), _rows(PROBE_ES)
    if [r[0] for r in english] != [r[0] for r in spanish]:
        raise ValueError(f"{PROBE_ES.name} does not list {PROBE_EN.name}'s words in its order")
    return [
        (en[0], en[1], es[2], np.array([float(x) for x in en[3:6]]))
        for en, es in zip(english, spanish, strict=True)
    ]


def phrases(path: Path = PHRASES) -> None:
    """How many of the blind phrase list's Spanish phrases the Spanish table translates to the
    list's English word for word, by shape (and the others, as read)."""
    model = default_model("es")
    rows = _rows(path)
    kinds = list(dict.fromkeys(r[2] for r in rows))
    got = {kind: [r for r in rows if r[2] == kind] for kind in kinds}
    print(f"{len(rows)} phrases of {path.name}; translated word for word as listed:\n")
    print("| shape | phrases | as listed |")
    print("| --- | ---: | ---: |")
    for kind, mine in got.items():
        hits = sum(model.translate(r[0]).text == r[1] for r in mine)
        print(f"| {kind} | {len(mine)} | {hits} |")
    hits = sum(model.translate(r[0]).text == r[1] for r in rows)
    print(f"| **all** | {len(rows)} | {hits} |")


def readers(language: str, board: Board) -> dict[str, Callable[[str], FloatArray]]:
    """The two readers in ``language``: each word to a belief over the board's squares."""
    lab = board.lab.reshape(-1, 3)
    model = in_view(default_model(language), lab)
    guesser = default_agent(language).guesser

    def by_model(text: str) -> FloatArray:
        s = np.asarray(model.score(text, lab), dtype=np.float64)
        w = np.exp(s - s.max())
        out: FloatArray = w / w.sum()
        return out

    def by_guesser(text: str) -> FloatArray:
        out: FloatArray = np.asarray(guesser.belief(board, [text]), np.float64).reshape(-1)
        return out

    return {"default_model": by_model, "the default player's guesser": by_guesser}


def points(belief: FloatArray, colour: FloatArray, board: Board, rules: Rules) -> int:
    """R15's points of the square with the most expected points under ``belief``, against the
    square nearest ``colour``."""
    square = int(best_squares(expected_points(belief.reshape(board.shape), rules).reshape(-1)))
    target = int(np.argmin(delta_e_2000(board.lab.reshape(-1, 3), colour[None, :])))
    cell = Cell(target // board.cols, target % board.cols)
    return int(points_map(rules, board.shape, cell).reshape(-1)[square])


def interval(x: FloatArray, draws: NDArray[np.intp], sign: str = "") -> str:
    lo, hi = np.percentile(x[draws].mean(axis=1), [2.5, 97.5])
    return f"{x.mean():{sign}.3f} [{lo:{sign}.3f}, {hi:{sign}.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", choices=("retail", "standard"), default="retail")
    ap.add_argument("--words", action="store_true", help="list the words read otherwise")
    ap.add_argument(
        "--probe", type=Path, help="one file with both languages (knowledge/work/probe-2.tsv)"
    )
    ap.add_argument(
        "--phrases", action="store_true", help="the blind phrase list's translations instead"
    )
    args = ap.parse_args()
    if args.phrases:
        phrases()
        return
    board = Board.retail() if args.board == "retail" else Board.standard()
    rules = Rules.standard(4)
    words = probe(args.probe)
    read = {lang: readers(lang, board) for lang in ("en", "es")}
    draws = np.random.default_rng(0).integers(0, len(words), (4000, len(words)))
    categories = sorted({w[1] for w in words})
    print(f"{len(words)} probe words on the {args.board} board; points a word (R15)\n")
    for name in read["en"]:
        got = {
            lang: np.array(
                [
                    points(read[lang][name](w[0 if lang == "en" else 2]), w[3], board, rules)
                    for w in words
                ],
                dtype=np.float64,
            )
            for lang in ("en", "es")
        }
        print(f"**{name}**\n")
        print("| category | words | English | Spanish | Spanish less English | worse / better |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for category in [*categories, None]:
            mine = [i for i, w in enumerate(words) if category in (None, w[1])]
            en, es = got["en"][mine], got["es"][mine]
            sub = np.random.default_rng(0).integers(0, len(mine), (4000, len(mine)))
            d = es - en
            label = category or "**all**"
            print(
                f"| {label} | {len(mine)} | {en.mean():.3f} | {es.mean():.3f} | "
                f"{interval(d, sub if category else draws, '+')} | "
                f"{int((d < 0).sum())} / {int((d > 0).sum())} |"
            )
        print()
    model = default_model("es")
    same, own, other = 0, 0, []
    for en_word, _, es_word, _ in words:
        t = model.translate(es_word)
        if t.own:
            own += 1
        elif t.text.lower() == en_word.lower():
            same += 1
        else:
            other.append(f"{es_word} ({en_word}): {t.text or '-'}")
    print(
        f"The Spanish table reads {same} of the {len(words)} Spanish words as the probe's English "
        f"word, {own} by the pack's own rating, and {len(other)} otherwise."
    )
    if args.words:
        print("\n" + "\n".join(other))


if __name__ == "__main__":
    main()
