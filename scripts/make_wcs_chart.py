"""Write the WCS-like Munsell chart (``Board.wcs()``, docs/munsell.md) to
src/huescues/data/wcs_chart.csv: each square's Munsell specification and its 8-bit sRGB colour.

The chart is worked out from its rule (``huescues.colour._munsell``'s docstring) with
colour-science's Munsell renotation conversion, which takes about a quarter of a minute, so the
package ships the result. ``python scripts/make_wcs_chart.py`` writes the file; ``--check`` exits
non-zero if the shipped file differs from a fresh build.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from huescues.colour._munsell import build_palette, build_specifications, chart_csv

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "huescues" / "data" / "wcs_chart.csv"


def make() -> str:
    """The chart's CSV, built afresh."""
    specs = build_specifications()
    return chart_csv(specs, build_palette(specs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = parser.parse_args()
    text = make()
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("the WCS chart is up to date" if same else "the WCS chart differs", file=sys.stderr)
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
