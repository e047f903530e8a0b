"""People and players per category of clue: the mean R15 points of a person against the others
(leave-one-out), of each player's square, and of a random square, with bootstrap intervals over
the category's clues."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from huescues.agents import catalogue_entry
from huescues.engine import Rules
from huescues.stats import Estimate

from ._agreement import _Bootstrap, _leave_one_out, _points, checked_inputs
from ._reading import reader, tie_points
from ._responses import HumanResponses, Response

__all__ = [
    "ALL_CATEGORIES",
    "CategoryAgreement",
    "CategoryReport",
    "agreement_by_category",
    "library_players",
]

#: The category of the row over every clue of the file.
ALL_CATEGORIES = "all clues"
#: The category of responses whose category cell is empty (or has no such column).
_NO_CATEGORY = "(none)"


@dataclass(frozen=True, slots=True)
class CategoryAgreement:
    """One category's measures, each a mean over its picks with a bootstrap interval over its
    clues: ``person`` is a person's pick scored against each other person's (leave-one-out,
    clues with two picks or more), ``players`` the points of each player's square (in the order
    the players were given), ``random`` the expected points of a square drawn uniformly from the
    board."""

    category: str
    clues: int
    picks: int
    person: Estimate
    players: tuple[tuple[str, Estimate], ...]
    random: Estimate

    def player(self, name: str) -> Estimate:
        """The estimate of the player called ``name``."""
        for n, e in self.players:
            if n == name:
                return e
        raise KeyError(f"no player named {name!r}; the players are {[n for n, _ in self.players]}")


@dataclass(frozen=True, slots=True)
class CategoryReport:
    """The rows of :func:`agreement_by_category`: one per category (in the order categories
    first appear in the file), then the row over all clues (category :data:`ALL_CATEGORIES`)."""

    rows: tuple[CategoryAgreement, ...]
    players: tuple[str, ...]
    level: float
    n_boot: int

    @property
    def overall(self) -> CategoryAgreement:
        """The row over every clue."""
        return self.rows[-1]

    def row(self, category: str) -> CategoryAgreement:
        """The row of ``category``."""
        for r in self.rows:
            if r.category == category:
                return r
        raise KeyError(
            f"no category {category!r}; the categories are {[r.category for r in self.rows]}"
        )

    def table_rows(self) -> dict[str, dict[str, object]]:
        """A row per category (the last over every clue), for
        :func:`~huescues.research.markdown_table`, its LaTeX twin and the forest plot."""
        return {
            r.category: {
                "clues": r.clues,
                "picks": r.picks,
                "a person": r.person,
                **dict(r.players),
                "random square": r.random,
            }
            for r in self.rows
        }

    def table(self, spec: str = ".2f") -> str:
        """The rows as a Markdown table (mean [interval] in each cell)."""
        head = ["category", "clues", "picks", "a person (leave-one-out)", *self.players]
        head.append("random square")
        lines = ["| " + " | ".join(head) + " |", "|---|---:|---:|" + "---:|" * (len(head) - 3)]
        for r in self.rows:
            cells = [r.category, str(r.clues), str(r.picks), r.person.format(spec)]
            cells += [e.format(spec) for _, e in r.players]
            cells.append(r.random.format(spec))
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)


def library_players() -> dict[str, object]:
    """The players measured by default, from the catalogue (:data:`huescues.agents.CATALOGUE`):
    the guesser of the ``combined`` player (``EmbeddingGuesser()``, on ``default_model()``
    alone), the ``default`` player and the ``naming`` baseline, under the labels the reports
    have always used."""
    combined = catalogue_entry("combined").build()
    return {
        "EmbeddingGuesser()": getattr(combined, "guesser", combined),
        "default_agent()": catalogue_entry("default").build(),
        "naming baseline": catalogue_entry("naming").build(),
    }


def agreement_by_category(
    responses: HumanResponses,
    players: Mapping[str, object] | None = None,
    *,
    category_column: str = "category",
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    rules: Rules | None = None,
) -> CategoryReport:
    """Per category of clue (the ``category_column`` of each response's extra columns), the mean
    R15 points of a person against the others, of each player in ``players`` (a name to a
    guesser, a seat or a colour-term model, read as :func:`human_agreement` reads them; by
    default ``EmbeddingGuesser()``, ``default_agent()`` and the naming-only baseline) and of a
    random square, with ``level`` percentile bootstrap intervals from ``n_boot`` resamples of
    the category's clues (drawn from ``seed`` for each category and shared by its measures, so
    that they are paired).

    Responses without a category are grouped under ``"(none)"``; the last row is over every
    clue. A clue is counted in the category of its first response.
    """
    groups, board, r15 = checked_inputs(responses, n_boot, level, rules, seed=seed)
    chosen = library_players() if players is None else dict(players)
    if not chosen:
        raise ValueError("no players to measure: give at least one")
    readers = [(name, reader(p, board, r15)[1]) for name, p in chosen.items()]

    # A random square's expected points against each target square (the board's edges matter).
    cells = board.cells()
    random_at = {t: sum(_points(r15, c, t) for c in cells) / len(cells) for t in cells}

    clues = list(groups)
    m = np.array([len(groups[c]) for c in clues], dtype=np.float64)
    person_sum, person_n = np.zeros(len(clues)), np.zeros(len(clues))
    random_sum = np.zeros(len(clues))
    player_sum = np.zeros((len(readers), len(clues)))
    for i, clue in enumerate(clues):
        picks = groups[clue]
        loo = _leave_one_out(r15, picks)
        if loo is not None:
            person_sum[i], person_n[i] = loo * len(picks), len(picks)
        random_sum[i] = sum(random_at[p.square] for p in picks)
        for j, (_, read) in enumerate(readers):
            tied = read(clue).best  # a tie scores the mean of its squares
            player_sum[j, i] = float(tie_points(r15, tied, [p.square for p in picks]).sum())

    by_category: dict[str, list[int]] = {}
    for i, clue in enumerate(clues):
        by_category.setdefault(_category(groups[clue][0], category_column), []).append(i)
    if ALL_CATEGORIES in by_category:
        raise ValueError(
            f"a clue's category is {ALL_CATEGORIES!r}, the name of the row over every clue; "
            "rename that category"
        )
    by_category[ALL_CATEGORIES] = list(range(len(clues)))

    rows = []
    for category, members in by_category.items():
        idx = np.array(members)
        boot = _Bootstrap(len(idx), n_boot, seed, level)
        rows.append(
            CategoryAgreement(
                category=category,
                clues=len(idx),
                picks=int(m[idx].sum()),
                person=boot.ratio(person_sum[idx], person_n[idx]),
                players=tuple(
                    (name, boot.ratio(player_sum[j, idx], m[idx]))
                    for j, (name, _) in enumerate(readers)
                ),
                random=boot.ratio(random_sum[idx], m[idx]),
            )
        )
    return CategoryReport(tuple(rows), tuple(chosen), level, n_boot)


def _category(response: Response, column: str) -> str:
    return str(response.extra.get(column, "")).strip() or _NO_CATEGORY
