"""How well two of the authors' raters agree (issue 34): the second rater's blind ratings of a
sample (``knowledge/ratings/second-rater.tsv``, drawn by ``scripts/draw_second_rating.py``)
against the first ratings of the same words (``knowledge/ratings/authors-*.tsv``).

Reported as one would for people: per word, the Spearman correlation of the two raters' 11
colour ratings and whether they give the same top colour; over words, the mean with a 95 %
bootstrap interval (words resampled); and the light, vivid and shared ratings' agreement (the
Spearman correlation over words, and how often the two are within 1 point). Words that either
rater gave no colour (all 0) have no correlation: they are counted apart.

Run: ``python scripts/compare_raters.py [--out knowledge/ratings/raters-agreement.md]``;
``--second knowledge/ratings/second-rater-remainder.tsv`` for the sample of WordNet's remainder;
``--second knowledge/ratings/authors-extra-en.tsv`` for the words that file rates again (the
second rater's session wrote and rated it, blind to the other files: its ratings of words other
files rate are a third sample, against the first rating of each in the other files).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RATINGS = ROOT / "knowledge" / "ratings"
SECOND = RATINGS / "second-rater.tsv"
N_BOOT = 2000
SEED = 34


def read(path: Path) -> dict[str, np.ndarray]:
    """A protocol file's ratings by word (the first rating of a word wins)."""
    out: dict[str, np.ndarray] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) == 15 and parts[0] not in out:
            out[parts[0]] = np.array([int(x) for x in parts[1:]], dtype=np.float64)
    return out


def first_ratings(leave_out: Path | None = None) -> dict[str, np.ndarray]:
    """The first rating of each word in the authors' files, in name order, leaving out one file
    (an authors' file compared with the others: ``authors-extra-en.tsv``)."""
    out: dict[str, np.ndarray] = {}
    for path in sorted(RATINGS.glob("authors-*.tsv")):
        if leave_out is not None and path.resolve() == leave_out.resolve():
            continue
        for word, v in read(path).items():
            out.setdefault(word, v)
    return out


def interval(values: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    """The mean and a 95 % percentile interval over resampled words."""
    idx = rng.integers(0, len(values), size=(N_BOOT, len(values)))
    means = values[idx].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(values.mean()), float(lo), float(hi)


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties given the mean of their ranks (scipy.stats.rankdata's "average")."""
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(1, len(values) + 1)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=ranks)
    return np.asarray(sums[inverse] / counts[inverse])


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's correlation (scipy.stats.spearmanr's, without importing scipy.stats: the
    docs' figures compute this report, and that import alone takes most of a second)."""
    return float(np.corrcoef(_ranks(a), _ranks(b))[0, 1])


def same_top(a: np.ndarray, b: np.ndarray) -> bool:
    # Ties for the top count as the same when the two raters' top sets meet.
    return bool(set(np.flatnonzero(a == a.max())) & set(np.flatnonzero(b == b.max())))


def agreement(second_file: Path = SECOND) -> tuple[list[str], list[tuple[str, float, bool]]]:
    """The report's lines and, per word with colours from both raters, (word, rho, same top):
    of ``second_file``'s second ratings (``second-rater.tsv``, or another sample's)."""
    first, second = first_ratings(leave_out=second_file), read(second_file)
    words = [w for w in second if w in first]
    rng = np.random.default_rng(SEED)
    per_word: list[tuple[str, float, bool]] = []
    no_colour = both_none = 0
    for w in words:
        a, b = first[w][:11], second[w][:11]
        if a.max() == 0 or b.max() == 0 or a.min() == a.max() or b.min() == b.max():
            no_colour += 1
            both_none += int(a.max() == 0 and b.max() == 0)
            continue
        rho = spearman(a, b)
        per_word.append((w, rho, same_top(a, b)))
    rhos = np.array([r for _, r, _ in per_word])
    tops = np.array([float(t) for _, _, t in per_word])
    lines = [
        f"words rated by both: {len(words)} (of {len(second)} in the second rater's sample); "
        f"{no_colour} given no colour by at least one rater ({both_none} by both)",
        "",
        "| measure (words with colours from both) | mean | 95 % interval |",
        "| --- | --- | --- |",
    ]
    for name, values in (("Spearman of the 11 colours", rhos), ("same top colour", tops)):
        m, lo, hi = interval(values, rng)
        lines.append(f"| {name} (n = {len(values)}) | {m:.3f} | {lo:.3f} to {hi:.3f} |")
    for k, name in ((11, "light"), (12, "vivid"), (13, "shared")):
        a = np.array([first[w][k] for w in words])
        b = np.array([second[w][k] for w in words])
        rho = spearman(a, b)
        within = np.abs(a - b) <= 1
        m, lo, hi = interval(within.astype(np.float64), rng)
        lines.append(
            f"| {name}: Spearman over words {rho:.3f}; within 1 point | {m:.3f} | "
            f"{lo:.3f} to {hi:.3f} |"
        )
    return lines, per_word


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="also write the report (Markdown) here")
    ap.add_argument(
        "--second",
        type=Path,
        default=SECOND,
        help="the second ratings (second-rater-remainder.tsv: WordNet's remainder's sample)",
    )
    args = ap.parse_args()
    lines, per_word = agreement(args.second)
    worst = sorted(per_word, key=lambda x: x[1])[:10]
    lines += ["", "the words the raters agree on least: " + ", ".join(
        f"{w} ({r:.2f})" for w, r, _ in worst)]  # fmt: skip
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
