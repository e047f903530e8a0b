"""How the default giver's three listener models are best combined, measured by
``clue_choice_agreement`` on the 39 dev clues with the combination HELD OUT BY CLUE (issue 34,
item 3; in sample, ``scripts/evaluate_giver_rules.py`` found the default model weighted 0.6 to
0.8 at 0.543 and a geometric mean of the three at 0.542, beside 0.526 for the plain average).

A combination is a form and the default model's weight ``w`` (the naming and embedding models
share the rest equally):

- ``arithmetic``: ``w * default + (1 - w) / 2 * (naming + embedding)``, the beliefs averaged (the
  giver as it is: ``w = 1/3``);
- ``geometric``: ``exp(w * log default + (1 - w) / 2 * (log naming + log embedding))``,
  normalised over the board (``w = 1/3``: the plain geometric mean).

``w`` runs over 1/3, 0.4, 0.5, ..., 1.0 (at ``w = 1`` both forms are the default model alone).
For each dev clue the combination is chosen on the other 38 clues (their targets, the giver
choosing among them; ties to the giver as it is, then the smaller ``w``, arithmetic first), and

- **held out by clue** (the figure): the held-out clue's targets (the squares people picked for
  it) are scored with the giver choosing among all 39 clues, every clue read by that fold's
  combination, which never saw the held-out clue's picks; a target picked for several clues has
  the mean of those folds' points. Mean over the 374 targets;
- **each clue at its own weight** (the convention of ``evaluate_giver_rules.py``): every clue's
  belief made by the combination chosen without it, the giver choosing among all 39 for every
  target.

The pack's pool (``giver_pool``, geometric) moves only when another combination beats it in
sample, its points less the pool's with a paired interval above 0 (:func:`beats`); the folds'
majority is reported but moves nothing, as the search is flat and its majority followed every
reading rule that touched a dev clue.

Intervals are 95% percentile bootstraps over the clues (``ClueChoiceResamples``: 2,000
draws, seed 0); ``less`` is
paired, the combination less the giver as it is. The grid is searched in three families: the
arithmetic weight alone, the geometric weight alone, and both forms together.

``--language es`` measures the Spanish pack's giver (its three models reading Spanish) on the
picks of the people who saw the clue in Spanish (1,375 picks of the 39 dev clues), each clue the
word they saw; ``--held`` reads those words with the Spanish table's glossary entries and the
pack's own ratings of them left out (as docs/languages.md measures the Spanish reading), so that
nothing written for the dev words helps.

Run: ``python scripts/evaluate_giver_listener.py`` (a few seconds), or with ``--language es``.

``--self-play`` plays instead, in the language given: the default tournament (``huescues
tournament``'s entrants, games and seed) with ``averaged`` (the default player, its giver
averaging its three models as before the pool) in the default player's seat, and its margin
over the naming baseline; in Spanish also ``--games`` (1,000) games at ``--seed`` (5) of three
givers at one table, the same guessers: ``pooled`` (the Spanish default player), ``averaged``
and ``pooled_en_weights`` (its giver pooled with the English pack's weights). About 20 s in
English and 2 minutes in Spanish on 2 cores (``--workers``).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from huescues.agents import ModelClueGiver, Player, default_agent, resolve_model
from huescues.agents._languages import players_pack
from huescues.language import ColourTermModel
from huescues.research import ClueChoiceResamples, HumanResponses, Response, dev_picks
from huescues.research._agreement import checked_inputs
from huescues.research._clue_choice import _beliefs_of, _points_between

FloatArray = NDArray[np.float64]
LISTENERS = ("default", "naming", "embedding")  # default_agent()'s giver's models
WEIGHTS = (1 / 3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
Combination = tuple[str, float]
FAMILIES: dict[str, list[Combination]] = {
    "arithmetic weight": [("arithmetic", w) for w in WEIGHTS],
    "geometric weight": [("geometric", w) for w in WEIGHTS],
    "both forms": [("arithmetic", w) for w in WEIGHTS] + [("geometric", w) for w in WEIGHTS],
}
AS_IT_IS: Combination = ("arithmetic", 1 / 3)
#: Plays a tournament: (entrants, games, seed, language) -> its report.
Play = Callable[[tuple[str, ...], int, int, str], Any]


def label(c: Combination) -> str:
    form, w = c
    return f"{form[:5]} {'1/3' if abs(w - 1 / 3) < 1e-9 else f'{w:g}'}"


@dataclass(frozen=True)
class Family:
    """A family's figures (each a mean and its interval, formatted), and the combinations its
    folds chose, with how many chose each, most first."""

    held: str
    held_less: str
    own: str
    own_less: str
    chosen: list[tuple[str, int]]


@dataclass(frozen=True)
class Search:
    """The search's figures: the clues and targets, the giver as it is, each combination in
    sample (its points, less as it is, less the shipped pool), each family held out, and the
    combinations that beat the shipped pool (:func:`beats`)."""

    clues: int
    targets: int
    as_it_is: str
    in_sample: dict[Combination, tuple[str, str]]
    families: dict[str, Family]
    shipped: Combination
    less_shipped: dict[Combination, str]
    beaten_by: list[str]


def shipped_pool(language: str) -> Combination:
    """The language's giver pool as the search names it: geometric, the default model's weight
    (the pack's ``giver_pool``)."""
    pool = players_pack(language).giver_pool
    if pool is None or len(pool) != 3 or abs(pool[1] - pool[2]) > 1e-9:
        raise ValueError(f"the {language} giver's pool {pool} is not one the search names")
    return ("geometric", pool[0])


def beats(low: float) -> bool:
    """The rule that moves a pack's pool: another combination beats it in sample, its points
    less the pool's (paired, the clues resampled) with the interval's low end above 0. The
    search is flat (0.4 to 0.8 within a hundredth), so the folds' majority, which followed every
    reading rule that touched a dev clue, is reported but moves nothing."""
    return low > 0.0


def averaged(language: str = "en") -> Player:
    """The default player with its giver averaging its listener models (no pool)."""
    player = default_agent(language)
    assert isinstance(player.giver, ModelClueGiver)
    return Player(dataclasses.replace(player.giver, pool=None), player.guesser)


def pooled(language: str = "es") -> Player:
    """The default player (its giver pooled with its pack's weights): in Spanish by default."""
    return default_agent(language)


def pooled_en_weights(language: str = "es") -> Player:
    """The default player with its giver pooled with the English pack's weights."""
    player = default_agent(language)
    assert isinstance(player.giver, ModelClueGiver)
    pool = players_pack("en").giver_pool
    return Player(dataclasses.replace(player.giver, pool=pool), player.guesser)


def averaged_es() -> Player:
    """:func:`averaged` in Spanish (a factory takes no arguments)."""
    return averaged("es")


def _entrant(factory: str, name: str | None = None) -> str:
    """One of this module's factories as an entrant (``name=module:callable``)."""
    return f"{name or factory}=evaluate_giver_listener:{factory}"


def averaged_margin(language: str, play: Play) -> str:
    """The default tournament (``huescues tournament``'s entrants, games and seed) with the
    averaged giver in the default player's seat: its margin over naming. ``play(entrants, games,
    seed, language)`` plays a tournament and gives its report."""
    from huescues.cli import DEFAULT_ENTRANTS, DEFAULT_GAMES

    mine = _entrant("averaged" if language == "en" else f"averaged_{language}", "averaged")
    seats = tuple(mine if e == "default" else e for e in DEFAULT_ENTRANTS)
    return str(
        play(seats, DEFAULT_GAMES, 0, language).difference("averaged", "naming").format("+.2f")
    )


def self_play(language: str, play: Play, games: int = 1000, seed: int = 5) -> list[str]:
    """What ``--self-play`` prints: :func:`averaged_margin`; in Spanish also the three givers
    at one table, ``games`` games at ``seed``."""
    lines = [
        "The default tournament, the averaged giver in the default player's seat: "
        f"averaged - naming = {averaged_margin(language, play)}"
    ]
    if language == "es":
        report = three_givers(play, games, seed)
        lines.append(f"The three givers at one table ({games} games, seed {seed}):")
        for a, b in (("pooled", "pooled_en_weights"), ("pooled", "averaged")):
            lines.append(f"  {a} - {b} = {report.difference(a, b).format('+.2f')} points a game")
        for e in report.entrants:
            lines.append(f"  {e.entrant}'s giver: {e.giver_points_per_round.format('.2f')} a round")
    return lines


def three_givers(play: Play, games: int = 1000, seed: int = 5) -> Any:
    """The Spanish default player with its giver's pool as named (``pooled``, the default;
    ``averaged``; ``pooled_en_weights``), the three at one table: ``play``'s report."""
    three = (
        _entrant("pooled"),
        _entrant("averaged_es", "averaged"),
        _entrant("pooled_en_weights"),
    )
    return play(three, games, seed, "es")


def spanish_picks(responses: HumanResponses) -> HumanResponses:
    """The picks of the people who saw the clue in Spanish, each clue the word they saw."""
    rows = tuple(
        Response(str(r.extra["shown_word"]), r.square, r.participant, r.extra, r.line)
        for r in responses.rows
        if str(r.extra.get("shown_language", "")).lower() == "spanish"
    )
    return HumanResponses(responses.board, rows, source=responses.source)


def spanish_listeners(words: list[str], held: bool) -> dict[str, ColourTermModel]:
    """The Spanish pack's giver models; ``held``: the dev words' glossary entries and the pack's
    own ratings of them left out."""
    if not held:
        return {m: resolve_model(f"{m}-es") for m in LISTENERS}
    from huescues.language import (
        ObjectColourModel,
        TranslatedModel,
        fold,
        spanish_knowledge,
        spanish_table,
    )

    table = spanish_table(without_glossary=words)
    own = spanish_knowledge().without([fold(w) for w in words])
    names = ObjectColourModel.default()
    return {
        m: TranslatedModel(resolve_model(m), table, "es", knowledge=own, names=names)
        for m in LISTENERS
    }


def search(language: str = "en", held: bool = False) -> Search:
    """The whole measure (what :func:`main` prints): English, or the Spanish pack's giver on
    the Spanish picks (``held``: the dev words' entries left out)."""
    responses, _ = dev_picks()
    if language == "es":
        responses = spanish_picks(responses)
    groups, board, r15 = checked_inputs(responses, 2000, 0.95, None, seed=0)
    clues = list(groups)
    n = len(clues)
    models = (
        spanish_listeners(clues, held)
        if language == "es"
        else {m: resolve_model(m) for m in LISTENERS}
    )
    beliefs = {m: _beliefs_of(models[m], board, r15, clues)[1] for m in LISTENERS}
    logs = {m: np.log(np.maximum(b, 1e-300)) for m, b in beliefs.items()}
    points = _points_between(board, r15)
    picks = {
        i: sorted({p.square.row * board.cols + p.square.col for p in groups[k]})
        for i, k in enumerate(clues)
    }
    people = np.stack(
        [
            points[[p.square.row * board.cols + p.square.col for p in groups[k]]].mean(axis=0)
            for k in clues
        ]
    )
    every = np.array(sorted({t for i in range(n) for t in picks[i]}))
    column = {int(t): j for j, t in enumerate(every)}

    def expected_of(comb: Combination) -> FloatArray:
        form, w = comb
        rest = (1.0 - w) / 2.0
        if form == "arithmetic":
            b = w * beliefs["default"] + rest * (beliefs["naming"] + beliefs["embedding"])
        else:
            lg = w * logs["default"] + rest * (logs["naming"] + logs["embedding"])
            b = np.exp(lg - lg.max(axis=1, keepdims=True))
            b = b / b.sum(axis=1, keepdims=True)
        out: FloatArray = b @ points
        return out

    def chosen_points(e: FloatArray, among: list[int], targets: NDArray[np.intp]) -> FloatArray:
        sub = e[np.ix_(among, targets)]
        pick = np.argmax(sub >= sub.max(axis=0) - 1e-9, axis=0)
        out: FloatArray = people[np.array(among)[pick], targets]
        return out

    combos = sorted({c for f in FAMILIES.values() for c in f})
    cache = {c: expected_of(c) for c in combos}
    boot = ClueChoiceResamples(responses)  # the clues resampled: 2,000 draws, seed 0
    if list(boot.targets) != every.tolist():  # the resamples' targets are this script's
        raise RuntimeError("ClueChoiceResamples orders the targets otherwise than this script")

    def interval(x: FloatArray, sign: str = "") -> str:
        got = boot.interval(x)
        return f"{got.mean:{sign}.3f} [{got.low:{sign}.3f}, {got.high:{sign}.3f}]"

    everyone = list(range(n))
    base = chosen_points(cache[AS_IT_IS], everyone, every)
    shipped = shipped_pool(language)
    if shipped not in cache:
        cache[shipped] = expected_of(shipped)
    ours = chosen_points(cache[shipped], everyone, every)
    in_sample = {}
    less_shipped = {}
    beaten_by = []
    for comb in combos:
        got = chosen_points(cache[comb], everyone, every)
        in_sample[comb] = (interval(got), interval(got - base, "+"))
        less_shipped[comb] = interval(got - ours, "+")
        if beats(boot.interval(got - ours).low):
            beaten_by.append(label(comb))
    families = {}
    for family, grid in FAMILIES.items():
        # Ties: the giver as it is first, then the smaller weight, arithmetic first.
        order = sorted(grid, key=lambda c: (c != AS_IT_IS, c[1], c[0]))
        chosen: list[Combination] = []
        for h in range(n):
            rest = [i for i in range(n) if i != h]
            targets = np.array(sorted({t for i in rest for t in picks[i]}))
            vals = np.array([chosen_points(cache[c], rest, targets).mean() for c in order])
            chosen.append(order[int(np.argmax(vals >= vals.max() - 1e-12))])
        # Held out by clue: each clue's targets scored at its fold's combination.
        total = np.zeros(len(every))
        count = np.zeros(len(every))
        for h in range(n):
            mine = np.array(picks[h])
            got = chosen_points(cache[chosen[h]], everyone, mine)
            idx = np.array([column[int(t)] for t in mine])
            total[idx] += got
            count[idx] += 1
        held = total / count
        # Each clue's belief at the combination chosen without it.
        own = np.stack([cache[chosen[h]][h] for h in range(n)])
        own_pts = chosen_points(own, everyone, every)
        families[family] = Family(
            interval(held),
            interval(held - base, "+"),
            interval(own_pts),
            interval(own_pts - base, "+"),
            Counter(label(c) for c in chosen).most_common(),
        )
    return Search(
        n, len(every), interval(base), in_sample, families, shipped, less_shipped, beaten_by
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=("en", "es"), default="en")
    parser.add_argument(
        "--held",
        action="store_true",
        help="Spanish: the dev words' glossary entries and own ratings left out",
    )
    parser.add_argument("--self-play", action="store_true", help="play instead (see above)")
    parser.add_argument("--games", type=int, default=1000, help="Spanish self-play's (1000)")
    parser.add_argument("--seed", type=int, default=5, help="Spanish self-play's (5)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args(argv)
    if args.self_play:
        from huescues.tournament import run_tournament

        # (The entrants are this script's factories: importable by the workers.)
        here = str(Path(__file__).resolve().parent)
        sys.path.insert(0, here)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (here, os.environ.get("PYTHONPATH", "")) if p
        )

        def play(entrants: tuple[str, ...], games: int, seed: int, language: str) -> Any:
            rules = {} if language == "en" else {"language": language}
            got = run_tournament(
                list(entrants), games=games, seed=seed, rules=rules, workers=args.workers
            )
            return got.report(seed=seed)  # (as ``huescues tournament`` reports it)

        print("\n".join(self_play(args.language, play, args.games, args.seed)))
        return
    got = search(args.language, args.held)
    print(
        f"{got.clues} dev clues, {got.targets} targets; the default giver as it is: "
        f"{got.as_it_is}\n"
    )
    print("In sample (every clue, every target):\n")
    print(
        f"| combination | points | less as it is | less the shipped pool ({label(got.shipped)}) |"
    )
    print("| --- | ---: | ---: | ---: |")
    for comb, (points, less) in got.in_sample.items():
        print(f"| {label(comb)} | {points} | {less} | {got.less_shipped[comb]} |")
    beaten = ", ".join(got.beaten_by) or "none"
    print(f"\nCombinations that beat the shipped pool (the interval above 0): {beaten}")

    print(
        "\n| family | held out by clue | less as it is | each clue at its own weight | less |"
        " chosen in the 39 folds |"
    )
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, f in got.families.items():
        folds = ", ".join(f"{k} in {v}" for k, v in f.chosen)
        print(f"| {name} | {f.held} | {f.held_less} | {f.own} | {f.own_less} | {folds} |")


if __name__ == "__main__":
    main()
