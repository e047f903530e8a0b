"""What a study asks and what it asks by default: the built-in clue lists and consent text,
the optional questions' answers, the clue givers it may show, the bounds on what it takes, and
:class:`StudyConfig`, checked when it is made."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from huescues.agents import CATALOGUE, catalogue_names
from huescues.engine import MAX_PLAYERS, available_languages, normalise_clue

from ._study_items import check_url

__all__ = [
    "AGE_RANGES",
    "COLOUR_BLINDNESS",
    "DEFAULT_CLUES",
    "DEFAULT_CLUES_BY_LANGUAGE",
    "DEFAULT_CONSENT",
    "DEFAULT_GIVE_INTRO",
    "DEFAULT_PRACTICE_CLUES",
    "GAME_BOTS",
    "GIVERS",
    "MAX_BODY_BYTES",
    "MAX_CLUES_PER_PERSON",
    "MAX_EXTRA_ITEMS",
    "MAX_LANGUAGE_LENGTH",
    "MAX_QUERY_CLUES",
    "MAX_RESPONSE_MS",
    "MAX_STUDY_CLUE_LENGTH",
    "SPANISH_CLUES",
    "StudyConfig",
]


def _study_clues(language: str, name: str = "study_clues.txt") -> tuple[str, ...]:
    """A study's built-in clue list in ``language``, from its pack
    (``data/languages/CODE/study_clues.txt``; the practice clues' ``practice_clues.txt``), in
    order; () where the pack has none."""
    path = resources.files("huescues").joinpath("data", "languages", language, name)
    if not path.is_file():
        return ()
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(c.strip() for c in lines if c.strip() and not c.startswith("#"))


#: The built-in clue list: the nine chromatic basic colour terms (the board has no white or
#: black) and things whose colour most people know, from foods to places, so that a study with
#: no ``--clues`` measures both kinds (the English pack's ``study_clues.txt``).
DEFAULT_CLUES: tuple[str, ...] = _study_clues("en")

#: The built-in clue list of a Spanish study (``StudyConfig(language="es")``), from the Spanish
#: pack: the same clues in the same order, in Spanish, so that row ``i`` of one list is the
#: translation of row ``i`` of the other and the readings of a clue can be compared across
#: languages. The nine colour terms are the Spanish pack's basic terms; every other clue
#: passes the Spanish R19 (a test checks it).
SPANISH_CLUES: tuple[str, ...] = _study_clues("es")

#: A study's built-in clue list by its language: every pack that has one.
DEFAULT_CLUES_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    code: clues for code in available_languages() if (clues := _study_clues(code))
}

#: The practice clues by language (``--practice N`` of them, unless ``--practice-clues``): the
#: packs' ``practice_clues.txt``, none of them one of the built-in study clues.
DEFAULT_PRACTICE_CLUES: dict[str, tuple[str, ...]] = {
    code: clues
    for code in available_languages()
    if (clues := _study_clues(code, "practice_clues.txt"))
}

#: The consent text of a guessing study with the built-in settings (the text a study shows is
#: made from what it stores: :func:`huescues.web._consent.consent_text`).
DEFAULT_CONSENT: tuple[str, ...] = (
    "This is a short study of how people name colours. You will see a word or a few words, "
    "then a board of coloured squares: click the square that the words make you think of. "
    "There are no right or wrong answers.",
    "We record the square you click, the words you saw, how long you took and the time, under "
    "a random code. We also record your screen's size, pixel density and colour depth (the "
    "colours you saw depend on them). If you came from a research panel, the ids it put in "
    "the study's address (your panel id, the study's and the session's) are stored with your "
    "answers, so that the panel can pay you; the panel can link them to you. The questions "
    "below are optional. The answers are used for research on colour language and may be "
    "shared, without the code and without the panel's ids.",
    "Taking part is voluntary: you can stop at any time by closing the page. By clicking "
    "'I agree' you say that you are 18 or older and agree to take part.",
)

#: The first paragraph of the consent text in the clue-giving study (``/study/give``), in
#: place of :data:`DEFAULT_CONSENT`'s first when the researcher gives no consent file.
DEFAULT_GIVE_INTRO = (
    "This is a short study of how people name colours. You will see a square of colour on a "
    "board of coloured squares: type one word that would make someone else think of that "
    "square. There are no right or wrong answers."
)

#: The answers offered to the optional question on colour vision.
COLOUR_BLINDNESS: tuple[str, ...] = ("no", "red-green", "blue-yellow", "other", "not sure")
#: The answers offered to the optional question on age.
AGE_RANGES: tuple[str, ...] = ("18-24", "25-34", "35-44", "45-54", "55-64", "65+")

#: The clue givers a study may show (``--giver``): a name to the factory of the seat, for every
#: fair player of the catalogue that gives clues.
GIVERS: dict[str, Callable[[], object]] = {
    name: CATALOGUE[name].factory for name in catalogue_names(role="giver", sees_target=False)
}

#: The bots a game study may seat beside its participant (``--game-bots``): every fair player of
#: the catalogue that plays both roles.
GAME_BOTS: tuple[str, ...] = tuple(catalogue_names(sees_target=False))

#: Bounds on what a request may carry; a study never needs more.
MAX_BODY_BYTES = 4096
MAX_CLUES_PER_PERSON = 200
MAX_QUERY_CLUES = 50
MAX_STUDY_CLUE_LENGTH = 60
MAX_LANGUAGE_LENGTH = 40
MAX_RESPONSE_MS = 3_600_000
MAX_EXTRA_ITEMS = 20
_CODE = re.compile(r"[A-Za-z0-9_-]{1,40}")


@dataclass(frozen=True, slots=True)
class StudyConfig:
    """What a study asks: the clues (None: :data:`DEFAULT_CLUES`), the board CSV (None: the
    standard board), how many clues each person sees, and the clue giver whose clues for
    hidden targets are shown instead (None: the clue list itself; else a name in
    :data:`GIVERS`). ``consent`` is a text file whose paragraphs (separated by blank lines)
    replace :data:`DEFAULT_CONSENT`. ``rate`` and ``burst`` limit the requests one address
    may make (per second, and at once); ``starts_per_minute`` the participants it may start.
    ``allow_visitor_clues`` lets a visitor bring their own clue list (``/study?clues=...``);
    off, only the researcher's clues are asked, and on, those participants' rows say
    ``clue_source`` ``visitor`` in the export. ``language`` is the language of the study's
    clues (``"en"`` or ``"es"``): its built-in list (:data:`DEFAULT_CLUES_BY_LANGUAGE`), the
    rules a given clue is checked by (R18-R20 in its words), the pages' default language, and
    the exports' ``clue_language`` column. The clue givers (``giver``) give English clues: a
    giver study is English.
    """

    clues: tuple[str, ...] | None = None
    board: str | None = None
    clues_per_person: int = 10
    giver: str | None = None
    consent: str | None = None
    rate: float = 5.0
    burst: int = 30
    starts_per_minute: int = 10
    allow_visitor_clues: bool = False
    targets_per_person: int = 10
    practice: int = 0
    attention_checks: int = 0
    attention_misses_allowed: int = 1
    colour_plates: int = 0
    completion_url: str | None = None
    completion_code: str | None = None
    screen_out_url: str | None = None
    language: str = "en"
    #: The practice clues (None: the language's :data:`DEFAULT_PRACTICE_CLUES`); ``practice``
    #: of them are shown, never one of the study's own clues.
    practice_clues: tuple[str, ...] | None = None
    #: The giving study's targets, squares such as ``A3`` (None: the whole board);
    #: ``targets_per_person`` of them (at most all of them) are given to each participant,
    #: least-given first.
    targets: tuple[str, ...] | None = None
    #: The game study's bots, one seat each beside the participant's (``--game-bots``).
    game_bots: tuple[str, ...] = ("default", "naming")
    #: Seconds the game study waits for an away participant's move before a stand-in makes
    #: it (the game ends even if they drop out).
    game_away_seconds: int = 45

    def __post_init__(self) -> None:
        if self.language not in available_languages():
            raise ValueError(
                f"the study's language is one of {', '.join(available_languages())}, "
                f"not {self.language!r}"
            )
        if self.giver is not None and self.language != "en":
            raise ValueError(
                f"the clue givers give English clues: a study in {self.language!r} shows its "
                "own clue list (no giver)"
            )
        if not 1 <= self.targets_per_person <= MAX_CLUES_PER_PERSON:
            raise ValueError(
                f"targets per person must be 1 to {MAX_CLUES_PER_PERSON}, "
                f"not {self.targets_per_person}"
            )
        for name in ("practice", "attention_checks", "colour_plates"):
            value = getattr(self, name)
            if not 0 <= value <= MAX_EXTRA_ITEMS:
                raise ValueError(f"{name} must be 0 to {MAX_EXTRA_ITEMS}, not {value}")
        if self.attention_misses_allowed < 0:
            raise ValueError(
                f"attention_misses_allowed must be 0 or more, not {self.attention_misses_allowed}"
            )
        check_url(self.completion_url, "the completion URL")
        check_url(self.screen_out_url, "the screen-out URL")
        if self.completion_code is not None and not _CODE.fullmatch(self.completion_code):
            raise ValueError(
                f"the completion code {self.completion_code!r:.50} is not 1 to 40 letters, "
                "digits, '_' or '-'"
            )
        if not 1 <= self.clues_per_person <= MAX_CLUES_PER_PERSON:
            raise ValueError(
                f"clues per person must be 1 to {MAX_CLUES_PER_PERSON}, not {self.clues_per_person}"
            )
        if self.giver is not None and self.giver not in GIVERS:
            raise ValueError(
                f"unknown clue giver {self.giver!r}: choose one of {', '.join(GIVERS)}"
            )
        if self.clues is not None:
            _check_clues(self.clues, "the study's clues")
        if self.practice_clues is not None:
            _check_clues(self.practice_clues, "the practice clues")
        if self.targets is not None and (isinstance(self.targets, str) or not self.targets):
            raise ValueError("the targets are a list of squares such as A3, F12")
        if not isinstance(self.game_bots, tuple) or not self.game_bots:
            raise ValueError("the game study's bots are a list of one or more bot names")
        unknown = [b for b in self.game_bots if b not in GAME_BOTS]
        if unknown:
            raise ValueError(
                f"game bots {', '.join(map(repr, unknown))}: choose from {', '.join(GAME_BOTS)}"
            )
        if type(self.game_away_seconds) is not int or not 1 <= self.game_away_seconds <= 600:
            raise ValueError(
                f"game_away_seconds is a whole number of seconds from 1 to 600, not "
                f"{self.game_away_seconds!r}"
            )
        if len(self.game_bots) + 1 > MAX_PLAYERS:
            raise ValueError(f"a game has at most {MAX_PLAYERS} seats (R2): fewer game bots")
        if self.rate <= 0 or self.burst < 1 or self.starts_per_minute < 1:
            raise ValueError("rate limits must be positive")


def _check_clues(clues: object, what: str) -> tuple[str, ...]:
    if isinstance(clues, str) or not isinstance(clues, tuple | list):
        raise ValueError(f"{what} are a list of texts, not {clues!r:.40}")
    out = []
    for c in clues:
        text = normalise_clue(c) if isinstance(c, str) else ""
        if not text:
            raise ValueError(f"{what}: {c!r:.40} is not a clue (an empty text)")
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
            # Control characters (an escape, a NUL) and lone surrogates (from a command line of
            # bad UTF-8) are no words; the study would show them, store them and export them.
            raise ValueError(f"{what}: {text[:20]!r} holds a control character or a lone surrogate")
        if len(text) > MAX_STUDY_CLUE_LENGTH:
            raise ValueError(
                f"{what}: {text[:20]!r}... is longer than {MAX_STUDY_CLUE_LENGTH} characters"
            )
        out.append(text)
    if not out:
        raise ValueError(f"{what}: the list is empty")
    return tuple(out)


def _consent_text(path: str | None) -> tuple[str, ...]:
    if path is None:
        return DEFAULT_CONSENT
    text = Path(path).read_text(encoding="utf-8")
    paragraphs = tuple(" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip())
    if not paragraphs:
        raise ValueError(f"{path}: the consent text is empty")
    return paragraphs
