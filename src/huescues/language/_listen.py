"""Words in context: a listener that reads a description against the colours on offer.

A colour-term model reads words on their own (``p(colour | text)``); in a game the same words
are said about a few colours at once, and part of what they mean is relative to those colours:
"the darker blue" is the darker of the blues on offer, whatever its absolute lightness, and "not
green" says where the colour is not. :func:`listen` reads such descriptions with a few small
rules on top of any :class:`ColourTermModel` (see ``docs/language.md``, "Words in context"):

1. **Plain words** alone are read by the model, normalised over the colours on offer (the
   literal listener). Everywhere else (with a comparative, a negation, or beside another part)
   what counts is whether the words *apply* to a colour: how surely a speaker would call it by
   them rather than by one of the eleven basic colour terms, from the model's readings of both
   (a light blue is far less likely than a dark one under "blue", yet plainly blue), relative
   to the colour on offer they suit best (the speaker presupposes they suit one of them);
   plain words beside another part count the square root of their literal fit too, which breaks
   the ties "apply" leaves among colours of a kind ("baby blue, not the purplish one").
2. **Comparatives and superlatives** ("darker", "the palest", "more blue", "bluer") pick, among
   the colours the rest of the description applies to (all of them if there is no rest), the
   most extreme along a direction: the colour must be one the words apply to, and no other such
   colour may lie further along (soft, with a scale of a few CIELAB units). A comparative
   presupposes a contrast with colours of the same kind, so a colour the words do not apply to
   does not compete, and at least one other colour is of the kind: "the duller red" of a vivid
   red, a dull brownish red and a grey is the dull red, though "red" hardly applies to it (where
   no two colours can be of the kind, the presupposition is dropped). "darker" and "darkest"
   read the same, and an adjective of lightness or chroma said alone ("vivid", "the dull one",
   "pale") is its superlative; a colour's name alone ("grey") is a name. Words of degree
   ("much brighter", "a bit lighter", "very dark") say how much, not what kind: beside a
   comparison, a negation or an adjective alone they are left out.
3. **Negation** ("not green", "no red", "not the darker one") keeps the complement: a colour's
   weight is one minus how surely the negated words apply to it (for a negated comparative, one
   minus its weight relative to the colour it picks).
4. **"The other one"**, said once with nothing else, is read as the colour that stands apart
   from the others (the largest distance to its nearest neighbour): without a dialogue there is
   no earlier referent, and a speaker who means one of two similar colours would say which.
   **"The middle one"** ("in between", "medium" alone) is the colour between the others (the
   smallest sum of distances to them).

A description is cut into parts at punctuation, "but" and each negation (and, in a negated
part, at "or": "not blue or green" is neither); the parts' weights are multiplied and
normalised. Read against the others, words that point at the colours on offer ("of the two")
say nothing, and a colour's name in the plural ("the darker of the blues") is the name.

5. **Pragmatics** (by default, ``pragmatic=True``): a plain description (one part, with no
   comparative, superlative, negation or "other") is read by a pragmatic listener of the
   Rational Speech Acts framework on top of the literal reading: L1(colour | text) ∝
   S1(text | colour), where the speaker S1 says ``text`` of a colour in proportion to the
   literal reading of it against
   the other things it could have said (the eleven basic colour terms and the named colours of
   ``data/named_colours.txt``, each read literally over the same colours on offer). A colour the
   text fits, but that another name fits better, is less likely meant. ``pragmatic=False`` gives
   the literal reading.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from importlib import resources

import numpy as np
from numpy.typing import ArrayLike

from huescues.colour import delta_e_2000

from ._capabilities import with_capabilities
from ._naming import FUNCTION_WORDS
from ._objects import _common_words, _one_edit
from ._protocol import ColourTermModel, FloatArray, check_text, gaussian_log_density

__all__ = ["listen", "reads_in_context"]

#: Softness of a comparison along a direction, in CIELAB units: colours this far apart along the
#: direction are told apart with odds of e to 1. A few units, about a just-noticeable step.
COMPARE_SCALE = 5.0
#: Softness of a comparison by a colour term ("bluer"), in nats of log-likelihood.
TERM_SCALE = 1.0
#: Softness of "the other one", in CIEDE2000 units of distance to the nearest other colour.
OTHER_SCALE = 5.0
#: Share of probability spread evenly over the colours on offer, so that no reading rules a
#: colour out completely (a listener may have misread).
FLOOR = 1e-6
#: How sharply the pragmatic listener's imagined speaker prefers the description that fits a
#: colour best (its softmax's power on the literal readings): 1, chosen on the XKCD reference
#: games among 0.5, 1, 2 and 4 (the color-name-list games untouched; docs/language.md).
PRAGMATIC_ALPHA = 1.0

#: Directions in the (L*, C*) plane: lightness and chroma. "brighter" is read as lighter and more
#: vivid (people use it for both), "deeper" as darker and more vivid, "paler" as lighter and less
#: vivid.
_DIRECTIONS: dict[str, tuple[float, float]] = {
    "dark": (-1.0, 0.0),
    "light": (1.0, 0.0),
    "bright": (1.0, 1.0),
    "deep": (-1.0, 1.0),
    "pale": (1.0, -1.0),
    "dull": (0.0, -1.0),
    "vivid": (0.0, 1.0),
    "murky": (-1.0, -1.0),
}
#: Comparative and superlative forms, and adjectives after "more", "most", "less" and "least".
_ADJECTIVES: dict[str, str] = {
    "dark": "dark",
    "darker": "dark",
    "darkest": "dark",
    "light": "light",
    "lighter": "light",
    "lightest": "light",
    "bright": "bright",
    "brighter": "bright",
    "brightest": "bright",
    "deep": "deep",
    "deeper": "deep",
    "deepest": "deep",
    "pale": "pale",
    "paler": "pale",
    "palest": "pale",
    "dull": "dull",
    "duller": "dull",
    "dullest": "dull",
    "muted": "dull",
    "grey": "dull",
    "gray": "dull",
    "greyer": "dull",
    "grayer": "dull",
    "greyest": "dull",
    "grayest": "dull",
    "vivid": "vivid",
    "saturated": "vivid",
    "intense": "vivid",
    "colourful": "vivid",
    "colorful": "vivid",
    "rich": "vivid",
    "richer": "vivid",
    "richest": "vivid",
    "bold": "vivid",
    "bolder": "vivid",
    "boldest": "vivid",
    "strong": "vivid",
    "stronger": "vivid",
    "strongest": "vivid",
    "vibrant": "vivid",
    "neon": "vivid",
    "brilliant": "bright",
    "faded": "pale",
    "washed": "pale",
    "pastel": "pale",
    "soft": "pale",
    "softer": "pale",
    "softest": "pale",
    "faint": "pale",
    "fainter": "pale",
    "faintest": "pale",
    "dim": "dark",
    "dimmer": "dark",
    "dimmest": "dark",
    "dusty": "dull",
    "drab": "dull",
    "murky": "murky",
    "murkier": "murky",
    "murkiest": "murky",
}
#: Words that are comparatives on their own (the rest need "more"/"most"/"less"/"least").
_COMPARATIVE_FORMS = frozenset(w for w in _ADJECTIVES if w.endswith(("er", "est")))
#: "bluer": more of a colour term.
_TERM_FORMS: dict[str, str] = {
    "bluer": "blue",
    "bluest": "blue",
    "greener": "green",
    "greenest": "green",
    "redder": "red",
    "reddest": "red",
    "yellower": "yellow",
    "yellowest": "yellow",
    "pinker": "pink",
    "pinkest": "pink",
    "browner": "brown",
    "brownest": "brown",
    "purpler": "purple",
    "purplest": "purple",
    "oranger": "orange",
    "orangest": "orange",
    "whiter": "white",
    "whitest": "white",
    "blacker": "black",
    "blackest": "black",
}
_MORE = {"more": 1.0, "most": 1.0, "less": -1.0, "least": -1.0}
#: Small words between "more" and what it compares ("more of a blue", "the most of the").
_AFTER_MORE = frozenset({"of", "a", "an", "the"})
_NEGATIONS = frozenset(
    {"not", "no", "isnt", "nor", "neither", "never", "without", "except", "none"}
)
_BREAKS = frozenset({",", ";", ".", "!", "?", "but", "rather", "instead"})
_OTHER = frozenset({"other", "another", "different"})
#: "The middle one", "in between": the colour between the others.
_MIDDLE = frozenset({"middle", "between", "inbetween", "mid", "medium", "intermediate"})
#: Small words of place beside "middle" ("the one in the middle").
_PLACE = frozenset({"in", "at", "on"})
#: Words of degree and hedging ("very dark", "slightly darker", "a bit lighter", "kind of
#: pale"): they say how much, not what kind, so beside a comparison, a negation or an adjective
#: alone they are left out (before, "much brighter" compared the colours "much" applies to).
#: Plain words alone keep them: "very light blue" is a colour's name.
_DEGREE = frozenset(
    {"very", "really", "super", "so", "quite", "pretty", "extra", "too", "much", "way", "far"}
    | {"even", "slightly", "somewhat", "bit", "little", "lot", "lots", "kinda", "kind", "sort"}
    | {"sorta", "just", "still", "fairly", "real", "extremely", "incredibly", "tad", "touch"}
)
#: Words that say nothing about colour here ("the blue one", "ok, the blue one lol"): the
#: naming data's (:data:`FUNCTION_WORDS`) and the small words of a comparison.
_STOP = FUNCTION_WORDS | frozenset(
    {"color", "which", "of", "than", "to", "and", "or", "both", "them", "option"}
)
#: Words that point at the colours on offer ("the darker of the two"): nothing of colour in a
#: comparison or a negation; plain words alone are read as the model reads them ("two cents").
_POINTING = frozenset({"two", "three", "these", "those", "options"})
#: In a negated part "or" starts another negated part: "not blue or green" is neither. ("and"
#: does not: "not dark and blue" is "not dark blue", and "isnt dark and is blue" is not "not
#: blue".)
_OR = "or"
#: The basic colour terms of English (Berlin and Kay): the alternatives a speaker chooses among.
_BASIC_TERMS = (
    "black",
    "white",
    "red",
    "green",
    "yellow",
    "blue",
    "brown",
    "purple",
    "pink",
    "orange",
    "grey",
)
_TOKEN = re.compile(r"[^\W\d_]+|[,;.!?]")
_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class _Comparison:
    """One comparative: along an (L*, C*) direction, or by a colour term's likelihood."""

    direction: tuple[float, float] | None = None
    term: str = ""
    sign: float = 1.0


