"""The columns ``huescues responses export`` writes, as the package describes them
(``data/export_variables.tsv``): what each is, its unit or values, and its type. The loaders
here give a column declared a number back as a number; the server describes its exports with
the same table (``dataset_description.json``)."""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["NUMERIC_TYPES", "export_variables", "typed_value"]

#: The types of a numeric column.
NUMERIC_TYPES = ("integer", "number")


@functools.cache
def export_variables() -> dict[str, tuple[str, str, str]]:
    """Every column an export may hold: name -> (what it is, its unit or values, its type)."""
    text = resources.files("huescues.data").joinpath("export_variables.tsv").read_text("utf-8")
    out: dict[str, tuple[str, str, str]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, meaning, unit, kind = line.split("\t")
            out[name] = (meaning, unit, kind)
    return out


def typed_value(column: str, text: str) -> str | int | float:
    """``text`` of ``column`` as its type: a number for a column declared a number (when it
    reads as one), else the text as it is."""
    kind = export_variables().get(column, ("", "", "text"))[2]
    if kind not in NUMERIC_TYPES or not text:
        return text
    try:
        return int(text) if kind == "integer" else float(text)
    except ValueError:
        return text
