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
from pathlib import Path
from typing import Any

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from huescues.agents import CATALOGUE, catalogue_names, prepare
from huescues.engine import (
    BASIC_COLOUR_TERMS,
    Board,
    ChooseTarget,
    new_game,
    normalise_clue,
)

from ._board import board_json
from ._db import Database
from ._limits import ClientLimiter, client_key

__all__ = [
    "AGE_RANGES",
    "COLOUR_BLINDNESS",
    "DEFAULT_CLUES",
    "DEFAULT_CONSENT",
    "GIVERS",
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
        clue_source TEXT NOT NULL DEFAULT 'researcher'
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
        UNIQUE (participant, item)
    )""",
)

#: The built-in clue list: the nine chromatic basic colour terms (the board has no white or
#: black) and things whose colour most people know, from foods to places, so that a study with
#: no ``--clues`` measures both kinds.
DEFAULT_CLUES: tuple[str, ...] = (
    *(t for t in BASIC_COLOUR_TERMS if t not in ("white", "black", "gray")),
    "banana",
    "lagoon",
    "tomato",
    "lemon",
    "grass",
    "sky",
    "chocolate",
    "lavender",
    "rust",
    "mint",
    "brick",
    "peach",
    "olive",
    "sand",
    "plum",
    "forest",
    "salmon",
    "denim",
    "mustard",
    "cherry",
    "ocean",
)

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
    ``clue_source`` ``visitor`` in the export.
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

    def __post_init__(self) -> None:
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


class _Refused(Exception):
    """A request refused: its HTTP status and the message the page shows."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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


@dataclass(frozen=True, slots=True)
class _Item:
    """One clue planned for a participant; ``giver`` and ``target`` in a giver study only."""

    clue: str
    giver: str | None = None
    target: str | None = None


class _Study:
    def __init__(self, db: Database, config: StudyConfig) -> None:
        self.db = db
        self.config = config
        upgrade_study_tables(db)
        self.board = Board.standard() if config.board is None else Board.from_csv(config.board)
        self.clues = config.clues if config.clues is not None else DEFAULT_CLUES
        self.consent = _consent_text(config.consent)
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

    def giver(self) -> object:
        with self._giver_lock:
            if self._giver is None:
                assert self.config.giver is not None
                agent = GIVERS[self.config.giver]()
                prepare(agent, self.board, new_game(4, seed=0, board=self.board).rules)
                self._giver = agent
            return self._giver

    def plan(self, seed: int, clues: tuple[str, ...] | None) -> list[_Item]:
        """The participant's clues in order: the list shuffled by the participant's own
        generator, or (a giver study) the giver's first clue for a target drawn from it."""
        rng = np.random.default_rng(seed)
        k = self.config.clues_per_person
        if clues is not None or self.config.giver is None:
            chosen = clues if clues is not None else self.clues
            order = rng.permutation(len(chosen))[:k]
            return [_Item(chosen[int(i)]) for i in order]
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
            items.append(_Item(normalise_clue(clue.text), self.config.giver, str(state.target)))
        return items


