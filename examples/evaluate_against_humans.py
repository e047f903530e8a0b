"""Measure a player and a colour-term model against a file of human guesses (here the shipped
synthetic file, which is simulated, not human data)."""

from __future__ import annotations

from huescues.language import NamingModel
from huescues.research import human_agreement, synthetic_responses


def main() -> None:
    responses = synthetic_responses()
    print(f"{len(responses.rows)} responses, {len(responses.skipped)} rows skipped:")
    for line, reason in responses.skipped:
        print(f"  line {line}: {reason}")
    agreement = human_agreement(NamingModel.default(), responses, n_boot=500)
    print(agreement.summary())
    print(agreement.table(max_rows=5))


if __name__ == "__main__":
    main()
