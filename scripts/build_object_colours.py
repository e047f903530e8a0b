"""Build the object-colour model's data: ``src/huescues/data/objects/``.

For every word the data know, a distribution over the 11 basic colour terms (black, blue, brown,
gray, green, orange, pink, purple, red, white, yellow), from:

* CoDa (Paik et al., EMNLP 2021; Apache-2.0): 521 objects, people's 0-5 ratings of how often
  each has each basic colour (``--coda``, the folder with ``objects.jsonl`` and
  ``annotations.jsonl``). An object's distribution is its mean ratings, normalised.
* WordNet 3.0 glosses (Debian ``wordnet-base``, ``--wordnet``; WordNet 3.0 licence): nouns
  whose gloss names basic colours (carrot: "deep orange edible root"). A word's senses are
  weighed by their frequency rank; the share of its weight on senses that name a colour is the
  source's confidence.
* The naming data shipped in the package: the XKCD names and ``color-name-list`` (a word's
  distribution is the mean over the names containing it of p(basic term | the name's colour))
  and c3's 153 terms (the term's colours weighed by p(colour | term)).

The sources are averaged with fixed evidence weights (CoDa 4, c3 terms 4, WordNet 2 x its
confidence, names n / (n + 3) for a word in n names): set by design, not tuned to an evaluation.

It also writes the grid the model reads colours with: c3's p(basic term | colour) on its
5-unit CIELAB bins, smoothed over neighbouring bins (a Gaussian of one bin) so that sparse bins
do not jitter, with empty bins filled from the nearest bin that has counts.

Words none of the data covers are carried by the shipped word vectors: a ridge regression
(scikit-learn) from a word's static vector to its centred log-distribution over the 11 terms,
read back through a softmax, saved as weight arrays. The penalty is chosen by 5-fold
cross-validation held out by CoDa object (every word of a held-out object is removed from
training); the script prints top-1 basic-colour accuracy and Spearman against people's ratings
for the candidates and the prior baseline (``--compare-mlp`` adds one-layer networks, which
take minutes per fold: measured, they gain top-1 accuracy, 0.30 against 0.25, and lose
Spearman, 0.35 against 0.43).

Run: ``python scripts/build_object_colours.py`` (needs scikit-learn and scipy, and the Debian
package ``wordnet-base``: ``apt-get install -y wordnet-base``). ``--no-write`` only evaluates.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage, stats

from huescues.language import c3, colornames, fold_of, name_key, words_of, xkcd_names
from huescues.language._embedding import static_encoder
from huescues.language._objects import BASIC_TERMS, DATA_FILE, TermGrid

FloatArray = NDArray[np.float64]

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "huescues" / "data" / "objects"

#: Evidence weights of the sources (see the module docstring).
W_CODA = 4.0
W_C3 = 4.0
W_WORDNET = 2.0
NAME_PSEUDO = 3.0
#: Words seen in fewer names than this are left to the other sources and the vectors.
MIN_NAMES = 2

#: Words in glosses that name a basic colour (WordNet writes "grey" and "gray").
GLOSS_COLOURS = {t: t for t in BASIC_TERMS} | {
    "grey": "gray",
    "reddish": "red",
    "scarlet": "red",
    "crimson": "red",
    "yellowish": "yellow",
    "golden": "yellow",
    "greenish": "green",
    "bluish": "blue",
    "blueish": "blue",
    "brownish": "brown",
    "tan": "brown",
    "blackish": "black",
    "whitish": "white",
    "purplish": "purple",
    "violet": "purple",
    "pinkish": "pink",
    "grayish": "gray",
    "greyish": "gray",
    "orangish": "orange",
}


# -- the colour grid ------------------------------------------------------------------------


def build_grid() -> TermGrid:
    data = c3()
    idx = [data.terms.index(t if t != "gray" else "grey") for t in BASIC_TERMS]
    step = 5.0
    lo = data.bin_lab.min(axis=0) - step
    hi = data.bin_lab.max(axis=0) + step
    shape = tuple(round(float(h - lo_) / step) + 1 for lo_, h in zip(lo, hi, strict=True))
    cell = np.round((data.bin_lab - lo) / step).astype(int)
    num = np.zeros((*shape, len(BASIC_TERMS)))
    tot = np.zeros(shape)
    num[cell[:, 0], cell[:, 1], cell[:, 2]] = data.counts[:, idx]
    tot[cell[:, 0], cell[:, 1], cell[:, 2]] = data.counts.sum(axis=1)
    sigma = 1.0
    num_s = np.stack(
        [
            ndimage.gaussian_filter(num[..., k], sigma, mode="constant")
            for k in range(num.shape[-1])
        ],
        axis=-1,
    )
    tot_s = ndimage.gaussian_filter(tot, sigma, mode="constant")
    # Cells with next to no counts take the nearest cell that has some.
    have = tot_s > 1.0
    _, nearest = ndimage.distance_transform_edt(~have, return_indices=True)
    p = num_s / np.maximum(tot_s, 1e-12)[..., None]
    p = p[nearest[0], nearest[1], nearest[2]]
    return TermGrid(origin=lo, step=step, p=np.clip(p, 0.0, 1.0), inside=tot > 0)


# -- the sources ----------------------------------------------------------------------------


def coda_table(folder: Path) -> tuple[dict[str, FloatArray], dict[str, list[str]]]:
    """Per CoDa object (by class id): mean ratings, normalised; and the words naming it."""
    objects = [json.loads(line) for line in (folder / "objects.jsonl").read_text().splitlines()]
    sums: dict[str, FloatArray] = defaultdict(lambda: np.zeros(len(BASIC_TERMS)))
    counts: dict[str, int] = defaultdict(int)
    for line in (folder / "annotations.jsonl").read_text().splitlines():
        row = json.loads(line)
        if not row.get("included") or row.get("action") != "submitted":
            continue
        sums[row["class_id"]] += np.array([float(row[t]) for t in BASIC_TERMS])
        counts[row["class_id"]] += 1
    dist: dict[str, FloatArray] = {}
    words: dict[str, list[str]] = {}
    for obj in objects:
        cid = obj["class_id"]
        if counts[cid] == 0 or sums[cid].sum() <= 0:
            continue
        dist[cid] = sums[cid] / sums[cid].sum()
        keys = {
            name_key(obj.get(f) or "") for f in ("object_s", "object_pl", "ngram", "display_name")
        } - {""}
        words[cid] = sorted(keys)
    return dist, words


_GLOSS_WORD = re.compile(r"[a-z]+")


def wordnet_table(folder: Path) -> tuple[dict[str, FloatArray], dict[str, float]]:
    """Per noun lemma: the colour terms its glosses name, over its senses weighed 1 / rank; and
    the share of that weight on senses that name a colour."""
    gloss_colour: dict[str, FloatArray] = {}
    for line in (folder / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" ") or "|" not in line:
            continue
        head, gloss = line.split("|", 1)
        # The definition, not the quoted examples ("carrot and stick").
        definition = gloss.split('"', 1)[0].lower()
        v = np.zeros(len(BASIC_TERMS))
        for w in _GLOSS_WORD.findall(definition):
            term = GLOSS_COLOURS.get(w)
            if term is not None:
                v[BASIC_TERMS.index(term)] += 1.0
        if v.sum() > 0:
            gloss_colour[head.split()[0]] = v / v.sum()
    dist: dict[str, FloatArray] = {}
    conf: dict[str, float] = {}
    for line in (folder / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        parts = line.split()
        lemma, n_senses = parts[0], int(parts[2])
        offsets = parts[-n_senses:]
        weights = 1.0 / np.arange(1, n_senses + 1)
        acc = np.zeros(len(BASIC_TERMS))
        w_col = 0.0
        for w, off in zip(weights, offsets, strict=True):
            if off in gloss_colour:
                acc += w * gloss_colour[off]
                w_col += float(w)
        if w_col == 0.0:
            continue
        key = name_key(lemma.replace("_", " "))
        if key:
            dist[key] = acc / w_col
            conf[key] = w_col / float(weights.sum())
    return dist, conf


def naming_tables(
    grid: TermGrid,
) -> tuple[dict[str, FloatArray], dict[str, int], dict[str, FloatArray]]:
    """Per word of the XKCD and color-name-list names: the mean of p(basic term | colour) over
    the names containing it (and how many); per c3 term: its colours' p(basic term | colour)."""
    sums: dict[str, FloatArray] = defaultdict(lambda: np.zeros(len(BASIC_TERMS)))
    n: dict[str, int] = defaultdict(int)
    for named in (xkcd_names(), colornames()):
        p = grid.p_at(named.lab)
        p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-12)
        for name, row in zip(named.names, p, strict=True):
            for w in set(words_of(name)):
                sums[w] += row
                n[w] += 1
    by_word = {w: s / n[w] for w, s in sums.items() if n[w] >= MIN_NAMES}
    data = c3()
    p_bins = grid.p_at(data.bin_lab)
    p_bins = p_bins / np.maximum(p_bins.sum(axis=1, keepdims=True), 1e-12)
    by_term: dict[str, FloatArray] = {}
    for k, term in enumerate(data.terms):
        weight = data.counts[:, k]
        v = weight @ p_bins
        key = name_key(term)
        if key and v.sum() > 0:
            by_term[key] = v / v.sum()
    return by_word, dict(n), by_term


