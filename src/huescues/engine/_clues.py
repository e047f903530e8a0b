"""The clue checker: what the library can check of a clue (R18-R22; R23 is left to the players).

A clue is text split into words on white space. :func:`validate_clue` returns the words or raises
:class:`IllegalClue` naming the rule and the word at fault. Checks run in a fixed order: the word
count (R18 with R9 or R11), then word by word positions (R20), colour names (R19) and, in the
second clue, relative words (R21), and last repeats (R22). Verdicts on single words are cached, so
checking a word seen before costs about a microsecond.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from importlib import resources
from typing import NamedTuple

from ._errors import IllegalClue
from ._languages import DEFAULT_LANGUAGE, LanguagePack, language_pack
from ._rules import Rules

__all__ = [
    "COLOUR_ENDINGS",
    "MAX_CLUE_LENGTH",
    "NUMBER_WORDS",
    "POSITION_WORDS",
    "colour_term_forms",
    "common_words",
    "hidden_character",
    "named_colours",
    "normalise_clue",
    "validate_clue",
]

_ENGLISH = language_pack(DEFAULT_LANGUAGE)
#: R19 (b): the endings that turn an English colour term into a refused form (``reds``).
COLOUR_ENDINGS: tuple[str, ...] = _ENGLISH.colour_endings
#: R20: English words that name places on the board, with their plurals in -s and -es.
POSITION_WORDS: frozenset[str] = _ENGLISH.position_words
#: R20: English number words up to thirty (``twentyone`` written solid too; ``twenty-one`` is
#: caught part by part) and their plurals (``tens``, ``twenties``).
NUMBER_WORDS: frozenset[str] = _ENGLISH.number_words

#: R18: the longest clue, in characters. The colour-term models read texts up to
#: ``huescues.language.MAX_TEXT_LENGTH`` (a test keeps this limit no larger), so every clue the
#: rules let through can be read by the players.
MAX_CLUE_LENGTH = 200

# R18: white space that separates words; any other character that does not print is refused.
_SEPARATOR_CONTROLS = frozenset("\t\n\r")
# Letters that print as nothing (Hangul fillers, the Braille blank): invisible though printable.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")

_CATEGORY_WORDS = {
    "Cc": "a control",
    "Cf": "a format",
    "Cs": "a surrogate",
    "Co": "a private-use",
    "Cn": "an unassigned",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}

# Punctuation and symbols at either end of a word, and separators inside it.
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
_SEPARATORS = re.compile(r"[\W_]+")
# A board coordinate: a letter then digits (F12) or digits then a letter (12F).
_COORDINATE = re.compile(r"[^\W\d_]\d+|\d+[^\W\d_]")
# R20: a single Latin letter could name a row; a single character of another script (赤) cannot.
_ROW_LIKE_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")


def normalise_clue(text: str) -> str:
    """The clue as R22 compares it: lowercase, white space collapsed to single spaces."""
    return _NORMS[text]


class _Normalised(dict[str, str]):
    """Each text's normal form, made once: the engine compares every new clue with all the
    game's earlier ones (R22), the same few thousand texts over and over, and looks them up
    here directly (a dict's lookup is a third of a cached function's call)."""

    def __missing__(self, text: str) -> str:
        if not isinstance(text, str):
            raise TypeError(f"a clue is text (str), not {type(text).__name__}")
        if len(self) >= 1 << 16:
            self.clear()
        norm = self[text] = " ".join(text.lower().split())
        return norm


_NORMS = _Normalised()


def common_words(language: str = DEFAULT_LANGUAGE) -> frozenset[str]:
    """The common words of R19 (c) in a language, read once from its pack.

    English: SCOWL sizes 10-35, lowercase a-z, 3+ letters (``scripts/make_word_list.py``);
    Spanish: Debian's wspanish, accents dropped (``scripts/make_word_list_es.py``).
    """
    return language_pack(language).common_words()


def _ending_forms(term: str, pack: LanguagePack) -> set[str]:
    """R19 (b): ``term`` (folded) with every ending, spelt the pack's ways (English: doubled or
    dropped letters; Spanish: gender and number).

    Slightly generous: a form the language would not write (``blueer``) is refused too, which
    costs nothing as no clue needs it.
    """
    forms = {term + e for e in pack.colour_endings}
    for respelling in pack.respellings:
        forms.update(respelling.forms(term))
    forms.discard(term)
    return forms


@functools.cache
def _colour_forms(banned: tuple[str, ...], language: str) -> dict[str, tuple[str, str]]:
    """Every refused form of R19 (a) and (b), folded, mapped to its colour term (as the list
    spells it) and how it comes from the term: ``"term"``, ``"ending"`` or ``"form"`` (a
    derived word of the pack, or one with an ending)."""
    pack = language_pack(language)
    forms: dict[str, tuple[str, str]] = {}
    for term in banned:
        for form in sorted(_ending_forms(pack.fold(term), pack)):
            forms.setdefault(form, (term, "ending"))
    for term in banned:
        for word in pack.derived(term):
            for form in (word, *sorted(_ending_forms(word, pack))):
                forms.setdefault(form, (term, "form"))
    for term in banned:
        forms[pack.fold(term)] = (term, "term")  # (a) beats (b) when a term is another's form
    return forms


@functools.cache
def colour_term_forms(banned: tuple[str, ...], language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Every refused form of R19 (a) and (b) for a banned list, mapped to its colour term.

    Computed once per banned list and language. A term maps to itself; forms with an ending
    or derived from a term (``rojizo``) map to the term they come from (the first in the list
    when two terms share a form). Keys are folded as the language compares words.
    """
    return {form: term for form, (term, _) in _colour_forms(banned, language).items()}


