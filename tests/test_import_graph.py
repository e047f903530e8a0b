"""The package's modules import one another without circles: no module reaches, by any chain of
imports (at the top of a file, inside a function, or for type checking only), back to itself.
A circle would be worked around with an import inside a function; the shape should change
instead (docs/design.md)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import huescues

SRC = Path(huescues.__file__).parent


def _module_of(path: Path) -> tuple[str, bool]:
    """The dotted name of a source file, and whether it is a package's ``__init__``."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _imports(path: Path) -> Iterator[str]:
    """Every module of the package that the file imports, anywhere in it."""
    name, is_package = _module_of(path)
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("huescues"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if not target.startswith("huescues"):
                continue
            if node.module is not None:  # (`from . import _x` needs only _x: the package is
                yield target  # the importer's own, imported before it)
            # `from . import _x` and `from pkg import _x` import the module _x.
            for alias in node.names:
                yield f"{target}.{alias.name}"


def _graph() -> dict[str, set[str]]:
    files = {_module_of(p)[0]: p for p in SRC.rglob("*.py")}
    return {
        name: {t for t in _imports(path) if t in files and t != name}
        for name, path in files.items()
    }


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others() -> None:
    assert _circles(_graph()) == []


def test_the_check_finds_a_circle_and_imports_inside_functions() -> None:
    # The check itself: two modules importing each other, one inside a function, are found.
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert _circles(graph) == [["a", "b"]]
    graph = _graph()
    assert "huescues.agents._vocabulary" in graph["huescues.agents._giver"]
    assert "huescues.agents._scores" in graph["huescues.agents._store"]  # from . import _scores
    # An import inside a function counts: the top package loads the players on first use.
    assert "huescues.agents" in graph["huescues"]
