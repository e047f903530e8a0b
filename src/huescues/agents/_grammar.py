"""How two clue words go together in a language whose adjectives agree with their nouns: a noun
and then its adjective, in the noun's gender (``bosque profundo``, ``agua turbia``). A language
pack's ``grammar`` file names each vocabulary word's kind (``data/languages/CODE/``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

__all__ = ["Grammar", "read_grammar"]

_HEAD = ["word", "kind", "gender", "masculine", "feminine"]
_KINDS = frozenset({"noun", "adjective", "name", "other"})


@dataclass(frozen=True, slots=True)
class Grammar:
    """The clue words' grammar: each noun's gender (``"m"``, ``"f"``, ``"mf"``) and each
    adjective's masculine and feminine forms."""

    nouns: tuple[tuple[str, str], ...]
    adjectives: tuple[tuple[str, str, str], ...]
    _gender: dict[str, str] = field(init=False, compare=False, repr=False)
    _forms: dict[str, tuple[str, str]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_gender", dict(self.nouns))
        object.__setattr__(self, "_forms", {w: (m, f) for w, m, f in self.adjectives})

    def pairs(self, words: list[str]) -> list[str]:
        """Every two of ``words`` (best first) as the language says them together, each pair
        in the order of its words (:meth:`pair`, then the other way round)."""
        out: list[str] = []
        for i, a in enumerate(words):
            for b in words[i + 1 :]:
                out += [p for p in (self.pair(a, b), self.pair(b, a)) if p is not None]
        return out

    def pair(self, first: str, second: str) -> str | None:
        """``first second`` as the language says them together: a noun, then an adjective in
        its gender (``agua`` and ``turbio``: ``agua turbia``); ``None`` for any other two words
        (two nouns, an adjective first), which the language does not put side by side."""
        gender = self._gender.get(first)
        forms = self._forms.get(second)
        if gender is None or forms is None:
            return None
        return f"{first} {forms[1] if gender == 'f' else forms[0]}"


def read_grammar(path: str) -> Grammar:
    """The grammar file ``path`` of the package's data folder (``#`` lines, then a header
    ``word kind gender masculine feminine``); a bad line is a ValueError that names it."""
    text = resources.files("huescues").joinpath("data", *path.split("/")).read_text("utf-8")
    return grammar_of(text, path)


def grammar_of(text: str, where: str) -> Grammar:
    """:func:`read_grammar` of a file's ``text``; ``where`` names it in an error."""
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    if not rows or rows[0] != _HEAD:
        raise ValueError(f"{where}: the header is {' '.join(_HEAD)}, not {rows[:1]}")
    nouns: list[tuple[str, str]] = []
    adjectives: list[tuple[str, str, str]] = []
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != len(_HEAD) or row[1] not in _KINDS:
            raise ValueError(f"{where}: entry {n} {row!r} is not word, kind, gender and two forms")
        word, kind, gender, masculine, feminine = row
        if kind == "noun":
            if gender not in ("m", "f", "mf"):
                raise ValueError(f"{where}: the noun {word!r} has gender {gender!r}, not m, f, mf")
            nouns.append((word, gender))
        elif kind == "adjective":
            if not (masculine and feminine):
                raise ValueError(f"{where}: the adjective {word!r} lacks its two forms")
            adjectives.append((word, masculine, feminine))
    return Grammar(tuple(nouns), tuple(adjectives))
