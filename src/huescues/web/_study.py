"""Study mode at ``/study``: consent, then clues one at a time; each click on the board is a
response in the database.

The page (``static/study.html``, ``study.js``, ``board.js``) talks to four JSON endpoints:
``GET /study/api/info`` (the consent text and the optional questions), ``POST /study/api/start``
(consent given: a new participant, the board and the first clue), ``POST /study/api/answer``
(a click: stored, and the next clue) and ``POST /study/api/resume`` (a reload: the participant's
next clue, read from the database alone). Every request is checked before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from huescues.agents import CATALOGUE, catalogue_names, prepare
from huescues.engine import (
    Board,
    Cell,
    ChooseTarget,
    IllegalClue,
    available_languages,
    new_game,
    normalise_clue,
    validate_clue,
)

from ._board import board_json
from ._db import Database
from ._limits import ClientLimiter, client_key
from ._requests import Refused, read_json
from ._study_items import (
    PANEL_ID,
    PANEL_IDS,
    Item,
    attention_missed,
    check_url,
    colour_plate,
    interleave,
    redirect_to,
    screen_numbers,
)

__all__ = [
    "AGE_RANGES",
    "COLOUR_BLINDNESS",
    "DEFAULT_CLUES",
    "DEFAULT_CLUES_BY_LANGUAGE",
    "DEFAULT_CONSENT",
    "DEFAULT_GIVE_INTRO",
    "GIVERS",
    "SPANISH_CLUES",
    "STUDY_SCHEMA",
    "StudyConfig",
    "study_routes",
    "upgrade_study_tables",
]

#: The study's part of the database: one row per participant (what they chose to tell, the
#: clues planned for them and whose list they came from) and one row per click.
STUDY_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS participants (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        board TEXT NOT NULL,
        seed INTEGER NOT NULL,
        plan TEXT NOT NULL,
        language TEXT,
        colour_blindness TEXT,
        age_range TEXT,
        clue_source TEXT NOT NULL DEFAULT 'researcher',
        study TEXT NOT NULL DEFAULT 'guess',
        prolific_pid TEXT,
        study_id TEXT,
        session_id TEXT,
        participant_id TEXT,
        screen_width INTEGER,
        screen_height INTEGER,
        pixel_ratio REAL,
        colour_depth INTEGER
    )""",
    """CREATE TABLE IF NOT EXISTS responses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        participant TEXT NOT NULL REFERENCES participants(id),
        item INTEGER NOT NULL,
        clue TEXT NOT NULL,
        square TEXT NOT NULL,
        board TEXT NOT NULL,
        time REAL NOT NULL,
        response_ms INTEGER,
        giver TEXT,
        target TEXT,
        trial TEXT NOT NULL DEFAULT 'clue',
        clue_language TEXT NOT NULL DEFAULT 'en',
        UNIQUE (participant, item)
    )""",
    """CREATE TABLE IF NOT EXISTS given_clues (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        participant TEXT NOT NULL REFERENCES participants(id),
        item INTEGER NOT NULL,
        target TEXT NOT NULL,
        clue TEXT NOT NULL,
        board TEXT NOT NULL,
        time REAL NOT NULL,
        response_ms INTEGER,
        trial TEXT NOT NULL DEFAULT 'give',
        clue_language TEXT NOT NULL DEFAULT 'en',
        UNIQUE (participant, item)
    )""",
    """CREATE TABLE IF NOT EXISTS study_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
)

#: The columns :func:`upgrade_study_tables` adds to a database written before them.
_ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("participants", "clue_source", "TEXT NOT NULL DEFAULT 'researcher'"),
    ("participants", "study", "TEXT NOT NULL DEFAULT 'guess'"),
    ("participants", "prolific_pid", "TEXT"),
    ("participants", "study_id", "TEXT"),
    ("participants", "session_id", "TEXT"),
    ("participants", "participant_id", "TEXT"),
    ("participants", "screen_width", "INTEGER"),
    ("participants", "screen_height", "INTEGER"),
    ("participants", "pixel_ratio", "REAL"),
    ("participants", "colour_depth", "INTEGER"),
    ("responses", "trial", "TEXT NOT NULL DEFAULT 'clue'"),
    ("responses", "clue_language", "TEXT NOT NULL DEFAULT 'en'"),
    ("given_clues", "clue_language", "TEXT NOT NULL DEFAULT 'en'"),
)


def _study_clues(language: str) -> tuple[str, ...]:
    """A study's built-in clue list in ``language``, from its pack
    (``data/languages/CODE/study_clues.txt``), in order; () where the pack has none."""
    path = resources.files("huescues").joinpath("data", "languages", language, "study_clues.txt")
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

#: The consent text shown when the researcher gives none (``--consent FILE``); adapt it.
DEFAULT_CONSENT: tuple[str, ...] = (
    "This is a short study of how people name colours. You will see a word or a few words, "
    "then a board of coloured squares: click the square that the words make you think of. "
    "There are no right or wrong answers.",
    "We record the square you click, the words you saw, how long you took and the time, under "
    "a random code that is not linked to your name, address or device. The questions below are "
    "optional. The answers are used for research on colour language and may be shared "
    "without the code.",
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

#: Bounds on what a request may carry; a study never needs more.
MAX_BODY_BYTES = 4096
MAX_CLUES_PER_PERSON = 200
MAX_QUERY_CLUES = 50
MAX_STUDY_CLUE_LENGTH = 60
MAX_LANGUAGE_LENGTH = 40
MAX_RESPONSE_MS = 3_600_000
MAX_EXTRA_ITEMS = 20
_CODE = re.compile(r"[A-Za-z0-9_-]{1,40}")
_PARTICIPANT = re.compile(r"[A-Za-z0-9_-]{16,64}")
_LANGUAGE = re.compile(r"[^\W\d_]+(?:[ '\-][^\W\d_]+)*")


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


class _Study:
    def __init__(self, db: Database, config: StudyConfig) -> None:
        self.db = db
        self.config = config
        upgrade_study_tables(db)
        self.board = Board.standard() if config.board is None else Board.from_csv(config.board)
        self.clues = (
            config.clues
            if config.clues is not None
            else DEFAULT_CLUES_BY_LANGUAGE.get(config.language, DEFAULT_CLUES)
        )
        self.consent = _consent_text(config.consent)
        self.give_consent = (
            self.consent if config.consent is not None else (DEFAULT_GIVE_INTRO, *self.consent[1:])
        )
        self.requests = ClientLimiter(config.burst, config.rate)
        self.starts = ClientLimiter(config.starts_per_minute, config.starts_per_minute / 60.0)
        self._giver: object | None = None
        self._giver_lock = threading.Lock()
        if config.giver is not None:
            # Reading the vocabulary on the board takes seconds: start now, not at the first
            # participant (who would otherwise wait).
            threading.Thread(target=self.giver, daemon=True, name="study-giver").start()
        # The game tables' wire format: one drawer (board.js) for both pages.
        self.board_json = board_json(self.board)
        self.completion_code = config.completion_code or _stored_code(db)
        with db.transaction() as cur:
            # The export's attention_passed applies the rule the study ran with.
            cur.execute(
                "INSERT OR REPLACE INTO study_meta (key, value) "
                "VALUES ('attention_misses_allowed', ?)",
                (str(config.attention_misses_allowed),),
            )

    def giver(self) -> object:
        with self._giver_lock:
            if self._giver is None:
                assert self.config.giver is not None
                agent = GIVERS[self.config.giver]()
                prepare(agent, self.board, new_game(4, seed=0, board=self.board).rules)
                self._giver = agent
            return self._giver

    def plan(self, seed: int, clues: tuple[str, ...] | None, kind: str = "guess") -> list[Item]:
        """The participant's plan in order: the colour plates, the practice items, then the
        main items with the attention checks spread among them. The main items are the clue
        list shuffled by the participant's own generator, or (a giver study) the giver's first
        clue for a target drawn from it, or (the giving study) targets drawn from the board.
        The rest comes from a second generator of the same seed, so that the main items are
        what they were before there was a rest."""
        rng = np.random.default_rng(seed)
        extra = np.random.default_rng([seed, 1])
        cfg = self.config
        main = self._give_targets(rng) if kind == "give" else self._guess_items(rng, clues)
        cells = self.board.cells()
        if kind == "give":
            shown = {i.target for i in main}
            free = [c for c in cells if str(c) not in shown]
            practice = [
                Item(None, None, str(free[int(extra.integers(len(free)))]), "give-practice")
                for _ in range(cfg.practice)
            ]
        else:
            pool = clues if clues is not None else self.clues
            unused = [c for c in pool if c not in {i.clue for i in main}] or list(pool)
            practice = [
                Item(unused[int(extra.integers(len(unused)))], None, None, "practice")
                for _ in range(cfg.practice)
            ]
        plates = [colour_plate(self.board, extra) for _ in range(cfg.colour_plates)]
        checks = [
            Item(None, None, str(cells[int(extra.integers(len(cells)))]), "attention")
            for _ in range(cfg.attention_checks)
        ]
        return [*plates, *practice, *interleave(main, checks)]

    def _guess_items(self, rng: np.random.Generator, clues: tuple[str, ...] | None) -> list[Item]:
        k = self.config.clues_per_person
        if clues is not None or self.config.giver is None:
            chosen = clues if clues is not None else self.clues
            order = rng.permutation(len(chosen))[:k]
            return [Item(chosen[int(i)]) for i in order]
        giver = self.giver()
        items = []
        for _ in range(k):
            game_seed = int(rng.integers(2**32))
            # The engine's own draw: a card from the deck, then one of its four squares (R3,
            # R8), and the giver's first clue for it, from the giver's view alone (R9).
            state = new_game(4, seed=game_seed, board=self.board)
            state = state.apply(ChooseTarget(int(rng.integers(4))))
            assert state.current_player is not None
            view = state.view(state.current_player)
            clue = giver.give_clue(view, np.random.default_rng(game_seed))  # type: ignore[attr-defined]
            items.append(Item(normalise_clue(clue.text), self.config.giver, str(state.target)))
        return items

    def _give_targets(self, rng: np.random.Generator) -> list[Item]:
        # Uniform over the board, without repeats: every square is as likely a target.
        k = min(self.config.targets_per_person, self.board.rows * self.board.cols)
        cells = self.board.cells()
        order = rng.permutation(len(cells))[:k]
        return [Item(None, None, str(cells[int(i)]), "give") for i in order]


def _stored_code(db: Database) -> str:
    """The study's completion code: drawn once and kept in the database, so a restart (and
    every participant) gives the same code."""
    with db.transaction() as cur:
        row = cur.execute("SELECT value FROM study_meta WHERE key = 'completion_code'").fetchone()
        if row is not None:
            return str(row[0])
        code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
        cur.execute("INSERT INTO study_meta (key, value) VALUES ('completion_code', ?)", (code,))
        return code


def upgrade_study_tables(db: Database) -> None:
    """Bring a database written by an older server up to :data:`STUDY_SCHEMA`: add the
    columns it lacks. Under ``clue_source`` its participants read as ``researcher`` (before it,
    every clue list a visitor sent was taken, untold; the default is the likelier truth); under
    ``study`` as ``guess`` and its responses' ``trial`` as ``clue`` (the only study and trial
    there were); its responses' and given clues' ``clue_language`` as ``en`` (every study was
    English before it); the panel ids and the screen are empty (never asked)."""
    with db.transaction() as cur:
        for table, column, decl in _ADDED_COLUMNS:
            columns = {row[1] for row in cur.execute(f"PRAGMA table_info({table})")}
            if column not in columns:
                cur.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")


def _consent_text(path: str | None) -> tuple[str, ...]:
    if path is None:
        return DEFAULT_CONSENT
    text = Path(path).read_text(encoding="utf-8")
    paragraphs = tuple(" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip())
    if not paragraphs:
        raise ValueError(f"{path}: the consent text is empty")
    return paragraphs


def _seed_of(participant: str) -> int:
    """The participant's generator seed, from the id: reproducible, and as unguessable as it."""
    # 63 bits: the seed fits SQLite's signed integers as it is.
    return int.from_bytes(hashlib.sha256(participant.encode()).digest()[:8], "big") >> 1


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _json_body(request: Request, allowed: set[str]) -> dict[str, Any]:
    """The request's JSON object (:func:`read_json`, up to :data:`MAX_BODY_BYTES`); refused if
    not an object or with keys not in ``allowed``. Every refusal comes before anything is
    stored."""
    data = await read_json(request, MAX_BODY_BYTES)
    if not isinstance(data, dict):
        raise Refused(400, "the request is not a JSON object")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise Refused(400, f"unknown fields {unknown}; the fields are {sorted(allowed)}")
    return data


