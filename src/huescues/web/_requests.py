"""A request's JSON body, read with every bound a public server needs, so that a hostile body is
a one-line 4xx before anything is stored: the tables' and the study's endpoints read theirs here.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

__all__ = ["Refused", "read_json"]


class Refused(Exception):
    """A request refused: its HTTP status and the message the page shows."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def read_json(request: Request, limit: int) -> Any:
    """The request's JSON, read up to ``limit`` bytes: refused when its Content-Type is not
    ``application/json`` (415), when the Content-Length is not a number or too large, the body
    too large, not UTF-8 JSON, nested past the parser's limit, or holding a lone surrogate
    (valid JSON, but no text: it would fail only when an answer is encoded, after something was
    stored)."""
    kind = request.headers.get("content-type", "")
    if kind.partition(";")[0].strip().lower() != "application/json":
        # A page of another site may send a form or text/plain without asking first (a "simple"
        # request, which no CORS check stops), never application/json: so that no such page
        # can make a table or answer a study with a visitor's browser.
        raise Refused(415, f"Content-Type {kind[:40]!r}: this API takes application/json only")
    length = request.headers.get("content-length")
    if length is not None and not (length.isascii() and length.isdigit()):
        raise Refused(400, f"Content-Length {length[:20]!r} is not a number of bytes")
    if length is not None and int(length) > limit:
        raise Refused(413, f"the request is larger than {limit} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"the request is larger than {limit} bytes")
    try:
        data = json.loads(body)
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Refused(400, "the request is not JSON in UTF-8") from None
    except RecursionError:
        # A few KB of "[" is within the size bound but past the parser's recursion limit.
        raise Refused(400, "the request is nested too deeply") from None
    except UnicodeEncodeError:
        raise Refused(400, "the request holds a lone surrogate, which is not text") from None
    except ValueError as e:  # (after its subclasses above)
        # A number of more digits than Python converts (sys.get_int_max_str_digits): JSON, but
        # no ValueError of the decoder's kind.
        raise Refused(400, f"a number in the request is too long ({str(e)[:60]})") from None
    return data
