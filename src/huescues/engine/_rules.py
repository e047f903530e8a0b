"""The rules object: every setting of docs/rules.md in one frozen value (R2, R6, R7, R9, R11,
R12, R15, R16, R19-R22, R25)."""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any, Literal, Self

from ._errors import InvalidRules
from ._ints import as_int
from ._languages import DEFAULT_LANGUAGE, available_languages, language_pack

__all__ = [
    "BASIC_COLOUR_TERMS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RELATIVE_WORDS",
    "Rules",
]

#: R2: the fewest players a game has.
MIN_PLAYERS = 3
#: R2: the most players a game has.
MAX_PLAYERS = 10

#: R19: the basic colour terms a clue may not use (English; other languages' are in their packs).
BASIC_COLOUR_TERMS: tuple[str, ...] = language_pack(DEFAULT_LANGUAGE).basic_colour_terms

#: R21: comparatives that point from the pawns already placed (second clue only; English).
RELATIVE_WORDS: tuple[str, ...] = language_pack(DEFAULT_LANGUAGE).relative_words

#: The default of ``banned_terms`` and ``relative_words``: the game's language pack's list,
#: put in place when the object is made (never seen outside).
_FROM_PACK: tuple[str, ...] = ("<the language pack's list>",)

FirstGiver = int | Literal["random"]

_WHOLE_SETTINGS = (
    "n_players",
    "first_giver",
    "rounds_per_giver",
    "first_clue_words",
    "second_clue_words",
    "giver_points_per_pawn",
    "max_tiebreak_rounds",
)
GuessOrder = Literal["reverse", "same"]


def _int_if_whole(value: Any) -> Any:
    """A numpy (or other) integer as an int; anything else unchanged, for the checks to refuse."""
    if type(value) is int or isinstance(value, bool | str):
        return value
    try:
        return as_int(value, "a setting")
    except TypeError:
        return value


