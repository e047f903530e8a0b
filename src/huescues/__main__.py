"""``python -m huescues``: random agents play one game on the defaults, and the moves and the
result are printed (``huescues game``). Other commands: ``python -m huescues.cli --help``."""

from __future__ import annotations

import sys

from huescues.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["game", *sys.argv[1:]]))
