"""How often the givers' two-word second clues (R11) are phrases people say, in
self-play: ``huescues.language.phrase_fault`` judges each (an adjective before the name of a
thing, a noun before a colour name, a degree word only before an adjective, never a word beside
its own form). Prints the second clues given, and the two-word clues the giver weighed (every
pair of its best words that it would have said, attested; most are not given: a single word or
a pass is worth more), each with the share in a form people say, the faults counted and
examples of each.

Run: ``python scripts/evaluate_second_clues.py [--games 100] [--players 4] [--with-naming]
[--language es]`` (seeds 0 to games - 1, every seat the default player, or every other seat the
naming player, whose giver pairs more often; under a second a game). In Spanish each phrase is
judged by the English the Spanish reading carries it to (``bosque profundo``: "deep forest").

``--judged knowledge/work/pairs-judged-2.tsv`` instead reads a blind judgement of two-word clues
the givers weighed (whether a person would give each for a colour; its header says how it was
made) and prints, by language, the share judged natural among them all and among those
``attested`` today, with a 95% Wilson interval, and the share of the natural ones kept.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import huescues.agents._giver as giver_module  # the giver's own attested, to see what it weighs
from huescues.agents import default_agent, naming_agent, play_game
from huescues.engine import Rules
from huescues.language import TranslatedModel, attested, named_model, phrase_fault


def share(n: int, of: int) -> str:
    """``n / of`` as a count and a percentage."""
    return f"{n} of {of} ({n / of:.1%})" if of else "none"


def in_english(phrase: str, language: str) -> str:
    """``phrase`` as the language's reading carries it to English (itself in English)."""
    if language == "en":
        return phrase
    model = named_model("naming", language)
    assert isinstance(model, TranslatedModel)
    return model.translate(phrase).text


def form_counts(phrases: list[str], language: str = "en") -> tuple[int, Counter[str]]:
    """How many of ``phrases`` are in a form people say, and how many have each fault."""
    faults = Counter(phrase_fault(in_english(p, language)) for p in phrases)
    fine = faults.pop(None, 0)
    return fine, Counter({f: n for f, n in faults.items() if f is not None})


def report(title: str, phrases: list[str], language: str = "en") -> None:
    """The share of ``phrases`` in a form people say, the faults and examples (in another
    language, each with the English it reads as)."""
    fine, faults = form_counts(phrases, language)

    def shown(p: str) -> str:
        return p if language == "en" else f"{p} ({in_english(p, language)})"

    def fault(p: str) -> str | None:
        return phrase_fault(in_english(p, language))

    print(f"{title}: {share(fine, len(phrases))} in a form people say")
    for kind, n in faults.most_common():
        examples = sorted({shown(p) for p in phrases if fault(p) == kind})[:8]
        print(f"  {kind}: {n} ({', '.join(examples)})")
    fine_ones = sorted({shown(p) for p in phrases if fault(p) is None})[:12]
    print(f"  in a form people say: {', '.join(fine_ones)}")


class SelfPlay(NamedTuple):
    """What the givers said in self-play: the second clues given, the passes, and every
    two-word clue the giver weighed (each time it weighed one). A NamedTuple: tests load this
    file without registering it as a module, which a dataclass needs."""

    games: int
    players: int
    given: list[str]
    passes: int
    weighed: list[str]

    @property
    def pairs(self) -> list[str]:
        """The two-word second clues given."""
        return [c for c in self.given if len(c.split()) == 2]


def self_play(
    games: int = 100, players: int = 4, *, with_naming: bool = False, language: str = "en"
) -> SelfPlay:
    """Seeds 0 to ``games`` - 1, every seat the default player (or every other one the naming
    player) in ``language``, the giver's ``attested`` watched while they play."""
    weighed: list[str] = []
    attested = giver_module.attested

    def recording(text: str, language: str = "en") -> bool:
        ok = attested(text, language)
        if ok:
            weighed.append(text)
        return ok

    giver_module.attested = recording  # type: ignore[assignment]
    given: list[str] = []
    passes = 0
    try:
        for seed in range(games):
            agents = [
                naming_agent(language) if with_naming and seat % 2 else default_agent(language)
                for seat in range(players)
            ]
            rules = Rules.standard(players, language=language)
            game = play_game(agents, seed=seed, rules=rules)
            for r in game.state.history:
                if r.passed:
                    passes += 1
                else:
                    given.append(r.clues[1])
    finally:
        giver_module.attested = attested  # type: ignore[assignment]
    return SelfPlay(games, players, given, passes, weighed)


def read_judged(path: Path) -> list[tuple[str, str, bool]]:
    """A blind judgement of two-word clues: (language, clue, judged natural) a row."""
    rows = [
        line.split("\t")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    if not rows or rows[0] != ["id", "language", "clue", "natural"]:
        raise ValueError(f"{path}: no header id, language, clue, natural: {rows[:1]}")
    bad = [r for r in rows[1:] if len(r) != 4 or r[3] not in ("yes", "no")]
    if bad:
        raise ValueError(f"{path}: a row is not id, language, clue and yes or no: {bad[0]}")
    return [(language, clue, natural == "yes") for _, language, clue, natural in rows[1:]]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def judged(path: Path) -> list[str]:
    """The judgement's table: by language, the clues, the share natural, the clues attested
    today, the share natural among them (95% Wilson interval), and the natural ones kept."""
    rows = read_judged(path)
    lines = [
        "| language | clues | natural | attested today | natural among them | natural kept |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for language in (*sorted({r[0] for r in rows}), None):
        these = [r for r in rows if language is None or r[0] == language]
        kept = [r for r in these if attested(r[1], r[0])]
        natural, kept_natural = sum(r[2] for r in these), sum(r[2] for r in kept)
        lo, hi = wilson(kept_natural, len(kept))
        lines.append(
            f"| {language or '**all**'} | {len(these)} | {share(natural, len(these))} "
            f"| {len(kept)} | {share(kept_natural, len(kept))} [{lo:.1%}, {hi:.1%}] "
            f"| {share(kept_natural, natural)} |"
        )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--with-naming",
        action="store_true",
        help="seat the naming player in every other seat (it pairs its words more often)",
    )
    ap.add_argument("--language", default="en", help="the players' language (en, es)")
    ap.add_argument("--judged", type=Path, help="a blind judgement of two-word clues instead")
    args = ap.parse_args()
    if args.judged is not None:
        print("\n".join(judged(args.judged)))
        return
    run = self_play(args.games, args.players, with_naming=args.with_naming, language=args.language)
    pairs = run.pairs
    print(
        f"{args.games} self-play games of {args.players} players "
        f"({'default and naming' if args.with_naming else 'default'}): "
        f"{len(run.given)} second clues given ({share(len(pairs), len(run.given))} of two words), "
        f"{run.passes} passes"
    )
    report("two-word second clues given", pairs, args.language)
    report("two-word clues weighed (each time the giver weighed one)", run.weighed, args.language)


if __name__ == "__main__":
    main()