@functools.cache
def _stems(banned: tuple[str, ...], language: str) -> tuple[tuple[str, str], ...]:
    """Each banned term and the term as the language compares it (R19 (c))."""
    pack = language_pack(language)
    return tuple((term, pack.fold(term)) for term in banned)


@functools.cache
def _folded(words: tuple[str, ...], language: str) -> frozenset[str]:
    pack = language_pack(language)
    return frozenset(pack.fold(w) for w in words)


def _candidates(
    word: str, pack: LanguagePack, *, keep_letters: bool = False
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The word lowercased (and folded, if the language folds accents; with ``ñ`` kept if
    ``keep_letters``) and stripped of edge punctuation, and the strings to check in it.

    Each candidate comes with how the message points at it: the whole word, each part split on
    hyphens (and any other punctuation inside the word), and the parts joined.
    """
    fold = pack.fold_keeping_letters if keep_letters else pack.fold
    whole = _EDGES.sub("", fold(unicodedata.normalize("NFKC", word)))
    parts = [p for p in _SEPARATORS.split(whole) if p]
    found: list[tuple[str, str]] = [(whole, "")]
    seen = {whole}
    for part in parts:
        if part not in seen:
            seen.add(part)
            found.append((part, f" (part {part!r})"))
    joined = "".join(parts)
    if joined not in seen:
        found.append((joined, f" (read as {joined!r})"))
    return whole, tuple(found)


@functools.lru_cache(maxsize=1 << 16)
def _word_fault(
    word: str, banned: tuple[str, ...], relative: tuple[str, ...], language: str
) -> tuple[str, str] | None:
    """The first rule ``word`` breaks, as ``(rule, reason)``, or ``None`` (R19-R21).

    ``relative`` is the R21 list in a second clue and ``()`` in a first one; ``language`` the
    code of the pack whose words are checked.
    """
    pack = language_pack(language)
    shown = repr(word)
    whole, candidates = _candidates(word, pack)

    # R20: positions. Coordinates and numbers first, then single letters and words.
    for cand, where in candidates:
        if _COORDINATE.fullmatch(cand):
            return "R20", f"{shown}{where} is a board coordinate"
    if any(ch.isnumeric() for ch in word):
        return "R20", f"{shown} contains a number"
    if len(whole) == 1 and whole in _ROW_LIKE_LETTERS:
        return "R20", f"{shown} is a single letter, and the letters A-P name the board's rows"
    # (Words are compared with ñ kept: uña is not una. A colour term has no ñ, so R19 folds it.)
    for cand, where in _candidates(word, pack, keep_letters=True)[1]:
        if cand in pack.number_words:
            return "R20", f"{shown}{where} is a number word"
        if cand in pack.position_words:
            return "R20", f"{shown}{where} names a place on the board"

    # R19: colour names, (a) and (b) for every candidate, then (d) and (c).
    forms = _colour_forms(banned, language)
    for cand, where in candidates:
        found = forms.get(cand)
        if found is None:
            continue
        term, kind = found
        if kind == "term":
            return "R19", f"{shown}{where} is the colour term {term!r}"
        if kind == "ending":
            return "R19", f"{shown}{where} is the colour term {term!r} with an ending"
        return "R19", f"{shown}{where} is a form of the colour term {term!r}"
    # (d): a compound that ends in a form of a term (pelirrojo: pel + i + rrojo).
    for compound in pack.compounds:
        for cand, where in candidates:
            for stem, rest in compound.colour_parts(cand):
                found = forms.get(rest)
                if found is not None:
                    written = cand[len(stem) + len(compound.joiner) :]
                    return (
                        "R19",
                        f"{shown}{where} is a compound that ends in the colour term "
                        f"{found[0]!r} ({stem!r} + {compound.joiner!r} + {written!r})",
                    )
    common = pack.common_words()
    stems = _stems(banned, language)
    for cand, where in candidates:
        for term, stem in stems:
            rest = cand[len(stem) :]
            if len(rest) >= pack.min_rest and cand.startswith(stem) and rest in common:
                return (
                    "R19",
                    f"{shown}{where} starts with the colour term {term!r} "
                    f"followed by the word {rest!r}",
                )

    # R21: relative words, second clue only.
    folded_relative = _folded(relative, language)
    for cand, where in candidates:
        if cand in folded_relative:
            return "R21", f"{shown}{where} is a relative word, not allowed in the second clue"
    return None


def _hidden_character(text: str) -> str | None:
    """The first character of ``text`` a reader cannot see (R18), or ``None``.

    Control, format, private-use, unassigned and line or paragraph separator characters are
    refused (a zero-width space, ``\\x00``, a bell); spaces, tabs and newlines separate words.
    """
    for ch in text:
        if ch in _SEPARATOR_CONTROLS or unicodedata.category(ch) == "Zs":
            continue
        if not ch.isprintable() or ch in _INVISIBLE:
            return ch
    return None


def hidden_character(text: str) -> str | None:
    """What R18 refuses in a clue's characters, said of any text a player shows others (a
    seat's name too): ``None`` if every character prints, else the first that does not,
    described (``U+202E RIGHT-TO-LEFT OVERRIDE, a format character``). Controls (``\\x00``,
    an escape), format characters (bidirectional overrides, zero-width spaces), lone
    surrogates, private-use and unassigned characters are refused; spaces, tabs and newlines
    separate words."""
    ch = _hidden_character(text)
    return None if ch is None else _describe_character(ch)


def _describe_character(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE, a format character``: the code point first, as names may lack."""
    name = unicodedata.name(ch, "")
    what = _CATEGORY_WORDS.get(unicodedata.category(ch), "an invisible")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "") + f", {what} character"


