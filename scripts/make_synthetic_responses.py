"""Make the synthetic "human responses" dataset: src/huescues/data/research/synthetic_responses.csv.

THE PICKS ARE SIMULATED, NOT HUMAN DATA. They exist to test and demonstrate
:mod:`huescues.research` (loading, skip reports, model-versus-human measures) and must not be
cited as evidence about how people read colour words.

How they are made (deterministic, fixed seed): for each of 40 everyday clue words, each of 12
simulated participants picks the square of the standard board nearest in CIELAB to the colour
``combined_model()`` predicts for the word (rounded to 0.1), moved by the participant's own bias
and fresh Gaussian noise; some participants are noisier, one is "colour blind" (red-green
differences shrunk), and each skips about one clue in ten. A few bad rows (an unknown square,
an empty clue, a missing square) are appended so the skip report has something to show.

Usage::

    python scripts/make_synthetic_responses.py          # write the file
    python scripts/make_synthetic_responses.py --check  # fail if the shipped file differs
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from huescues.engine import Board  # noqa: E402
from huescues.language import combined_model  # noqa: E402

OUT = ROOT / "src" / "huescues" / "data" / "research" / "synthetic_responses.csv"
SEED = 20240917

CLUES = (
    "banana", "grass", "sky", "ocean", "fire", "blood", "snow", "coal", "chocolate", "coffee",
    "lemon", "lime", "orange", "cherry", "strawberry", "plum", "grape", "lavender", "rose",
    "salmon", "peach", "sand", "mustard", "olive", "forest", "mint", "teal", "navy", "denim",
    "slate", "ash", "cream", "butter", "rust", "brick", "tomato", "pumpkin", "honey", "moss",
    "violet",
)  # fmt: skip

# participant: (noise sd in CIELAB per axis, language, colour blind)
PARTICIPANTS = {
    "P01": (5.0, "en", "no"),
    "P02": (6.0, "en", "no"),
    "P03": (5.0, "en", "no"),
    "P04": (12.0, "en", "no"),
    "P05": (7.0, "en", "no"),
    "P06": (6.0, "es", "no"),
    "P07": (8.0, "en", "yes"),
    "P08": (5.0, "en", "no"),
    "P09": (14.0, "de", "no"),
    "P10": (6.0, "en", "no"),
    "P11": (9.0, "es", "no"),
    "P12": (5.0, "en", "no"),
}
#: Spread of each participant's own lasting bias, CIELAB units per axis.
BIAS_SD = 3.0
#: Chance a participant skips a clue.
SKIP = 0.1
#: Deliberately bad rows, appended so the loader's skip report has something to show.
BAD_ROWS = (
    ("banana", "Q99", "P03", "en", "no"),
    ("", "F12", "P05", "en", "no"),
    ("sky", "", "P08", "en", "no"),
)
COLUMNS = ("clue", "square", "participant", "language", "colour_blind")


def make_rows() -> list[tuple[str, ...]]:
    """The dataset's rows (without the header), in file order."""
    board = Board.standard()
    model = combined_model()  # the model the shipped file was made with
    lab = board.lab.reshape(-1, 3)
    cells = board.cells()
    rng = np.random.default_rng(SEED)
    bias = {p: rng.normal(0.0, BIAS_SD, size=3) for p in PARTICIPANTS}
    rows: list[tuple[str, ...]] = []
    for clue in CLUES:
        centre = np.round(model.predict(clue).lab, 1)
        for p, (sd, language, colour_blind) in PARTICIPANTS.items():
            noise = rng.normal(0.0, sd, size=3)
            if rng.random() < SKIP:
                continue
            colour = centre + bias[p] + noise
            if colour_blind == "yes":
                colour[1] *= 0.3  # red-green differences mostly lost
            nearest = int(np.argmin(((lab - colour) ** 2).sum(axis=1)))
            rows.append((clue, str(cells[nearest]), p, language, colour_blind))
    rows.extend(BAD_ROWS)
    return rows


def make_csv_text() -> str:
    """The file's text."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    w.writerows(make_rows())
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the shipped file differs")
    args = parser.parse_args(argv)
    text = make_csv_text()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date: run {Path(__file__).name}", file=sys.stderr)
            return 1
        print(f"{OUT} is up to date")
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({text.count(chr(10)) - 1} rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
