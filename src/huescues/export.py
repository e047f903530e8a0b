"""Tidy tables of played rounds: one row per pawn, for a tournament's results or any games
(``docs/export.md``). Lists of dicts need nothing more; CSV uses the standard library; pandas and
Parquet (pyarrow) come with the ``export`` extra and are imported only when used."""

from __future__ import annotations

import csv
import importlib
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from huescues.engine import (
    Board,
    Cell,
    GameRecord,
    GameState,
    Rules,
    known_board,
    pawn_points,
    safe_cell,
    unescape_cell,
)

__all__ = ["COLUMNS", "load_rounds", "rounds_table", "save_rounds", "to_dataframe"]

#: The table's columns and their types, in order.
COLUMNS: tuple[tuple[str, type], ...] = (
    ("game", int),  # game index in the tournament, or position in the list given
    ("seed", int),  # the game's seed (R27)
    ("board_id", str),
    ("n_players", int),
    ("round", int),  # 0-based, tie-breakers included
    ("tiebreak", bool),  # R25
    ("giver_seat", int),
    ("giver_agent", str),  # entrant name, or None when unknown
    ("target", str),  # square name, e.g. "F12"
    ("target_L", float),  # CIELAB (D65) of the target square
    ("target_a", float),
    ("target_b", float),
    ("clue1", str),
    ("clue2", str),  # None when the giver passed (R11)
    ("passed", bool),
    ("pawn_seat", int),
    ("pawn_agent", str),
    ("guess", int),  # 1 for the seat's first pawn (R10), 2 for its second (R12)
    ("pawn", str),
    ("pawn_L", float),
    ("pawn_a", float),
    ("pawn_b", float),
    ("distance", int),  # Chebyshev distance from the target (R5)
    ("points", int),  # the pawn's points (R15)
    ("delta_e", float),  # CIEDE2000 between the pawn's and the target's colours
)
_NAMES = tuple(name for name, _ in COLUMNS)
_TYPES = dict(COLUMNS)

_BoardsArg = Board | Iterable[Board] | None
#: Names by seat: one list for every game, or one list per game.
_AgentsArg = Sequence[str] | Sequence[Sequence[str]] | None


def _extra(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f"{module.split('.')[0]} is needed for this: pip install 'huescues[export]'"
        ) from e


class _Boards:
    """Boards by id: those given, then the standard board and the WCS chart on demand."""

    def __init__(self, boards: _BoardsArg) -> None:
        if boards is None:
            given: list[Board] = []
        elif isinstance(boards, Board):
            given = [boards]
        else:
            given = list(boards)
        self.by_id = {b.id: b for b in given}

    def __call__(self, board_id: str) -> Board:
        board = self.by_id.get(board_id)
        if board is None:
            board = known_board(board_id)
            if board is None:
                raise ValueError(f"the games were played on board {board_id!r}: pass it as board=")
            self.by_id[board_id] = board
        return board


def _rows_of_game(
    *,
    game: int,
    seed: int,
    board: Board,
    rules: Rules,
    rounds: Iterable[Mapping[str, Any]],
    agents: Sequence[str | None],
) -> list[dict[str, Any]]:
    from huescues.colour import delta_e_2000

    rows: list[dict[str, Any]] = []
    lab = board.lab
    for r in rounds:
        target = board.cell(r["target"]) if isinstance(r["target"], str) else r["target"]
        clues = list(r["clues"])
        tl = lab[target.row, target.col]
        giver = int(r["giver"])
        seen: dict[int, int] = {}
        for seat, square in r["pawns"]:
            seat = int(seat)
            cell: Cell = board.cell(square) if isinstance(square, str) else square
            seen[seat] = seen.get(seat, 0) + 1
            pl = lab[cell.row, cell.col]
            rows.append(
                {
                    "game": game,
                    "seed": seed,
                    "board_id": board.id,
                    "n_players": rules.n_players,
                    "round": int(r["round"]),
                    "tiebreak": bool(r["tiebreak"]),
                    "giver_seat": giver,
                    "giver_agent": agents[giver],
                    "target": str(target),
                    "target_L": float(tl[0]),
                    "target_a": float(tl[1]),
                    "target_b": float(tl[2]),
                    "clue1": clues[0] if clues else None,
                    "clue2": clues[1] if len(clues) > 1 else None,
                    "passed": len(clues) < 2,
                    "pawn_seat": seat,
                    "pawn_agent": agents[seat],
                    "guess": seen[seat],
                    "pawn": str(cell),
                    "pawn_L": float(pl[0]),
                    "pawn_a": float(pl[1]),
                    "pawn_b": float(pl[2]),
                    "distance": target.distance(cell),
                    "points": pawn_points(rules, target, cell),
                    "delta_e": 0.0,
                }
            )
    if rows:
        t = np.array([[row["target_L"], row["target_a"], row["target_b"]] for row in rows])
        p = np.array([[row["pawn_L"], row["pawn_a"], row["pawn_b"]] for row in rows])
        for row, de in zip(rows, delta_e_2000(t, p).tolist(), strict=True):
            row["delta_e"] = float(de)
    return rows


def _state_rounds(state: GameState) -> list[dict[str, Any]]:
    return [
        {
            "round": r.round,
            "giver": r.giver,
            "tiebreak": r.tiebreak,
            "target": r.target,
            "clues": r.clues,
            "pawns": r.pawns,
        }
        for r in state.history
    ]


