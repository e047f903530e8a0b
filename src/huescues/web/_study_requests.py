"""What a study's request carries, checked before anything is stored: its JSON body, the
optional answers, the participant's code, the panel's ids and the screen; and who a rate limit
counts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request

from ._limits import client_key
from ._requests import Refused, read_json
from ._study_config import MAX_BODY_BYTES, MAX_LANGUAGE_LENGTH
from ._study_items import PANEL_ID, PANEL_IDS, screen_numbers

# Nothing public: the study's routes (``_study``) are these checks' only reader.
__all__: list[str] = []

_PARTICIPANT = re.compile(r"[A-Za-z0-9_-]{16,64}")
_LANGUAGE = re.compile(r"[^\W\d_]+(?:[ '\-][^\W\d_]+)*")


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