@functools.cache
def _standard_rules(language: str) -> Rules:
    return Rules.standard(4, language=language)


def _words(n: int) -> str:
    return f"{n} word" if n == 1 else f"{n} words"


def validate_clue(
    text: str,
    *,
    second: bool = False,
    rules: Rules | None = None,
    previous: Iterable[str] = (),
    language: str | None = None,
) -> tuple[str, ...]:
    """The clue's words (split on white space, as given) if it passes R18-R22, else IllegalClue.

    ``second`` selects the second clue's rules: at most ``rules.second_clue_words`` words (R11)
    and no relative words (R21); otherwise the clue has exactly ``rules.first_clue_words`` words
    (R9). ``previous`` holds the clues already given in the game (R22, when
    ``rules.refuse_repeated_clues``). ``rules=None`` means the standard rules. ``language``
    (``"es"``) is short for the standard rules in that language (R19-R21 in its words); with
    ``rules`` of another language it is a ValueError.
    """
    # (The exact types first: players check hundreds of clues a game through here.)
    if type(text) is not str and not isinstance(text, str):
        raise TypeError(f"a clue is text (str), not {type(text).__name__}")
    if type(previous) is not tuple and isinstance(previous, str):
        # its letters would be taken for the earlier clues (R22)
        raise TypeError("previous is the clues already given, a sequence of texts, not one text")
    if rules is None:
        r = _standard_rules(DEFAULT_LANGUAGE if language is None else language)
    elif type(rules) is not Rules and not isinstance(rules, Rules):
        raise TypeError(f"validate_clue's rules are a Rules object, not {rules!r:.80}")
    elif language is not None and language != rules.language:
        raise ValueError(
            f"validate_clue(language={language!r}) refused: the rules given are in "
            f"{rules.language!r}; give one or the other (R19-R21)"
        )
    else:
        r = rules
    return check_clue(text, second, r, previous)


