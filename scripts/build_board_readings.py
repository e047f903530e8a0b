"""Write src/huescues/data/readings/: the shipped vocabulary read on the standard board by each
shipped model the default players use ("default", "naming", "embedding", and the default
giver's pool of them), so that a process's first game does not compute them (a few seconds).

Each file holds the key it was made for (the board's colours, the model's data and code, the
vocabulary, the reading code); a file whose key no longer matches is ignored at run time, and
``--check`` exits non-zero when any is missing or stale (run this script after changing a
model, its data, the vocabulary or the reading code). Run from the source tree:

PYTHONPATH=src python scripts/build_board_readings.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from huescues.agents import DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL, clue_vocabulary, pooled_model
from huescues.agents._models import MODELS
from huescues.agents._store import encode, load, readings_key, shipped_name
from huescues.agents._vocabulary import read_board
from huescues.engine import Board

OUT = Path(__file__).resolve().parents[1] / "src" / "huescues" / "data" / "readings"
#: The models whose readings are shipped: those of the default players.
SHIPPED_MODELS = ("default", "naming", "embedding")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the shipped files")
    args = parser.parse_args()
    board, words = Board.standard(), clue_vocabulary()
    stale = []
    wanted = set()
    models = {name: MODELS[name]() for name in SHIPPED_MODELS}
    if DEFAULT_GIVER_POOL is not None:
        models["the default giver's pool"] = pooled_model(DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL)
    for name, model in models.items():
        key = readings_key(model, board, words)
        if key is None:
            raise SystemExit(f"model {name!r} has no stable name: nothing can be shipped")
        path = OUT / shipped_name(board, key)
        wanted.add(path.name)
        if load(path, key) is not None:
            print(f"{path.name}: current")
            continue
        stale.append(path.name)
        if args.check:
            print(f"{path.name}: missing or stale")
            continue
        reading = read_board(model, board, words)
        OUT.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encode(key, reading.log_belief, reading.frame))
        print(f"{path.name}: written, {path.stat().st_size / 1e6:.1f} MB")
    extra = sorted(p.name for p in OUT.glob("*.bin") if p.name not in wanted)
    for name in extra:
        if args.check:
            print(f"{name}: not used by any shipped model")
        else:
            (OUT / name).unlink()
            print(f"{name}: removed (not used)")
    if args.check and (stale or extra):
        print("run: PYTHONPATH=src python scripts/build_board_readings.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
