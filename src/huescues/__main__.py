"""``python -m huescues ARGS``: the same as the ``huescues ARGS`` command (``--help`` lists the
commands). With no command (no arguments, or options only such as ``--players 7 --seed 3``) it
runs ``game`` as it always has: random agents play one game and it is printed."""

from __future__ import annotations

import sys

from huescues.cli import main


def _argv(args: list[str]) -> list[str]:
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
        return ["game", *args]
    return args


if __name__ == "__main__":
    raise SystemExit(main(_argv(sys.argv[1:])))
