"""The players' house keeps its shape (issue 33): every module a newcomer can read in one
sitting, no hidden state (what players read is kept in the explicit Readings, never in a
module-level cache), nothing keyed by an object's id, and a Readings that can be cleared."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

import huescues.agents
from huescues import Board, Rules, new_game
from huescues.agents import ModelGuesser, Readings

AGENTS = Path(huescues.agents.__file__).parent
#: The longest a module of the players may be.
MOST_LINES = 700


def _modules() -> list[Path]:
    return sorted(AGENTS.glob("*.py"))


def test_no_module_of_the_players_is_longer_than_one_sitting() -> None:
    long = {p.name: n for p in _modules() if (n := len(p.read_text().splitlines())) > MOST_LINES}
    assert not long, f"modules over {MOST_LINES} lines: {long}"


def _hidden_state(path: Path) -> list[str]:
    """A module's memo caches: functions kept by ``functools.cache``/``lru_cache``, containers
    made empty at the top of the module to be filled later, and ``id()`` used at all."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for d in node.decorator_list:
                name = ast.unparse(d)
                if "cache" in name:
                    found.append(f"{path.name}:{node.lineno}: @{name} {node.name}")
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in {"id", "builtins.id"}:
            found.append(f"{path.name}:{node.lineno}: id()")
        elif isinstance(node, ast.Call) and "lru_cache" in ast.unparse(node.func):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        empty = (isinstance(value, ast.Dict | ast.List | ast.Set) and not value_elts(value)) or (
            isinstance(value, ast.Call)
            and ast.unparse(value.func) in {"dict", "OrderedDict", "set", "list", "defaultdict"}
            and not value.args
        )
        if empty:
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def value_elts(value: ast.Dict | ast.List | ast.Set) -> list[ast.AST | None]:
    return list(value.keys) if isinstance(value, ast.Dict) else list(value.elts)


def test_the_players_keep_no_module_level_memo_and_key_nothing_by_id() -> None:
    hidden = [h for p in _modules() for h in _hidden_state(p)]
    assert hidden == []


def test_the_check_finds_a_memo_cache(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import functools\n_KEPT = {}\n@functools.cache\ndef f(x):\n    return id(x)\n"
    )
    assert len(_hidden_state(module)) == 3


def test_a_players_own_readings_fill_as_it_plays_and_clear() -> None:
    board = Board.from_rgb(np.random.default_rng(2).integers(0, 256, (4, 6, 3)))
    store = Readings()
    guesser = ModelGuesser(model="naming", store=store)
    state = new_game(3, seed=1, rules=Rules.standard(3), board=board)
    guesser.prepare(board, state.rules)
    assert len(store) > 0 and len(Readings()) == 0  # its own, not the process's
    before = len(store)
    store.clear()
    assert len(store) == 0 < before
    guesser.prepare(board, state.rules)  # read again when next asked
    assert len(store) == before
    assert Readings.shared() is Readings.shared()
    assert guesser == ModelGuesser(model="naming")  # the store is no part of its value