@dataclass(frozen=True, slots=True)
class _Part:
    """A part of a description: its plain words, its comparisons, and whether it is negated."""

    words: tuple[str, ...]
    comparisons: tuple[_Comparison, ...]
    negated: bool
    other: bool
    middle: bool = False


def listen(
    text: str,
    colours: ArrayLike,
    *,
    model: ColourTermModel | None = None,
    pragmatic: bool = True,
) -> FloatArray:
    """The probability that ``text`` describes each of ``colours`` (CIELAB, shape ``(n, 3)``),
    read in context: comparatives ("the darker blue", "the palest", "more blue"), negation ("not
    green", "not the green one") and "the other one" are read relative to the other colours on
    offer; plain words by ``model`` (:func:`default_model` by default), and, when ``pragmatic``
    (the default), by a pragmatic listener that weighs them against the other names a speaker
    could have given each colour (Rational Speech Acts); ``pragmatic=False``: the literal
    reading. Returns shape ``(n,)``, summing to 1. The order of the colours does not matter.
    See ``docs/language.md``.
    """
    if not isinstance(pragmatic, bool):
        raise TypeError(f"pragmatic must be True or False, not {pragmatic!r}")
    text = _spelled(check_text(text))
    lab = _check_colours(colours)
    if model is None:
        from ._default import default_model  # the default model loads data: only when needed

        model = default_model()
    elif not isinstance(model, ColourTermModel):
        raise TypeError(
            f"model must be a ColourTermModel (with score and predict), not {type(model).__name__}"
        )
    n = len(lab)
    if n == 1:
        return np.ones(1)
    weight = np.ones(n)
    parts = _parts(text)
    for part in parts:
        weight = weight * _read_part(part, lab, model, alone=len(parts) == 1)
    total = float(weight.sum())
    if not math.isfinite(total) or total <= 0.0:
        # The parts contradict each other everywhere ("green, not green"): no information.
        return np.full(n, 1.0 / n)
    out: FloatArray = (1.0 - FLOOR) * weight / total + FLOOR / n
    if pragmatic and len(parts) == 1 and not reads_in_context(text) and not parts[0].comparisons:
        out = _pragmatic(text, out, lab, model)
    return out


