"""The pages' texts of a language pack (``data/languages/CODE/pages.json``), for what the server
words itself in a table's or a study's language: seats' default names, the consent text."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

__all__ = ["page_texts"]


@functools.cache
def page_texts(language: str) -> dict[str, Any]:
    """Every text of ``language``'s pages, by key (read once)."""
    path = resources.files("huescues").joinpath("data", "languages", language, "pages.json")
    texts: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return texts