def combine(
    coda: dict[str, FloatArray],
    coda_words: dict[str, list[str]],
    wordnet: dict[str, FloatArray],
    wordnet_conf: dict[str, float],
    names: dict[str, FloatArray],
    name_counts: dict[str, int],
    terms: dict[str, FloatArray],
    drop: Iterable[str] = (),
) -> tuple[dict[str, FloatArray], dict[str, float]]:
    """Every word's distribution and total evidence weight; ``drop``: words left out."""
    acc: dict[str, FloatArray] = defaultdict(lambda: np.zeros(len(BASIC_TERMS)))
    weight: dict[str, float] = defaultdict(float)

    def add(word: str, q: FloatArray, w: float) -> None:
        acc[word] += w * q
        weight[word] += w

    for cid, q in coda.items():
        for word in coda_words[cid]:
            add(word, q, W_CODA)
    for word, q in wordnet.items():
        add(word, q, W_WORDNET * wordnet_conf[word])
    for word, q in names.items():
        add(word, q, name_counts[word] / (name_counts[word] + NAME_PSEUDO))
    for word, q in terms.items():
        add(word, q, W_C3)
    dropped = set(drop)
    return (
        {w: acc[w] / weight[w] for w in acc if w not in dropped and weight[w] > 0},
        {w: weight[w] for w in weight if w not in dropped and weight[w] > 0},
    )