def _pragmatic(
    text: str, literal: FloatArray, lab: FloatArray, model: ColourTermModel
) -> FloatArray:
    """L1(colour | text) ∝ S1(text | colour), S1 the speaker who says of each colour one of the
    alternatives (:func:`_alternatives` and ``text``) in proportion to its literal reading over
    the colours on offer, to the power :data:`PRAGMATIC_ALPHA`."""
    said = " ".join(text.lower().split())
    others = [name for name in _alternatives() if name != said]
    scores = np.asarray(with_capabilities(model).score_many(others, lab), dtype=np.float64)
    # Each alternative's literal reading over the colours on offer (a softmax per row).
    scores = np.exp(scores - scores.max(axis=1, keepdims=True))
    l0 = np.vstack([literal[None, :], scores / scores.sum(axis=1, keepdims=True)])
    s1 = l0**PRAGMATIC_ALPHA
    s1 /= s1.sum(axis=0, keepdims=True)
    l1 = s1[0] / s1[0].sum()
    out: FloatArray = (1.0 - FLOOR) * l1 + FLOOR / len(l1)
    return out


def reads_in_context(text: str) -> bool:
    """Whether :func:`listen` reads ``text`` against the other colours on offer, as a clue on a
    board is read: it holds a negation, a comparative or "other". Plain words read the same alone
    or in context, but for one adjective said alone ("the vivid one"), which :func:`listen`
    reads as its superlative among the colours it is given; a clue of one adjective on a board
    describes colours of a kind, and is left to the model."""
    tokens = set(
        _TOKEN.findall(_spelled(check_text(text)).lower().replace("'", "").replace("\u2019", ""))
    )
    return bool(
        tokens & (_NEGATIONS | _OTHER | _COMPARATIVE_FORMS | _TERM_FORMS.keys() | _MORE.keys())
    )


