"""Build the naming data and the precomputed naming model of ``huescues.language``.

From the repository root::

    python scripts/build_naming_model.py --copy-data   # copy ../shared/data into the package
    python scripts/build_naming_model.py               # fit and save naming_model.npz
    python scripts/build_naming_model.py --evaluate    # the held-out tables of docs/naming.md

``--copy-data`` copies the XKCD names, ``color-name-list`` and c3 (with their licences) from a
data folder (default ``../shared/data``) into ``src/huescues/data/naming/``, gzipping the large
files without a time stamp, so the output is byte-for-byte reproducible.

The default step fits :class:`huescues.language.NamingModel` on all the data and saves it to
``src/huescues/data/naming/naming_model.npz``, which ``NamingModel.default()`` loads; the tests
check that the file equals a fresh fit, so rerun this whenever the model or the data change.

``--evaluate`` holds out the XKCD names in 5 folds (by ``fold_of``), fits the model without each
fold's names (dropped from every source), and prints Markdown tables: what each source adds,
the source weights, and the modifier forms.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from huescues.language._naming import MODEL_FILE, NamingModel  # noqa: E402

NAMING = ROOT / "src" / "huescues" / "data" / "naming"
#: (source file in the data folder, file in the package, gzip it?)
DATA_FILES = (
    ("xkcd/xkcd-colors.tsv", "xkcd-colors.tsv", False),
    ("colornames/colornames.csv", "colornames.csv.gz", True),
    ("colornames/LICENSE", "colornames-LICENSE.txt", False),
    ("c3/c3_data.json", "c3_data.json.gz", True),
    ("c3/LICENSE", "c3-LICENSE.txt", False),
)


def copy_data(source: Path) -> None:
    """Copy (and gzip) the naming data into the package."""
    NAMING.mkdir(parents=True, exist_ok=True)
    for src, dst, compress in DATA_FILES:
        data = (source / src).read_bytes()
        if compress:
            data = gzip.compress(data, compresslevel=9, mtime=0)
        (NAMING / dst).write_bytes(data)
        print(f"wrote {dst} ({len(data):,} bytes)")


def build() -> None:
    """Fit on everything and save the npz that ``NamingModel.default()`` loads."""
    start = time.perf_counter()
    model = NamingModel.fit()
    fitted = time.perf_counter() - start
    path = NAMING / MODEL_FILE
    model.save(path)
    print(f"fitted in {fitted:.1f} s; wrote {path.relative_to(ROOT)} ({path.stat().st_size:,} B)")
    print(
        f"{len(model.names()):,} names, {len(model.words()):,} words, "
        f"{len(model.modifiers())} modifiers; source weights {model.source_weights()}"
    )


def evaluate_sources() -> None:
    """Held-out tables: what each source adds, source weights, modifier forms."""
    from huescues.language import MeanColourModel, ModelFactory, NearestNameModel, xkcd_names
    from huescues.language._naming import ModifierForm
    from huescues.research import evaluate

    xkcd = xkcd_names()

    def factory(
        sources: tuple[str, ...] = ("xkcd", "colornames", "c3"),
        form: ModifierForm = "lch",
        weight: float | None = None,
    ) -> ModelFactory:
        return lambda held: NamingModel.fit(
            exclude=held, sources=sources, modifier_form=form, colornames_weight=weight
        )

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr)

    def nearest(held: frozenset[str]) -> NearestNameModel:
        keep = [i for i, n in enumerate(xkcd.names) if n not in held]
        return NearestNameModel([xkcd.names[i] for i in keep], xkcd.lab[keep])

    def mean(held: frozenset[str]) -> MeanColourModel:
        return MeanColourModel(xkcd.lab[[i for i, n in enumerate(xkcd.names) if n not in held]])

    tables: dict[str, dict[str, ModelFactory]] = {
        "What each source adds": {
            "baseline: mean XKCD colour": mean,
            "baseline: nearest XKCD name": nearest,
            "xkcd": factory(("xkcd",)),
            "xkcd + c3": factory(("xkcd", "c3")),
            "xkcd + colornames": factory(("xkcd", "colornames")),
            "all three": factory(),
        },
        "Weight of a color-name-list colour (XKCD = 1; default: measured by agreement)": {
            "1": factory(weight=1.0),
            "0.3": factory(weight=0.3),
            "measured": factory(),
            "0.03": factory(weight=0.03),
        },
        "Modifier forms (all three sources)": {
            "no modifiers": factory(form="none"),
            "lab (shift)": factory(form="lab"),
            "lch (default)": factory(form="lch"),
            "full (lch + shift)": factory(form="full"),
        },
    }
    for title, models in tables.items():
        result = evaluate(models, xkcd.names, xkcd.lab, progress=progress)
        print(f"### {title}\n")
        print(result.table())
        print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--copy-data",
        nargs="?",
        const=str(ROOT.parent / "shared" / "data"),
        metavar="FOLDER",
        help="copy the naming data from FOLDER (default ../shared/data) into the package",
    )
    parser.add_argument("--evaluate", action="store_true", help="print the held-out tables")
    args = parser.parse_args(argv)
    if args.copy_data:
        copy_data(Path(args.copy_data))
        return 0
    if args.evaluate:
        evaluate_sources()
        return 0
    build()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
