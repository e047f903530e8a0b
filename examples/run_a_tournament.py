"""Run a small tournament, print its report and draw it (needs huescues[plot])."""

from __future__ import annotations

import tempfile
from pathlib import Path

from huescues.tournament import run_tournament


def main() -> None:
    out = Path(tempfile.mkdtemp()) / "results.jsonl"
    results = run_tournament(
        ["naming", "random"], games=8, players=(4,), seed=1, workers=1, out=out
    )
    report = results.report()
    report.print()
    picture = out.with_suffix(".png")
    report.plot(picture)
    print(f"{len(results.games)} games in {out}; plot in {picture}")


if __name__ == "__main__":
    main()
