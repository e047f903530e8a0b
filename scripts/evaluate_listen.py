"""Measure huescues.language.listen on reference games built from the naming data: a described
colour among two distractors, far / split / close by CIEDE2000, targets held out by name from the
model in five folds. Prints a Markdown table (the one in docs/language.md, "Words in context").

    python scripts/evaluate_listen.py            # XKCD names and a second set (about a minute)
    python scripts/evaluate_listen.py --xkcd-only
"""

from __future__ import annotations

import argparse
import sys
import time

from huescues.research import listen_evaluation


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xkcd-only", action="store_true", help="skip the color-name-list set")
    parser.add_argument("--seed", type=int, default=0, help="seed for drawing the distractors")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    result = listen_evaluation(
        second_set=not args.xkcd_only,
        seed=args.seed,
        progress=lambda msg: print(msg, file=sys.stderr, flush=True),
    )
    print(result.table())
    print(f"\n({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