def _optional_choice(data: Mapping[str, Any], key: str, choices: tuple[str, ...]) -> str | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if value not in choices:
        raise Refused(400, f"{key} {str(value)[:40]!r} is not one of {list(choices)}")
    return str(value)


def _language(data: Mapping[str, Any]) -> str | None:
    value = data.get("language")
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refused(400, "language is a text")
    value = " ".join(value.split())
    if not value:
        return None
    if len(value) > MAX_LANGUAGE_LENGTH or not _LANGUAGE.fullmatch(value):
        raise Refused(
            400,
            f"language: give the name of a language in letters, at most "
            f"{MAX_LANGUAGE_LENGTH} characters",
        )
    return value


def _participant(value: object) -> str:
    if not isinstance(value, str) or not _PARTICIPANT.fullmatch(value):
        raise Refused(400, "participant: the code the study gave at the start is needed")
    return value


def _client(request: Request) -> str:
    """Who a rate limit counts: the address, an IPv6 one by its /64 (:func:`client_key`)."""
    return client_key(request.client.host if request.client else None)


def _panel_ids(data: Mapping[str, Any]) -> dict[str, str | None]:
    """The panel's ids the page read from its address (``PROLIFIC_PID``, ...), checked."""
    raw = data.get("ids")
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Refused(400, "ids: an object of the address's panel ids")
    unknown = sorted(set(raw) - set(PANEL_IDS))
    if unknown:
        raise Refused(400, f"ids: unknown {unknown}; the ids are {sorted(PANEL_IDS)}")
    out: dict[str, str | None] = {}
    for param, column in PANEL_IDS.items():
        value = raw.get(param)
        if value is not None and (not isinstance(value, str) or not PANEL_ID.fullmatch(value)):
            raise Refused(400, f"{param} {str(value)[:40]!r} is not 1 to 64 printable characters")
        out[column] = value
    return out