@dataclass(frozen=True, slots=True)
class Rules:
    """Every setting of the rules, with the defaults of docs/rules.md.

    Make one with :meth:`standard` (the defaults for a player count) or the constructor, and
    vary it with :meth:`replace`. Settings the game cannot be played with are refused here, when
    the object is made, with :class:`InvalidRules`.
    """

    #: R2: number of players, 3 to 10.
    n_players: int
    #: R6: the first clue giver's seat, or ``"random"`` to draw it from the game's seed.
    first_giver: FirstGiver = 0
    #: R7: how many times each player is clue giver (2 with 3-6 players, 1 with 7-10).
    rounds_per_giver: int = 2
    #: R9: the first clue has exactly this many words.
    first_clue_words: int = 1
    #: R11: the second clue has at most this many words.
    second_clue_words: int = 2
    #: R11: whether the clue giver may pass instead of giving the second clue.
    second_clue_may_pass: bool = True
    #: R12: order of the second guesses: ``"reverse"`` (counter-clockwise) or ``"same"`` as R10.
    second_guess_order: GuessOrder = "reverse"
    #: R15: a guesser's points at distance 0, 1, 2, ... from the target (beyond: 0).
    points_by_distance: tuple[int, ...] = (3, 2, 1)
    #: R16: the clue giver's points for each pawn inside the frame (2 with 3 players, else 1).
    giver_points_per_pawn: int = 1
    #: R19-R21: the language of the clues, a language pack's code (``"en"``, ``"es"``): it
    #: gives the colour terms' forms, the position, number and common words, and the defaults
    #: of the two lists below.
    language: str = DEFAULT_LANGUAGE
    #: R19: colour terms a clue may not use (lowercase; default: the language's basic terms).
    banned_terms: tuple[str, ...] = _FROM_PACK
    #: R21: comparatives the second clue may not use (lowercase; default: the language's).
    relative_words: tuple[str, ...] = _FROM_PACK
    #: R22: whether a clue may not repeat one already given in the game.
    refuse_repeated_clues: bool = True
    #: R25: the most tie-breaker rounds played before the winners share the win (R26).
    max_tiebreak_rounds: int = 10
    #: R19, a house rule: whether a clue may not use a named colour beyond the basic terms
    #: either (indigo, mauve, crimson...: the list of :func:`huescues.engine.named_colours`).
    refuse_named_colours: bool = False

    def __post_init__(self) -> None:
        def refuse(setting: str, value: object, why: str) -> None:
            raise InvalidRules(f"Rules({setting}={value!r}) refused: {why}")

        # Numpy integers are stored as ints (once, here), so that records and hashes see ints.
        for name in _WHOLE_SETTINGS:
            object.__setattr__(self, name, _int_if_whole(getattr(self, name)))
        pts = self.points_by_distance
        if isinstance(pts, tuple):
            object.__setattr__(self, "points_by_distance", tuple(map(_int_if_whole, pts)))
        n = self.n_players
        if type(n) is not int or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            refuse("n_players", n, f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players (R2)")
        fg = self.first_giver
        if fg != "random" and (type(fg) is not int or not 0 <= fg < n):
            refuse("first_giver", fg, f"the first clue giver is a seat 0-{n - 1} or 'random' (R6)")
        for name, low, rule in (
            ("rounds_per_giver", 1, "R7"),
            ("first_clue_words", 1, "R9"),
            ("second_clue_words", 1, "R11"),
            ("max_tiebreak_rounds", 0, "R25"),
            ("giver_points_per_pawn", 0, "R16"),
        ):
            value = getattr(self, name)
            if type(value) is not int or value < low:
                refuse(name, value, f"must be a whole number of at least {low} ({rule})")
        if self.second_guess_order not in ("reverse", "same"):
            refuse("second_guess_order", self.second_guess_order, "'reverse' or 'same' (R12)")
        pts = self.points_by_distance
        if (
            not isinstance(pts, tuple)
            or not pts
            or any(type(p) is not int or p < 0 for p in pts)
            or any(a < b for a, b in itertools.pairwise(pts))
        ):
            refuse(
                "points_by_distance",
                pts,
                "a non-empty tuple of whole points >= 0 that never grow with distance (R15, R17)",
            )
        lang = self.language
        if not isinstance(lang, str) or lang not in available_languages():
            codes = ", ".join(repr(c) for c in available_languages())
            refuse("language", lang, f"the language packs are {codes} (R19-R21)")
        pack = language_pack(lang)
        if self.banned_terms is _FROM_PACK:
            object.__setattr__(self, "banned_terms", pack.basic_colour_terms)
        if self.relative_words is _FROM_PACK:
            object.__setattr__(self, "relative_words", pack.relative_words)
        for name, rule in (("banned_terms", "R19"), ("relative_words", "R21")):
            words = getattr(self, name)
            # One word each, as a clue's words are read (split on white space, then on hyphens):
            # a term of two could never match a word, and would refuse nothing.
            if not isinstance(words, tuple) or any(
                not isinstance(w, str)
                or not w
                or w != w.lower()
                or "-" in w
                or len(w.split()) != 1
                or w.split()[0] != w
                for w in words
            ):
                refuse(
                    name, words, f"a tuple of lowercase single words, no spaces or hyphens ({rule})"
                )
        if not isinstance(self.second_clue_may_pass, bool):
            refuse("second_clue_may_pass", self.second_clue_may_pass, "True or False (R11)")
        if not isinstance(self.refuse_repeated_clues, bool):
            refuse("refuse_repeated_clues", self.refuse_repeated_clues, "True or False (R22)")
        if not isinstance(self.refuse_named_colours, bool):
            refuse("refuse_named_colours", self.refuse_named_colours, "True or False (R19)")

    @classmethod
    def standard(cls, n_players: int, **changes: Any) -> Self:
        """The rules of docs/rules.md for ``n_players``, with any setting changed by keyword."""
        n_players = _int_if_whole(n_players)
        if type(n_players) is not int or not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise InvalidRules(
                f"Rules.standard({n_players!r}) refused: a game has {MIN_PLAYERS} to "
                f"{MAX_PLAYERS} players (R2)"
            )
        _refuse_unknown(cls, changes, "Rules.standard")
        defaults: dict[str, Any] = {
            "rounds_per_giver": 2 if n_players <= 6 else 1,
            "giver_points_per_pawn": 2 if n_players == 3 else 1,
        }
        defaults.update(changes)
        return cls(n_players, **defaults)

    def replace(self, **changes: Any) -> Self:
        """A copy with some settings changed (checked like a new object).

        A copy in another ``language`` takes that language's banned terms and relative words,
        unless they are changed too or are not the old language's (a variant's lists are kept).
        """
        _refuse_unknown(type(self), changes, "Rules.replace")
        lang = changes.get("language", self.language)
        if lang != self.language:
            old = language_pack(self.language)
            for name, default in (
                ("banned_terms", old.basic_colour_terms),
                ("relative_words", old.relative_words),
            ):
                if name not in changes and getattr(self, name) == default:
                    changes[name] = _FROM_PACK
        return dataclasses.replace(self, **changes)

    @property
    def regular_rounds(self) -> int:
        """Regular rounds (R7): each player is clue giver ``rounds_per_giver`` times."""
        return self.n_players * self.rounds_per_giver

    def points_at(self, distance: int) -> int:
        """A guesser's points for a pawn at this distance from the target (R15)."""
        pts = self.points_by_distance
        return pts[distance] if distance < len(pts) else 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data. A house rule left off, and the language when it is English,
        are left out, so that the records of English games under the standard rules read as
        they did before house rules and languages existed (and older readers still read them)."""
        data = {
            f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v
            for f in dataclasses.fields(self)
        }
        if not self.refuse_named_colours:
            del data["refuse_named_colours"]
        if self.language == "en":
            del data["language"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`; unknown keys are an error, a missing house rule is
        off, and rules saved before languages came (no ``language``) are English."""
        if not isinstance(data, dict):
            raise InvalidRules(f"rules are a JSON object of settings, not {data!r:.80}")
        try:  # the same settings again (every record of a results file): the same object,
            # which passed the checks below when it was made
            key = tuple(
                (k, list, tuple(v), tuple(map(type, v))) if type(v) is list else (k, type(v), v)
                for k, v in data.items()
            )
            known = _FROM_DICT.get(key)
        except TypeError:  # a value that cannot be hashed: made anew (and refused)
            key, known = None, None
        if known is not None and type(known) is cls:
            return known
        if "n_players" not in data:
            raise InvalidRules(f"the rules lack n_players (R2): {data!r:.80}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise InvalidRules(f"unknown rules settings: {sorted(unknown)}")
        values: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in data.items()
        }
        made = cls(**values)
        if key is not None:
            if len(_FROM_DICT) >= 64:
                _FROM_DICT.clear()
            _FROM_DICT[key] = made
        return made


def _refuse_unknown(cls: type[Rules], changes: dict[str, Any], where: str) -> None:
    """An :class:`InvalidRules` naming every setting of ``changes`` that the rules lack, and the
    settings there are (Python would say only that a keyword was unexpected, a ``TypeError``)."""
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = [k for k in changes if k not in names]
    if unknown:
        given = ", ".join(f"{k}={changes[k]!r:.40}" for k in unknown)
        raise InvalidRules(
            f"{where}({given}) refused: unknown setting{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(k) for k in unknown)} (the settings: {', '.join(names[1:])})"
        )


#: Rules read by :meth:`Rules.from_dict`, by their settings with each value's type (so that
#: ``0`` and ``False`` are not taken for each other): a results file's records share a few rules,
#: and a shared object also shares the clue checks cached per rules object.
_FROM_DICT: dict[tuple[Any, ...], Rules] = {}