# -- the carry by word vectors --------------------------------------------------------------

#: Floor of the distributions before taking logs (the network learns log-distributions).
LOG_FLOOR = 1e-3


def to_log(q: FloatArray) -> FloatArray:
    out: FloatArray = np.log(np.maximum(q, LOG_FLOOR))
    return out - out.mean(axis=-1, keepdims=True)


def fit_mlp(
    x: FloatArray, q: FloatArray, w: FloatArray, hidden: int, alpha: float, seed: int = 0
) -> list[FloatArray]:
    from sklearn.neural_network import MLPRegressor

    # MLPRegressor takes no sample weights in every version: repeat the surer words instead.
    reps = np.clip(np.round(w), 1, 4).astype(int)
    xs = np.repeat(x, reps, axis=0)
    ys = np.repeat(to_log(q), reps, axis=0)
    mlp = MLPRegressor(
        hidden_layer_sizes=(hidden,),
        alpha=alpha,
        max_iter=200,
        early_stopping=True,
        random_state=seed,
    )
    mlp.fit(xs, ys)
    return [mlp.coefs_[0], mlp.intercepts_[0], mlp.coefs_[1], mlp.intercepts_[1]]


def fit_ridge(x: FloatArray, q: FloatArray, w: FloatArray, alpha: float) -> list[FloatArray]:
    from sklearn.linear_model import Ridge

    r = Ridge(alpha=alpha).fit(x, to_log(q), sample_weight=w)
    return [np.asarray(r.coef_.T), np.asarray(r.intercept_)]


def apply_weights(weights: Sequence[FloatArray], x: FloatArray) -> FloatArray:
    from huescues.language._objects import carry

    return carry(list(weights), x)


def vectors(words: Sequence[str]) -> FloatArray:
    v, _ = static_encoder().encode(list(words))
    return np.asarray(v, dtype=np.float64)


