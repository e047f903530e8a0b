"""The package's seams: what each public module exports, where public objects say they live, and
that no package reaches into another's private modules (the layers themselves are checked by
import-linter in ``.ci/run``, with the contract in ``pyproject.toml``)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import types
from pathlib import Path

import pytest

import huescues

SRC = Path(huescues.__file__).parent

#: Every public module, and names it may show beyond ``__all__`` (none, so far).
PUBLIC_MODULES = [
    "huescues",
    "huescues.colour",
    "huescues.engine",
    "huescues.language",
    "huescues.agents",
    "huescues.tournament",
    "huescues.research",
    "huescues.rl",
    "huescues.export",
    "huescues.render",
    "huescues.terminal",
    "huescues.stats",
    "huescues.testing",
    "huescues.web",
    "huescues.batch",
    "huescues.public",
]


def _own_names(module: types.ModuleType) -> set[str]:
    """The public names a module holds: for a package, what it imports from its private modules
    (its public face); for a single module, what it defines (not what it imports)."""
    if hasattr(module, "__path__"):
        return {
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and not isinstance(value, types.ModuleType)
            and name not in {"annotations", "TYPE_CHECKING"}
        }
    assert module.__file__ is not None
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    defined: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined.add(node.target.id)
    return {name for name in defined if not name.startswith("_")}


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_all_lists_exactly_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    exported = set(module.__all__)
    assert len(exported) == len(module.__all__), f"{name}.__all__ repeats a name"
    missing = _own_names(module) - exported
    assert not missing, f"{name} has public names missing from __all__: {sorted(missing)}"
    for attr in module.__all__:
        assert hasattr(module, attr), f"{name}.__all__ names {attr!r}, which it does not have"


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_public_objects_show_a_public_module(name: str) -> None:
    module = importlib.import_module(name)
    for attr in module.__all__:
        obj = getattr(module, attr)
        if not getattr(obj, "__qualname__", "") or isinstance(obj, types.GenericAlias):
            continue  # a constant or a type alias: it has no module of its own
        home = obj.__module__
        assert not any(part.startswith("_") for part in home.split(".")), (
            f"{name}.{attr} shows the private module {home!r}"
        )
        # The module it names really has it, so pickles and docs find it there.
        assert getattr(importlib.import_module(home), obj.__qualname__) is obj


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return result.stdout


def test_the_engine_loads_no_players_or_language_models() -> None:
    loaded = _run(
        "import sys, huescues.engine\n"
        "print(' '.join(m for m in sys.modules if m.startswith('huescues.')))"
    ).split()
    assert "huescues.engine" in loaded
    # (huescues.public: the packages' helper for their public face, below every layer.)
    above = [m for m in loaded if m.split(".")[1] not in {"engine", "colour", "public"}]
    assert not above, f"import huescues.engine loaded {above}"


def test_top_level_players_are_loaded_on_first_use() -> None:
    out = _run(
        "import sys, huescues\n"
        "print('huescues.agents' in sys.modules)\n"
        "print(huescues.play_game.__module__, 'huescues.agents' in sys.modules)"
    ).split()
    assert out == ["False", "huescues.agents", "True"]


def test_subpackages_are_reachable_from_the_top_package() -> None:
    # `import huescues` then `huescues.agents.RandomAgent()`, as the README does, loads the
    # players on first use.
    out = _run(
        "import sys, huescues\n"
        "print('huescues.agents' in sys.modules)\n"
        "print(type(huescues.agents.RandomAgent()).__name__, huescues.language.default_model)"
    ).split()
    assert out[:2] == ["False", "RandomAgent"]


def test_unknown_top_level_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = huescues.no_such_name  # type: ignore[attr-defined]


def _package_of(module: str) -> str:
    """``huescues.engine._state`` -> ``huescues.engine``; a module at the top (``huescues.cli``)
    -> ``huescues``."""
    parts = module.split(".")
    if len(parts) > 1 and (SRC / parts[1]).is_dir():
        return ".".join(parts[:2])
    return parts[0]


def _private_imports() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        here = ".".join(parts)
        package = _package_of(here)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    if path.name != "__init__.py":
                        base.pop()
                    base = base[: len(base) - node.level + 1]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                target, names = "", [a.name for a in node.names]
                found.extend(
                    f"{here}:{node.lineno}: import {full}"
                    for full in names
                    if full.startswith("huescues.")
                    and _package_of(full) != package
                    and any(p.startswith("_") for p in full.split(".")[1:])
                )
                continue
            else:
                continue
            if not target.startswith("huescues") or _package_of(target) == package:
                continue
            private_module = any(p.startswith("_") for p in target.split(".")[1:])
            private_names = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private_module or private_names:
                found.append(f"{here}:{node.lineno}: from {target} import {', '.join(names)}")
    return found


def test_no_package_imports_another_packages_private_names() -> None:
    assert _private_imports() == []


def test_the_private_import_check_finds_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The check above must be able to fail: a copy of the package with one private import.
    fake = tmp_path / "huescues"
    (fake / "agents").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "agents" / "__init__.py").write_text("from huescues.engine._state import _secret\n")
    monkeypatch.setattr(sys.modules[__name__], "SRC", fake)
    assert _private_imports() == ["huescues.agents:1: from huescues.engine._state import _secret"]
