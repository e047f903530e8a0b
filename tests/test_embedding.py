"""The embedding model: word vectors mapped to CIELAB (numpy only at prediction time)."""

from __future__ import annotations

import importlib.util
import io
import math
import os
import subprocess
import sys
import types
import zipfile
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from huescues.colour import delta_e_2000, srgb_to_lab
from huescues.language import (
    FLAT_LOG_DENSITY,
    ColourTermModel,
    EmbeddingModel,
    WordPieceEncoder,
    fold_of,
)

# the shipped static encoder and the tokenizer's steps are private: tested here
from huescues.language._embedding import static_encoder
from huescues.language._wordpiece import basic_tokenize, normalise_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def model() -> EmbeddingModel:
    return EmbeddingModel.default()


def hue(lab: np.ndarray) -> float:
    """CIELAB hue angle in degrees, -180 to 180."""
    return math.degrees(math.atan2(lab[2], lab[1]))


def chroma(lab: np.ndarray) -> float:
    return math.hypot(lab[1], lab[2])


# -- the protocol ----------------------------------------------------------------------------


def test_is_a_colour_term_model(model: EmbeddingModel) -> None:
    assert isinstance(model, ColourTermModel)


@pytest.mark.parametrize("shape", [(3,), (480, 3), (16, 30, 3)])
@pytest.mark.parametrize("text", ["red", "avocado", "zzqxj", "🙂", "ocean at dusk"])
def test_score_shapes_and_finite(model: EmbeddingModel, shape: tuple[int, ...], text: str) -> None:
    rng = np.random.default_rng(0)
    lab = rng.uniform([0, -80, -80], [100, 80, 80], size=shape)
    out = model.score(text, lab)
    assert out.shape == shape[:-1]
    assert np.all(np.isfinite(out))


def test_score_many_matches_score(model: EmbeddingModel) -> None:
    rng = np.random.default_rng(1)
    lab = rng.uniform([0, -80, -80], [100, 80, 80], size=(16, 30, 3))
    texts = ["red", "banana", "🙂", "glacier", "red"]
    many = model.score_many(texts, lab)
    assert many.shape == (5, 16, 30)
    for row, text in zip(many, texts, strict=True):
        np.testing.assert_allclose(row, model.score(text, lab), rtol=1e-12, atol=1e-9)
    assert model.score_many([], lab).shape == (0, 16, 30)


def test_prediction_is_well_formed(model: EmbeddingModel) -> None:
    p = model.predict("teal")
    assert p.lab.shape == (3,) and p.cov.shape == (3, 3)
    assert p.source == "embedding" and p.known
    assert np.all(np.linalg.eigvalsh(p.cov) > 0)
    assert not p.lab.flags.writeable
    assert model.predict("teal") is p  # cached


def test_text_without_known_token_is_flat(model: EmbeddingModel) -> None:
    lab = srgb_to_lab(np.random.default_rng(2).uniform(size=(480, 3)))
    for text in ["🙂", "🙂🙂 🌈", "\u0378"]:
        assert np.all(model.score(text, lab) == FLAT_LOG_DENSITY)
        assert not model.predict(text).known


@pytest.mark.parametrize("text", ["zzqxj", "日本", "qwrtp"])
def test_nonsense_is_unknown_and_wide(model: EmbeddingModel, text: str) -> None:
    p = model.predict(text)
    red = model.predict("red")
    assert not p.known
    assert np.all(p.std > 15)
    assert np.linalg.det(p.cov) > 8 * np.linalg.det(red.cov)


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_empty_text_is_refused(model: EmbeddingModel, text: str) -> None:
    with pytest.raises(ValueError, match="at least one word"):
        model.score(text, np.zeros(3))
    with pytest.raises(ValueError, match="at least one word"):
        model.predict(text)
    with pytest.raises(ValueError, match="at least one word"):
        model.score_many(["red", text], np.zeros(3))