def _spelled(text: str) -> str:
    """The description with its misspelt words of colour put right, as people type them in a
    chat ("bleu", "purpel", "ligher", "teel"): a word of three letters or more that is none of
    those words (:func:`_spellable`) and no English word in common use (R19's list), one edit
    (a letter left out, added or changed, two swapped) from exactly one of them. The model's
    own spelling (:meth:`~huescues.language.ObjectColourModel.spelled`) leaves words shorter
    than five letters alone, as too many words lie near them; among the words of colour few
    do ("gren" is green or grey: left). A colour name with "-y" ("greeny") is a word, left."""

    def fix(match: re.Match[str]) -> str:
        return _respelt(match.group(0).lower()) or match.group(0)

    return _WORD.sub(fix, text)


@functools.lru_cache(maxsize=1 << 14)
def _respelt(word: str) -> str | None:
    """The word of colour a lower-case word is a misspelling of (:func:`_spelled`), or None.
    Kept per word: the giver's phrases reuse a vocabulary's words."""
    if len(word) < 3 or word in _spellable() or word in _common_words() or _y_form(word):
        return None
    near = [w for w in _one_edit(word) if w in _spellable()]
    return near[0] if len(near) == 1 else None


def _y_form(word: str) -> bool:
    """Whether the word is a colour name made an adjective by "-y" ("greeny", "yellowy",
    "reddy", "purply"): a word of its own, which the naming data read, not a misspelt name."""
    stem = word[:-1]
    return word.endswith("y") and any(
        form in _spellable() for form in (stem, stem[:-1], stem + "e")
    )


