"""Issue 20, defect 2: formula injection in the CSV files huescues writes. A text cell starting
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is quoted with a leading ``'``
(OWASP), text starting with ``'`` gets one more, numbers stay numbers, and the project's own
readers give back exactly what was written."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from huescues.agents import RandomAgent, play_game
from huescues.engine import (
    FORMULA_STARTS,
    Board,
    Cell,
    normalise_clue,
    safe_cell,
    safe_row,
    unescape_cell,
)
from huescues.export import load_rounds, rounds_table, save_rounds
from huescues.research import HumanResponses, human_agreement, points_by_giver
from huescues.tournament import Report
from huescues.web import StudyConfig, create_app, export_responses
from test_report import three_games

#: Cells a spreadsheet would run, and one already quoted.
HOSTILE = ('=hyperlink("http://x")', "@sum(1+1)", "+cmd", "-2+3", "\tx", "\rx", "'quoted")


def cells(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def runs(cell: str) -> bool:
    """Whether a spreadsheet would run the cell as a formula (numbers it reads as numbers)."""
    return cell.startswith(FORMULA_STARTS) and not plain_number(cell)


def plain_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# -- the escaping itself ---------------------------------------------------------------------
@settings(max_examples=250, deadline=None)
@given(st.text())
def test_unescape_gives_back_any_text_and_no_escaped_text_is_a_formula(text: str) -> None:
    escaped = safe_cell(text)
    assert isinstance(escaped, str)
    assert unescape_cell(escaped) == text
    if escaped.startswith(FORMULA_STARTS):
        # Only a plain number (-3, +0.5, -1e5) is left as it is; a spreadsheet reads it as one.
        assert escaped == text and plain_number(text)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([*FORMULA_STARTS, "'"]), st.text())
def test_text_after_a_dangerous_start_is_always_quoted(first: str, rest: str) -> None:
    text = first + rest
    if plain_number(text) and first != "'":
        return  # a number stays a number
    assert safe_cell(text) == "'" + text


def test_numbers_stay_numbers() -> None:
    assert safe_row([-3, -0.5, 7, None, "-3", "-0.5", "+1e5", "12"]) == [
        -3,
        -0.5,
        7,
        None,
        "-3",
        "-0.5",
        "+1e5",
        "12",
    ]
    # Text that float() reads but a spreadsheet does not take for a number is quoted.
    assert [safe_cell(t) for t in ("-inf", "-nan", "-1_0", "- 3")] == [
        "'-inf",
        "'-nan",
        "'-1_0",
        "'- 3",
    ]


# -- every writer, and its reader ------------------------------------------------------------
def test_a_study_clue_that_is_a_formula_is_exported_quoted_and_read_back_exactly(
    tmp_path: Path,
) -> None:
    """The researcher's own list may hold such text (_check_clues allows any short text)."""
    db = tmp_path / "study.sqlite"
    clues = tuple(normalise_clue(c) for c in HOSTILE if not c[0].isspace())
    with TestClient(
        create_app(db, study=StudyConfig(clues=clues, clues_per_person=len(clues)))
    ) as client:
        r = client.post("/study/api/start", json={"consent": True})
        assert r.status_code == 201, r.text
        session = r.json()
        item = session["item"]
        while item is not None:
            r = client.post(
                "/study/api/answer",
                json={
                    "participant": session["participant"],
                    "item": item["index"],
                    "square": "F12",
                },
            )
            assert r.status_code == 200, r.text
            item = r.json().get("item")
    out = tmp_path / "responses.csv"
    assert export_responses(db, out) == len(clues)
    raw = cells(out)
    clue_at = raw[0].index("clue")
    written = {row[clue_at] for row in raw[1:]}
    assert '\'=hyperlink("http://x")' in written and "'@sum(1+1)" in written
    assert "'+cmd" in written and "'-2+3" in written and "''quoted" in written
    assert not any(runs(c) for row in raw for c in row)
    loaded = HumanResponses.from_csv(out, Board.standard(), strict=True)
    assert sorted(r.clue for r in loaded.rows) == sorted(clues)


@pytest.mark.slow  # the first round table reads the colour tables: about a second
def test_the_round_table_quotes_text_and_reads_it_back(tmp_path: Path) -> None:
    state = play_game([RandomAgent() for _ in range(4)], seed=7).state
    names = ["=cmd|' /C calc'!A0", "@sum(1+1)", "'quoted", "-x"]
    rows = rounds_table(state, agents=names)
    path = save_rounds(state, tmp_path / "rounds.csv", agents=names)
    raw = cells(path)
    assert not any(runs(c) for row in raw for c in row)
    assert "''quoted" in {c for row in raw for c in row}
    assert load_rounds(path) == rows


def test_tournament_report_csvs_quote_entrant_names(tmp_path: Path) -> None:
    renamed = json.loads(json.dumps(three_games()).replace('"A"', '"=A()"'))
    report = Report.from_games(renamed, n_boot=20)
    paths = report.to_csv(tmp_path / "csv")
    entrants = cells(tmp_path / "csv" / "entrants.csv")
    assert [row[0] for row in entrants[1:]] == ["'=A()", "B", "C"]
    for path in paths:
        assert not any(runs(c) for row in cells(path) for c in row)


class FixedGuesser:
    """Always one square: a ranking player, quick to measure."""

    def rank(self, board: Board, clues: Sequence[str]) -> list[Cell]:
        return [board.cell("A1")]


def test_research_csvs_quote_clues_and_giver_names(tmp_path: Path) -> None:
    records: list[dict[str, Any]] = [
        {"participant": f"p{p}", "clue": clue, "square": "A1", "giver": "@g", "target": "B2"}
        for p in range(2)
        for clue in ("=1+1", "+sky")
    ]
    responses = HumanResponses.from_records(records, Board.standard(), strict=True)
    agreement = human_agreement(FixedGuesser(), responses, n_boot=0)
    agreement.to_csv(tmp_path / "agreement.csv")
    givers = points_by_giver(responses, {"-g": FixedGuesser()}, n_boot=10)
    givers.to_csv(tmp_path / "givers.csv")
    per_clue = cells(tmp_path / "agreement.csv")
    assert {row[0] for row in per_clue[1:]} == {"'=1+1", "'+sky"}
    by_giver = cells(tmp_path / "givers.csv")
    assert {(row[0], row[1]) for row in by_giver[1:]} >= {("'@g", "people"), ("'@g", "'-g")}
    for name in ("agreement.csv", "givers.csv"):
        assert not any(runs(c) for row in cells(tmp_path / name) for c in row)


def test_a_board_written_quoted_reads_back(tmp_path: Path) -> None:
    """Board.to_csv has no dangerous text, but Board.from_csv reads a file quoted cell by cell
    (as a careful tool might write it) as the same board."""
    board = Board.from_rgb(np.arange(2 * 3 * 3).reshape(2, 3, 3) * 10)
    plain = tmp_path / "plain.csv"
    board.to_csv(plain)
    quoted = tmp_path / "quoted.csv"
    with quoted.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["'" + c for c in row] for row in cells(plain)])
    assert Board.from_csv(quoted).id == Board.from_csv(plain).id == board.id


@pytest.mark.parametrize("clue", HOSTILE)
def test_human_responses_read_quoted_cells_exactly(clue: str, tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["clue", "square", "note"])
        w.writerow(safe_row([clue, "A1", clue]))
    (row,) = HumanResponses.from_csv(path, Board.standard(), strict=True).rows
    assert row.extra["note"] == clue.strip() and row.clue == " ".join(clue.lower().split())
