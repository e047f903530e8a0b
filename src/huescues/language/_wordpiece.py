"""A numpy-only encoder for static word vectors: BERT's tokeniser (WordPiece) and model2vec's
mean pooling, reproduced so that the shipped vectors need neither torch nor ``tokenizers``.

It follows the Hugging Face ``tokenizers`` pipeline of the distilled model step by step:

1. special tokens (``[PAD]``, ``[UNK]``) are cut out of the raw text first, as written;
2. ``BertNormalizer``: control characters dropped, whitespace made a space, spaces put around
   CJK ideographs, accents stripped (NFD, then non-spacing marks dropped), lowercase;
3. ``BertPreTokenizer``: split on whitespace, and each punctuation mark is a word of its own;
4. WordPiece: greedy longest match, later pieces prefixed with ``##``; a word with a piece
   missing from the vocabulary, or longer than 100 characters, is ``[UNK]``;
5. model2vec: at most ``max_length`` tokens, ``[UNK]`` dropped, the mean of the token vectors
   (float16, as model2vec computes it) scaled to unit length.

``scripts/build_embeddings.py`` checks it against model2vec's own ``encode``.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["WordPieceEncoder", "basic_tokenize", "normalise_text"]

#: Unicode's White_Space characters (what Rust's ``char::is_whitespace`` accepts).
_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
#: Code point ranges that BERT treats as CJK ideographs (each becomes a word of its own).
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _is_control(c: str) -> bool:
    return c not in "\t\n\r" and unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs")


def _is_cjk(c: str) -> bool:
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


def _is_punctuation(c: str) -> bool:
    return c in _ASCII_PUNCTUATION or unicodedata.category(c).startswith("P")


def normalise_text(
    text: str,
    *,
    clean_text: bool = True,
    handle_chinese_chars: bool = True,
    strip_accents: bool = True,
    lowercase: bool = True,
) -> str:
    """``text`` as BERT's normaliser leaves it (step 2 above)."""
    if text.isascii() and text.isprintable():
        # No control characters, tabs or newlines, CJK or accents: only the case can change.
        return text.lower() if lowercase else text
    if clean_text:
        text = "".join(
            " " if c in _WHITESPACE else c
            for c in text
            if c not in "\x00\ufffd" and not _is_control(c)
        )
    if handle_chinese_chars:
        text = "".join(f" {c} " if _is_cjk(c) else c for c in text)
    if strip_accents:
        text = "".join(
            c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"
        )
    if lowercase:
        # Character by character, as the Rust normaliser does (no final-sigma rule).
        text = "".join(c.lower() for c in text)
    return text


def basic_tokenize(text: str) -> list[str]:
    """Split normalised text into words: on whitespace, and around each punctuation mark."""
    if text.isascii() and text.replace(" ", "").isalnum():
        # Letters, digits and spaces only (most texts): the same words, split at the spaces.
        return [w for w in text.split(" ") if w]
    words: list[str] = []
    current: list[str] = []
    for c in text:
        if c in _WHITESPACE:
            if current:
                words.append("".join(current))
                current = []
        elif _is_punctuation(c):
            if current:
                words.append("".join(current))
                current = []
            words.append(c)
        else:
            current.append(c)
    if current:
        words.append("".join(current))
    return words


@dataclass(frozen=True, slots=True)
class _Config:
    unk_token: str = "[UNK]"
    prefix: str = "##"
    max_input_chars_per_word: int = 100
    #: Tokens cut out of the raw text before normalising (Hugging Face "added tokens").
    added_tokens: tuple[str, ...] = ("[PAD]", "[UNK]")
    #: model2vec truncation: the text is cut to ``max_length * median_token_length``
    #: characters, then to ``max_length`` tokens.
    max_length: int = 512
    median_token_length: int = 6
    normalize: bool = True
    clean_text: bool = True
    handle_chinese_chars: bool = True
    strip_accents: bool = True
    lowercase: bool = True


