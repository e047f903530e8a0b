"""Study mode at ``/study``: consent, then clues one at a time; each click on the board is a
response in the database.

The page (``static/study.html``, ``study.js``, ``board.js``) talks to four JSON endpoints:
``GET /study/api/info`` (the consent text and the optional questions), ``POST /study/api/start``
(consent given: a new participant, the board and the first clue), ``POST /study/api/answer``
(a click: stored, and the next clue) and ``POST /study/api/resume`` (a reload: the participant's
next clue, read from the database alone). Every request is checked before anything is written.

Here: each participant's plan of items and the routes. What a study asks is in
``_study_config``, its tables in ``_study_schema`` and the checks of a request in
``_study_requests`` (import them from there).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from huescues.agents import prepare
from huescues.engine import (
    Board,
    ChooseTarget,
    IllegalClue,
    new_game,
    normalise_clue,
    validate_clue,
)

from ._board import board_json
from ._db import Database
from ._limits import ClientLimiter
from ._requests import Refused
from ._study_config import (
    AGE_RANGES,
    COLOUR_BLINDNESS,
    DEFAULT_CLUES,
    DEFAULT_CLUES_BY_LANGUAGE,
    DEFAULT_GIVE_INTRO,
    GIVERS,
    MAX_QUERY_CLUES,
    MAX_RESPONSE_MS,
    MAX_STUDY_CLUE_LENGTH,
    StudyConfig,
    _check_clues,
    _consent_text,
)
from ._study_items import (
    PANEL_IDS,
    Item,
    attention_missed,
    colour_plate,
    interleave,
    redirect_to,
)
from ._study_requests import (
    _client,
    _json_body,
    _language,
    _optional_choice,
    _panel_ids,
    _participant,
    _screen,
)
from ._study_schema import (
    _Session,
    _session,
    _stored_code,
    order_secret,
)

__all__ = ["study_routes"]


class _Study:
    def __init__(self, db: Database, config: StudyConfig) -> None:
        self.db = db
        self.config = config
        self.secret = order_secret(db)
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


def _seed_of(secret: bytes, participant: str) -> int:
    """The participant's generator seed, from the study's secret and the participant's code:
    reproducible by the server, and unknown to the participant, who holds the code but never the
    secret (from the code alone, the targets to come and the plates' answers could be worked
    out)."""
    digest = hmac.new(secret, participant.encode(), hashlib.sha256).digest()
    # 63 bits: the seed fits SQLite's signed integers as it is.
    return int.from_bytes(digest[:8], "big") >> 1


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


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
        seed = _seed_of(study.secret, participant)
        plan = await run_in_threadpool(study.plan, seed, clues, kind)
        plan_json = json.dumps([i.to_json() for i in plan])

        def insert() -> None:
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

        await db.write(insert)
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

        def read() -> _Session:
            with db.reading() as cur:
                return _session(cur, participant)

        session = await db.read(read)
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

        def store() -> tuple[_Session, Item]:
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
                return session, item

        session, item = await db.write(store)
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

        def store() -> _Session:
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
                return session

        session = await db.write(store)
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
