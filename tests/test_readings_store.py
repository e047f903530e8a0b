"""Readings of the vocabulary on a board, shipped for the standard board and kept on disk for
others: the same arrays as a fresh reading, and never used for another board, model or code."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from huescues.agents import (
    DEFAULT_GIVER_MODELS,
    DEFAULT_GIVER_POOL,
    Readings,
    _scores,  # private: a reading's arrays from scores, tested here
    _store,  # private: the readings' files and their keys, tested here
    _vocabulary,  # private: the readings kept in memory, tested here
    clue_vocabulary,
    pooled_model,
    readings_cache_dir,
    resolve_model,
)
from huescues.agents._vocabulary import BoardReading, read_board  # private
from huescues.engine import STANDARD_BOARD_ID, Board
from huescues.language import (
    BlendedModel,
    MeanColourModel,
    NamingModel,
    ObjectColourModel,
    combined_model,
    default_model,
    model_cache_key,
)

#: The readings the tests read into: a new one is as in a new process.
STORE = [Readings()]


def board_reading(
    model: object, board: Board, words: tuple[str, ...] | None = None
) -> BoardReading:
    """:func:`~huescues.agents._vocabulary.board_reading` into :data:`STORE`."""
    return _vocabulary.board_reading(STORE[0], model, board, words)  # type: ignore[arg-type]


def _new_process() -> None:
    STORE[0] = Readings()


#: A small board of random colours: readings of it are quick.
SMALL = Board.from_rgb(np.random.default_rng(11).integers(0, 256, (6, 9, 3)))


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """As in a new process, with its own cache folder; returns the folder."""
    _new_process()
    monkeypatch.setenv("HUESCUES_CACHE_DIR", str(tmp_path))
    return tmp_path


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the fresh readings made (they still happen)."""
    made: list[str] = []

    def counted(model: object, board: Board, words: tuple[str, ...]) -> BoardReading:
        made.append(board.id)
        return read_board(model, board, words)  # type: ignore[arg-type]

    monkeypatch.setattr(_vocabulary, "read_board", counted)
    return made


def _same(a: BoardReading, b: BoardReading) -> bool:
    return (
        a.words == b.words
        and a.log_belief.tobytes() == b.log_belief.tobytes()
        and a.frame.tobytes() == b.frame.tobytes()
    )


def test_shipped_models_have_stable_distinct_names_and_others_none() -> None:
    shipped = [default_model(), NamingModel.default(), combined_model()]
    keys = {model_cache_key(m) for m in [*shipped, ObjectColourModel.default()]}
    assert None not in keys and len(keys) == 4
    assert model_cache_key(default_model()) == model_cache_key(default_model())
    # A blend of shipped models with another weight is another model.
    other = BlendedModel(combined_model(), ObjectColourModel.default(), 1.0)
    assert model_cache_key(other) not in keys | {None}
    assert model_cache_key(MeanColourModel(np.zeros((2, 3)))) is None