@functools.cache
def _spellable() -> frozenset[str]:
    """The words of colour a misspelt word in a description is put right to: the colour names
    (:func:`_colour_names`), the adjectives of lightness and chroma and their comparatives, and
    the comparatives of colour terms ("bluer")."""
    return _colour_names() | frozenset(_ADJECTIVES) | frozenset(_TERM_FORMS)


def _lone_adjective(words: list[str]) -> str | None:
    """The adjective of lightness or chroma that is a description's only word ("the vivid one",
    "pale"), read as its superlative: said of a few colours, it picks the one most so. A colour's
    name ("grey") is read as a name. (A clue in a game that is one adjective describes colours of
    a kind, not the one square most so: :func:`reads_in_context` leaves it to the model.)"""
    if len(words) == 1 and words[0] in _ADJECTIVES and words[0] not in _colour_names():
        return words[0]
    return None


def _check_colours(colours: ArrayLike) -> FloatArray:
    try:
        lab = np.asarray(colours, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"colours must be numbers, CIELAB of shape (n, 3): {exc}") from None
    if lab.ndim != 2 or lab.shape[1] != 3:
        raise ValueError(f"colours must be CIELAB of shape (n, 3), not shape {lab.shape}")
    if lab.shape[0] == 0:
        raise ValueError("listen needs at least one colour on offer, not shape (0, 3)")
    bad = ~np.isfinite(lab).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"colours must be finite: colour {i} is {lab[i].tolist()}")
    return lab


def _parts(text: str) -> list[_Part]:
    """The description cut at punctuation, "but" and each negation, each part parsed."""
    tokens = _TOKEN.findall(text.lower().replace("'", "").replace("\u2019", ""))
    groups: list[tuple[bool, list[str]]] = [(False, [])]
    for token in tokens:
        if token in _BREAKS:
            groups.append((False, []))
        elif token in _NEGATIONS or (token == _OR and groups[-1][0] and groups[-1][1]):
            groups.append((True, []))
        else:
            groups[-1][1].append(token)
    parts = []
    for negated, words in groups:
        part = _parse(words, negated)
        if part.words or part.comparisons or part.other or part.middle:  # a bare "not" says nothing
            parts.append(part)
    return parts


def _parse(words: list[str], negated: bool) -> _Part:
    plain: list[str] = []
    comparisons: list[_Comparison] = []
    other = False
    i = 0
    while i < len(words):
        word = words[i]
        # "more of a blue" is "more blue": the small words after "more" say nothing.
        j = i + 1
        while word in _MORE and j < len(words) - 1 and words[j] in _AFTER_MORE:
            j += 1
        following = words[j] if j < len(words) else ""
        if word in _MORE and following:
            sign = _MORE[word]
            if following in _ADJECTIVES:
                comparisons.append(_Comparison(_DIRECTIONS[_ADJECTIVES[following]], sign=sign))
            else:  # "more blue": more of whatever the next word names
                comparisons.append(_Comparison(term=following, sign=sign))
            i = j + 1
            continue
        if word in _COMPARATIVE_FORMS:
            comparisons.append(_Comparison(_DIRECTIONS[_ADJECTIVES[word]]))
        elif word in _TERM_FORMS:
            comparisons.append(_Comparison(term=_TERM_FORMS[word]))
        elif word in _OTHER:
            other = True
        elif word not in _STOP:
            plain.append(word)
        i += 1
    kind = [w for w in plain if w not in _DEGREE]
    middle = (
        not comparisons
        and not other
        and bool(set(kind) & _MIDDLE)
        and all(w in _MIDDLE or w in _PLACE for w in kind)
    )
    if middle:  # "the middle one", "in between"
        return _Part((), (), negated, other, middle=True)
    if not comparisons and not other and (lone := _lone_adjective(kind)) is not None:
        return _Part((), (_Comparison(_DIRECTIONS[_ADJECTIVES[lone]]),), negated, other)
    if comparisons or negated:  # beside a comparison or a negation, the words of a kind
        plain = kind
    return _Part(tuple(plain), tuple(comparisons), negated, other)


