"""The check of the authors' ratings before use: rate a random sample of CoDa's objects blind,
then compare with people's ratings.

``--draw`` writes ``knowledge/work/coda-check.words``: 80 of CoDa's objects (their display names
only, read from ``objects.jsonl``, which holds no ratings), drawn with a fixed seed.
``--compare`` reads the ratings written for them by the protocol
(``knowledge/ratings/coda-check.tsv``) and prints, per object and on average, the Spearman
correlation between the authors' 11 colour ratings and people's mean ratings, and how often the
two agree on the top colour.

Run: ``python scripts/check_author_ratings.py --draw`` then, after rating,
``python scripts/check_author_ratings.py --compare [--coda ../shared/data/coda]``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WORDS = ROOT / "knowledge" / "work" / "coda-check.words"
RATINGS = ROOT / "knowledge" / "ratings" / "coda-check.tsv"
SAMPLE = 80
SEED = 18


def draw(coda: Path) -> None:
    objects = [json.loads(line) for line in (coda / "objects.jsonl").open()]
    names = sorted({o["display_name"] for o in objects})
    rng = np.random.default_rng(SEED)
    chosen = [names[int(i)] for i in rng.choice(len(names), SAMPLE, replace=False)]
    WORDS.parent.mkdir(parents=True, exist_ok=True)
    WORDS.write_text("\n".join(chosen) + "\n")
    print(f"wrote {len(chosen)} names to {WORDS}")


def compare(coda: Path) -> None:
    from scipy import stats

    from huescues.language import BASIC_TERMS

    name_of = {
        o["class_id"]: o["display_name"] for o in map(json.loads, (coda / "objects.jsonl").open())
    }
    by_name: dict[str, list[list[float]]] = {}
    for line in (coda / "annotations.jsonl").open():
        a = json.loads(line)
        if (
            not a.get("included", False)
            or a.get("action") != "submitted"
            or a["class_id"] not in name_of
        ):
            continue
        rating = [float(a[t]) for t in BASIC_TERMS]
        by_name.setdefault(name_of[a["class_id"]], []).append(rating)
    # The reference: one person against the mean of the others (leave-one-out), same objects.
    rows = [line.split("\t") for line in RATINGS.read_text().splitlines()[1:] if line.strip()]
    rhos, tops, shared = [], [], []
    for row in rows:
        shared.append(int(row[14]))
        name, ours = row[0], np.array([float(v) for v in row[1:12]])
        people = np.mean(by_name[name], axis=0)
        rho = stats.spearmanr(ours, people).statistic
        rhos.append(0.0 if np.isnan(rho) else float(rho))
        tops.append(int(np.argmax(ours)) == int(np.argmax(people)))
        print(
            f"{name:28s} rho {rhos[-1]:+.2f}  top {BASIC_TERMS[int(np.argmax(ours))]:7s} "
            f"people {BASIC_TERMS[int(np.argmax(people))]}"
        )
    print(
        f"{len(rows)} objects: mean Spearman {np.mean(rhos):.3f}, "
        f"same top colour {np.mean(tops):.3f}"
    )
    for lo, hi in ((0, 2), (3, 3), (4, 4), (5, 5)):
        m = [lo <= v <= hi for v in shared]
        if any(m):
            top = np.mean([t for t, k in zip(tops, m, strict=True) if k])
            print(f"  shared {lo}-{hi}: {sum(m)} objects, same top colour {top:.3f}")
    one_rho, one_top = [], []
    for row in rows:
        ratings = np.array(by_name[row[0]])
        for i in range(len(ratings)):
            rest = np.delete(ratings, i, axis=0).mean(axis=0)
            rho = stats.spearmanr(ratings[i], rest).statistic
            one_rho.append(0.0 if np.isnan(rho) else float(rho))
            one_top.append(int(np.argmax(ratings[i])) == int(np.argmax(rest)))
    print(
        f"one person against the others on the same objects ({len(one_rho)} ratings): "
        f"mean Spearman {np.mean(one_rho):.3f}, same top colour {np.mean(one_top):.3f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coda", type=Path, default=ROOT.parent / "shared" / "data" / "coda")
    ap.add_argument("--draw", action="store_true")
    ap.add_argument("--compare", action="store_true")
    args = ap.parse_args()
    if args.draw:
        draw(args.coda)
    if args.compare:
        compare(args.coda)


if __name__ == "__main__":
    main()
