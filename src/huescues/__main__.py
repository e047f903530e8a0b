"""``python -m huescues ARGS``: the same as the ``huescues ARGS`` command (``--help`` lists the
commands; ``python -m huescues game`` plays one game of random agents and prints it)."""

from __future__ import annotations

import sys

from huescues.cli import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