def _fit(model: ColourTermModel, text: str, lab: FloatArray) -> FloatArray:
    """How well each colour fits the text, relative to the best fit on offer (0 to 1]: the
    literal reading of plain words."""
    log_p = np.asarray(model.score(text, lab), dtype=np.float64)
    out: FloatArray = np.exp(log_p - log_p.max())
    return out


def _applies(model: ColourTermModel, text: str, lab: FloatArray) -> FloatArray:
    """How surely a speaker would call each colour by the text rather than by a basic colour
    term, from 0 to 1: the model's readings of the text and of the eleven basic terms as
    Gaussians (:meth:`~ColourTermModel.predict`), compared with equal priors.

    Density ratios are too sharp to say whether a word applies (a light blue is far less likely
    than a dark one under "blue", yet plainly blue), and a floored score is flat far from a
    reading; the choice among basic terms is neither. A text the model does not know applies to
    every colour."""
    reading = model.predict(text)
    if not reading.known:
        return np.ones(len(lab))
    readings = [reading] + [p for t in _BASIC_TERMS if t != text and (p := model.predict(t)).known]
    stacked = np.stack([gaussian_log_density(lab, p.lab, p.cov) for p in readings])
    top = stacked.max(axis=0)
    applies = np.exp(stacked[0] - top) / np.exp(stacked - top).sum(axis=0)
    # The speaker presupposes that the words apply to a colour on offer: accommodate it.
    out: FloatArray = applies / applies.max()
    return out


def _sigmoid(x: FloatArray) -> FloatArray:
    out: FloatArray = 0.5 * (1.0 + np.tanh(0.5 * x))
    return out


def _in_context(words: tuple[str, ...]) -> str:
    """The words of a part read against the others: without the words that point at the
    colours on offer, and a colour's name in the plural ("the darker of the blues") as the
    name."""
    kept = (w for w in words if w not in _POINTING)
    return " ".join(w[:-1] if w.endswith("s") and w[:-1] in _colour_names() else w for w in kept)


def _read_part(part: _Part, lab: FloatArray, model: ColourTermModel, *, alone: bool) -> FloatArray:
    n = len(lab)
    if part.middle:
        between = _between(lab)
        return 1.0 - between if part.negated else between
    if not part.comparisons and not part.negated and alone:
        text = " ".join(part.words)  # the literal reading of the words
        return _fit(model, text, lab) if text else _stands_apart(lab) if part.other else np.ones(n)
    text = _in_context(part.words)
    if not part.comparisons:
        if part.negated:  # mass away from the colours the words apply to
            return 1.0 - _applies(model, text, lab) if text else np.ones(n)
        if text:  # with other parts: where the words apply, the closer fit ahead among those
            return _applies(model, text, lab) * np.sqrt(_fit(model, text, lab))
        return _stands_apart(lab) if part.other else np.ones(n)
    # A comparative picks among the colours the words apply to (all of them without words):
    # each colour is of the kind compared with the chance that the words apply to it, and the
    # one chosen is of the kind with no other colour of the kind further along.
    fit = _applies(model, text, lab) if text else np.ones(n)
    kept = np.ones((n, n))  # kept[i, j]: how surely colour j is not further along than colour i
    for comparison in part.comparisons:
        along = _position(comparison, lab, model)
        kept = kept * (1.0 - _sigmoid(along[None, :] - along[:, None]))
    weight = _contrasted(fit, 1.0 - kept)
    if part.negated:  # "not the darker one": away from the colour it picks
        top = float(weight.max())
        return 1.0 - weight / top if top > 0.0 else np.ones(n)
    return weight


