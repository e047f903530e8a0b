"""``huescues responses report``: what a methods section needs of a study, from its database in
one command, as Markdown: the participants by study and status (and the exclusion rule), their
devices, the median time an item took, each clue's answers and how far people agree on it (R15
points of a pick against the others', with intervals), the clue givers' points when the study
showed a giver's clues, and people and bots reading each other in the game study's games."""

from __future__ import annotations

import os
import statistics
import tempfile
from collections import Counter
from pathlib import Path

from huescues.engine import Board

from ._export import _open, export_actions, export_given_clues, export_responses
from ._study_status import STATUSES, ParticipantStatus, participant_statuses

__all__ = ["study_report"]


def study_report(
    db: str | os.PathLike[str], board: Board, *, n_boot: int = 2000, seed: int = 0
) -> str:
    """The report of the study in ``db`` (its clicks on ``board``) as Markdown."""
    from huescues.research import (
        GameActions,
        GivenClues,
        HumanResponses,
        people_agreement,
        points_by_giver,
        reading_in_play,
    )

    database = _open(db)
    try:
        statuses = participant_statuses(database)
        completed = {code for code, s in statuses.items() if s.status == "completed"}
        timing_done = database.query(
            "SELECT p.id, p.study, r.response_ms FROM responses r JOIN participants p "
            "ON p.id = r.participant WHERE r.trial = 'clue' AND r.response_ms IS NOT NULL "
            "UNION ALL SELECT p.id, p.study, g.response_ms FROM given_clues g JOIN participants p "
            "ON p.id = g.participant WHERE g.trial = 'give' AND g.response_ms IS NOT NULL"
        )
    finally:
        database.close()
    lines = [f"# Study report: {Path(db).name}", ""]
    lines += _participants(statuses)
    lines += _times(
        [(r["study"], int(r["response_ms"])) for r in timing_done if r["id"] in completed]
    )
    with tempfile.TemporaryDirectory() as tmp:
        clicks = Path(tmp) / "responses.csv"
        export_responses(db, clicks)
        responses = HumanResponses.from_csv(clicks, board)
        responses = responses.where(lambda r: r.extra.get("board") == board.id)
        given_path = Path(tmp) / "given.csv"
        export_given_clues(db, given_path)
        given = GivenClues.from_csv(given_path, board)
        actions_path = Path(tmp) / "actions.csv"
        export_actions(db, actions_path)
        actions = GameActions.from_csv(actions_path)
    if len(responses):
        lines += ["## Each clue's answers", ""]
        lines += [
            f"People's agreement on each clue: the mean R15 points of a pick against each other "
            f"pick of the clue taken as the target (leave-one-out), with a 95 % bootstrap "
            f"interval over the clue's picks ({n_boot} resamples); completed participants only; "
            f"the clues in alphabetical order.",
            "",
            "| clue | answers | agreement (R15 points a pick) |",
            "| --- | ---: | --- |",
        ]
        for c in sorted(
            people_agreement(responses, n_boot=n_boot, seed=seed), key=lambda c: c.clue
        ):
            lines.append(f"| {c.clue} | {c.n} | {c.points.format('.2f')} |")
        lines.append("")
        if any(r.extra.get("giver") and r.extra.get("target") for r in responses.rows):
            report = points_by_giver(responses, n_boot=n_boot, seed=seed)
            lines += [
                "## The clue givers",
                "",
                f"Mean R15 points per click from each clue giver's clues on board {board.id} "
                f"(mean [{report.level:.0%} bootstrap interval over the giver's clues and "
                "targets]):",
                "",
                report.table(),
                "",
            ]
    if len(given):
        targets = Counter(str(g.target) for g in given.rows)
        lines += [
            "## Clues given",
            "",
            f"{len(given)} clues given for {len(targets)} targets by completed participants "
            f"(answers per target: {min(targets.values())} to {max(targets.values())}).",
            "",
        ]
    if len(actions):
        play = reading_in_play(actions, n_boot=n_boot, seed=seed)
        lines += [
            "## People and bots in the game study",
            "",
            "Mean R15 points a pawn, by who placed it and who gave its round's clues:",
            "",
            play.table(),
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def _participants(statuses: dict[str, ParticipantStatus]) -> list[str]:
    by: Counter[tuple[str, str]] = Counter()
    devices: Counter[tuple[str, str]] = Counter()
    for s in statuses.values():
        by[(s.study, s.status)] += 1
        devices[(s.study, s.device or "unknown")] += 1
    studies = sorted({study for study, _ in by})
    lines = ["## Participants", ""]
    if not studies:
        return [*lines, "No participant yet.", ""]
    lines += ["| study | " + " | ".join(STATUSES) + " | in all |", "| --- |" + " ---: |" * 4]
    for study in studies:
        counts = [by[(study, status)] for status in STATUSES]
        lines.append(f"| {study} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
    lines += [
        "",
        "The analyses keep the completed participants (huescues.research's exclusion rule; "
        "keep='all' keeps everyone): screened out means more attention checks missed than the "
        "study allowed, incomplete that the participant stopped before the end.",
        "",
        "Devices: " + "; ".join(_devices(devices, study) for study in studies) + ".",
        "",
    ]
    return lines


def _devices(devices: Counter[tuple[str, str]], study: str) -> str:
    return f"{study}: " + ", ".join(
        f"{n} {d}" for (s, d), n in sorted(devices.items()) if s == study
    )


def _times(times: list[tuple[str, int]]) -> list[str]:
    if not times:
        return []
    lines = ["## Time an item took", "", "| study | items | median | quartiles |"]
    lines.append("| --- | ---: | ---: | --- |")
    for study in sorted({s for s, _ in times}):
        ms = sorted(t for s, t in times if s == study)
        q = statistics.quantiles(ms, n=4) if len(ms) > 1 else [ms[0]] * 3
        lines.append(
            f"| {study} | {len(ms)} | {statistics.median(ms) / 1000:.1f} s | "
            f"{q[0] / 1000:.1f}-{q[2] / 1000:.1f} s |"
        )
    return [*lines, "", "(Completed participants' real trials: no practice, checks or plates.)", ""]