def _screen(data: Mapping[str, Any]) -> tuple[int | None, int | None, float | None, int | None]:
    if data.get("screen") is None:
        return None, None, None, None
    try:
        return screen_numbers(data["screen"])
    except ValueError as e:
        raise Refused(400, str(e)) from None


@dataclass(frozen=True, slots=True)
class _Session:
    """A participant as the database has them: their plan and board, which study, how many
    items they answered and how many attention checks they missed."""

    plan: list[Item]
    board: str
    study: str
    answered: int
    missed: int


def _session(cur: Any, participant: str) -> _Session:
    row = cur.execute(
        "SELECT plan, board, study FROM participants WHERE id = ?", (participant,)
    ).fetchone()
    if row is None:
        raise Refused(404, "no such participant: start the study again")
    answered = sum(
        cur.execute(f"SELECT count(*) FROM {t} WHERE participant = ?", (participant,)).fetchone()[0]
        for t in ("responses", "given_clues")
    )
    missed = 0
    for square, target in cur.execute(
        "SELECT square, target FROM responses WHERE participant = ? AND trial = 'attention'",
        (participant,),
    ):
        missed += attention_missed(Cell.parse(target), Cell.parse(square))
    plan = [Item.from_json(raw) for raw in json.loads(row[0])]
    return _Session(plan, row[1], row[2], answered, missed)


