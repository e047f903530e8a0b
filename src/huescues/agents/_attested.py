"""Clues a person would give: words whose colour the library knows from evidence, not only
from word vectors, and two-word clues that people use or that read together as one colour."""

from __future__ import annotations

import functools

from huescues.engine import common_words
from huescues.language import NamingModel, ObjectColourModel, c3, name_key

__all__ = ["GIVER_EVIDENCE", "attested"]

#: The least evidence (``ObjectColourModel.evidence``: the held-out chance that a reading's main
#: colour is people's) a word needs before a clue giver says it. At 0.5 a word is more often
#: right than wrong; words known only from their vectors sit near 0.25.
GIVER_EVIDENCE = 0.5


@functools.cache
def _naming() -> NamingModel:
    return NamingModel.default()


@functools.cache
def _colour_terms() -> frozenset[str]:
    return frozenset(name_key(t) for t in c3().terms)


def attested(text: str) -> bool:
    """Whether a clue giver may say ``text``, as people would: one word whose evidence in the
    knowledge model (:meth:`~huescues.language.ObjectColourModel.evidence`) is at least
    :data:`GIVER_EVIDENCE`; or two words that people put together: a colour name of the naming
    data (``ocean blue``), a modifier the naming data learned (``pale``, ``dark``) before an
    attested word (``pale sky``), or an attested common English word before a colour term of
    c3 (``sky teal``). Two words that each have a colour but are no phrase (``throne spleen``) are
    refused, as is a word known only from its vector (``boyfriend``)."""
    key = name_key(text)
    if not key:
        return False
    naming = _naming()
    if naming.is_name(key):
        return True
    words = key.split()
    if len(words) == 1:
        return ObjectColourModel.default().evidence(key) >= GIVER_EVIDENCE
    if len(words) != 2:
        return False
    first, head = words
    if naming.is_modifier(first):
        return attested(head)
    return head in _colour_terms() and first in common_words() and attested(first)