@pytest.mark.usefixtures("fresh")
@pytest.mark.slow
def test_shipped_standard_readings_are_current(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails after a change to a model's scores, its data, the vocabulary or the reading code:
    then raise ``SCORES_VERSION`` (language/_identity.py) if the scores changed, and run
    ``PYTHONPATH=src python scripts/build_board_readings.py``."""
    board = Board.standard()
    made = _counting(monkeypatch)
    models = {name: resolve_model(name) for name in DEFAULT_GIVER_MODELS}
    assert DEFAULT_GIVER_POOL is not None  # the default giver's pool is shipped too
    models["pool"] = pooled_model(DEFAULT_GIVER_MODELS, DEFAULT_GIVER_POOL)
    for name, model in models.items():
        key = _store.readings_key(model, board, clue_vocabulary())
        assert key is not None
        assert _store.load(_store.shipped_path(board, key), key) is not None, name
        # Bit for bit what the model reads now: a change of scores without a new version fails.
        assert _same(board_reading(model, board), read_board(model, board, clue_vocabulary()))
    assert made == []


@pytest.mark.usefixtures("fresh")
def test_the_standard_board_reads_from_the_package_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _counting(monkeypatch)
    model = NamingModel.default()
    shipped = board_reading(model, Board.standard())
    assert made == []
    assert _same(shipped, read_board(model, Board.standard(), clue_vocabulary()))


def test_the_board_key_holds_across_machines_last_bits_but_not_a_changed_colour() -> None:
    # numpy's AVX-512 kernels convert the standard board's sRGB to CIELAB values a bit or two
    # apart from other machines': the shipped readings must still be found there.
    std = Board.standard()
    nudged = np.nextafter(np.nextafter(std.lab, np.inf), np.inf)
    assert not np.array_equal(nudged, std.lab)
    assert _store.board_hash(Board("x", std.srgb, nudged)) == _store.board_hash(std)
    changed = std.lab.copy()
    changed[5, 7, 1] += 1e-4
    assert _store.board_hash(Board("x", std.srgb, changed)) != _store.board_hash(std)


@pytest.mark.usefixtures("fresh")
@pytest.mark.slow
def test_a_changed_board_or_model_does_not_use_the_shipped_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _counting(monkeypatch)
    std = Board.standard()
    # The standard board's id on other colours: the file is found by name, then refused.
    lab = std.lab.copy()
    lab[0, 0] += 1.0
    lab.flags.writeable = False
    impostor = Board(STANDARD_BOARD_ID, std.srgb, lab)
    naming = NamingModel.default()
    key = _store.readings_key(naming, impostor, clue_vocabulary())
    assert key is not None and _store.shipped_path(impostor, key).is_file()
    board_reading(naming, impostor)
    assert made == [STANDARD_BOARD_ID]
    # A changed model (its data or code: a new fingerprint) is not read from it either.
    monkeypatch.setattr(_store, "model_cache_key", lambda m: "naming@0000")
    _new_process()
    board_reading(naming, std)
    assert made == [STANDARD_BOARD_ID, STANDARD_BOARD_ID]


def test_changed_reading_code_makes_the_files_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    key = _store.readings_key(resolve_model("naming"), Board.standard(), clue_vocabulary())
    original = _scores.from_scores

    def changed(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        log_belief, frame = original(scores)
        return log_belief, frame * np.float32(0.999)

    monkeypatch.setattr(_scores, "from_scores", changed)
    new = _store.readings_key(resolve_model("naming"), Board.standard(), clue_vocabulary())
    assert key is not None and new is not None and new["code"] != key["code"]
    assert _store.load(_store.shipped_path(Board.standard(), new), new) is None


def test_a_file_for_another_key_is_refused() -> None:
    words = ("blue", "red")
    key = _store.readings_key(NamingModel.default(), SMALL, words)
    assert key is not None
    reading = read_board(NamingModel.default(), SMALL, words)
    raw = _store.encode(key, reading.log_belief, reading.frame)
    assert _store.decode(raw, key) is not None
    for field in ("model", "board", "words", "code"):
        assert _store.decode(raw, {**key, field: "other"}) is None


def test_other_boards_are_kept_on_disk_and_read_back_exactly(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _counting(monkeypatch)
    model = NamingModel.default()
    first = board_reading(model, SMALL)
    files = list(fresh.glob("readings/*.bin"))
    assert made == [SMALL.id] and len(files) == 1
    _new_process()  # a new process
    again = board_reading(model, SMALL)
    assert made == [SMALL.id]
    assert _same(first, again)


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip", "empty"])
def test_a_damaged_cache_file_is_ignored_and_rewritten(
    fresh: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    made = _counting(monkeypatch)
    model = NamingModel.default()
    good = board_reading(model, SMALL)
    (path,) = fresh.glob("readings/*.bin")
    raw = path.read_bytes()
    path.write_bytes(
        {
            "truncate": raw[: len(raw) // 2],
            "garbage": b"\x00not a reading" * 100,
            "flip": raw[:-50] + bytes(b ^ 0xFF for b in raw[-50:]),
            "empty": b"",
        }[damage]
    )
    _new_process()
    again = board_reading(model, SMALL)
    assert made == [SMALL.id, SMALL.id] and _same(good, again)
    assert path.read_bytes() == raw  # rewritten whole


def test_the_cache_can_be_turned_off(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _counting(monkeypatch)
    monkeypatch.setenv("HUESCUES_CACHE", "off")
    assert readings_cache_dir() is None
    board_reading(NamingModel.default(), SMALL)
    assert not list(fresh.rglob("*.bin"))
    # Nor is the shipped reading used: every board is read afresh.
    board_reading(NamingModel.default(), Board.standard())
    assert made == [SMALL.id, STANDARD_BOARD_ID]


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HUESCUES_CACHE_DIR", str(tmp_path / "mine"))
    assert readings_cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("HUESCUES_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr("sys.platform", "linux")
    assert readings_cache_dir() == tmp_path / "xdg" / "huescues"


def test_a_model_without_a_stable_name_is_not_kept_on_disk(fresh: Path) -> None:
    board_reading(MeanColourModel(np.array([[50.0, 0.0, 0.0], [60.0, 10.0, 10.0]])), SMALL)
    assert not list(fresh.rglob("*.bin"))


def test_writers_at_once_leave_a_whole_file(tmp_path: Path) -> None:
    """Threads writing the same reading while another reads: every read finds nothing yet or
    a whole file, and no temporary file is left behind."""
    words = tuple(clue_vocabulary()[:300])
    key = _store.readings_key(NamingModel.default(), SMALL, words)
    assert key is not None
    reading = read_board(NamingModel.default(), SMALL, words)
    raw = _store.encode(key, reading.log_belief, reading.frame, level=1)
    path = _store.cache_path(tmp_path, key)
    seen: list[bool] = []
    stop = threading.Event()

    def write() -> None:
        for _ in range(15):
            assert _store.save(path, raw)

    def read() -> None:
        while not stop.is_set():
            if path.exists():
                seen.append(_store.load(path, key) is not None)

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write) for _ in range(3)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    reader.join()
    assert all(seen)
    assert [p.name for p in path.parent.iterdir()] == [path.name]
    loaded = _store.load(path, key)
    assert loaded is not None and loaded[1].tobytes() == reading.frame.tobytes()


def test_an_unwritable_cache_folder_costs_only_the_reading(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = fresh / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("HUESCUES_CACHE_DIR", str(blocker))
    reading = board_reading(NamingModel.default(), SMALL)
    assert reading.log_belief.shape == (len(clue_vocabulary()), 6, 9)
