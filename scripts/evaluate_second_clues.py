"""How often the givers' two-word second clues (R11) are phrases people say, in
self-play: ``huescues.language.phrase_fault`` judges each (an adjective before the name of a
thing, a noun before a colour name, a degree word only before an adjective, never a word beside
its own form). Prints the second clues given, and the two-word clues the giver weighed (every
pair of its best words that it would have said, attested; most are not given: a single word or
a pass is worth more), each with the share in a form people say, the faults counted and
examples of each.

Run: ``python scripts/evaluate_second_clues.py [--games 100] [--players 4] [--with-naming]``
(seeds 0 to games - 1, every seat the default player, or every other seat the naming player,
whose giver pairs more often; under a second a game).
"""

from __future__ import annotations

import argparse
from collections import Counter

import huescues.agents._giver as giver_module  # the giver's own attested, to see what it weighs
from huescues.agents import default_agent, naming_agent, play_game
from huescues.engine import Rules
from huescues.language import phrase_fault


def share(n: int, of: int) -> str:
    """``n / of`` as a count and a percentage."""
    return f"{n} of {of} ({n / of:.1%})" if of else "none"


def form_counts(phrases: list[str]) -> tuple[int, Counter[str]]:
    """How many of ``phrases`` are in a form people say, and how many have each fault."""
    faults = Counter(phrase_fault(p) for p in phrases)
    fine = faults.pop(None, 0)
    return fine, Counter({f: n for f, n in faults.items() if f is not None})


def report(title: str, phrases: list[str]) -> None:
    """The share of ``phrases`` in a form people say, the faults and examples."""
    fine, faults = form_counts(phrases)
    print(f"{title}: {share(fine, len(phrases))} in a form people say")
    for fault, n in faults.most_common():
        examples = sorted({p for p in phrases if phrase_fault(p) == fault})[:8]
        print(f"  {fault}: {n} ({', '.join(examples)})")
    fine_ones = sorted({p for p in phrases if phrase_fault(p) is None})[:12]
    print(f"  in a form people say: {', '.join(fine_ones)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--with-naming",
        action="store_true",
        help="seat the naming player in every other seat (it pairs its words more often)",
    )
    args = ap.parse_args()
    weighed: list[str] = []
    attested = giver_module.attested

    def recording(text: str) -> bool:
        ok = attested(text)
        if ok:
            weighed.append(text)
        return ok

    giver_module.attested = recording  # type: ignore[assignment]
    given: list[str] = []
    passes = 0
    for seed in range(args.games):
        agents = [
            naming_agent() if args.with_naming and seat % 2 else default_agent()
            for seat in range(args.players)
        ]
        game = play_game(agents, seed=seed, rules=Rules.standard(args.players))
        for r in game.state.history:
            if r.passed:
                passes += 1
            else:
                given.append(r.clues[1])
    pairs = [c for c in given if len(c.split()) == 2]
    print(
        f"{args.games} self-play games of {args.players} players "
        f"({'default and naming' if args.with_naming else 'default'}): "
        f"{len(given)} second clues given ({share(len(pairs), len(given))} of two words), "
        f"{passes} passes"
    )
    report("two-word second clues given", pairs)
    report("two-word clues weighed (each time the giver weighed one)", weighed)


if __name__ == "__main__":
    main()