def upgrade_study_tables(db: Database) -> None:
    """Bring a database written by an older server up to :data:`STUDY_SCHEMA`: add the
    ``clue_source`` column, under which its participants read as ``researcher`` (before it,
    every clue list a visitor sent was taken, untold; the default is the likelier truth)."""
    with db.transaction() as cur:
        columns = {row[1] for row in cur.execute("PRAGMA table_info(participants)")}
        if "clue_source" not in columns:
            cur.execute(
                "ALTER TABLE participants ADD COLUMN clue_source TEXT NOT NULL DEFAULT 'researcher'"
            )


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
    """The request's JSON object, read up to :data:`MAX_BODY_BYTES`; refused if larger, not
    UTF-8 JSON, nested too deeply, holding text that is not Unicode, not an object or with keys
    not in ``allowed``. Every refusal comes before anything is stored."""
    length = request.headers.get("content-length")
    if length is not None and not (length.isascii() and length.isdigit()):
        raise _Refused(400, f"Content-Length {length[:20]!r} is not a number of bytes")
    if length is not None and int(length) > MAX_BODY_BYTES:
        raise _Refused(413, f"the request is larger than {MAX_BODY_BYTES} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise _Refused(413, f"the request is larger than {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(body)
        # A lone surrogate ("\ud800") is valid JSON but no text: it would fail only when the
        # answer is encoded, after the participant was stored.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise _Refused(400, "the request is not JSON in UTF-8") from None
    except RecursionError:
        # 4 KB of "[" is within the size bound but past the parser's recursion limit.
        raise _Refused(400, "the request is nested too deeply") from None
    except UnicodeEncodeError:
        raise _Refused(400, "the request holds a lone surrogate, which is not text") from None
    if not isinstance(data, dict):
        raise _Refused(400, "the request is not a JSON object")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise _Refused(400, f"unknown fields {unknown}; the fields are {sorted(allowed)}")
    return data


def _optional_choice(data: Mapping[str, Any], key: str, choices: tuple[str, ...]) -> str | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if value not in choices:
        raise _Refused(400, f"{key} {str(value)[:40]!r} is not one of {list(choices)}")
    return str(value)


def _language(data: Mapping[str, Any]) -> str | None:
    value = data.get("language")
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Refused(400, "language is a text")
    value = " ".join(value.split())
    if not value:
        return None
    if len(value) > MAX_LANGUAGE_LENGTH or not _LANGUAGE.fullmatch(value):
        raise _Refused(
            400,
            f"language: give the name of a language in letters, at most "
            f"{MAX_LANGUAGE_LENGTH} characters",
        )
    return value


def _participant(value: object) -> str:
    if not isinstance(value, str) or not _PARTICIPANT.fullmatch(value):
        raise _Refused(400, "participant: the code the study gave at the start is needed")
    return value


def _client(request: Request) -> str:
    """Who a rate limit counts: the address, an IPv6 one by its /64 (:func:`client_key`)."""
    return client_key(request.client.host if request.client else None)


def study_routes(db: Database, config: StudyConfig) -> list[BaseRoute]:
    """The routes of the study: the page at ``/study`` and its JSON endpoints."""
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
            except _Refused as e:
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

    async def info(request: Request) -> Response:
        return JSONResponse(
            {
                "consent": list(study.consent),
                "clues_per_person": config.clues_per_person,
                "giver": config.giver is not None,
                # The page sends the clues of its address only when they are taken.
                "visitor_clues": config.allow_visitor_clues,
                "colour_blindness": list(COLOUR_BLINDNESS),
                "age_range": list(AGE_RANGES),
            }
        )

    async def start(request: Request) -> Response:
        data = await _json_body(
            request, {"consent", "language", "colour_blindness", "age_range", "clues"}
        )
        if data.get("consent") is not True:
            raise _Refused(400, "consent must be given (consent: true) before the study starts")
        language = _language(data)
        colour_blindness = _optional_choice(data, "colour_blindness", COLOUR_BLINDNESS)
        age_range = _optional_choice(data, "age_range", AGE_RANGES)
        clues = None
        if data.get("clues") not in (None, ""):
            if config.giver is not None:
                raise _Refused(400, "this study shows the clue giver's clues; no clue list")
            if not config.allow_visitor_clues:
                # Else anyone's list would land in the researcher's data, untold apart.
                raise _Refused(403, "this study asks only its own clues; no clue list is taken")
            raw = data["clues"]
            if not isinstance(raw, str):
                raise _Refused(400, "clues are one text, separated by commas")
            parts = [p for p in raw.split(",") if p.strip()]
            if len(parts) > MAX_QUERY_CLUES:
                raise _Refused(400, f"at most {MAX_QUERY_CLUES} clues, not {len(parts)}")
            try:
                clues = _check_clues(parts, "clues")
            except ValueError as e:
                raise _Refused(400, str(e)) from None
        if not study.starts.take(_client(request)):
            raise _Refused(429, "too many new sessions from this address: try again later")
        participant = secrets.token_urlsafe(18)
        while participant.startswith("-"):
            # A leading "-" would be quoted in the CSV export (a spreadsheet formula's start),
            # and the id is the key researchers join on: draw again (1 in 64).
            participant = secrets.token_urlsafe(18)
        seed = _seed_of(participant)
        plan = await run_in_threadpool(study.plan, seed, clues)
        plan_json = json.dumps([[i.clue, i.giver, i.target] for i in plan])
        with db.transaction() as cur:
            cur.execute(
                "INSERT INTO participants (id, created, board, seed, plan, language, "
                "colour_blindness, age_range, clue_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
        return JSONResponse(
            {
                "participant": participant,
                "board": study.board_json,
                "total": len(plan),
                "item": {"index": 0, "clue": plan[0].clue},
            },
            status_code=201,
        )

    async def resume(request: Request) -> Response:
        # A reload: where the participant left off, from the database alone (so it survives a
        # server restart). Only the next clue's text goes back, never a giver study's target.
        data = await _json_body(request, {"participant"})
        participant = _participant(data.get("participant"))
        with db.transaction() as cur:
            row = cur.execute(
                "SELECT plan, board FROM participants WHERE id = ?", (participant,)
            ).fetchone()
            if row is None:
                raise _Refused(404, "no such participant: start the study again")
            answered = cur.execute(
                "SELECT count(*) FROM responses WHERE participant = ?", (participant,)
            ).fetchone()[0]
        if row[1] != study.board.id:
            # The server now shows another board: the old session cannot go on on it.
            raise _Refused(404, "this session was on another board: start the study again")
        plan = json.loads(row[0])
        if answered >= len(plan):
            return JSONResponse({"answered": answered, "total": len(plan), "done": True})
        return JSONResponse(
            {
                "participant": participant,
                "board": study.board_json,
                "answered": answered,
                "total": len(plan),
                "done": False,
                "item": {"index": answered, "clue": plan[answered][0]},
            }
        )

    async def answer(request: Request) -> Response:
        data = await _json_body(request, {"participant", "item", "square", "ms"})
        participant, index, square_text, ms = (
            data.get(k) for k in ("participant", "item", "square", "ms")
        )
        participant = _participant(participant)
        if type(index) is not int or index < 0:
            raise _Refused(400, "item: the number of the clue answered (0, 1, ...) is needed")
        if not isinstance(square_text, str) or len(square_text) > 5:
            raise _Refused(400, "square: the name of a square, such as F12, is needed")
        try:
            square = study.board.cell(square_text)
        except ValueError:
            raise _Refused(
                400,
                f"square {square_text!r} is not on the {study.board.rows} x "
                f"{study.board.cols} board (R1)",
            ) from None
        if ms is not None and (type(ms) is not int or not 0 <= ms <= MAX_RESPONSE_MS):
            raise _Refused(400, f"ms: the response time, 0 to {MAX_RESPONSE_MS} ms")
        with db.transaction() as cur:
            row = cur.execute(
                "SELECT plan, board FROM participants WHERE id = ?", (participant,)
            ).fetchone()
            if row is None:
                raise _Refused(404, "no such participant: start the study again")
            plan = json.loads(row[0])
            answered = cur.execute(
                "SELECT count(*) FROM responses WHERE participant = ?", (participant,)
            ).fetchone()[0]
            if answered >= len(plan):
                raise _Refused(409, "every clue is already answered: thank you")
            if index != answered:
                raise _Refused(409, f"clue {index} is not the one asked now (clue {answered})")
            clue, giver, target = plan[index]
            cur.execute(
                "INSERT INTO responses (participant, item, clue, square, board, time, "
                "response_ms, giver, target) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (participant, index, clue, str(square), row[1], time.time(), ms, giver, target),
            )
        nxt = index + 1
        body: dict[str, Any] = {"answered": nxt, "total": len(plan), "done": nxt >= len(plan)}
        if nxt < len(plan):
            body["item"] = {"index": nxt, "clue": plan[nxt][0]}
        return JSONResponse(body)

    return [
        Route("/study", study_page, methods=["GET"]),
        Route("/study/api/info", guarded(info), methods=["GET"]),
        Route("/study/api/start", guarded(start), methods=["POST"]),
        Route("/study/api/answer", guarded(answer), methods=["POST"]),
        Route("/study/api/resume", guarded(resume), methods=["POST"]),
    ]
