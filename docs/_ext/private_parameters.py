"""A griffe extension for the API pages: parameters whose names start with ``_`` are the
library's own (none is left in the public API; this keeps one from showing), so the pages leave
them out of the signatures, as the ``!^_`` filter leaves out private members."""

from __future__ import annotations

from typing import Any

import griffe


class HidePrivateParameters(griffe.Extension):
    def on_function_instance(self, *, func: griffe.Function, **kwargs: Any) -> None:
        func.parameters = griffe.Parameters(
            *(p for p in func.parameters if not p.name.startswith("_"))
        )
