"""Whole numbers from callers: any integer type (numpy's included) stored as a Python ``int``."""

from __future__ import annotations

import operator

__all__ = ["as_int"]


def as_int(value: object, name: str) -> int:
    """``value`` as a Python ``int`` (``operator.index``); ``name`` says what it is in the error.

    Numpy integers are accepted (``np.unravel_index`` and ``argmax`` give them) and converted, so
    that hashing and JSON see plain ints. Booleans and non-integers are refused with a TypeError.
    """
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise TypeError(f"{name} must be a whole number, not {value!r} ({type(value).__name__})")