def test_bad_colours_are_refused(model: EmbeddingModel) -> None:
    with pytest.raises(ValueError, match="finite"):
        model.score("red", [50.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="last axis of 3"):
        model.score("red", np.zeros((4, 2)))
    with pytest.raises(TypeError):
        model.score(3, np.zeros(3))  # type: ignore[arg-type]


# -- sanity: where words land ----------------------------------------------------------------


def test_banana_prefers_yellow_to_navy(model: EmbeddingModel) -> None:
    yellow, navy = srgb_to_lab([[1.0, 0.9, 0.2], [0.0, 0.0, 0.5]])
    assert model.score("banana", yellow) > model.score("banana", navy) + 5


def test_avocado_is_green(model: EmbeddingModel) -> None:
    lab = model.predict("avocado").lab
    assert 90 < hue(lab) < 170 and chroma(lab) > 20


def test_flamingo_is_pink(model: EmbeddingModel) -> None:
    lab = model.predict("flamingo").lab
    assert -45 < hue(lab) < 40 and lab[1] > 20 and lab[0] > 45


def test_glacier_is_light_and_cool(model: EmbeddingModel) -> None:
    lab = model.predict("glacier").lab
    assert lab[0] > 65 and lab[1] < 5 and lab[2] < 15 and chroma(lab) < 30


def test_espresso_is_dark_brown(model: EmbeddingModel) -> None:
    lab = model.predict("espresso").lab
    assert lab[0] < 45 and 20 < hue(lab) < 90 and chroma(lab) < 40


def test_nonsense_is_wider_than_red(model: EmbeddingModel) -> None:
    assert np.all(model.predict("zzqxj").std > model.predict("red").std)


# -- saving ----------------------------------------------------------------------------------


def test_save_load_round_trip_without_pickle(model: EmbeddingModel, tmp_path: Path) -> None:
    path = tmp_path / "model.npz"
    model.save(path)
    with zipfile.ZipFile(path) as zf, np.load(path, allow_pickle=False) as data:
        assert all(n.endswith(".npy") for n in zf.namelist())
        assert all(data[k].dtype != object for k in data.files)
    again = EmbeddingModel.load(path)
    texts = ["red", "flamingo", "zzqxj", "🙂", "deep sea at night"]
    for a, b in zip(model.predict_many(texts), again.predict_many(texts), strict=True):
        assert np.array_equal(a.lab, b.lab) and np.array_equal(a.cov, b.cov)
        assert a.known == b.known
    lab = srgb_to_lab(np.random.default_rng(3).uniform(size=(480, 3)))
    assert np.array_equal(model.score_many(texts, lab), again.score_many(texts, lab))
    assert again.params == model.params
    assert again.metadata["cross_validation"] == model.metadata["cross_validation"]


def test_load_refuses_other_vectors(model: EmbeddingModel) -> None:
    buffer = io.BytesIO()
    model.save(buffer)
    buffer.seek(0)
    other = WordPieceEncoder(["[PAD]", "[UNK]", "red"], np.eye(3, dtype=np.float16))
    with pytest.raises(ValueError, match="fitted on vectors"):
        EmbeddingModel.load(buffer, other)


@pytest.mark.slow
def test_prediction_needs_numpy_only() -> None:
    code = (
        "import sys\n"
        "from huescues.language import EmbeddingModel\n"
        "m = EmbeddingModel.default()\n"
        "m.score('glacier', [[50.0, 0.0, 0.0]]); m.predict('zzqxj')\n"
        "heavy = {'torch', 'sklearn', 'scipy', 'model2vec', 'transformers', 'tokenizers',\n"
        "         'sentence_transformers'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=60)


# -- the WordPiece encoder -------------------------------------------------------------------

#: Pieces given by the Hugging Face tokenizer of the distilled model (checked when the vectors
#: were built: ``scripts/build_embeddings.py`` compares every colour name and code point).
KNOWN_PIECES = {
    "red": ["red"],
    "flamingo": ["flaming", "##o"],
    "avocado": ["av", "##oca", "##do"],
    "espresso": ["es", "##press", "##o"],
    "periwinkle": ["per", "##i", "##win", "##kle"],
    "chartreuse": ["chart", "##reus", "##e"],
    "Café au lait": ["cafe", "au", "lai", "##t"],
    "naïve BLUE!!": ["naive", "blue", "!", "!"],
    "日本": ["日", "本"],
    "🙂": ["[UNK]"],
    "[PAD] red": ["[PAD]", "red"],
    "red[UNK]blue": ["red", "[UNK]", "blue"],
    "\u039f\u0394\u039f\u03a3": ["\u03bf", "##\u03b4", "##\u03bf", "##\u03c3"],  # Greek
    "rock'n'roll": ["rock", "'", "n", "'", "roll"],
    "R2-D2": ["r", "##2", "-", "d", "##2"],
    "\x00\x01red": ["red"],
    "a" * 150: ["[UNK]"],
}


@pytest.mark.parametrize(("text", "pieces"), KNOWN_PIECES.items())
def test_known_token_splits(text: str, pieces: list[str]) -> None:
    assert static_encoder().tokenize(text) == pieces


def test_unknown_tokens_are_dropped_and_give_zero() -> None:
    enc = static_encoder()
    assert enc.token_ids("🙂") == []
    vectors, known = enc.encode(["🙂", "red"])
    assert known.tolist() == [False, True]
    assert np.all(vectors[0] == 0)
    assert vectors.dtype == np.float32
    assert abs(float(np.linalg.norm(vectors[1])) - 1) < 1e-3


def test_normaliser_and_pre_tokeniser() -> None:
    assert normalise_text("Ça\u00a0VA\x07") == "ca va"
    assert normalise_text("日本") == " 日  本 "
    assert basic_tokenize("hello, world!  x") == ["hello", ",", "world", "!", "x"]


def _load_build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_embeddings", ROOT / "scripts" / "build_embeddings.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_build_script_parity_check_on_tiny_vocabulary() -> None:
    """The build script's parity check, on a vocabulary small enough to work out by hand, against
    model2vec's pooling written out independently (float16 mean, unit length in float32)."""
    script = _load_build_script()
    vocab = ["[PAD]", "[UNK]", "red", "##dish", "blue", "green", "!", "a", "##b", "##c"]
    rng = np.random.default_rng(4)
    vectors = rng.normal(size=(len(vocab), 5)).astype(np.float16)
    enc = WordPieceEncoder(vocab, vectors)
    texts = ["Reddish blue!", "abc", "xyz green", "ab!c", "RED", "zzz", "red [PAD]"]
    expected_ids = [[2, 3, 4, 6], [7, 8, 9], [5], [7, 8, 6], [2], [], [2, 0]]

    def reference(ids: list[int]) -> np.ndarray:
        if not ids:
            return np.zeros(5, dtype=np.float32)
        mean = vectors[ids].astype(np.float32).mean(axis=0).astype(np.float16)
        unit = mean.astype(np.float32) / (np.linalg.norm(mean.astype(np.float32)) + 1e-32)
        out: np.ndarray = unit.astype(np.float16).astype(np.float32)
        return out

    ref_vectors = np.stack([reference(i) for i in expected_ids])
    parity = script.check_parity(enc, texts, expected_ids, ref_vectors)
    assert parity.id_mismatches == 0, parity.examples
    assert parity.max_abs_diff == 0.0
    wrong = script.check_parity(enc, texts, [[2], *expected_ids[1:]], None)
    assert wrong.id_mismatches == 1


def test_encoder_round_trip(tmp_path: Path) -> None:
    enc = WordPieceEncoder(["[PAD]", "[UNK]", "red", "##dish"], np.eye(4, dtype=np.float16))
    enc.save(tmp_path / "v.npz", metadata={"note": "tiny"})
    again = WordPieceEncoder.load(tmp_path / "v.npz")
    assert again.vocab == enc.vocab and again.fingerprint == enc.fingerprint
    assert np.array_equal(again.encode(["reddish red"])[0], enc.encode(["reddish red"])[0])


# -- held-out accuracy -----------------------------------------------------------------------


@pytest.mark.slow
def test_held_out_accuracy_floor(model: EmbeddingModel) -> None:
    """Refit on four folds of the XKCD names (without color-name-list, whose words include the
    held-out names) and judge the fifth. Measured: median CIEDE2000 9.1 on fold 0 (8.2-9.4
    over the five folds; the mean colour: 30.6); the floor of 12 leaves a margin."""
    names = model.training_names
    lab = model.training_lab
    held = np.array([fold_of(n) == 0 for n in names])
    fitted = EmbeddingModel.fit(
        [n for n, h in zip(names, held, strict=True) if not h], lab[~held], params=model.params
    )
    preds = fitted.predict_many([n for n, h in zip(names, held, strict=True) if h])
    errors = delta_e_2000(np.array([p.lab for p in preds]), lab[held])
    assert np.median(errors) < 12.0
    baseline = delta_e_2000(lab[~held].mean(axis=0), lab[held])
    assert np.median(errors) < 0.5 * np.median(baseline)


def test_fit_checks_its_input(model: EmbeddingModel) -> None:
    names = list(model.training_names[:50])
    lab = model.training_lab[:50]
    with pytest.raises(ValueError, match="names for"):
        EmbeddingModel.fit(names, lab[:-1])
    with pytest.raises(ValueError, match="weights"):
        EmbeddingModel.fit(names, lab, weights=np.zeros(50))
    with pytest.raises(ValueError, match="no known token"):
        EmbeddingModel.fit([*names[:-1], "🙂"], lab)
    with pytest.raises(ValueError, match="go together"):
        EmbeddingModel.fit(names, lab, extra_names=["red"])


@pytest.mark.slow
def test_fit_save_load_is_exact(model: EmbeddingModel, tmp_path: Path) -> None:
    names = list(model.training_names[::4])
    lab = model.training_lab[::4]
    fitted = EmbeddingModel.fit(
        names,
        lab,
        weights=np.linspace(0.5, 2.0, len(names)),
        extra_names=["glacier mist", "glacier", "espresso bean"],
        extra_lab=[[85.0, -8.0, -6.0], [80.0, -10.0, -8.0], [30.0, 10.0, 15.0]],
        description="every fourth XKCD name",
    )
    fitted.save(tmp_path / "m.npz")
    again = EmbeddingModel.load(tmp_path / "m.npz")
    texts = ["glacier", "red", "zzqxj", "🙂", "moss"]
    for a, b in zip(fitted.predict_many(texts), again.predict_many(texts), strict=True):
        assert np.array_equal(a.lab, b.lab) and np.array_equal(a.cov, b.cov)
    assert again.metadata["description"] == "every fourth XKCD name"
    assert again.metadata["n_extra_words"] == 4
    assert again.explain("glacier")["extra_names"] == 2


def test_answers_do_not_depend_on_batching(model: EmbeddingModel) -> None:
    with (ROOT / "src/huescues/data/embedding/regressor.npz").open("rb") as fh:
        fresh = EmbeddingModel.load(fh)
    alone = fresh.predict("deep ocean")
    batch = model.predict_many(["red", "deep ocean", "mossy glacier", "zzqxj"])[1]
    assert np.array_equal(alone.lab, batch.lab) and np.array_equal(alone.cov, batch.cov)


def test_explain(model: EmbeddingModel) -> None:
    info = model.explain("flamingo")
    assert info["tokens"] == ["flaming", "##o"]
    assert info["has_known_token"] and 0 <= info["v0"] <= 1
    assert info["shared_names_lab"] is None and info["extra_names"] > 5


def test_sentence_backend_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from huescues.language import SentenceTransformerEncoder

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(ImportError, match=r"huescues\[sentence\]"):
        SentenceTransformerEncoder()


@pytest.mark.slow
def test_sentence_backend_with_a_stand_in_model(
    model: EmbeddingModel, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The adapter's own logic (threads, unknown texts, fingerprint, fitting on its vectors),
    with stand-ins for torch and sentence-transformers so that the suite needs neither; the
    real backend is measured in docs/embedding.md."""
    threads: list[int] = []
    words = {w for name in model.training_names for w in name.split()}
    vocabulary = {w: i + 1 for i, w in enumerate(sorted(words | {"red"}))}

    class Tokenizer:
        unk_token_id = 0

        def __call__(self, items: list[str], add_special_tokens: bool) -> dict[str, object]:
            return {"input_ids": [[vocabulary.get(t, 0) for t in x.split()] for x in items]}

    class StandIn:
        tokenizer = Tokenizer()

        def __init__(self, path: str, device: str) -> None:
            assert device == "cpu"

        def get_embedding_dimension(self) -> int:
            return 8

        def encode(self, items: list[str], **_: object) -> np.ndarray:
            rows = [np.random.default_rng(sum(map(ord, x))).normal(size=8) for x in items]
            v = np.array(rows, dtype=np.float32)
            return v / np.linalg.norm(v, axis=1, keepdims=True)

    # Fitting imports scikit-learn and scipy, which look torch up in sys.modules: import them
    # before the stand-in goes in (this test may be the first to fit, as in `-m "not slow"`).
    pytest.importorskip("sklearn.kernel_ridge")
    fake_torch = types.SimpleNamespace(set_num_threads=threads.append)
    fake_st = types.SimpleNamespace(SentenceTransformer=StandIn)
    (tmp_path / "config.json").write_text("{}")
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake_st)
    from huescues.language import SentenceTransformerEncoder

    encoder = SentenceTransformerEncoder(tmp_path)
    assert threads == [1]
    vectors, known = encoder.encode(["red", "qqq"])
    assert vectors.shape == (2, 8) and known.tolist() == [True, False]
    assert not vectors[1].any()
    assert encoder.fingerprint.startswith("st-") and "-8-" in encoder.fingerprint
    fitted = EmbeddingModel.fit(
        model.training_names[:200], model.training_lab[:200], encoder=encoder
    )
    assert fitted.predict(model.training_names[0]).lab.shape == (3,)
    buffer = io.BytesIO()
    fitted.save(buffer)
    buffer.seek(0)
    with pytest.raises(ValueError, match="fitted on vectors"):
        EmbeddingModel.load(buffer)