def check_clue(text: str, second: bool, r: Rules, previous: Iterable[str]) -> tuple[str, ...]:
    """:func:`validate_clue` with its arguments checked: what the engine calls for every clue."""
    if type(text) is str:
        # The verdict on the text alone (R18-R21) depends only on the rules: cached.
        cached = _VERDICTS.get(id(r))
        if cached is None or cached[0] is not r:
            cached = _verdicts_of(r)
        verdicts = cached[1]
        key = (text, second)
        verdict = verdicts.get(key)
        if verdict is None:
            if len(verdicts) >= _MAX_VERDICTS:
                verdicts.clear()
            verdict = verdicts[key] = _text_verdict(text, second, r)
    else:
        verdict = _text_verdict(text, second, r)  # a str subclass is not cached
    if type(verdict) is _Fault:
        raise IllegalClue(verdict.message, rule=verdict.rule, clue=text, word=verdict.word)
    words: tuple[str, ...] = verdict  # type: ignore[assignment]

    if r.refuse_repeated_clues and previous:
        earlier_clues = previous if type(previous) is tuple else tuple(previous)
        norm = _NORMS[text]
        # Each earlier clue's normal form looked up by its text: a game's clues are a few of
        # many, so a set of them per game would be made anew for nearly every clue.
        if norm not in map(_NORMS.__getitem__, earlier_clues):
            return words
        for earlier in earlier_clues:
            if normalise_clue(earlier) == norm:
                raise IllegalClue(
                    f"clue {text!r} refused: the clue {earlier!r} was already given in this "
                    "game (R22)",
                    rule="R22",
                    clue=text,
                )
    return words


class _Fault(NamedTuple):
    """Why a text is not a clue: the arguments of its :class:`IllegalClue`."""

    message: str
    rule: str
    word: str | None


#: Verdicts by ``id(rules)``: the rules object (kept, so the id stays its own) and a dict from
#: ``(text, second)`` to the clue's words or its fault. Agents and the engine check every clue.
_VERDICTS: dict[int, tuple[Rules, dict[tuple[str, bool], tuple[str, ...] | _Fault]]] = {}
#: The same dicts by equal rules, so that equal rules objects share their verdicts.
_VERDICTS_BY_RULES: dict[Rules, dict[tuple[str, bool], tuple[str, ...] | _Fault]] = {}
_MAX_VERDICTS = 1 << 16