def study_routes(db: Database, config: StudyConfig) -> list[BaseRoute]:
    """The routes of the study: the pages at ``/study`` (guessing) and ``/study/give`` (giving
    clues) and their JSON endpoints."""
    study = _Study(db, config)
    page = Path(__file__).parent / "static" / "study.html"

    def guarded(
        handler: Callable[[Request], Any],
    ) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            if not study.requests.take(_client(request)):
                response = _error(429, "too many requests: wait a moment and try again")
                response.headers["Retry-After"] = "2"
                return response
            try:
                result: Response = await handler(request)
            except Refused as e:
                return _error(e.status, e.message)
            return result

        return endpoint

    async def study_page(request: Request) -> Response:
        return FileResponse(
            page,
            media_type="text/html",
            # The security headers are every response's (_headers.SecurityHeaders).
            headers={"Cache-Control": "no-store"},
        )

    def numbered(plan: list[Item], index: int) -> dict[str, Any]:
        main = [i for i in plan if i.kind in ("clue", "give")]
        number = sum(1 for i in plan[: index + 1] if i.kind in ("clue", "give"))
        return plan[index].public(index, study.board, number, len(main))

    def finished(screened_out: bool) -> dict[str, Any]:
        """The end of a session: where the page sends the participant, and the code it shows."""
        # Only what the study has: a study without a panel ends as it always did.
        body: dict[str, Any] = {"done": True}
        if screened_out:
            body["screened_out"] = True
            if config.screen_out_url is not None:
                body["redirect"] = config.screen_out_url
            return body
        if config.completion_url is not None:
            body["redirect"] = redirect_to(config.completion_url, study.completion_code)
        if config.completion_url is not None or config.completion_code is not None:
            body["completion_code"] = study.completion_code
        return body

    def next_step(session_plan: list[Item], nxt: int, missed: int) -> dict[str, Any]:
        body: dict[str, Any] = {"answered": nxt, "total": len(session_plan)}
        if missed > config.attention_misses_allowed:
            body.update(finished(True))
        elif nxt >= len(session_plan):
            body.update(finished(False))
        else:
            body.update(done=False, item=numbered(session_plan, nxt))
        return body

    async def info(request: Request) -> Response:
        give = request.query_params.get("kind") == "give"
        return JSONResponse(
            {
                "consent": list(study.give_consent if give else study.consent),
                "clues_per_person": config.clues_per_person,
                "targets_per_person": config.targets_per_person,
                "giver": config.giver is not None,
                # The page sends the clues of its address only when they are taken.
                "visitor_clues": config.allow_visitor_clues,
                "colour_blindness": list(COLOUR_BLINDNESS),
                "age_range": list(AGE_RANGES),
                "panel_ids": list(PANEL_IDS),
                "language": config.language,
                # The page may show the built-in text in its own language; a researcher's own
                # text (--consent) is shown as written.
                "default_consent": config.consent is None,
            }
        )

    async def start(request: Request) -> Response:
        data = await _json_body(
            request,
            {
                "consent",
                "language",
                "colour_blindness",
                "age_range",
                "clues",
                "kind",
                "ids",
                "screen",
            },
        )
        if data.get("consent") is not True:
            raise Refused(400, "consent must be given (consent: true) before the study starts")
        kind = data.get("kind", "guess")
        if kind not in ("guess", "give"):
            raise Refused(400, f"kind {str(kind)[:20]!r} is not one of ['guess', 'give']")
        language = _language(data)
        colour_blindness = _optional_choice(data, "colour_blindness", COLOUR_BLINDNESS)
        age_range = _optional_choice(data, "age_range", AGE_RANGES)
        ids = _panel_ids(data)
        screen = _screen(data)
        clues = None
        if data.get("clues") not in (None, ""):
            if kind == "give":
                raise Refused(400, "the clue-giving study shows targets; no clue list")
            if config.giver is not None:
                raise Refused(400, "this study shows the clue giver's clues; no clue list")
            if not config.allow_visitor_clues:
                # Else anyone's list would land in the researcher's data, untold apart.
                raise Refused(403, "this study asks only its own clues; no clue list is taken")
            raw = data["clues"]
            if not isinstance(raw, str):
                raise Refused(400, "clues are one text, separated by commas")
            parts = [p for p in raw.split(",") if p.strip()]
            if len(parts) > MAX_QUERY_CLUES:
                raise Refused(400, f"at most {MAX_QUERY_CLUES} clues, not {len(parts)}")
            try:
                clues = _check_clues(parts, "clues")
            except ValueError as e:
                raise Refused(400, str(e)) from None
        if not study.starts.take(_client(request)):
            raise Refused(429, "too many new sessions from this address: try again later")
        participant = secrets.token_urlsafe(18)
        while participant.startswith("-"):
            # A leading "-" would be quoted in the CSV export (a spreadsheet formula's start),
            # and the id is the key researchers join on: draw again (1 in 64).
            participant = secrets.token_urlsafe(18)
        seed = _seed_of(participant)
        plan = await run_in_threadpool(study.plan, seed, clues, kind)
        plan_json = json.dumps([i.to_json() for i in plan])
        with db.transaction() as cur:
            cur.execute(
                "INSERT INTO participants (id, created, board, seed, plan, language, "
                "colour_blindness, age_range, clue_source, study, prolific_pid, study_id, "
                "session_id, participant_id, screen_width, screen_height, pixel_ratio, "
                "colour_depth) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    participant,
                    time.time(),
                    study.board.id,
                    seed,
                    plan_json,
                    language,
                    colour_blindness,
                    age_range,
                    "researcher" if clues is None else "visitor",
                    kind,
                    *ids.values(),
                    *screen,
                ),
            )
        return JSONResponse(
            {
                "participant": participant,
                "kind": kind,
                "board": study.board_json,
                "total": len(plan),
                "item": numbered(plan, 0),
            },
            status_code=201,
        )

    async def resume(request: Request) -> Response:
        # A reload: where the participant left off, from the database alone (so it survives a
        # server restart). Only the next item goes back, never a giver study's target.
        data = await _json_body(request, {"participant"})
        participant = _participant(data.get("participant"))
        with db.transaction() as cur:
            session = _session(cur, participant)
        if session.board != study.board.id:
            # The server now shows another board: the old session cannot go on on it.
            raise Refused(404, "this session was on another board: start the study again")
        body = next_step(session.plan, session.answered, session.missed)
        if not body["done"]:
            body.update(participant=participant, kind=session.study, board=study.board_json)
        return JSONResponse(body)

    def current(cur: Any, participant: str, index: object) -> tuple[_Session, Item]:
        """The participant's session and the item ``index``, refused unless it is the one
        asked now (and the session has not ended)."""
        if type(index) is not int or index < 0:
            raise Refused(400, "item: the number of the item answered (0, 1, ...) is needed")
        session = _session(cur, participant)
        if session.missed > config.attention_misses_allowed:
            raise Refused(409, "this session ended at the attention checks")
        if session.answered >= len(session.plan):
            raise Refused(409, "every clue is already answered: thank you")
        if index != session.answered:
            raise Refused(409, f"clue {index} is not the one asked now (clue {session.answered})")
        return session, session.plan[index]

    def response_ms(ms: object) -> int | None:
        if ms is not None and (type(ms) is not int or not 0 <= ms <= MAX_RESPONSE_MS):
            raise Refused(400, f"ms: the response time, 0 to {MAX_RESPONSE_MS} ms")
        return ms

    async def answer(request: Request) -> Response:
        data = await _json_body(request, {"participant", "item", "square", "ms", "choice"})
        participant = _participant(data.get("participant"))
        index, square_text, choice = data.get("item"), data.get("square"), data.get("choice")
        ms = response_ms(data.get("ms"))
        square = None
        if square_text is not None:
            if not isinstance(square_text, str) or len(square_text) > 5:
                raise Refused(400, "square: the name of a square, such as F12, is needed")
            try:
                square = study.board.cell(square_text)
            except ValueError:
                raise Refused(
                    400,
                    f"square {square_text!r} is not on the {study.board.rows} x "
                    f"{study.board.cols} board (R1)",
                ) from None
        if choice is not None and (type(choice) is not int or not 0 <= choice < 16):
            raise Refused(400, "choice: the number of the swatch chosen (0, 1, ...)")
        with db.transaction() as cur:
            session, item = current(cur, participant, index)
            if item.kind in ("give", "give-practice"):
                raise Refused(409, "this item asks for a clue (POST /study/api/give)")
            if item.kind == "colour":
                if choice is None or choice >= len(item.swatches):
                    raise Refused(400, f"choice: a swatch from 0 to {len(item.swatches) - 1}")
                shown = str(choice)
            elif square is None:
                raise Refused(400, "square: the name of a square, such as F12, is needed")
            else:
                shown = str(square)
            cur.execute(
                "INSERT INTO responses (participant, item, clue, square, board, time, "
                "response_ms, giver, target, trial, clue_language) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    participant,
                    index,
                    item.clue or "",
                    shown,
                    session.board,
                    time.time(),
                    ms,
                    item.giver,
                    item.target,
                    item.kind,
                    config.language,
                ),
            )
        missed = session.missed
        if item.kind == "attention":
            assert square is not None and item.target is not None
            missed += attention_missed(study.board.cell(item.target), square)
        return JSONResponse(next_step(session.plan, session.answered + 1, missed))

    async def give(request: Request) -> Response:
        data = await _json_body(request, {"participant", "item", "clue", "ms"})
        participant = _participant(data.get("participant"))
        index, text = data.get("item"), data.get("clue")
        ms = response_ms(data.get("ms"))
        clue = _given_clue(text, config.language)
        with db.transaction() as cur:
            session, item = current(cur, participant, index)
            if item.kind not in ("give", "give-practice"):
                raise Refused(409, "this item asks for a click (POST /study/api/answer)")
            assert item.target is not None
            cur.execute(
                "INSERT INTO given_clues (participant, item, target, clue, board, time, "
                "response_ms, trial, clue_language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    participant,
                    index,
                    item.target,
                    clue,
                    session.board,
                    time.time(),
                    ms,
                    item.kind,
                    config.language,
                ),
            )
        return JSONResponse(next_step(session.plan, session.answered + 1, session.missed))

    async def check(request: Request) -> Response:
        # The live check of the giving page: the game's first-clue rules (R9, R18-R20).
        data = await _json_body(request, {"text"})
        text = data.get("text")
        if not isinstance(text, str):
            raise Refused(400, "text: the clue to check, a string")
        try:
            _given_clue(text, config.language)
        except Refused as e:
            return JSONResponse(
                {"ok": False, "rule": getattr(e, "rule", None), "message": e.message}
            )
        return JSONResponse({"ok": True, "rule": None, "message": "allowed"})

    return [
        Route("/study", study_page, methods=["GET"]),
        Route("/study/give", study_page, methods=["GET"]),
        Route("/study/api/info", guarded(info), methods=["GET"]),
        Route("/study/api/start", guarded(start), methods=["POST"]),
        Route("/study/api/answer", guarded(answer), methods=["POST"]),
        Route("/study/api/give", guarded(give), methods=["POST"]),
        Route("/study/api/check", guarded(check), methods=["POST"]),
        Route("/study/api/resume", guarded(resume), methods=["POST"]),
    ]


class _IllegalGivenClue(Refused):
    def __init__(self, message: str, rule: str | None) -> None:
        super().__init__(400, message)
        self.rule = rule


def _given_clue(text: object, language: str = "en") -> str:
    """A clue a participant gave, as stored (white space collapsed), if it is a first clue the
    game allows (one word, R9; R18-R20 in ``language``'s words, as the engine's
    :func:`validate_clue` checks them)."""
    if not isinstance(text, str):
        raise Refused(400, "clue: the clue, a string, is needed")
    clue = " ".join(text.split())
    if not clue:
        raise _IllegalGivenClue("type a clue first", None)
    if len(clue) > MAX_STUDY_CLUE_LENGTH or any(
        unicodedata.category(ch) in ("Cc", "Cs") for ch in clue
    ):
        raise _IllegalGivenClue(
            f"a clue is at most {MAX_STUDY_CLUE_LENGTH} characters of text", None
        )
    try:
        validate_clue(clue, language=language)
    except IllegalClue as e:
        raise _IllegalGivenClue(str(e), e.rule) from None
    return clue
