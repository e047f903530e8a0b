"""Issue 22: people's picks read in the language they saw the clue in (docs/languages.md).

Per category: the default model reading the shown word (Spanish words by
``default_model("es")``), the English model reading the study's English clue, and the same
Spanish reading with the authors' glossary entries of the dev clues' words left out (the honest
figure: the glossary was written knowing them). Nothing is fitted to these picks.

Run: ``PYTHONPATH=src python scripts/evaluate_languages.py``.
"""

from __future__ import annotations

from huescues.language import TranslatedModel, default_model, spanish_table
from huescues.research import agreement_by_language, dev_picks


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
    untranslated = [w for w in words if not default_model("es").translate(w).translated]
    print("\nshown words not translated:", ", ".join(untranslated))


if __name__ == "__main__":
    main()
