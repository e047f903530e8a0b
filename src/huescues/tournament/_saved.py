"""Whether a game saved in a results file belongs to a tournament: what a resume checks of every
saved game (its seed, seats, board and rules are the schedule's), on the workers that check the
file's lines, so that a hundred thousand games are compared where they are read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ._entrants import Entrant
from ._play import rules_for
from ._results_file import ResultsFileError
from ._schedule import Schedule, make_schedule

__all__ = ["SavedGameCheck"]

_NOT_SEEN = object()


class SavedGameCheck:
    """``check(index, game)`` refuses (:class:`ResultsFileError`) a saved game that is not the
    tournament's game ``index``. Pickles as its settings: each process makes its own schedule
    (worked out block by block as games are checked)."""

    def __init__(
        self,
        path: Path,
        entrants: Sequence[Entrant],
        *,
        games: int,
        players: Sequence[int],
        seed: int,
        board_id: str,
        rules: Mapping[str, Any],
    ) -> None:
        self.path = path
        self.entrants = tuple(entrants)
        self.games = games
        self.players = tuple(players)
        self.seed = seed
        self.board_id = board_id
        self.rules = dict(rules)
        self._schedule: Schedule | None = None
        self._rules_dicts: dict[int, dict[str, Any]] = {}
        # The last rules object found equal to the tournament's, by player count: a checked
        # file's lines share one dict per rules' text (``_line_cut``), so most games' rules
        # are that object again, and comparing it anew would be a third of the check.
        self._equal_rules: dict[int, object] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.path, self.entrants, self.games, self.players, self.seed,
                           self.board_id, self.rules))  # fmt: skip

    @property
    def schedule(self) -> Schedule:
        if self._schedule is None:
            self._schedule = make_schedule(
                self.entrants, games=self.games, players=self.players, seed=self.seed
            )
        return self._schedule

    def rules_dict(self, n_players: int) -> dict[str, Any]:
        """The rules of the tournament's ``n_players`` games as a record holds them."""
        made = self._rules_dicts.get(n_players)
        if made is None:
            made = self._rules_dicts[n_players] = rules_for(n_players, self.rules).to_dict()
        return made

    def __call__(self, index: int, game: Mapping[str, Any]) -> None:
        if type(index) is int and 0 <= index < self.games:
            # The usual case first, in a few comparisons.
            seed, n, seats = self.schedule.seats(index)
            record = game.get("record")
            if (
                game.get("format") == 1
                and game.get("seed") == seed
                and game.get("n_players") == n
                and game.get("seats") == seats
                and game.get("board_id") == self.board_id
                and (record is None or self._same_rules(record.get("rules"), n))
            ):
                return
        self._refuse(index, game)

    def _same_rules(self, rules: object, n_players: int) -> bool:
        """Whether a saved game's rules (as its record holds them) are the tournament's."""
        if rules is self._equal_rules.get(n_players, _NOT_SEEN):
            return True
        if rules != self.rules_dict(n_players):
            return False
        self._equal_rules[n_players] = rules
        return True

    def _refuse(self, index: int, game: Mapping[str, Any]) -> None:
        """:meth:`__call__` naming what is wrong with ``game``."""

        def refuse(why: str) -> None:
            raise ResultsFileError(
                f"cannot resume from {self.path}: it is not from this tournament's schedule "
                f"(game {index}: {why}); use another file, or the tournament that wrote it"
            )

        specs = self.schedule
        if index < 0 or index >= len(specs):
            refuse(f"this tournament has {len(specs)} games")
        spec = specs[index]
        if game.get("format") != 1:
            refuse(f"results format {game.get('format')!r}, not 1")
        if game.get("seed") != spec.seed:
            refuse(f"seed {game.get('seed')} in the file, {spec.seed} in the schedule")
        if game.get("n_players") != spec.n_players or game.get("seats") != list(spec.seats):
            refuse(f"seats {game.get('seats')} in the file, {list(spec.seats)} in the schedule")
        if game.get("board_id") != self.board_id:
            refuse(
                f"board {game.get('board_id')!r} in the file, {self.board_id!r} in this tournament"
            )
        record = game.get("record")
        if record is not None and record.get("rules") != self.rules_dict(spec.n_players):
            refuse("the file's games were played by other rules")


def _rebuild(
    path: Path,
    entrants: tuple[Entrant, ...],
    games: int,
    players: tuple[int, ...],
    seed: int,
    board_id: str,
    rules: dict[str, Any],
) -> SavedGameCheck:
    """The check as unpickled in a worker: the one made before there for the same settings (a
    resume sends it with every block of lines; its schedule, worked out in runs of blocks,
    then serves the next block too)."""
    key = (path, entrants, games, players, seed, board_id, repr(sorted(rules.items())))
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= 8:
            _MADE.clear()
        made = _MADE[key] = SavedGameCheck(
            path, entrants, games=games, players=players, seed=seed, board_id=board_id, rules=rules
        )
    return made


_MADE: dict[tuple[Any, ...], SavedGameCheck] = {}