class WordPieceEncoder:
    """Texts to unit-length static vectors (float32), with no dependency beyond numpy.

    ``vocab`` is the WordPiece vocabulary in id order; ``vectors`` its float16 token vectors,
    one row per token.
    """

    def __init__(
        self,
        vocab: Sequence[str],
        vectors: NDArray[np.float16],
        *,
        unk_token: str = "[UNK]",
        prefix: str = "##",
        max_input_chars_per_word: int = 100,
        added_tokens: Sequence[str] = ("[PAD]", "[UNK]"),
        max_length: int = 512,
        median_token_length: int = 6,
        normalize: bool = True,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        strip_accents: bool = True,
        lowercase: bool = True,
    ) -> None:
        vecs = np.asarray(vectors)
        if vecs.ndim != 2 or vecs.shape[0] != len(vocab):
            raise ValueError(f"{len(vocab)} tokens for vectors of shape {vecs.shape}")
        if unk_token not in vocab:
            raise ValueError(f"the vocabulary lacks its unknown token {unk_token!r}")
        self._vocab: dict[str, int] = {t: i for i, t in enumerate(vocab)}
        self._tokens = tuple(vocab)
        self._vectors = np.ascontiguousarray(vecs, dtype=np.float16)
        self._vectors.flags.writeable = False
        self._config = _Config(
            unk_token,
            prefix,
            max_input_chars_per_word,
            tuple(added_tokens),
            max_length,
            median_token_length,
            normalize,
            clean_text,
            handle_chinese_chars,
            strip_accents,
            lowercase,
        )
        self._unk_id = self._vocab[unk_token]
        self._longest = max(len(t) for t in vocab)
        self._fingerprint = ""
        # Token ids of texts already cut, oldest first (players read the same texts often).
        self._ids_kept: dict[str, tuple[int, ...]] = {}
        # Word pieces of words already cut (new texts are mostly known words in new pairs).
        self._pieces_kept: dict[str, tuple[int, ...]] = {}

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path | IO[bytes]) -> WordPieceEncoder:
        """Read an encoder written by :meth:`save` (npz, no pickle)."""
        with np.load(path, allow_pickle=False) as data:
            vocab = [str(t) for t in data["vocab"]]
            vectors = np.asarray(data["vectors"], dtype=np.float16)
            config = json.loads(str(data["config"]))
        return cls(vocab, vectors, **_encoder_kwargs(config))

    def save(self, path: str | Path | IO[bytes], *, metadata: dict[str, Any] | None = None) -> None:
        """Write the vocabulary, vectors and settings as a compressed npz (no pickle).

        ``metadata`` (versions, dates, sources) is stored beside the settings as JSON.
        """
        c = self._config
        config: dict[str, Any] = {
            "unk_token": c.unk_token,
            "prefix": c.prefix,
            "max_input_chars_per_word": c.max_input_chars_per_word,
            "added_tokens": list(c.added_tokens),
            "max_length": c.max_length,
            "median_token_length": c.median_token_length,
            "normalize": c.normalize,
            "clean_text": c.clean_text,
            "handle_chinese_chars": c.handle_chinese_chars,
            "strip_accents": c.strip_accents,
            "lowercase": c.lowercase,
        }
        np.savez_compressed(
            path,
            vocab=np.array(self._tokens, dtype=np.str_),
            vectors=self._vectors,
            config=np.array(json.dumps(config)),
            metadata=np.array(json.dumps(metadata or {})),
        )

    # -- properties ------------------------------------------------------------------------

    @property
    def dim(self) -> int:
        """Length of the vectors."""
        return int(self._vectors.shape[1])

    @property
    def vocab(self) -> tuple[str, ...]:
        """The WordPiece vocabulary, in id order."""
        return self._tokens

    @property
    def vectors(self) -> NDArray[np.float16]:
        """The token vectors (read-only), one row per token."""
        return self._vectors

    @property
    def fingerprint(self) -> str:
        """sha256 (first 16 hex digits) of the vocabulary and the float16 vectors: a fitted
        regression is only ever read with the vectors it was fitted on."""
        if not self._fingerprint:
            h = hashlib.sha256()
            h.update("\n".join(self._tokens).encode("utf-8"))
            h.update(self._vectors.tobytes())
            self._fingerprint = h.hexdigest()[:16]
        return self._fingerprint

    @property
    def unk_token(self) -> str:
        """The token that stands for a word the vocabulary cannot spell."""
        return self._config.unk_token

    # -- tokenising ------------------------------------------------------------------------

    def tokenize(self, text: str) -> list[str]:
        """The word pieces of ``text``, ``[UNK]`` included (as the tokenizer gives them)."""
        return [self._tokens[i] for i in self._ids_with_unk(text)]

    def token_ids(self, text: str) -> list[int]:
        """The ids model2vec pools for ``text``: truncated, ``[UNK]`` dropped."""
        kept = self._ids_kept.get(text)
        if kept is None:
            ids = self._ids_with_unk(text)[: self._config.max_length]
            kept = tuple(i for i in ids if i != self._unk_id)
            if len(self._ids_kept) >= _IDS_KEPT:
                self._ids_kept.pop(next(iter(self._ids_kept)), None)
            self._ids_kept[text] = kept
        return list(kept)

    def _ids_with_unk(self, text: str) -> list[int]:
        c = self._config
        text = text[: c.max_length * c.median_token_length]
        ids: list[int] = []
        for segment, special in _split_added(text, c.added_tokens):
            if special:
                ids.append(self._vocab.get(segment, self._unk_id))
                continue
            normal = normalise_text(
                segment,
                clean_text=c.clean_text,
                handle_chinese_chars=c.handle_chinese_chars,
                strip_accents=c.strip_accents,
                lowercase=c.lowercase,
            )
            for word in basic_tokenize(normal):
                pieces = self._pieces_kept.get(word)
                if pieces is None:
                    pieces = tuple(self._wordpiece(word))
                    if len(self._pieces_kept) >= _IDS_KEPT:
                        self._pieces_kept.pop(next(iter(self._pieces_kept)), None)
                    self._pieces_kept[word] = pieces
                ids.extend(pieces)
        return ids

    def _wordpiece(self, word: str) -> list[int]:
        c = self._config
        if len(word) > c.max_input_chars_per_word:
            return [self._unk_id]
        pieces: list[int] = []
        start = 0
        while start < len(word):
            prefix = c.prefix if start > 0 else ""
            end = min(len(word), start + self._longest)
            found = -1
            while end > start:
                piece = prefix + word[start:end]
                idx = self._vocab.get(piece)
                if idx is not None:
                    found = idx
                    break
                end -= 1
            if found < 0:
                return [self._unk_id]
            pieces.append(found)
            start = end
        return pieces

    # -- encoding --------------------------------------------------------------------------

    def encode(self, texts: Iterable[str]) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
        """Vectors of ``texts``, shape ``(n, dim)`` float32, and whether each had a known token.

        A text with no known token gets the zero vector (and ``False``), as in model2vec.
        """
        ids = [self.token_ids(t) for t in texts]
        return self.pool(ids), np.array([bool(i) for i in ids], dtype=np.bool_)

    def pool(self, ids: Sequence[Sequence[int]]) -> NDArray[np.float32]:
        """model2vec's pooling of token ids: float16 mean, then unit length; shape (n, dim)."""
        out = np.zeros((len(ids), self.dim), dtype=np.float16)
        buckets: dict[int, list[int]] = defaultdict(list)
        for row, id_list in enumerate(ids):
            if id_list:
                buckets[len(id_list)].append(row)
        for rows in buckets.values():
            matrix = np.array([ids[r] for r in rows], dtype=np.int64)
            out[rows] = self._vectors[matrix].mean(axis=1)
        if self._config.normalize:
            out32 = out.astype(np.float32)
            norm = np.linalg.norm(out32, axis=1, keepdims=True) + np.float32(1e-32)
            out = (out32 / norm).astype(np.float16)
        return out.astype(np.float32)


#: How many texts' token ids an encoder keeps.
_IDS_KEPT = 1 << 14


def _split_added(text: str, added: Sequence[str]) -> list[tuple[str, bool]]:
    """``text`` cut around literal occurrences of the added tokens (leftmost, longest first)."""
    if not added or not any(t in text for t in added):
        # Nothing to cut out (most texts): what the loop below gives, quicker.
        return [(text, False)] if text or not added else []
    out: list[tuple[str, bool]] = []
    i = last = 0
    ordered = sorted(added, key=len, reverse=True)
    while i < len(text):
        hit = next((t for t in ordered if text.startswith(t, i)), None)
        if hit is None:
            i += 1
            continue
        if i > last:
            out.append((text[last:i], False))
        out.append((hit, True))
        i += len(hit)
        last = i
    if last < len(text):
        out.append((text[last:], False))
    return out


def _encoder_kwargs(config: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "unk_token",
        "prefix",
        "max_input_chars_per_word",
        "added_tokens",
        "max_length",
        "median_token_length",
        "normalize",
        "clean_text",
        "handle_chinese_chars",
        "strip_accents",
        "lowercase",
    )
    return {
        k: (tuple(config[k]) if k == "added_tokens" else config[k]) for k in keys if k in config
    }
