"""A built-in vocabulary of everyday, evocative clue words (R9, R11, R18-R22).

The words are data of each language's pack (``data/languages/CODE/random_words.txt``). Every
word passes the standard clue rules as a first clue, and any two distinct ones pass together
as a second clue. The random agent draws from it; an agent playing a stricter variant (a longer
banned list, R19) should still check its clue with :func:`huescues.validate_clue`.
"""

from __future__ import annotations

from importlib import resources

from huescues.engine import available_languages

__all__ = ["RANDOM_CLUE_WORDS", "RANDOM_CLUE_WORDS_ES", "random_clue_words"]


def _pack_words(language: str) -> tuple[str, ...]:
    """The random words of ``language``'s pack (``data/languages/CODE/random_words.txt``),
    sorted, or () where the pack has none."""
    path = resources.files("huescues").joinpath("data", "languages", language, "random_words.txt")
    if not path.is_file():
        return ()
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(sorted({w.strip() for w in lines if w.strip() and not w.startswith("#")}))


#: Single words that call up a colour without naming a basic colour term (R19), a place on the
#: board or a number (R20), or a comparison (R21), from the English pack. Sorted, no duplicates.
RANDOM_CLUE_WORDS: tuple[str, ...] = _pack_words("en")

#: The same for Spanish clues (R19-R21 in Spanish, ``Rules(language="es")``), from the Spanish
#: pack: the English list's words in Spanish where Spanish has one, less those the Spanish
#: rules refuse (``rosa``, ``violeta``, ``café``, ``naranja``).
RANDOM_CLUE_WORDS_ES: tuple[str, ...] = _pack_words("es")


#: Every pack's random words, read when this module is imported (a small file a language).
_BY_LANGUAGE = {code: _pack_words(code) for code in available_languages()}


def random_clue_words(language: str = "en") -> tuple[str, ...]:
    """The random agent's words for clues in ``language``: its pack's list, or the English one
    in a language whose pack has none."""
    return _BY_LANGUAGE.get(language) or RANDOM_CLUE_WORDS