def _verdicts_of(
    r: Rules,
) -> tuple[Rules, dict[tuple[str, bool], tuple[str, ...] | _Fault]]:
    """The entry of :data:`_VERDICTS` for ``r``, made (or shared with equal rules) now."""
    if len(_VERDICTS) >= 64:
        _VERDICTS.clear()
    if len(_VERDICTS_BY_RULES) >= 64:
        _VERDICTS_BY_RULES.clear()
    verdicts = _VERDICTS_BY_RULES.setdefault(r, {})
    entry = _VERDICTS[id(r)] = (r, verdicts)
    return entry


def _text_verdict(text: str, second: bool, r: Rules) -> tuple[str, ...] | _Fault:
    """The words of ``text`` if R18-R21 let it through under ``r``, else the fault."""
    if len(text) > MAX_CLUE_LENGTH:
        return _Fault(
            f"clue {text[:20]!r}... refused: it has {len(text)} characters, and a clue has at "
            f"most {MAX_CLUE_LENGTH} (R18)",
            "R18",
            None,
        )
    # Printable ASCII hides nothing (R18): skip the character-by-character look-up.
    hidden = None if text.isascii() and text.isprintable() else _hidden_character(text)
    if hidden is not None:
        return _Fault(
            f"clue {text!r} refused: it contains {_describe_character(hidden)}, which does not "
            "print; a clue is printable text (R18)",
            "R18",
            None,
        )
    words = tuple(text.split())
    n = len(words)
    if n == 0:
        return _Fault(
            f"clue {text!r} refused: a clue has at least one word; to give no second clue, "
            "pass instead (R18)",
            "R18",
            None,
        )
    if second:
        if n > r.second_clue_words:
            return _Fault(
                f"clue {text!r} refused: the second clue has at most "
                f"{_words(r.second_clue_words)}, this one has {n} (R18, R11)",
                "R18",
                None,
            )
    elif n != r.first_clue_words:
        return _Fault(
            f"clue {text!r} refused: the first clue has exactly {_words(r.first_clue_words)}, "
            f"this one has {n} (R18, R9)",
            "R18",
            None,
        )
    banned = r.banned_terms
    relative = r.relative_words if second else ()
    for word in words:
        fault = _word_fault(word, banned, relative, r.language)
        if fault is None and r.refuse_named_colours:
            fault = _named_colour_fault(word, r.language)
        if fault is not None:
            rule, reason = fault
            return _Fault(f"clue {text!r} refused: {reason} ({rule})", rule, word)
    return words


@functools.cache
@functools.cache
def named_colours(language: str = DEFAULT_LANGUAGE) -> frozenset[str]:
    """The colour names beyond the basic terms that the house rule
    :attr:`Rules.refuse_named_colours` refuses in ``language`` (R19, house rule): words whose
    common meaning is a colour and nothing else, as the check compares them (lowercase, and
    without accents where the language folds them). English: ``data/named_colours.txt``, which
    says how the list was made; another language: its pack's ``named_colours.txt``, or the
    English list where its pack has none."""
    pack = language_pack(language)
    # Read as the packs are (_languages): importing the engine loads no data package.
    data = resources.files("huescues").joinpath("data")
    own = data.joinpath("languages").joinpath(pack.code).joinpath("named_colours.txt")
    path = own if own.is_file() else data.joinpath("named_colours.txt")
    text = path.read_text("utf-8")
    return frozenset(
        pack.fold(line.strip())
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )


def _named_colour_fault(word: str, language: str) -> tuple[str, str] | None:
    """R19's house rule: ``word``, or a part of it split on hyphens, is a named colour. Whole
    words only: endings and compounds pass, as the list holds no word with another meaning to
    guard (``indigos`` is no clue anyone needs refused)."""
    names = named_colours(language)
    _, candidates = _candidates(word, language_pack(language))
    for cand, where in candidates:
        if cand in names:
            return "R19", (
                f"{word!r}{where} is the colour name {cand!r}, which the house rule on "
                "named colours refuses"
            )
    return None
