"""Issue 22: people's picks read in the language they saw the clue in (docs/languages.md).

Per category: the default model reading the shown word (Spanish words by
``default_model("es")``), the English model reading the study's English clue, and the same
Spanish reading with the authors' glossary entries of the dev clues' words left out (the honest
figure: the glossary was written knowing them), and the pack's own ratings of those words too.
Then the Spanish default player's guesser
(``default_agent("es")``, its literal reading of a clue outside a game: ``default_model("es")``
and the naming model reading Spanish, averaged) on the picks shown in Spanish, with the same
glossary entries left out. Nothing is fitted to these picks.

Run: ``PYTHONPATH=src python scripts/evaluate_languages.py``.
"""

from __future__ import annotations

from huescues.agents import EmbeddingGuesser, default_agent
from huescues.language import (
    NamingModel,
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


def main() -> None:
    responses, _ = dev_picks()
    words = sorted({r.extra["shown_word"] for r in responses.rows})
    # The pack's own ratings of the dev words left out too (esmeralda, lavanda, plátano are
    # Spanish colour words it rates; the list was not drawn from the dev clues, but its writer
    # had seen them).
    own = spanish_knowledge().without([fold(w) for w in words])
    held = TranslatedModel(
        default_model(), spanish_table(without_glossary=words), "es", knowledge=own
    )
    for language in ("spanish", None):
        print(f"\n## picks shown in {language or 'any language'}, grouped by shown word\n")
        print(agreement_by_language(responses, language=language).table(".3f"))
        print("\nglossary entries of the dev words left out:\n")
        report = agreement_by_language(responses, {"es": held}, language=language)
        print(report.table(".3f"))
    print("\n## the Spanish default player's guesser, on the picks shown in Spanish\n")
    spanish = tuple(
        Response(r.extra["shown_word"], r.square, r.participant, r.extra, r.line)
        for r in responses.rows
        if r.extra.get("shown_language", "").strip().lower() == "spanish"
    )
    by_word = HumanResponses(responses.board, spanish, source=responses.source)
    table = spanish_table(without_glossary=words)
    players = {
        "default_agent('es')": default_agent("es").guesser,
        "same, dev glossary left out": EmbeddingGuesser(
            model=(held, TranslatedModel(NamingModel.default(), table, "es", knowledge=own))
        ),
    }
    print(agreement_by_category(by_word, players).table(".3f"))
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
