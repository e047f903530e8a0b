"""Study mode at ``/study``: consent, then clues one at a time; each click on the board is a
response in the database.

The page (``static/study.html``, ``study.js``, ``board.js``) talks to JSON endpoints:
``GET /study/api/info`` (the consent text and the optional questions), ``POST /study/api/start``
(consent given: a new participant, the board and the first item), ``POST /study/api/answer``
(a click: stored, and the next item), ``POST /study/api/give`` (a clue given), ``POST
/study/api/resume`` (a reload: the participant's next item, read from the database alone) and,
for the game study (``/study/game``), ``POST /study/api/game`` (the participant's table, seat
and token, made once). Every request is checked before anything is written.

Here: the routes. Each participant's plan is ``_study_plan``'s; what a study asks is in
``_study_config``, its tables in ``_study_schema`` and the checks of a request in
``_study_requests`` (import them from there).
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from huescues.engine import IllegalClue, validate_clue

from ._board import board_json
from ._db import Database
from ._limits import ClientLimiter
from ._requests import Refused
from ._study_config import (
    AGE_RANGES,
    COLOUR_BLINDNESS,
    MAX_QUERY_CLUES,
    MAX_RESPONSE_MS,
    MAX_STUDY_CLUE_LENGTH,
    StudyConfig,
    _check_clues,
)
from ._study_game import game_of, seat_token, start_game
from ._study_items import PANEL_IDS, Item, attention_missed, redirect_to
from ._study_plan import KINDS, Study, seed_of
from ._study_requests import (
    _client,
    _json_body,
    _language,
    _optional_choice,
    _panel_ids,
    _participant,
    _screen,
)
from ._study_schema import _Session, _session
from ._study_status import participant_statuses

if TYPE_CHECKING:
    from ._tables import TableService

__all__ = ["study_routes"]

#: The main items of a plan (those balanced among participants, and numbered for them).
MAIN_KINDS = ("clue", "give")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _answered(db: Database, kind: str) -> dict[str, int]:
    """For each main item, the completed participants of a ``kind`` study it was given to (for
    balanced assignment: abandoned sessions do not count)."""
    statuses = participant_statuses(db)
    counts: dict[str, int] = {}
    for row in db.query("SELECT id, plan FROM participants WHERE study = ?", (kind,)):
        status = statuses.get(row["id"])
        if status is None or status.status != "completed":
            continue
        for raw in json.loads(row["plan"]):
            item = Item.from_json(raw)
            if item.kind in MAIN_KINDS:
                key = item.target if item.kind == "give" else item.clue
                if key is not None:
                    counts[key] = counts.get(key, 0) + 1
    return counts


def study_routes(
    db: Database, config: StudyConfig, tables: TableService | None = None
) -> list[BaseRoute]:
    """The routes of the study: the pages at ``/study`` (guessing), ``/study/give`` (giving
    clues) and ``/study/game`` (a whole game with bots, on ``tables``) and their JSON
    endpoints."""
    study = Study(db, config)
    board_data = board_json(study.board)
    requests = ClientLimiter(config.burst, config.rate)
    starts = ClientLimiter(config.starts_per_minute, config.starts_per_minute / 60.0)
    page = Path(__file__).parent / "static" / "study.html"

    def guarded(
        handler: Callable[[Request], Any],
    ) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            if not requests.take(_client(request)):
                response = _error(429, "too many requests: wait a moment and try again")
                response.headers["Retry-After"] = "2"
                return response
            try:
                result: Response = await handler(request)
            except _IllegalGivenClue as e:
                # The rule too, so that the page says the refusal in the reader's language.
                body: dict[str, Any] = {"error": e.message}
                if e.rule is not None:
                    body["rule"] = e.rule
                return JSONResponse(body, status_code=e.status)
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
        main = [i for i in plan if i.kind in MAIN_KINDS]
        number = sum(1 for i in plan[: index + 1] if i.kind in MAIN_KINDS)
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

    def screened_out(session: _Session, missed: int | None = None) -> bool:
        """Whether the participant missed more attention checks than the rule they started
        under allows (a restart with another rule judges only those who start after it)."""
        allowed = config.attention_misses_allowed if session.allowed is None else session.allowed
        return (session.missed if missed is None else missed) > allowed

    def next_step(
        session: _Session, nxt: int, missed: int, game_over: bool = False
    ) -> dict[str, Any]:
        session_plan = session.plan
        body: dict[str, Any] = {"answered": nxt, "total": len(session_plan)}
        if screened_out(session, missed):
            body.update(finished(True))
        elif nxt >= len(session_plan) or game_over:
            body.update(finished(False))
        else:
            body.update(done=False, item=numbered(session_plan, nxt))
        return body

    async def info(request: Request) -> Response:
        kind = request.query_params.get("kind", "guess")
        if kind not in KINDS:
            raise Refused(400, f"kind {kind[:20]!r} is not one of {list(KINDS)}")
        return JSONResponse(
            {
                "consent": list(study.consent(kind)),
                # The built-in text's sentences by their keys in the pages' texts, for the page
                # to show in its reader's language (null: the researcher's own text).
                "consent_keys": study.consent_keys(kind),
                "game_bots": list(config.game_bots),
                "clues_per_person": config.clues_per_person,
                "targets_per_person": config.targets_per_person,
                "giver": config.giver is not None,
                # The page sends the clues of its address only when they are taken.
                "visitor_clues": config.allow_visitor_clues,
                "colour_blindness": list(COLOUR_BLINDNESS),
                "age_range": list(AGE_RANGES),
                "panel_ids": list(PANEL_IDS),
                "language": config.language,
                # The page shows the built-in text in its own language (consent_keys); a
                # researcher's own text (--consent) as written.
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
        if kind not in KINDS:
            raise Refused(400, f"kind {str(kind)[:20]!r} is not one of {list(KINDS)}")
        if kind == "game" and tables is None:
            raise Refused(404, "this server runs no game study")
        language = _language(data)
        colour_blindness = _optional_choice(data, "colour_blindness", COLOUR_BLINDNESS)
        age_range = _optional_choice(data, "age_range", AGE_RANGES)
        ids = _panel_ids(data)
        screen = _screen(data)
        clues = None
        if data.get("clues") not in (None, ""):
            if kind != "guess":
                raise Refused(400, f"the {kind} study brings its own items; no clue list")
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
        if not starts.take(_client(request)):
            raise Refused(429, "too many new sessions from this address: try again later")
        participant = secrets.token_urlsafe(18)
        while participant.startswith("-"):
            # A leading "-" would be quoted in the CSV export (a spreadsheet formula's start),
            # and the id is the key researchers join on: draw again (1 in 64).
            participant = secrets.token_urlsafe(18)
        seed = seed_of(study.secret, participant)
        answered = {} if clues is not None else await db.read(_answered, db, kind)
        plan = await run_in_threadpool(study.plan, seed, clues, kind, answered)
        plan_json = json.dumps([i.to_json() for i in plan])

        def insert() -> None:
            with db.transaction() as cur:
                cur.execute(
                    "INSERT INTO participants (id, created, board, seed, plan, language, "
                    "colour_blindness, age_range, clue_source, study, prolific_pid, study_id, "
                    "session_id, participant_id, screen_width, screen_height, pixel_ratio, "
                    "colour_depth, attention_misses_allowed) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                        config.attention_misses_allowed,
                    ),
                )

        await db.write(insert)
        return JSONResponse(
            {
                "participant": participant,
                "kind": kind,
                "board": board_data,
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
        over = False
        if session.study == "game":
            found = await db.read(game_of, db, participant)
            over = found is not None and found.finished
        body = next_step(session, session.answered, session.missed, over)
        if not body["done"]:
            body.update(participant=participant, kind=session.study, board=board_data)
        return JSONResponse(body)

    async def game(request: Request) -> Response:
        # The game study's game: made once, when the participant reaches it; asked again, the
        # same table, seat and token (the token worked out again: only its hash is stored).
        data = await _json_body(request, {"participant"})
        participant = _participant(data.get("participant"))
        if tables is None:
            raise Refused(404, "this server runs no game study")

        def read() -> _Session:
            with db.reading() as cur:
                return _session(cur, participant)

        session = await db.read(read)
        if session.study != "game":
            raise Refused(409, "this participant takes another study, not the game study")
        if screened_out(session):
            raise Refused(409, "this session ended at the attention checks")
        if session.answered < len(session.plan) - 1:
            raise Refused(
                409, f"the game comes after the items before it (item {session.answered} now)"
            )
        found = await db.read(game_of, db, participant)
        if found is None:
            seed = seed_of(study.secret, participant) ^ 1
            try:
                found = await start_game(tables, study, participant, seed, _client(request))
            except OverflowError as e:
                # At a cap on games in play (this address's, or the server's), as a table made
                # in the lobby is: nothing was stored, and asking later makes the game.
                response = _error(503, f"no game now: {e}")
                response.headers["Retry-After"] = "30"
                return response
        token = seat_token(study.secret, participant)
        return JSONResponse({"table": found.table, "seat": found.seat, "token": token})

    def current(cur: Any, participant: str, index: object) -> tuple[_Session, Item]:
        """The participant's session and the item ``index``, refused unless it is the one
        asked now (and the session has not ended)."""
        if type(index) is not int or index < 0:
            raise Refused(400, "item: the number of the item answered (0, 1, ...) is needed")
        session = _session(cur, participant)
        if screened_out(session):
            raise Refused(409, "this session ended at the attention checks")
        if session.answered >= len(session.plan):
            raise Refused(409, "every clue is already answered: thank you")
        if (
            session.plan[index if type(index) is int and 0 <= index < len(session.plan) else 0].kind
            == "game"
        ):
            raise Refused(409, "this item is the game: POST /study/api/game for its table")
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
        return JSONResponse(next_step(session, session.answered + 1, missed))

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
        return JSONResponse(next_step(session, session.answered + 1, session.missed))

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
        Route("/study/game", study_page, methods=["GET"]),
        Route("/study/api/game", guarded(game), methods=["POST"]),
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
