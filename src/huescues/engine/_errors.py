"""Errors raised when an action or a setting breaks the rules."""

from __future__ import annotations

__all__ = [
    "GameOver",
    "IllegalAction",
    "IllegalClue",
    "InvalidRecord",
    "InvalidRules",
    "InvalidTarget",
    "NotYourTurn",
    "OccupiedSquare",
    "OffBoard",
    "PassNotAllowed",
    "WrongPhase",
]


class IllegalAction(ValueError):
    """An action the rules refuse. The state it was applied to is unchanged."""


class WrongPhase(IllegalAction):
    """The action does not belong to the current phase of the round (R8-R12)."""


class GameOver(WrongPhase):
    """The game has ended (R24-R26): no action is legal any more."""


class NotYourTurn(IllegalAction):
    """A seat other than the current player tried to act (R6, R10, R12)."""


class OccupiedSquare(IllegalAction):
    """A pawn was placed on a square that already holds one (R13)."""


class OffBoard(IllegalAction):
    """A pawn was placed on a square outside the board (R1)."""


class InvalidTarget(IllegalAction):
    """The clue giver chose something other than one of the card's four squares (R8)."""


class PassNotAllowed(IllegalAction):
    """The clue giver passed where the rules do not allow it (R11)."""


class IllegalClue(IllegalAction):
    """A clue that breaks a clue rule (R18-R22).

    ``rule`` is the rule number (``"R19"``), ``word`` the offending word (or ``None`` when the
    clue as a whole is at fault) and ``clue`` the text as given.
    """

    def __init__(self, message: str, *, rule: str, clue: str, word: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.clue = clue
        self.word = word

    def __reduce__(self) -> tuple[object, ...]:
        # Keep the error picklable across processes despite keyword-only fields.
        return (_rebuild_illegal_clue, (str(self), self.rule, self.clue, self.word))


def _rebuild_illegal_clue(message: str, rule: str, clue: str, word: str | None) -> IllegalClue:
    return IllegalClue(message, rule=rule, clue=clue, word=word)


class InvalidRules(ValueError):
    """A rules object (or a game set-up) with settings the rules cannot play."""


class InvalidRecord(ValueError):
    """A game record or saved state (JSON) that cannot be read, or that is not a state the rules
    can reach: the message names the field at fault. Nothing is loaded."""
