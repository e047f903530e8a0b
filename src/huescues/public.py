"""How a package shows its public face: each object it exports names the package as its module
(as httpx's do), not the private module that defines it, so that reprs, pickles and the API
pages point where users import it from. Most packages' ``__init__`` end with one call
(``research`` and ``web`` do the same with a loop of their own; ``rl`` names each object as it
loads it)."""

from __future__ import annotations

from collections.abc import MutableMapping

__all__ = ["name_public_objects"]


def name_public_objects(namespace: MutableMapping[str, object]) -> None:
    """Give each object of ``namespace["__all__"]`` defined in a private module of the package
    ``namespace["__name__"]`` that package as its ``__module__`` (constants and type aliases,
    which have no module of their own, are left as they are)."""
    package = str(namespace["__name__"])
    names = namespace["__all__"]
    assert isinstance(names, list)
    for name in names:
        obj = namespace[name]
        if getattr(obj, "__qualname__", "") and str(obj.__module__).startswith(f"{package}._"):
            obj.__module__ = package
