"""Fit and measure the rule of clue words people picture alike (``huescues.agents.alike_chance``;
issue 34, item 3: a giver that avoids words people read apart).

The judgements: the English givers' vocabulary (3,414 words), shuffled and cut in two
(``knowledge/work/clue-words-a.words`` and ``-b.words``), each half judged blind by two helper
sessions that opened only their half's list (``clue-words-judged-HALF-JUDGE.tsv``): would adults
at a game night in the US or UK picture the same colour for this clue? ``alike``, ``apart``
(they know it but picture different colours) or ``unknown`` (a third or more would not know it
or its colour). The judges are language-model sessions, not people.

The script prints

1. the judges' agreement, as one would report it for people: Cohen's kappa of alike against
   not (95 % intervals over resampled words), the three verdicts' agreement, and the same basic
   colour where both say alike;
2. the check against people: on the dev clues whose words were judged, a person's points
   against the others (``human_agreement``'s per-clue figure) where both judges say alike and
   where they do not;
3. the rule: a logistic regression (scikit-learn, C = 1) from :func:`alike_features` to each
   judge's verdict (alike or not; a word's two verdicts are two rows), fitted on half A only;
   the area under the ROC curve on half A (in sample) and on half B (held out), against the
   words both judges call alike and those both call not (95 % intervals over words).

``--write`` writes the rule to ``src/huescues/data/languages/en/alike.json``; ``--check`` exits
non-zero if the shipped file differs from a new fit. ``--self-play GAMES`` also plays default
self-play games (4 and 6 players) with the default giver at its cut and with its rule turned
off (``alike_from=None``), and prints the share of the clues given (first and second) that the
judges call alike, a word scored by the share of its two judges who do, counted on each half's
words (half B's is the held-out figure). ``--head-to-head GAMES`` plays the two against each
other, and the default tournament with the giver at its cut. ``--cut X`` measures another cut
than the pack's (``alike_from`` in ``data/languages/en/players.json``).

Run: ``python scripts/fit_alike.py`` (about 15 s).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.stats import spearmanr
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from huescues.agents import (
    ALIKE_FEATURES,
    AlikeRule,
    Player,
    alike_chance,
    alike_chances,
    alike_features,
    clue_vocabulary,
    default_agent,
    play_game,
)
from huescues.engine import Rules
from huescues.language import named_model
from huescues.research import dev_picks, human_agreement

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "knowledge" / "work"
OUT = ROOT / "src" / "huescues" / "data" / "languages" / "en" / "alike.json"
HALVES = ("a", "b")
JUDGES = ("1", "2")
VERDICTS = ("alike", "apart", "unknown")
BOOT = 2000
FloatArray = NDArray[np.float64]


def read_half(half: str) -> list[str]:
    """A list's words in its order: a half of the English vocabulary (``a``, ``b``) or the
    Spanish one (``es``)."""
    rows = [
        line.split("\t")
        for line in (WORK / f"clue-words-{half}.words").read_text("utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    if rows[0] != ["id", "word"]:
        raise ValueError(f"clue-words-{half}.words: no header id, word: {rows[0]}")
    return [word for _, word in rows[1:]]


def read_judged(path: Path, words: list[str]) -> list[tuple[str, str]]:
    """A judge's (verdict, colour) for each of ``words``, checked against its list."""
    rows = [
        line.split("\t")
        for line in path.read_text("utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    if rows[0] != ["id", "word", "reading", "colour"]:
        raise ValueError(f"{path.name}: no header id, word, reading, colour: {rows[0]}")
    body = rows[1:]
    if [r[1] for r in body] != words:
        raise ValueError(f"{path.name}: its words are not its list's, in its order")
    bad = [r for r in body if len(r) != 4 or r[2] not in VERDICTS]
    if bad:
        raise ValueError(
            f"{path.name}: a row is not id, word, {'/'.join(VERDICTS)}, colour: {bad[0]}"
        )
    return [(r[2], r[3]) for r in body]


def kappa(a: NDArray[np.bool_], b: NDArray[np.bool_]) -> float:
    """Cohen's kappa of two raters' yes/no."""
    po = float(np.mean(a == b))
    pa, pb = float(a.mean()), float(b.mean())
    pe = pa * pb + (1 - pa) * (1 - pb)
    return (po - pe) / (1 - pe) if pe < 1 else 1.0


def interval(values: FloatArray, sign: str = "") -> str:
    lo, hi = np.percentile(values, [2.5, 97.5])
    return f"[{lo:{sign}.3f}, {hi:{sign}.3f}]"


def boot_kappa(a: NDArray[np.bool_], b: NDArray[np.bool_], rng: np.random.Generator) -> str:
    draws = rng.integers(0, len(a), size=(BOOT, len(a)))
    got = np.array([kappa(a[d], b[d]) for d in draws])
    return f"{kappa(a, b):.3f} {interval(got)}"


def boot_auc(y: NDArray[np.bool_], p: FloatArray, rng: np.random.Generator) -> str:
    draws = rng.integers(0, len(y), size=(BOOT, len(y)))
    got = np.array([roc_auc_score(y[d], p[d]) for d in draws if 0 < y[d].sum() < len(d)])
    return f"{roc_auc_score(y, p):.3f} {interval(got)}"


def fit(words: list[str], alike: NDArray[np.bool_]) -> AlikeRule:
    """The rule fitted on ``words``, whose verdicts ``alike`` holds a row a judge."""
    x = np.array([alike_features(w) for w in words], dtype=np.float64)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    # Fitted to convergence (the default tolerance stops early, and a new release's solver
    # would then stop elsewhere): the shipped rule is compared with a new fit to 1e-5.
    model = LogisticRegression(C=1.0, tol=1e-10, max_iter=100_000)
    model.fit(np.vstack([z] * alike.shape[0]), alike.reshape(-1))

    def r(v: object) -> float:
        return round(float(v), 6)  # type: ignore[arg-type]

    return AlikeRule(
        language="en",
        mean=tuple(r(v) for v in mean),
        scale=tuple(r(v) for v in scale),
        weights=tuple(r(v) for v in model.coef_[0]),
        intercept=r(model.intercept_[0]),
    )


def same_rule(shipped: dict[str, object], new: dict[str, object], atol: float = 1e-5) -> bool:
    """Whether a shipped rule is a new fit's, to ``atol`` (solvers differ in the last digits)."""
    if shipped.get("features") != new["features"]:
        return False
    return all(
        np.allclose(np.asarray(shipped[k], dtype=float), np.asarray(new[k], dtype=float), atol=atol)
        for k in ("mean", "scale", "weights", "intercept")
    )


def file_text(rule: AlikeRule, n_words: int) -> str:
    data = {
        "about": (
            "Whether people at a game night would picture one colour for a clue word "
            "(huescues.agents.alike_chance): a logistic regression from alike_features, fitted "
            f"by scripts/fit_alike.py on the blind judgements of half A of the English givers' "
            f"vocabulary ({n_words} words, two judges each, knowledge/work/"
            "clue-words-judged-a-*.tsv) and measured on half B (docs/agents.md). The judges are "
            "language-model sessions, not people."
        ),
        **rule.to_json(),
    }
    return json.dumps(data, indent=1) + "\n"


def _language() -> str:
    return os.environ.get("FIT_ALIKE_LANGUAGE", "en")


def at_cut() -> Player:
    """The default player of ``FIT_ALIKE_LANGUAGE`` (default English), its giver's cut
    ``FIT_ALIKE_CUT`` (the environment's: a factory takes no arguments, and the workers inherit
    it; unset, the pack's)."""
    p = default_agent(_language())
    cut = os.environ.get("FIT_ALIKE_CUT")
    if cut is None:
        return p
    return dataclasses.replace(p, giver=dataclasses.replace(p.giver, alike_from=float(cut)))


def rule_off() -> Player:
    """That default player, its giver's rule off (``alike_from=None``): any word is said."""
    p = default_agent(_language())
    return dataclasses.replace(p, giver=dataclasses.replace(p.giver, alike_from=None))


def head_to_head(games: int, workers: int) -> None:
    """The default player at its cut against itself with the rule off, seats rotated
    (``games`` games of 4, seed 7); and the default tournament with it in the default seat."""
    from huescues.cli import DEFAULT_ENTRANTS, DEFAULT_GAMES
    from huescues.tournament import run_tournament

    # (The entrants are this script's factories: importable by the workers.)
    here = str(Path(__file__).resolve().parent)
    sys.path.insert(0, here)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (here, os.environ.get("PYTHONPATH", "")) if p
    )
    rules = {} if _language() == "en" else {"language": _language()}
    mine, off = "cut=fit_alike:at_cut", "off=fit_alike:rule_off"
    got = run_tournament([mine, off], games=games, seed=7, rules=rules, workers=workers)
    report = got.report(seed=7)
    margin = report.difference("cut", "off").format("+.2f")
    print(f"\nHead to head, {games} games: cut - off = {margin}")
    seats = [mine if e == "default" else e for e in DEFAULT_ENTRANTS]
    got = run_tournament(seats, games=DEFAULT_GAMES, seed=0, rules=rules, workers=workers)
    print(
        f"The default tournament with it in the default seat: cut - naming = "
        f"{got.report(seed=0).difference('cut', 'naming').format('+.2f')}"
    )


def self_play(games: int, groups: dict[str, str], score: dict[str, float]) -> None:
    """The share of the clues given in default self-play that the judges call alike, by group
    of words (``groups``: a judged word's group), with the giver's rule and without: seeds 0 to
    ``games`` - 1, 4 players in even seeds and 6 in odd ones, every seat the default player.
    Intervals: 95 % over the games resampled, the difference paired by seed."""
    labels = list(dict.fromkeys(groups.values()))
    language = _language()
    # Per variant, game and group: the clues given on the group's words, and their score.
    counts = np.zeros((2, games, len(labels), 2))
    given: list[Counter[str]] = [Counter(), Counter()]
    for v, factory in enumerate((at_cut, rule_off)):
        for seed in range(games):
            n = 4 if seed % 2 == 0 else 6
            rules = Rules.standard(n, language=language)
            game = play_game([factory() for _ in range(n)], seed=seed, rules=rules)
            for r in game.state.history:
                for clue in r.clues:
                    given[v][clue] += 1
                    if clue in groups:
                        counts[v, seed, labels.index(groups[clue])] += (1.0, score[clue])
    rng = np.random.default_rng(0)
    draws = rng.integers(0, games, size=(BOOT, games))
    print(f"\nDefault self-play, {games} games of 4 and 6 players: the clues judged alike")
    print("(intervals: the games resampled, then the group's judged words resampled)")
    print("| words | at the cut | its rule off | difference | by words: difference |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for h, label in enumerate(labels):
        # Each judged word of the group drawn with replacement, the same draws for both
        # givers: how much the figure owes to which words were judged.
        mine = [w for w, g in groups.items() if g == label]
        n = np.array([[given[v][w] for w in mine] for v in range(2)], dtype=np.float64)
        sw = np.array([score[w] for w in mine])
        picks = np.stack(
            [
                np.bincount(d, minlength=len(mine))
                for d in rng.integers(0, len(mine), size=(BOOT, len(mine)))
            ]
        )
        by_word = [(picks @ (n[v] * sw)) / (picks @ n[v]) for v in range(2)]
        share = [counts[v, :, h, 1].sum() / counts[v, :, h, 0].sum() for v in range(2)]
        boot = [
            counts[v, draws, h, 1].sum(axis=1) / counts[v, draws, h, 0].sum(axis=1)
            for v in range(2)
        ]
        cells = [
            f"{share[v]:.3f} {interval(boot[v])} of {int(counts[v, :, h, 0].sum())}"
            for v in range(2)
        ]
        diff = f"{share[0] - share[1]:+.3f} {interval(boot[0] - boot[1], '+')}"
        words_diff = interval(by_word[0] - by_word[1], "+")
        print(f"| {label} | {cells[0]} | {cells[1]} | {diff} | {words_diff} |")
    top = sum(c for _, c in given[0].most_common(10)) / sum(given[0].values())
    print(f"The ten words said most at the cut: {top:.2f} of its clues")
    print(
        f"Words given: {len(given[0])} at the cut, {len(given[1])} with its rule off; said most "
        f"with it off and not at all with it: "
        f"{', '.join(w for w, _ in given[1].most_common() if w not in given[0])[:300]}"
    )


def spanish(args: argparse.Namespace, rng: np.random.Generator) -> None:
    """``--language es``: the Spanish judges' agreement, the rule (English's, through the
    table) against them, and with ``--self-play``/``--head-to-head`` the Spanish giver."""
    words = read_half("es")
    judged = [read_judged(WORK / f"clue-words-judged-es-{j}.tsv", words) for j in JUDGES]
    if set(words) != set(clue_vocabulary("es")):
        sys.exit("the judged words are not the Spanish givers' vocabulary")
    alike = np.array([[v == "alike" for v, _ in judged[j]] for j in range(2)])
    same = np.mean([x[0] == y[0] for x, y in zip(*judged, strict=True)])
    both = [(x[1], y[1]) for x, y in zip(*judged, strict=True) if x[0] == y[0] == "alike"]
    colour = np.mean([x == y for x, y in both])
    print("1. The two judges of the Spanish vocabulary (95 % intervals over words)")
    print("| words | alike (judge 1, 2) | kappa | same verdict of 3 | same colour, both |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| {len(words)} | {alike[0].mean():.2f}, {alike[1].mean():.2f} | "
        f"{boot_kappa(alike[0], alike[1], rng)} | {same:.3f} | {colour:.3f} of {len(both)} |"
    )
    agree = alike[0] == alike[1]
    kept = [w for w, k in zip(words, agree, strict=True) if k]
    p = np.array([alike_chance(w, "es") for w in kept])
    print(
        f"\n2. English's rule, each word read in English through the table (nothing fitted on "
        f"these judgements): AUC {boot_auc(alike[0][agree], p, rng)} on the {len(kept)} words "
        f"the judges agree on ({alike[0][agree].mean():.2f} alike)"
    )
    score = {w: float(alike[:, i].mean()) for i, w in enumerate(words)}
    if args.self_play:
        self_play(args.self_play, dict.fromkeys(words, "all (held out)"), score)
    if args.head_to_head:
        head_to_head(args.head_to_head, args.workers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write the fitted rule")
    ap.add_argument("--check", action="store_true", help="exit 1 if the shipped rule differs")
    ap.add_argument("--self-play", type=int, default=0, metavar="GAMES", help="see above")
    ap.add_argument(
        "--head-to-head", type=int, default=0, metavar="GAMES", help="a tournament (see above)"
    )
    ap.add_argument("--cut", type=float, help="the giver's cut to measure (default: the pack's)")
    ap.add_argument("--workers", type=int, default=2, help="--head-to-head's (2)")
    ap.add_argument(
        "--language", choices=("en", "es"), default="en", help="es: the Spanish judgement"
    )
    args = ap.parse_args()
    if args.cut is not None:
        os.environ["FIT_ALIKE_CUT"] = str(args.cut)
    os.environ["FIT_ALIKE_LANGUAGE"] = args.language
    rng = np.random.default_rng(0)
    if args.language == "es":
        spanish(args, rng)
        return

    words: dict[str, list[str]] = {h: read_half(h) for h in HALVES}
    judged = {
        h: [read_judged(WORK / f"clue-words-judged-{h}-{j}.tsv", words[h]) for j in JUDGES]
        for h in HALVES
    }
    vocabulary = set(clue_vocabulary("en"))
    if {w for h in HALVES for w in words[h]} - vocabulary:
        sys.exit("a judged word is not in the English givers' vocabulary")
    alike = {
        h: np.array([[v == "alike" for v, _ in judged[h][j]] for j in range(2)]) for h in HALVES
    }

    print("1. The two judges of each half (alike against not; 95 % intervals over words)")
    print("| half | words | alike (judge 1, 2) | kappa | same verdict of 3 | same colour, both |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for h in HALVES:
        a, b = alike[h]
        same = np.mean([x[0] == y[0] for x, y in zip(*judged[h], strict=True)])
        both = [(x[1], y[1]) for x, y in zip(*judged[h], strict=True) if x[0] == y[0] == "alike"]
        colour = np.mean([x == y for x, y in both])
        print(
            f"| {h.upper()} | {len(words[h])} | {a.mean():.2f}, {b.mean():.2f} | "
            f"{boot_kappa(a, b, rng)} | {same:.3f} | {colour:.3f} of {len(both)} |"
        )

    score = {w: float(alike[h][:, i].mean()) for h in HALVES for i, w in enumerate(words[h])}
    responses, _ = dev_picks()
    people = {
        c.clue: c.human_points
        for c in human_agreement(named_model("naming"), responses, n_boot=0).per_clue
        if c.human_points is not None
    }
    on = {c: p for c, p in people.items() if c in score}
    yes = np.array([p for c, p in on.items() if score[c] == 1.0])
    no = np.array([p for c, p in on.items() if score[c] < 1.0])
    gaps = np.array(
        [
            yes[rng.integers(0, len(yes), len(yes))].mean()
            - no[rng.integers(0, len(no), len(no))].mean()
            for _ in range(BOOT)
        ]
    )
    print(
        f"\n2. People on the {len(on)} dev clues judged (a person against the others, points a "
        f"pick): both judges alike {yes.mean():.2f} ({len(yes)} clues), not both "
        f"{no.mean():.2f} ({len(no)}: {', '.join(sorted(c for c in on if score[c] < 1))}); "
        f"the difference {yes.mean() - no.mean():+.3f} {interval(gaps, '+')} (clues resampled "
        "in each group)"
    )

    rule = fit(words["a"], alike["a"])
    clues = sorted(people)
    chance = np.array([rule.chance(alike_features(c)) for c in clues])
    points = np.array([people[c] for c in clues])
    rho = [
        spearmanr(chance[d], points[d]).statistic
        for d in rng.integers(0, len(clues), size=(BOOT, len(clues)))
    ]
    print(
        f"The rule's chance against people's points on all {len(clues)} dev clues: Spearman "
        f"{spearmanr(chance, points).statistic:+.3f} {interval(np.array(rho), '+')}"
    )
    cut = default_agent().giver.alike_from
    assert cut is not None
    under = chance < cut
    gaps = np.array(
        [
            points[~under][rng.integers(0, (~under).sum(), (~under).sum())].mean()
            - points[under][rng.integers(0, under.sum(), under.sum())].mean()
            for _ in range(BOOT)
        ]
    )
    print(
        f"Below the English cut ({cut}): {under.sum()} dev clues, a person "
        f"{points[under].mean():.2f}"
        f" ({', '.join(f'{c} {p:.2f}' for c, p, u in zip(clues, points, under, strict=True) if u)}"
        f"); at or above it {points[~under].mean():.2f} ({(~under).sum()}); the difference "
        f"{points[~under].mean() - points[under].mean():+.3f} {interval(gaps, '+')}"
    )
    print("\n3. The rule, fitted on half A (AUC against words both judges call alike or not)")
    print("| half | words the judges agree on | alike | AUC |")
    print("| --- | ---: | ---: | ---: |")
    for h in HALVES:
        agree = alike[h][0] == alike[h][1]
        kept = [w for w, k in zip(words[h], agree, strict=True) if k]
        y = alike[h][0][agree]
        p = np.array([rule.chance(alike_features(w)) for w in kept])
        label = "A (in sample)" if h == "a" else "B (held out)"
        print(f"| {label} | {len(kept)} | {y.mean():.2f} | {boot_auc(y, p, rng)} |")
    print("weights:", dict(zip(ALIKE_FEATURES, rule.weights, strict=True)))
    vocabulary_en = clue_vocabulary("en")
    said = int((alike_chances(vocabulary_en) >= cut).sum())
    n = len(vocabulary_en)
    print(f"The shipped rule at the cut ({cut}) lets the giver say {said} of {n} words")
    print("\nThe rule's chance against the share of judges who say alike, by band of chance")
    print("| half | mean chance | 0-0.1 | 0.1-0.35 | 0.35-0.6 | 0.6-1 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for h in HALVES:
        chance = np.array([rule.chance(alike_features(w)) for w in words[h]])
        judged_alike = alike[h].mean(axis=0)
        cells = []
        for lo, hi in ((0, 0.1), (0.1, 0.35), (0.35, 0.6), (0.6, 1.01)):
            band = (chance >= lo) & (chance < hi)
            cells.append(
                f"{chance[band].mean():.2f} said, {judged_alike[band].mean():.2f} judged "
                f"({band.sum()})"
            )
        print(f"| {h.upper()} | {chance.mean():.3f} | {' | '.join(cells)} |")

    text = file_text(rule, len(words["a"]))
    if args.check:
        if not same_rule(json.loads(OUT.read_text("utf-8")), rule.to_json()):
            sys.exit(f"{OUT.relative_to(ROOT)} differs from a new fit: run with --write")
        print(f"{OUT.relative_to(ROOT)} is up to date")
    if args.write:
        OUT.write_text(text, "utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    if args.self_play:
        label = {"a": "half A (chose the cut)", "b": "half B (held out)"}
        self_play(args.self_play, {w: label[h] for h in HALVES for w in words[h]}, score)
    if args.head_to_head:
        head_to_head(args.head_to_head, args.workers)


if __name__ == "__main__":
    main()