def _contrasted(fit: FloatArray, ahead: FloatArray) -> FloatArray:
    """How surely each colour is the one a comparative picks: each colour is of the kind
    compared with chance ``fit`` (independently), ``ahead[i, j]`` how surely colour j lies further
    along than colour i, and the chosen colour is of the kind with no other colour of the kind
    further along. A comparative presupposes a contrast, at least one other colour of the kind
    ("the duller red" of a red and a dull, brownish red is the dull one, though "red" hardly
    applies to it), so the chance that colour i is the only one of its kind is left out; where
    no two colours can be of the kind the presupposition fails and is dropped.

    For colour i, the chance that some other colour is of the kind and none of them is further
    along, summed over the first such colour k (in the colours' order) in log space, so that
    tiny chances of fitting keep their ratios: colours before k not of the kind, k of the kind
    and not further along, colours after k not further along if of the kind."""
    n = len(fit)
    with np.errstate(divide="ignore"):
        log_fit = np.log(fit)
        not_in = np.broadcast_to(np.log1p(-np.minimum(fit, 1.0)), (n, n)).copy()
        not_ahead = np.log1p(-np.minimum(fit[None, :] * ahead, 1.0))
        behind = np.log1p(-np.minimum(ahead, 1.0))
    np.fill_diagonal(not_in, 0.0)
    np.fill_diagonal(not_ahead, 0.0)
    zeros = np.zeros((n, 1))
    before = np.hstack([zeros, np.cumsum(not_in, axis=1)[:, :-1]])
    after = np.hstack([np.cumsum(not_ahead[:, ::-1], axis=1)[:, ::-1][:, 1:], zeros])
    terms = before + log_fit[None, :] + behind + after
    np.fill_diagonal(terms, -np.inf)
    top = terms.max(axis=1)
    finite = np.isfinite(top)
    log_some = np.full(n, -np.inf)
    log_some[finite] = top[finite] + np.log(np.exp(terms[finite] - top[finite, None]).sum(axis=1))
    with np.errstate(divide="ignore"):
        log_weight = log_fit + log_some
    if np.isfinite(log_weight).any():
        out: FloatArray = np.exp(log_weight - log_weight.max())
        return out
    # No contrast possible: the chosen colour is of the kind with none further along.
    beaten = fit[None, :] * ahead
    np.fill_diagonal(beaten, 0.0)
    alone: FloatArray = fit * np.prod(1.0 - beaten, axis=1)
    return alone


def _position(comparison: _Comparison, lab: FloatArray, model: ColourTermModel) -> FloatArray:
    """Each colour's position along the comparison's direction, in units of its softness."""
    if comparison.direction is not None:
        dl, dc = comparison.direction
        norm = math.hypot(dl, dc)
        chroma = np.hypot(lab[:, 1], lab[:, 2])
        along: FloatArray = (dl * lab[:, 0] + dc * chroma) / norm / COMPARE_SCALE
        return comparison.sign * along
    log_p = np.asarray(model.score(comparison.term, lab), dtype=np.float64)
    out: FloatArray = comparison.sign * log_p / TERM_SCALE
    return out


def _stands_apart(lab: FloatArray) -> FloatArray:
    """Weights for "the other one": the colour furthest from its nearest neighbour."""
    distance = delta_e_2000(lab[:, None, :], lab[None, :, :])
    np.fill_diagonal(distance, np.inf)
    isolation = distance.min(axis=1)
    out: FloatArray = np.exp((isolation - isolation.max()) / OTHER_SCALE)
    return out


def _between(lab: FloatArray) -> FloatArray:
    """Weights for "the middle one": the colour nearest the others in all (the smallest sum of
    CIEDE2000 distances to them, softly), relative to the most central (so 1 at most)."""
    distance = delta_e_2000(lab[:, None, :], lab[None, :, :]).sum(axis=1)
    out: FloatArray = np.exp((distance.min() - distance) / OTHER_SCALE)
    return out


@functools.cache
def _colour_names() -> frozenset[str]:
    """The one-word names of colours: the basic terms (and "gray") and the named colours."""
    return frozenset(name for name in (*_alternatives(), "gray") if " " not in name)


@functools.cache
def _alternatives() -> tuple[str, ...]:
    """What else a speaker could have said of a colour: the eleven basic colour terms and the
    English named colours (``data/named_colours.txt``, 68 names: "azure", "crimson", "teal"...).
    As good as the 949 XKCD names on the XKCD reference games, and a twelfth of the reading."""
    text = resources.files("huescues.data").joinpath("named_colours.txt").read_text("utf-8")
    named = (w.strip() for line in text.splitlines() if not line.startswith("#") for w in [line])
    return tuple(dict.fromkeys([*_BASIC_TERMS, *(w for w in named if w)]))
