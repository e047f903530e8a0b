"""Issue 34, item 5: how the Spanish pack reads Spanish words, on a held-out list.

The list, ``knowledge/spanish/heldout.tsv``, was written before the reading was changed (its
header says how): Spanish colour words, object words and noun-adjective phrases, each with the
colour a Spanish speaker pictures (a basic term and a rough CIELAB colour). For the Spanish
default model (``default_model("es")``, its reading over the standard board's squares as a
belief, read against them as the players read: ``in_view``) and the Spanish default player's
guesser (``default_agent("es").guesser.belief``, outside
a game), per kind of word:

* **ΔE mode**: the median CIEDE2000 from the belief's most likely square to the listed colour;
* **ΔE mean**: the same for the belief's mean colour (where it spreads);
* **term**: the share of words whose most likely square's basic term (c3's) is the listed one;
* **points**: R15's points of a pawn on the most likely square when the target is the square
  nearest the listed colour (3 on it, 2 in the frame, 1 in the ring).

The words are also grouped by whether one of them is rated in ``knowledge/ratings/*-es.tsv``
(read from the files, so the groups are the same for any tree measured). Nothing is fitted to the
list. Run: ``python scripts/evaluate_spanish_heldout.py`` (``--words`` for one line per word,
``--list knowledge/spanish/heldout-2.tsv`` for the second list, written blind before the third
glossary); a
tree before the change: ``PYTHONPATH=<tree>/src python scripts/evaluate_spanish_heldout.py``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from huescues import Board, Cell, Rules
from huescues.agents import default_agent
from huescues.colour import delta_e_2000
from huescues.engine import points_map
from huescues.language import BASIC_TERMS, ObjectColourModel, default_model, fold, in_view

ROOT = Path(__file__).resolve().parents[1]
HELDOUT = ROOT / "knowledge" / "spanish" / "heldout.tsv"
FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Entry:
    spanish: str
    kind: str
    basic: str
    lab: FloatArray
    quoted: bool


def read_heldout(path: Path = HELDOUT) -> list[Entry]:
    """The held-out list (``#`` lines are its header)."""
    rows = [
        line.split("\t")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    head, body = rows[0], rows[1:]
    if head != ["spanish", "kind", "basic", "L", "a", "b", "issue"]:
        raise ValueError(f"{path}: unexpected header {head}")
    out = []
    for spanish, kind, basic, light, a, b, issue in body:
        if basic not in BASIC_TERMS:
            raise ValueError(f"{path}: {spanish!r} has basic term {basic!r}, not one of the 11")
        lab = np.array([float(light), float(a), float(b)])
        out.append(Entry(spanish, kind, basic, lab, issue == "yes"))
    return out


def words(entry: Entry) -> list[str]:
    return fold(entry.spanish).split()


def spanish_rated() -> set[str]:
    """The words of ``knowledge/ratings/*-es.tsv`` and their plural and feminine forms, folded
    (read from the files, so that the groups are the same before and after the pack read them)."""
    out: set[str] = set()
    for path in sorted((ROOT / "knowledge" / "ratings").glob("*-es.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            w = fold(line.split("\t", 1)[0])
            out |= {w, w + "s", w + "es", w[:-1] + "a" if w.endswith("o") else w}
    return out


@dataclass(frozen=True)
class Read:
    de_mode: float
    de_mean: float
    term_ok: bool
    points: int
    mode_term: str


def judge(entry: Entry, belief: FloatArray, board: Board, rules: Rules) -> Read:
    """How one belief over the board's squares (flat, summing to 1) reads the entry."""
    lab = board.lab.reshape(-1, 3)
    mode = int(np.argmax(belief))
    mean = belief @ lab
    de_mode = float(delta_e_2000(lab[mode], entry.lab))
    de_mean = float(delta_e_2000(mean, entry.lab))
    p = ObjectColourModel.default().grid.p_at(lab[mode][None, :])[0]
    term = BASIC_TERMS[int(np.argmax(p))]
    target = int(np.argmin(delta_e_2000(lab, entry.lab[None, :])))
    cell = Cell(target // board.cols, target % board.cols)
    pts = int(points_map(rules, board.shape, cell).reshape(-1)[mode])
    return Read(de_mode, de_mean, term == entry.basic, pts, term)


def model_belief(model: object, text: str, board: Board) -> FloatArray:
    lab = board.lab.reshape(-1, 3)
    viewed = in_view(model, lab)  # type: ignore[arg-type]  # as the players read it
    s = np.asarray(viewed.score(text, lab), dtype=np.float64)
    w = np.exp(s - s.max())
    out: FloatArray = w / w.sum()
    return out


@dataclass(frozen=True)
class Summary:
    """A group's figures: its words, the median ΔE of the mode and of the mean, the share with
    the listed basic term, the mean points."""

    n: int
    de_mode: float
    de_mean: float
    term: float
    points: float


def summarise(rows: list[tuple[Entry, Read]]) -> Summary:
    return Summary(
        len(rows),
        float(np.median([r.de_mode for _, r in rows])),
        float(np.median([r.de_mean for _, r in rows])),
        float(np.mean([r.term_ok for _, r in rows])),
        float(np.mean([r.points for _, r in rows])),
    )


def summary(name: str, rows: list[tuple[Entry, Read]]) -> str:
    s = summarise(rows)
    return f"| {name} | {s.n} | {s.de_mode:.1f} | {s.de_mean:.1f} | {s.term:.2f} | {s.points:.2f} |"


def groups() -> dict[str, Callable[[Entry], bool]]:
    """The kinds of word the figures are grouped by, in the tables' order."""
    rated = spanish_rated()
    return {
        "colour words": lambda e: e.kind == "colour",
        "object words": lambda e: e.kind == "object",
        "phrases": lambda e: e.kind == "phrase",
        "quoted in the issue": lambda e: e.quoted,
        "not quoted": lambda e: not e.quoted,
        "a word rated in knowledge/ratings/*-es.tsv": lambda e: bool(rated & set(words(e))),
        "no word rated there": lambda e: not rated & set(words(e)),
        "all": lambda e: True,
    }


def measure(path: Path = HELDOUT) -> dict[str, list[tuple[Entry, Read]]]:
    """Each reader's reading of every entry of the list at ``path``: reader to (entry, read)
    rows."""
    entries = read_heldout(path)
    board = Board.standard()
    rules = Rules.standard(4, language="es")
    readers = {
        'default_model("es")': lambda text: model_belief(default_model("es"), text, board),
        'default_agent("es").guesser': lambda text: np.asarray(
            default_agent("es").guesser.belief(board, [text]), dtype=np.float64
        ).reshape(-1),
    }
    return {
        name: [(e, judge(e, read(e.spanish), board, rules)) for e in entries]
        for name, read in readers.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", action="store_true", help="one line per word too")
    ap.add_argument(
        "--list",
        type=Path,
        default=HELDOUT,
        help="the held-out list to read (default: knowledge/spanish/heldout.tsv; the second, "
        "knowledge/spanish/heldout-2.tsv, was written before the third glossary)",
    )
    args = ap.parse_args()
    kinds = groups()
    for name, rows in measure(args.list).items():
        print(f"\n## {name}\n")
        print("| words | n | ΔE mode (median) | ΔE mean (median) | term | points |")
        print("|---|---:|---:|---:|---:|---:|")
        for group, keep in kinds.items():
            kept = [(e, r) for e, r in rows if keep(e)]
            if kept:  # (the second list quotes no word of the issue)
                print(summary(group, kept))
        if args.words:
            print()
            for e, r in rows:
                print(
                    f"{e.spanish:18s} {e.basic:7s} read {r.mode_term:7s} "
                    f"ΔE {r.de_mode:5.1f} (mean {r.de_mean:5.1f}) points {r.points}"
                )


if __name__ == "__main__":
    main()