def rounds_table(
    source: Any,
    *,
    board: _BoardsArg = None,
    agents: _AgentsArg = None,
) -> list[dict[str, Any]]:
    """Every pawn of every round as one row (see :data:`COLUMNS`), in game, round and placing
    order.

    ``source`` is a tournament results file (its path), a ``TournamentResults``, or games: an
    iterable of ``GameRecord``, ``GameState`` (finished or not: its scored rounds) or results-file
    game dicts. ``board``: the board, or boards, the games were played on, unless they are the
    standard board or the WCS chart. ``agents``: names by seat for games that carry none (a
    tournament's games name their entrants): one list for every game, or one list per game.
    """
    boards = _Boards(board)
    games: Iterable[Any]
    if isinstance(source, str | os.PathLike):
        from huescues.tournament import TournamentResults

        games = TournamentResults.load(source).games
    elif hasattr(source, "games") and hasattr(source, "entrants"):
        games = source.games
    elif isinstance(source, GameRecord | GameState | Mapping):
        games = [source]
    else:
        games = source
    rows: list[dict[str, Any]] = []
    count = 0
    for i, game in enumerate(games):
        count = i + 1
        if isinstance(game, GameRecord):
            the_board = boards(game.board_id)
            game = game.replay(board=the_board)
        if isinstance(game, GameState):
            n = game.n_players
            names = _names(agents, i, n)
            rows += _rows_of_game(
                game=i,
                seed=game.seed,
                board=game.board,
                rules=game.rules,
                rounds=_state_rounds(game),
                agents=names,
            )
        elif isinstance(game, Mapping):
            record = game.get("record")
            n = int(game["n_players"])
            rules = Rules.from_dict(record["rules"]) if record else Rules.standard(n)
            rows += _rows_of_game(
                game=int(game["game"]),
                seed=int(game["seed"]),
                board=boards(str(game["board_id"])),
                rules=rules,
                rounds=game["rounds"],
                agents=[str(s) for s in game["seats"]],
            )
        else:
            raise TypeError(
                f"not a game: {type(game).__name__} (give GameRecord, GameState, results-file "
                "dicts, a TournamentResults or a results file's path)"
            )
    if agents and not isinstance(agents[0], str) and len(agents) != count:
        # More lists than games: the names were likely meant for other games.
        raise ValueError(f"agents: {len(agents)} lists of names (one per game) for {count} games")
    return rows


def _names(agents: _AgentsArg, game: int, n: int) -> Sequence[str | None]:
    """The names by seat of game ``game`` (``n`` players): one list for all games, or per game."""
    if agents is None:
        return [None] * n
    if not agents or isinstance(agents[0], str):
        names = agents
    elif game < len(agents):
        names = agents[game]
    else:
        raise ValueError(f"agents: {len(agents)} lists of names (one per game) for more games")
    if len(names) != n:
        raise ValueError(f"{len(names)} agent names for a {n}-player game")
    return [str(name) for name in names]


def to_dataframe(source: Any, *, board: _BoardsArg = None, agents: _AgentsArg = None) -> Any:
    """:func:`rounds_table` as a ``pandas.DataFrame`` (needs the ``export`` extra)."""
    pd = _extra("pandas")
    rows = rounds_table(source, board=board, agents=agents)
    return pd.DataFrame(rows, columns=list(_NAMES))


def save_rounds(
    source: Any,
    path: str | os.PathLike[str],
    *,
    board: _BoardsArg = None,
    agents: _AgentsArg = None,
    extra: Sequence[Mapping[str, str]] | None = None,
) -> Path:
    """Write :func:`rounds_table` to ``path``: CSV for ``.csv`` (standard library only), Parquet
    for ``.parquet`` or ``.pq`` (needs pyarrow, the ``export`` extra). ``extra`` gives each game
    (one mapping per game, in order) text columns of its own, written after the table's."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise ValueError(f"{p}: write .csv or .parquet, not {suffix or 'no extension'}")
    rows = rounds_table(source, board=board, agents=agents)
    more: tuple[str, ...] = ()
    if extra is not None:
        more = tuple(dict.fromkeys(k for game in extra for k in game))
        for row in rows:
            row.update({k: extra[row["game"]].get(k, "") for k in more})
    if suffix == ".csv":
        with open(p, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=(*_NAMES, *more))
            w.writeheader()
            for row in rows:
                # Text a spreadsheet would run as a formula is quoted (huescues.engine.safe_cell).
                w.writerow({k: _csv_text(safe_cell(v)) for k, v in row.items()})
        return p
    pa = _extra("pyarrow")
    pq = _extra("pyarrow.parquet")
    arrow_types = {int: pa.int64(), float: pa.float64(), bool: pa.bool_(), str: pa.string()}
    schema = pa.schema(
        [(name, arrow_types[kind]) for name, kind in COLUMNS] + [(k, pa.string()) for k in more]
    )
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), p)
    return p


def _csv_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _from_text(name: str, text: str) -> Any:
    kind = _TYPES[name]
    if kind is str:
        return unescape_cell(text) or None
    if kind is bool:
        if text not in ("true", "false"):
            raise ValueError(f"column {name}: {text!r} is not true or false")
        return text == "true"
    return kind(text)


def load_rounds(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read a table written by :func:`save_rounds` back to the rows :func:`rounds_table` gave
    (CSV with the standard library; Parquet needs pyarrow)."""
    p = Path(path)
    if p.suffix.lower() in (".parquet", ".pq"):
        pq = _extra("pyarrow.parquet")
        rows: list[dict[str, Any]] = pq.read_table(p).to_pylist()
        return rows
    with open(p, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        names = tuple(reader.fieldnames or ())
        if names[: len(_NAMES)] != _NAMES:
            raise ValueError(f"{p}: not a rounds table (columns {reader.fieldnames})")
        # Columns after the table's (save_rounds's ``extra``) are read as text.
        return [
            {k: _from_text(k, v) if k in _TYPES else unescape_cell(v) for k, v in line.items()}
            for line in reader
        ]