def evaluate(
    tables: tuple[
        dict[str, FloatArray],
        dict[str, list[str]],
        dict[str, FloatArray],
        dict[str, float],
        dict[str, FloatArray],
        dict[str, int],
        dict[str, FloatArray],
    ],
    objects_file: Path,
    compare_mlp: bool = False,
) -> dict[str, dict[str, float]]:
    """CoDa held out by object, 5 folds: top-1 accuracy and mean Spearman per candidate."""
    coda, coda_words = tables[0], tables[1]
    rows = [json.loads(line) for line in objects_file.read_text().splitlines()]
    singular = {r["class_id"]: name_key(r.get("object_s") or r["display_name"]) for r in rows}
    cids = sorted(coda)
    fold = {cid: fold_of(singular[cid]) for cid in cids}
    candidates: dict[str, object] = {
        "prior (mean of training words)": None,
        "ridge alpha=1": ("ridge", 1.0),
        "ridge alpha=10": ("ridge", 10.0),
        "ridge alpha=100": ("ridge", 100.0),
    }
    if compare_mlp:  # slow (minutes per fold on a shared machine)
        candidates |= {
            "mlp 64 alpha=1e-3": ("mlp", 64, 1e-3),
            "mlp 128 alpha=1e-2": ("mlp", 128, 1e-2),
            "mlp 128 alpha=1e-1": ("mlp", 128, 1e-1),
        }
    preds: dict[str, dict[str, FloatArray]] = {c: {} for c in candidates}
    for f in range(5):
        held = [cid for cid in cids if fold[cid] == f]
        drop = {w for cid in held for w in coda_words[cid]}
        table, weight = combine(*tables, drop=drop)
        words = sorted(table)
        x = vectors(words)
        q = np.stack([table[w] for w in words])
        w = np.array([weight[k] for k in words])
        xt = vectors([singular[cid] for cid in held])
        for label, spec in candidates.items():
            if spec is None:
                prior = (w[:, None] * q).sum(axis=0) / w.sum()
                out = np.tile(prior, (len(held), 1))
            elif spec[0] == "ridge":  # type: ignore[index]
                out = apply_weights(fit_ridge(x, q, w, spec[1]), xt)  # type: ignore[index]
            else:
                out = apply_weights(fit_mlp(x, q, w, spec[1], spec[2]), xt)  # type: ignore[index]
            for cid, row in zip(held, out, strict=True):
                preds[label][cid] = row
        print(f"  fold {f}: {len(held)} objects held out, {len(words)} training words", flush=True)
    results: dict[str, dict[str, float]] = {}
    for label in candidates:
        top1 = np.mean([np.argmax(preds[label][c]) == np.argmax(coda[c]) for c in cids])
        rho = np.nanmean([stats.spearmanr(preds[label][c], coda[c]).statistic for c in cids])
        results[label] = {"top1": float(top1), "spearman": float(rho), "n": len(cids)}
        print(f"  {label:32s} top-1 {top1:.3f}  Spearman {rho:.3f}", flush=True)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--coda", type=Path, default=Path("/work/shared/data/coda"))
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--alpha", type=float, default=10.0, help="ridge penalty of the carry")
    ap.add_argument("--compare-mlp", action="store_true", help="also cross-validate networks")
    ap.add_argument("--no-evaluate", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    t0 = time.time()
    grid = build_grid()
    coda, coda_words = coda_table(args.coda)
    wordnet, wordnet_conf = wordnet_table(args.wordnet)
    names, name_counts, terms = naming_tables(grid)
    tables = (coda, coda_words, wordnet, wordnet_conf, names, name_counts, terms)
    print(
        f"CoDa {len(coda)} objects; WordNet {len(wordnet)} lemmas; names {len(names)} words; "
        f"c3 {len(terms)} terms ({time.time() - t0:.1f} s)",
        flush=True,
    )
    cv = {} if args.no_evaluate else evaluate(tables, args.coda / "objects.jsonl", args.compare_mlp)
    table, weight = combine(*tables)
    words = sorted(table)
    q = np.stack([table[w] for w in words])
    w = np.array([weight[k] for k in words])
    net = fit_ridge(vectors(words), q, w, args.alpha)
    print(f"{len(words)} words; fitted in {time.time() - t0:.1f} s", flush=True)
    if args.no_write:
        return
    import sklearn

    OUT.mkdir(parents=True, exist_ok=True)
    meta = {
        "built": datetime.date.today().isoformat(),
        "terms": list(BASIC_TERMS),
        "sources": {
            "coda": f"{len(coda)} objects (Paik et al. 2021, Apache-2.0)",
            "wordnet": f"{len(wordnet)} noun lemmas whose glosses name basic colours (WordNet 3.0)",
            "names": f"{len(names)} words of the XKCD and color-name-list names",
            "c3": f"{len(terms)} c3 terms",
        },
        "weights": {"coda": W_CODA, "c3": W_C3, "wordnet": W_WORDNET, "name_pseudo": NAME_PSEUDO},
        "carry": {"kind": "ridge", "alpha": args.alpha, "encoder": static_encoder().fingerprint},
        "cross_validation": cv,
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scikit-learn": sklearn.__version__,
        },
    }
    np.savez_compressed(
        OUT / DATA_FILE,
        words=np.array("\n".join(words)),
        q=q.astype(np.float16),
        weight=w.astype(np.float32),
        grid=grid.p.astype(np.float16),
        grid_origin=grid.origin,
        grid_step=np.array(grid.step),
        grid_inside=np.packbits(np.asarray(grid.inside).reshape(-1)),
        **{f"carry_{i}": a.astype(np.float32) for i, a in enumerate(net)},
        metadata=np.array(json.dumps(meta)),
    )
    (OUT / "objects.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {OUT / DATA_FILE} ({(OUT / DATA_FILE).stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
