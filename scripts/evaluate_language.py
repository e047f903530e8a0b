"""The held-out evaluation of the colour-term models (the table of docs/language.md).

    python scripts/evaluate_language.py                 # the standard board
    python scripts/evaluate_language.py --board my.csv  # a measured board
    python scripts/evaluate_language.py --second-set    # 1,000 held-out color-name-list names

Every model is refitted without the names it is judged on: the 949 XKCD names in five folds
(``huescues.language.fold_of``), each fold's names removed from every source.
"""

from __future__ import annotations

import argparse
import time

from huescues.engine import Board
from huescues.research import standard_evaluation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", help="a board CSV (default: the standard board)")
    parser.add_argument(
        "--second-set",
        action="store_true",
        help="judge on 1,000 held-out color-name-list names instead of the XKCD names",
    )
    args = parser.parse_args()
    board = Board.from_csv(args.board) if args.board else Board.standard()
    start = time.perf_counter()
    result = standard_evaluation(
        board, second_set=args.second_set, progress=lambda msg: print(msg, flush=True)
    )
    print()
    print(result.table())
    print("\nThe predictions' chroma over the named colours' (the names each model knew):")
    for row in result.rows:
        print(f"  {row.model}: {row.chroma_ratio:.2f}")
    print(f"\n({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
