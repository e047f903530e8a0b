"""House rules: what the people creating a table may change of the standard game.

Two are game rules, so the engine checks them and the game's record carries them: R19's house
rule on named colours (:attr:`~huescues.Rules.refuse_named_colours`) and the rounds each player
gives clues (R7, :attr:`~huescues.Rules.rounds_per_giver`: every player the same number, so
turns stay equal). One is the table's: how long a reveal waits for the people to dismiss it.

The table's language (:attr:`~huescues.Rules.language`, ``POST /api/tables``'s ``"language"``)
is kept with them, so that a restart rebuilds the game in it.

:class:`TableOptions` are how the table itself runs, set at the top of ``POST /api/tables``: a
waiting room before the start, how long an away person's turn waits for them before a stand-in
plays it, an optional turn timer, and the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from huescues.engine import DEFAULT_LANGUAGE, Board, Rules, available_languages

__all__ = [
    "BOARDS",
    "MAX_REVEAL_SECONDS",
    "MAX_ROUNDS_PER_GIVER",
    "MAX_TURN_SECONDS",
    "OPTION_FIELDS",
    "HouseRules",
    "TableOptions",
    "check_language",
]

#: The most rounds a player may give clues at one table (R7): a long evening, not a siege.
MAX_ROUNDS_PER_GIVER = 3
#: The longest a reveal may wait for dismissals, in seconds.
MAX_REVEAL_SECONDS = 600.0

_FIELDS = ("refuse_named_colours", "rounds_per_giver", "reveal_seconds")


def check_language(language: object) -> str:
    """A table's language, checked: a ``ValueError`` names a language the engine has no pack
    for."""
    languages = available_languages()
    if not isinstance(language, str) or language not in languages:
        raise ValueError(
            f"'language' is one of {', '.join(languages)}, not {str(language)[:20]!r} (R19-R21)"
        )
    return language


@dataclass(frozen=True, slots=True)
class HouseRules:
    """A table's house rules as requested; ``None`` keeps the standard (or the server's)."""

    refuse_named_colours: bool = False
    rounds_per_giver: int | None = None
    reveal_seconds: float | None = None
    #: The game's language (R19-R21 in its words): a pack of :func:`available_languages`.
    language: str = DEFAULT_LANGUAGE

    @classmethod
    def from_request(cls, data: object, language: str = DEFAULT_LANGUAGE) -> HouseRules:
        """The ``house_rules`` of ``POST /api/tables``, checked: a ``ValueError`` names the bad
        value and the rule."""
        if data is None:
            return cls(language=language)
        if not isinstance(data, dict):
            raise ValueError(f"'house_rules' is an object with some of {list(_FIELDS)}")
        unknown = sorted(str(k)[:30] for k in set(data) - set(_FIELDS))
        if unknown:
            raise ValueError(f"unknown house rules {unknown}; the house rules are {list(_FIELDS)}")
        named = data.get("refuse_named_colours", False)
        if not isinstance(named, bool):
            raise ValueError(
                f"house rule refuse_named_colours is true or false, not {str(named)[:20]!r} (R19)"
            )
        rounds = data.get("rounds_per_giver")
        if rounds is not None and (
            type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS_PER_GIVER
        ):
            raise ValueError(
                f"house rule rounds_per_giver is a whole number from 1 to "
                f"{MAX_ROUNDS_PER_GIVER}, not {str(rounds)[:20]!r} (R7)"
            )
        reveal = data.get("reveal_seconds")
        if reveal is not None and (
            type(reveal) not in (int, float) or not 0 <= reveal <= MAX_REVEAL_SECONDS
        ):
            raise ValueError(
                f"house rule reveal_seconds is a number of seconds from 0 to "
                f"{MAX_REVEAL_SECONDS:g}, not {str(reveal)[:20]!r}"
            )
        return cls(named, rounds, None if reveal is None else float(reveal), language)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> HouseRules:
        """The house rules :meth:`to_dict` kept (a game stored before languages is English)."""
        data = dict(data)
        language = check_language(data.pop("language", DEFAULT_LANGUAGE))
        return cls.from_request(data, language)

    def to_dict(self) -> dict[str, Any]:
        """What was requested (the database keeps it, so a restart rebuilds the same game)."""
        data: dict[str, Any] = {"refuse_named_colours": self.refuse_named_colours}
        if self.rounds_per_giver is not None:
            data["rounds_per_giver"] = self.rounds_per_giver
        if self.reveal_seconds is not None:
            data["reveal_seconds"] = self.reveal_seconds
        data["language"] = self.language
        return data

    def rules(self, n_players: int) -> Rules:
        """The game's rules: the standard ones for ``n_players`` with the house's changes."""
        changes: dict[str, Any] = {
            "refuse_named_colours": self.refuse_named_colours,
            "language": self.language,
        }
        if self.rounds_per_giver is not None:
            changes["rounds_per_giver"] = self.rounds_per_giver
        return Rules.standard(n_players, **changes)


#: The longest ``away_seconds`` and ``turn_seconds``, in seconds.
MAX_TURN_SECONDS = 600

#: The boards a table may be played on, by the name ``POST /api/tables`` uses.
BOARDS = ("standard", "retail")

#: The table's options among the top-level fields of ``POST /api/tables``.
OPTION_FIELDS = ("away_seconds", "turn_seconds", "board", "waiting_room")


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How a table runs (not game rules: the record does not carry them, the database does).

    ``away_seconds``: a person away when it is their turn has the move made by a stand-in after
    this many seconds (0: never); while they stay away, their later turns wait at most
    :attr:`TableSettings.away_again`. ``turn_seconds``: every person's turn ends after this many,
    the stand-in moving (0: no timer). ``board``: ``"standard"`` (the library's) or
    ``"retail"`` (the retail game's, as measured). ``waiting_room``: the table opens on a
    waiting room, and starts when its creator says so."""

    away_seconds: int = 45
    turn_seconds: int = 0
    board: str = "standard"
    waiting_room: bool = False
    #: A game study's table (never from a request): one participant and the study's bots; its
    #: stand-ins play even when no one is here, so that a game whose participant dropped out
    #: still ends; no play again, no reactions.
    study: bool = False

    @classmethod
    def from_request(cls, body: dict[str, Any]) -> TableOptions:
        """The options among ``body``'s fields, checked: a ``ValueError`` names the field."""
        seconds, defaults = {}, cls()
        for name in ("away_seconds", "turn_seconds"):
            value = body.get(name, getattr(defaults, name))
            if type(value) is not int or not 0 <= value <= MAX_TURN_SECONDS:
                raise ValueError(
                    f"'{name}' is a whole number of seconds from 0 to {MAX_TURN_SECONDS} "
                    f"(0: {'never' if name == 'away_seconds' else 'off'}), not "
                    f"{str(value)[:20]!r}"
                )
            seconds[name] = value
        board = body.get("board", "standard")
        if not isinstance(board, str) or board not in BOARDS:
            raise ValueError(f"'board' is one of {', '.join(BOARDS)}, not {str(board)[:20]!r}")
        waiting = body.get("waiting_room", False)
        if not isinstance(waiting, bool):
            raise ValueError(f"'waiting_room' is true or false, not {str(waiting)[:20]!r}")
        return cls(seconds["away_seconds"], seconds["turn_seconds"], board, waiting)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> TableOptions:
        """The options :meth:`to_dict` kept (a game stored before them has the defaults)."""
        data = dict(data)
        study = data.pop("study", False)
        if not isinstance(study, bool):
            raise ValueError(f"'study' is true or false, not {str(study)[:20]!r}")
        options = cls.from_request(data)
        return cls(
            options.away_seconds, options.turn_seconds, options.board, options.waiting_room, study
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "away_seconds": self.away_seconds,
            "turn_seconds": self.turn_seconds,
            "board": self.board,
            "waiting_room": self.waiting_room,
        }
        if self.study:
            out["study"] = True
        return out

    def game_board(self) -> Board:
        """The board the game is played on."""
        return Board.retail() if self.board == "retail" else Board.standard()
