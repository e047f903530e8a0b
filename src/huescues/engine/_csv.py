"""CSV cells a spreadsheet will not run: every CSV file huescues writes goes through
:func:`safe_cell`, and every reader of those files through :func:`unescape_cell`. It lives in
the engine, the lowest layer that writes CSV (``Board.to_csv``), so that every layer can use it.

A spreadsheet opening a CSV file runs a text cell that starts with ``=``, ``+``, ``-`` or ``@``
(and, in some, a tab or carriage return) as a formula: ``=hyperlink(...)`` in a clue a visitor
typed would be a link, ``=cmd|...`` worse. The OWASP convention is followed: such text gets a
leading single quote, which spreadsheets show as text. Text that already starts with a quote
gets one more, so that :func:`unescape_cell` (drop one leading quote) gives back exactly what
was written. Numbers stay numbers: an int or float, and text that reads as a plain decimal
number (``-3``, ``-0.5``, ``+1e5``), are written as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["FORMULA_STARTS", "safe_cell", "safe_row", "unescape_cell"]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_STARTS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")

# A plain decimal number, as spreadsheets and float() both read it: no inf, nan, spaces or "_".
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def safe_cell(value: object) -> object:
    """``value`` as a CSV cell no spreadsheet runs: text starting with one of
    :data:`FORMULA_STARTS` (unless it is a number) or with ``'`` gets a leading ``'``;
    anything that is not text (numbers, None) is returned unchanged."""
    if not isinstance(value, str) or not value:
        return value
    if value[0] == "'" or (value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value)):
        return "'" + value
    return value


def safe_row(values: Iterable[object]) -> list[object]:
    """:func:`safe_cell` of every value of a row."""
    return [safe_cell(v) for v in values]


def unescape_cell(text: str) -> str:
    """The text :func:`safe_cell` was given, from the cell it wrote: one leading ``'`` dropped."""
    return text[1:] if text.startswith("'") else text
