"""The ``huescues`` command: ``game``, ``clue``, ``board``.

User mistakes end in one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from huescues.engine import Board

__all__ = ["main"]


def _board(path: str | None) -> Board:
    # Imported here so that `huescues --help` answers at once.
    from huescues.engine import Board

    return Board.standard() if path is None else Board.from_csv(path)


def _game(args: argparse.Namespace) -> int:
    from huescues.agents import RandomAgent, play_game
    from huescues.engine import describe_game

    agents = [RandomAgent() for _ in range(args.players)]
    _, state = play_game(agents, seed=args.seed)
    print(describe_game(state))
    return 0


def _clue(args: argparse.Namespace) -> int:
    from huescues.language import default_model, render_clue, top_squares

    board = _board(args.board)
    model = default_model()
    best = top_squares(model, args.text, board, args.top)
    prediction = model.predict(args.text)
    lightness, a, b = prediction.lab
    how = prediction.source + ("" if prediction.known else ", unknown: a flat guess")
    print(f"{args.text!r}: L*={lightness:.0f} a*={a:.0f} b*={b:.0f} ({how})")
    for rank, (cell, p) in enumerate(best, start=1):
        print(f"{rank:>3}. {cell!s:<4} {board.hex(cell)}  p={p:.3f}")
    if args.out:
        render_clue(model, args.text, board, args.out, k=args.top)
        print(f"heat map written to {args.out}")
    return 0


def _draw_board(args: argparse.Namespace) -> int:
    board = _board(args.csv)
    out = board.to_png(args.out, title=board.id)
    print(f"board {board.id} ({board.rows} x {board.cols}) written to {out}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="huescues", description="Hues and Cues as a library.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    game = sub.add_parser("game", help="random players play one game; print it")
    game.add_argument("--players", type=int, default=4, help="number of players, 3-10 (R2)")
    game.add_argument("--seed", type=int, default=0, help="the game's seed (R27)")
    game.set_defaults(run=_game)

    clue = sub.add_parser("clue", help="where the default model reads a clue on the board")
    clue.add_argument("text", help="the clue, e.g. 'banana' or 'pale sky'")
    clue.add_argument("--top", type=int, default=5, help="how many squares to list (default 5)")
    clue.add_argument("--out", help="write a heat map PNG here (needs huescues[plot])")
    clue.add_argument("--board", help="a board CSV (row, column, red, green, blue)")
    clue.set_defaults(run=_clue)

    board = sub.add_parser("board", help="draw a board to a PNG (needs huescues[plot])")
    board.add_argument("--out", default="board.png", help="where to write (default board.png)")
    board.add_argument("--csv", help="a board CSV instead of the standard board")
    board.set_defaults(run=_draw_board)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if getattr(args, "players", 4) < 0 or getattr(args, "seed", 0) < 0:
        parser.error("--players and --seed are whole numbers >= 0")
    if getattr(args, "top", 1) < 1:
        parser.error(f"--top {args.top}: list at least one square")
    try:
        status: int = args.run(args)
    except (ValueError, ImportError, OSError) as e:
        print(f"huescues {args.command}: error: {e}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    raise SystemExit(main())
