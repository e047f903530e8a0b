"""Issue 22: people's picks read in the language they saw the clue in (docs/languages.md).

Per category: the default model reading the shown word (Spanish words by
``default_model("es")``), the English model reading the study's English clue, and the same
Spanish reading with the authors' glossary entries of the dev clues' words left out (the honest
figure: the glossary was written knowing them), and the pack's own ratings of those words too.
Then the same again with those entries replaced by a blind translation of the dev words
(``knowledge/work/blind-translation.tsv``: a helper session translated a shuffled list of 299
Spanish words, the 39 dev words among them, knowing nothing of the clues or the picks), which
is what the later glossaries, written blind but kept from repeating the first one's words,
would have held. Then the Spanish default player's guesser (``default_agent("es")``, its
literal reading of a clue outside a game: ``default_model("es")`` and the naming model reading
Spanish, averaged) on the picks shown in Spanish, with the same entries left out, and replaced
by the blind translation. Nothing is fitted to these picks.

Run: ``PYTHONPATH=src python scripts/evaluate_languages.py``; ``--draw`` writes the blind
translation's word list again (``knowledge/work/blind-translation.words``; seeded).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from pathlib import Path

from huescues.agents import EmbeddingGuesser, default_agent
from huescues.language import (
    NamingModel,
    ObjectColourModel,
    TranslatedModel,
    default_model,
    fold,
    spanish_knowledge,
    spanish_table,
)
from huescues.research import (
    HumanResponses,
    Response,
    agreement_by_category,
    agreement_by_language,
    dev_picks,
)

ROOT = Path(__file__).resolve().parents[1]
SPANISH = ROOT / "knowledge" / "spanish"
BLIND_WORDS = ROOT / "knowledge" / "work" / "blind-translation.words"
BLIND = ROOT / "knowledge" / "work" / "blind-translation.tsv"
#: The blind translation's entries weigh as the glossaries' do (build_spanish.py's).
BLIND_CONFIDENCE = 0.95


def dev_words() -> list[str]:
    """The dev clues' shown words (as shown: upper case, some with punctuation)."""
    responses, _ = dev_picks()
    return sorted({r.extra["shown_word"] for r in responses.rows})


def _first_column(path: Path) -> list[str]:
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [line.split("\t", 1)[0] for line in rows if not line.startswith("#")][1:]


def draw_blind_words(seed: int = 20261206) -> list[str]:
    """The blind translation's list: the Spanish dev words (lower case) shuffled among 130
    words of the blind glossaries and 130 of the held-out lists, so that nothing marks them."""
    shown = sorted({r.clue.lower() for r in spanish_picks().rows})
    folded = {fold(w) for w in shown}
    glossaries = _first_column(SPANISH / "glossary-common.tsv")
    glossaries += _first_column(SPANISH / "glossary-more.tsv")
    heldout = _first_column(SPANISH / "heldout.tsv") + _first_column(SPANISH / "heldout-2.tsv")
    rng = random.Random(seed)
    common = sorted({w for w in glossaries if fold(w) not in folded})
    held = sorted({w for w in heldout if fold(w) not in folded} - set(common))
    out = shown + rng.sample(common, 130) + rng.sample(held, 130)
    rng.shuffle(out)
    return out


def blind_translation() -> dict[str, str]:
    """``knowledge/work/blind-translation.tsv``: folded Spanish -> the blind English."""
    rows = [
        line.split("\t")
        for line in BLIND.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    if rows[0] != ["spanish", "english"]:
        raise ValueError(f"{BLIND}: unexpected header {rows[0]}")
    return {fold(spanish): english for spanish, english in rows[1:]}


def dev_models(words: list[str], *, blind: bool) -> tuple[TranslatedModel, TranslatedModel]:
    """``default_model("es")`` and the naming model through the table, with the glossary
    entries and own ratings of the dev ``words`` left out and, if ``blind``, their blind
    translation in the table instead."""
    own = spanish_knowledge().without([fold(w) for w in words])
    table: Mapping[str, tuple[str, float]] = spanish_table(without_glossary=words)
    if blind:
        folded = {fold(r.clue) for r in spanish_picks().rows}
        found = {k: (v, BLIND_CONFIDENCE) for k, v in blind_translation().items() if k in folded}
        if len(found) != len(folded):
            raise ValueError(f"{BLIND} lacks {sorted(folded - set(found))}")
        table = {**table, **found}
    names = ObjectColourModel.default()  # the English knowledge's names, as the pack's
    return (
        TranslatedModel(default_model(), table, "es", knowledge=own, names=names),
        TranslatedModel(NamingModel.default(), table, "es", knowledge=own, names=names),
    )


def spanish_picks() -> HumanResponses:
    """The picks of the people who saw the clue in Spanish, each clue its shown word."""
    responses, _ = dev_picks()
    spanish = tuple(
        Response(r.extra["shown_word"], r.square, r.participant, r.extra, r.line)
        for r in responses.rows
        if r.extra.get("shown_language", "").strip().lower() == "spanish"
    )
    return HumanResponses(responses.board, spanish, source=responses.source)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draw", action="store_true", help="write the blind word list again")
    if parser.parse_args().draw:
        BLIND_WORDS.write_text("\n".join(draw_blind_words()) + "\n", encoding="utf-8")
        print(f"wrote {BLIND_WORDS.relative_to(ROOT)}")
        return
    responses, _ = dev_picks()
    words = dev_words()
    held, _ = dev_models(words, blind=False)
    blind, _ = dev_models(words, blind=True)
    for language in ("spanish", None):
        print(f"\n## picks shown in {language or 'any language'}, grouped by shown word\n")
        print(agreement_by_language(responses, language=language).table(".3f"))
        print("\nglossary entries of the dev words left out:\n")
        print(agreement_by_language(responses, {"es": held}, language=language).table(".3f"))
        print("\nthose entries replaced by the blind translation:\n")
        print(agreement_by_language(responses, {"es": blind}, language=language).table(".3f"))
    print("\n## the Spanish default player's guesser, on the picks shown in Spanish\n")
    players = {
        "default_agent('es')": default_agent("es").guesser,
        "same, dev glossary left out": EmbeddingGuesser(model=dev_models(words, blind=False)),
        "same, blind translation": EmbeddingGuesser(model=dev_models(words, blind=True)),
    }
    print(agreement_by_category(spanish_picks(), players).table(".3f"))
    spanish_model = default_model("es")
    untranslated = [w for w in words if not spanish_model.translate(w).translated]
    untranslated = [w for w in untranslated if not spanish_model.translate(w).own]
    print("\nshown words neither translated nor known to the pack:", ", ".join(untranslated))
    print(
        "shown words the pack's own knowledge reads:",
        ", ".join(w for w in words if spanish_model.translate(w).own),
    )


if __name__ == "__main__":
    main()
