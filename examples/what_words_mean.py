"""What words mean in colour: a feeling's colours and tone, how sure a reading is, the clues a
giver may say, and how well a giver chooses among clues people have read (docs/knowledge.md)."""

from huescues.agents import GIVER_EVIDENCE, attested
from huescues.language import BASIC_TERMS, ObjectColourModel, default_model
from huescues.research import clue_choice_agreement, dev_picks

knowledge = ObjectColourModel.default()
for word in ("anger", "noon", "smurf", "quantumly"):
    q = knowledge.distribution(word)
    top = sorted(zip(q, BASIC_TERMS, strict=True), reverse=True)[:2]
    colours = ", ".join(f"{t} {p:.2f}" for p, t in top)
    tone = knowledge.tone(word)
    light = "no tone" if tone is None else f"L* {tone[0]:.0f}, C* {tone[1]:.0f}"
    print(
        f"{word:10s} {colours:22s} {light:16s} evidence {knowledge.evidence(word):.2f} "
        f"from {', '.join(knowledge.sources(word)) or 'its word vector'}"
    )

# Every reading says how much is known (0: nothing, 1: sure).
print("default_model().predict('banana').evidence =", default_model().predict("banana").evidence)

# The default giver says only what people would: attested words and phrases people use.
for clue in ("anger", "boyfriend", "pale sky", "lemon boyfriend"):
    print(f"{clue!r}: {'may be said' if attested(clue) else 'refused'}")
print(f"(a word needs evidence {GIVER_EVIDENCE} or more)")

# How well the default model chooses clues for targets, judged by people's own picks.
responses, _ = dev_picks()
print(clue_choice_agreement(responses, n_boot=500).table())
