"""Issue 22: people's picks read in the language they saw the clue in (docs/languages.md).

Per category: the default model reading the shown word (Spanish words by
``default_model("es")``), the English model reading the study's English clue, and the same
Spanish reading with the authors' glossary entries of the dev clues' words left out (the honest
figure: the glossary was written knowing them). Then the Spanish default player's guesser
(``default_agent("es")``, its literal reading of a clue outside a game: ``default_model("es")``
and the naming model reading Spanish, averaged) on the picks shown in Spanish, with the same
glossary entries left out. Nothing is fitted to these picks.

Run: ``PYTHONPATH=src python scripts/evaluate_languages.py``.
"""

from __future__ import annotations

from huescues.agents import EmbeddingGuesser, default_agent
from huescues.language import NamingModel, TranslatedModel, default_model, spanish_table
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
    held = TranslatedModel(default_model(), spanish_table(without_glossary=words), "es")
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
            model=(held, TranslatedModel(NamingModel.default(), table, "es"))
        ),
    }
    print(agreement_by_category(by_word, players).table(".3f"))
    untranslated = [w for w in words if not default_model("es").translate(w).translated]
    print("\nshown words not translated:", ", ".join(untranslated))


if __name__ == "__main__":
    main()
