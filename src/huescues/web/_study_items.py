"""A study's items (a plan's steps: clues, practice, attention checks, colour-vision plates,
targets, the game), the attention rule, and the panel's parts (ids from the address, the
completion redirect). The plates themselves are ``_plates``'s, a plan ``_study_plan``'s."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from huescues.engine import Board, Cell

__all__ = [
    "ATTENTION_RADIUS",
    "PANEL_IDS",
    "Item",
    "attention_missed",
    "check_url",
    "interleave",
    "redirect_to",
]

#: An attention check is missed when the click lands more than this many squares (Chebyshev
#: distance, R5) from the square shown: a click inside its frame still counts as seen.
ATTENTION_RADIUS = 1

#: The address parameters a panel adds (Prolific's three, and a generic one for others), each
#: stored with the participant and exported under the same name in lowercase.
PANEL_IDS: dict[str, str] = {
    "PROLIFIC_PID": "prolific_pid",
    "STUDY_ID": "study_id",
    "SESSION_ID": "session_id",
    "participant_id": "participant_id",
}
#: A panel id: short and printable ASCII without spaces (Prolific's are 24 hex digits).
PANEL_ID = re.compile(r"[\x21-\x7e]{1,64}")

#: The kinds of item a plan holds: a clue to guess (``clue``, the only kind exported as a
#: response), a practice clue, an attention check, a colour-vision plate, and the clue-giving
#: study's targets (``give``) and its practice target.
KINDS = ("clue", "practice", "attention", "colour", "give", "give-practice")


@dataclass(frozen=True, slots=True)
class Item:
    """One step of a participant's plan. ``clue`` is the clue shown (guessing), ``target`` the
    giver study's hidden target, the attention check's square, the giving study's target or
    (a colour plate) the index of the odd swatch; ``swatches`` a plate's colours."""

    clue: str | None
    giver: str | None = None
    target: str | None = None
    kind: str = "clue"
    swatches: tuple[str, ...] = ()

    def to_json(self) -> list[Any]:
        # A clue item keeps the three fields plans always had, so old plans read as they were.
        if self.kind == "clue":
            return [self.clue, self.giver, self.target]
        return [self.clue, self.giver, self.target, self.kind, list(self.swatches)]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Item:
        if len(raw) == 3:
            return cls(raw[0], raw[1], raw[2])
        return cls(raw[0], raw[1], raw[2], raw[3], tuple(raw[4]))

    def public(self, index: int, board: Board, number: int, of: int) -> dict[str, Any]:
        """What the page is told: never a giver study's hidden target, nor a plate's answer."""
        out: dict[str, Any] = {"index": index, "kind": self.kind}
        if self.kind in ("clue", "practice"):
            out["clue"] = self.clue
        elif self.kind in ("attention", "give", "give-practice"):
            assert self.target is not None
            out["square"] = self.target
            out["colour"] = board.hex(board.cell(self.target))
        elif self.kind == "colour":
            out["swatches"] = list(self.swatches)
        if self.kind in ("clue", "give"):
            out["number"], out["of"] = number, of
        return out


def interleave(main: list[Item], checks: list[Item]) -> list[Item]:
    """The checks spread evenly among the main items: check ``j`` of ``n`` after main item
    ``round((j + 1) * len(main) / (n + 1))``, never first, so it cannot be told by place."""
    out: list[Item] = []
    n = len(checks)
    at = [max(1, round((j + 1) * len(main) / (n + 1))) for j in range(n)]
    k = 0
    for i, item in enumerate(main, start=1):
        out.append(item)
        while k < n and at[k] == i:
            out.append(checks[k])
            k += 1
    out.extend(checks[k:])
    return out


def attention_missed(target: Cell, click: Cell) -> bool:
    """Whether a click on an attention check misses the square shown (see
    :data:`ATTENTION_RADIUS`)."""
    return target.distance(click) > ATTENTION_RADIUS


def check_url(url: str | None, what: str) -> None:
    """Refuse a redirect address that is not an absolute http(s) URL."""
    if url is None:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in url):
        raise ValueError(f"{what} must be an http(s) address, not {url!r:.60}")


def redirect_to(url: str, code: str | None) -> str:
    """``url`` with the completion code added as the query parameter ``cc`` (the others kept)."""
    if code is None:
        return url
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "cc"]
    query.append(("cc", code))
    return urlunsplit(parts._replace(query=urlencode(query)))


def screen_numbers(value: object) -> tuple[int, int, float, int]:
    """The page's screen report (``width``, ``height``, ``pixel_ratio``, ``colour_depth``),
    each a plausible number, else ValueError naming the bad one."""
    if not isinstance(value, dict) or set(value) != {
        "width",
        "height",
        "pixel_ratio",
        "colour_depth",
    }:
        raise ValueError("screen: width, height, pixel_ratio and colour_depth are needed")
    out: list[float] = []
    for key, low, high in (
        ("width", 1, 100_000),
        ("height", 1, 100_000),
        ("pixel_ratio", 0.1, 20),
        ("colour_depth", 1, 64),
    ):
        v = value[key]
        # The bounds first: they compare an int of any size exactly (and refuse NaN), while
        # math.isfinite of an int too large for a float raises OverflowError.
        if type(v) not in (int, float) or not low <= v <= high or not math.isfinite(float(v)):
            raise ValueError(f"screen: {key} {str(v)[:20]!r} is not a number from {low} to {high}")
        out.append(v)
    return int(out[0]), int(out[1]), round(float(out[2]), 3), int(out[3])
