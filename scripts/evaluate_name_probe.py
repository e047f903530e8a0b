"""How the English readers read names typed as players type them, on a blind list.

``knowledge/work/probe-names.tsv`` is 300 names a Hues and Cues player might give as clues
(characters, shows and films, games, brands, music, sport, places, events, art), typed as a
player would type them on a phone, each with the colour its writer pictured (a basic term and a
rough CIELAB colour), written blind by a helper session before the reading of names written
without "the" or together/apart changed (its header says how). Nothing is fitted to it.

Each name is read by ``default_model()`` (its scores over the board as a belief, read against the
board's squares as the players read: ``in_view``) and the default
player's guesser (``default_agent().guesser.belief``, outside a game); a reader places where its
belief's expected R15 points are highest and scores R15's points of that square against the
square nearest the listed colour, as ``scripts/evaluate_spanish_probe.py`` does. Per category:
the names the knowledge reads by a rating (as they are, or as another form of a known name) and
the mean points of each reader, with a 95% bootstrap interval over the names (4,000 resamples,
seed 0).

``--probe FILE`` reads another list of the same columns: ``probe-short-names.tsv`` and
``probe-short-names-2.tsv`` (short forms of names, ``vader``, with the name each stands for) and
``probe-rare-words.tsv`` (uncommon words that are no names, which a reading of names must leave
alone), ``probe-brackets.tsv`` (clue cards with a hint in brackets, ``woody (toy story)``; its
last column, the Spanish card, is not read here) and ``probe-long-names.tsv``, ``-2`` and ``-3``
(longer forms of names, ``clifford the big red dog``, and phrases that name no one), and
``probe-4.tsv`` (300 clue words in ten categories, written after the reading in view of the
board was chosen and before it was measured on it), each written blind in the same way.

Run: ``python scripts/evaluate_name_probe.py`` (the retail board); ``--save FILE`` writes each
name's points; ``--against FILE`` (a file another tree saved) adds the paired differences, this
tree less that one, and lists the names whose points moved.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from evaluate_spanish_probe import _rows, interval, points, readers

from huescues import Board, Rules
from huescues.language import ObjectColourModel

ROOT = Path(__file__).resolve().parents[1]
PROBE = ROOT / "knowledge" / "work" / "probe-names.tsv"


def rated(model: ObjectColourModel, text: str) -> bool:
    """Whether the knowledge reads the text by a rating of its own (not from its words' or
    its vector's)."""
    return model.sources(text) != () and model.evidence(text) > model.carried_evidence


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--probe", type=Path, default=PROBE)
    ap.add_argument("--save", type=Path, help="write each name's points (TSV)")
    ap.add_argument("--against", type=Path, help="another tree's --save file: paired differences")
    args = ap.parse_args()
    board, rules = Board.retail(), Rules.standard(4)
    rows = _rows(args.probe)
    words = [r[0] for r in rows]
    categories = [r[1] for r in rows]
    colours = [np.array([float(x) for x in r[3:6]]) for r in rows]
    read = readers("en", board)
    got = {
        name: np.array([points(f(w), c, board, rules) for w, c in zip(words, colours, strict=True)])
        for name, f in read.items()
    }
    model = ObjectColourModel.default()
    known = np.array([rated(model, w) for w in words])
    other = None
    if args.against is not None:
        lines = args.against.read_text(encoding="utf-8").splitlines()[1:]
        other = {name: np.zeros(len(words)) for name in got}
        for i, line in enumerate(lines):
            parts = line.split("\t")
            if parts[0] != words[i]:
                raise ValueError(f"{args.against} row {i + 1} is {parts[0]!r}, not {words[i]!r}")
            for j, name in enumerate(got):
                other[name][i] = float(parts[1 + j])
    print(f"{len(words)} names of {args.probe.name} on the retail board; points a name (R15)\n")
    head = "| category | names | rated |" + "".join(f" {n} |" for n in got)
    if other is not None:
        head += "".join(f" {n}, less the other tree |" for n in got)
    print(head)
    print("| --- | ---: | ---: |" + " ---: |" * (len(got) * (2 if other is not None else 1)))
    for category in [*sorted(set(categories)), None]:
        mine = np.array([category in (None, c) for c in categories])
        n = int(mine.sum())
        draws = np.random.default_rng(0).integers(0, n, (4000, n))
        cells = [interval(got[name][mine], draws) for name in got]
        if other is not None:
            cells += [interval((got[k] - other[k])[mine], draws, "+") for k in got]
        label = category or "**all**"
        print(f"| {label} | {n} | {int(known[mine].sum())} | " + " | ".join(cells) + " |")
    if other is not None:
        for name in got:
            moved = [
                f"{w} {o:.0f} -> {g:.0f}"
                for w, g, o in zip(words, got[name], other[name], strict=True)
                if g != o
            ]
            print(f"\n{name}: {len(moved)} names moved: " + "; ".join(moved))
    if args.save is not None:
        out = ["word\t" + "\t".join(got)]
        out += [w + "\t" + "\t".join(f"{got[n][i]:.0f}" for n in got) for i, w in enumerate(words)]
        args.save.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
