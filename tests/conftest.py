"""Shared helpers: scripted play that can see the whole state (for setting up rule cases)."""

from __future__ import annotations

import os

# One thread for the linear algebra in each test process and the processes it starts: the suite
# runs a worker per core, and each worker's BLAS threads spun on the cores the other needs (the
# whole suite took 470 s on two cores with them, 384 s without; every figure the same).
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_threads] = "1"

from collections.abc import Callable, Iterator  # noqa: E402

import pytest  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

threadpool_limits(1)  # (numpy may be loaded already, by a plugin: the variables came too late)

from huescues import Cell, ChooseTarget, GameState, GiveClue, Pass, Phase, PlacePawn  # noqa: E402
from huescues.agents import RANDOM_CLUE_WORDS  # noqa: E402

Placement = Callable[[GameState], Cell]


def far_from_target(state: GameState) -> Cell:
    """An empty square at least 3 from the target: a pawn there scores nothing (R15)."""
    target = state.target
    assert target is not None
    for cell in state.board.cells():
        if cell not in state.occupied and cell.distance(target) >= 3:
            return cell
    raise AssertionError("no far square")


def near(state: GameState, distance: int) -> Cell:
    """An empty square at exactly ``distance`` from the target."""
    target = state.target
    assert target is not None
    for cell in state.board.cells():
        if cell not in state.occupied and cell.distance(target) == distance:
            return cell
    raise AssertionError(f"no empty square at distance {distance}")


def play_round(
    state: GameState,
    placement: Placement = far_from_target,
    *,
    passing: bool = False,
) -> GameState:
    """Play one whole round with clues that pass the rules and pawns placed by ``placement``."""
    assert state.phase is Phase.CHOOSE_TARGET
    state = state.apply(ChooseTarget(0))
    first, second = RANDOM_CLUE_WORDS[2 * state.round], RANDOM_CLUE_WORDS[2 * state.round + 1]
    state = state.apply(GiveClue(first))
    while state.phase is Phase.FIRST_GUESS:
        state = state.apply(PlacePawn(placement(state)))
    if passing:
        state = state.apply(Pass())
    else:
        state = state.apply(GiveClue(f"{second} {first}"))
        while state.phase is Phase.SECOND_GUESS:
            state = state.apply(PlacePawn(placement(state)))
    return state


@pytest.fixture(autouse=True, scope="session")
def _readings_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Readings the players keep on disk go to a folder of the test session, never the user's
    cache directory."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HUESCUES_CACHE_DIR", str(tmp_path_factory.mktemp("huescues-cache")))
        mp.delenv("HUESCUES_CACHE", raising=False)
        yield


#: The files that take longest, longest first (``pytest --durations=0``, summed by file, on two
#: cores on 2026-12-06). They are run first: the workers share the files (``--dist loadfile``),
#: and a long file left to the end runs alone while the other worker waits.
LONG_FILES = (
    "test_docs_evaluations.py",
    "test_web_party_browser.py",
    "test_tournament_scale.py",
    "test_web_study_phone_browser.py",
    "test_docs_figures.py",
    "test_web_server_hardening.py",
    "test_web_server_processes.py",
    "test_batch.py",
    "test_docs_snippets.py",
    "test_web_studies_publish.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The :data:`LONG_FILES` first, longest first; every file's tests keep their order."""
    rank = {name: i for i, name in enumerate(LONG_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
