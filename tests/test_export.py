"""Tidy exports of played rounds (docs/export.md): one row per pawn, CSV and Parquet."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from huescues import Board, GameRecord, Rules
from huescues.agents import PlayedGame, RandomAgent, play_game
from huescues.colour import delta_e_2000, hue_lightness_palette
from huescues.export import COLUMNS, load_rounds, rounds_table, save_rounds, to_dataframe
from huescues.tournament import Entrant, TournamentResults, run_tournament

NAMES = [name for name, _ in COLUMNS]


def played(seed: int = 4, n: int = 4, board: Board | None = None) -> PlayedGame:
    return play_game([RandomAgent() for _ in range(n)], seed=seed, board=board)


def test_rows_equal_the_games_history() -> None:
    game = played()
    state = game.state
    rows = rounds_table([state], agents=["a", "b", "c", "d"])
    assert all(list(row) == NAMES for row in rows)
    assert len(rows) == sum(len(r.pawns) for r in state.history)
    by_seat = [0] * 4
    giver_points = [0] * 4
    for r in state.history:
        giver_points[r.giver] += r.points[r.giver]
    for row in rows:
        by_seat[row["pawn_seat"]] += row["points"]
    assert by_seat == [s - g for s, g in zip(state.scores, giver_points, strict=True)]
    first = state.history[0]
    row = rows[0]
    assert (row["round"], row["giver_seat"], row["target"]) == (0, first.giver, str(first.target))
    assert row["clue1"] == first.clues[0] and row["passed"] == first.passed
    assert (row["pawn_seat"], row["pawn"], row["guess"]) == (
        first.pawns[0][0],
        str(first.pawns[0][1]),
        1,
    )
    assert row["giver_agent"] == "abcd"[first.giver]
    board = state.board
    cell = board.cell(row["pawn"])
    assert [row["pawn_L"], row["pawn_a"], row["pawn_b"]] == board.lab[cell.row, cell.col].tolist()
    assert row["distance"] == cell.distance(first.target)
    t = board.lab[first.target.row, first.target.col]
    assert row["delta_e"] == pytest.approx(float(delta_e_2000(t, board.lab[cell.row, cell.col])))
    # Every seat's second pawn of a round is guess 2.
    assert sorted({row["guess"] for row in rows}) == [1, 2]


def test_records_replay_and_custom_boards() -> None:
    board = Board.from_rgb(hue_lightness_palette(6, 10), id="export-6x10")
    game = played(seed=2, n=3, board=board)
    from_record = rounds_table([game.record], board=board)
    assert from_record == rounds_table(game.state)
    assert {row["board_id"] for row in from_record} == {"export-6x10"}
    assert from_record[0]["giver_agent"] is None
    with pytest.raises(ValueError, match="pass it as board"):
        rounds_table([game.record])
    with pytest.raises(ValueError, match="agent names"):
        rounds_table([game.state], board=board, agents=["x"])
    with pytest.raises(TypeError, match="not a game"):
        rounds_table([42])


def test_tournament_results_and_their_file(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    entrants = [Entrant("alpha", "random"), Entrant("beta", "random")]
    results = run_tournament(entrants, games=4, players=(3,), seed=1, workers=1, out=out)
    rows = rounds_table(results)
    assert rows == rounds_table(out) == rounds_table(TournamentResults.load(out))
    assert {row["pawn_agent"] for row in rows} == {"alpha", "beta"}
    for g in results.games:
        mine = [row for row in rows if row["game"] == g["game"]]
        assert len(mine) == sum(len(r["pawns"]) for r in g["rounds"])
        # A guesser's points per round are the engine's, less nothing (guessers do not give).
        for r in g["rounds"]:
            for seat in {s for s, _ in r["pawns"]}:
                got = sum(
                    x["points"] for x in mine if x["round"] == r["round"] and x["pawn_seat"] == seat
                )
                assert got == r["points"][seat]
    # Replaying the games' records gives the same rows, apart from the names.
    records = [GameRecord.from_dict(g["record"]) for g in results.games]
    replayed = rounds_table(records)
    strip = ("game", "giver_agent", "pawn_agent")
    assert [{k: v for k, v in r.items() if k not in strip} for r in replayed] == [
        {k: v for k, v in r.items() if k not in strip} for r in rows
    ]


def test_csv_round_trip(tmp_path: Path) -> None:
    state = played(seed=7).state
    rows = rounds_table(state, agents=["a", "b", "c", "d"])
    assert any(row["clue2"] is None for row in rows) or all(not row["passed"] for row in rows)
    path = save_rounds(state, tmp_path / "rounds.csv", agents=["a", "b", "c", "d"])
    assert path.read_text().splitlines()[0] == ",".join(NAMES)
    assert load_rounds(path) == rows


def test_unknown_extension_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.csv or \.parquet"):
        save_rounds(played().state, tmp_path / "rounds.xlsx")


def test_parquet_and_dataframe(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    state = played(seed=8).state
    rows = rounds_table(state)
    path = save_rounds(state, tmp_path / "rounds.parquet")
    assert load_rounds(path) == rows
    frame = to_dataframe(state)
    assert list(frame.columns) == NAMES and len(frame) == len(rows)
    assert pd.read_parquet(path)["points"].sum() == frame["points"].sum()
    from_csv = pd.read_csv(save_rounds(state, tmp_path / "rounds.csv"))
    assert np.allclose(from_csv["delta_e"], frame["delta_e"])


def test_standard_rules_are_used_for_a_game_without_record() -> None:
    game = {
        "game": 0,
        "seed": 1,
        "n_players": 3,
        "board_id": Board.standard().id,
        "seats": ["x", "y", "z"],
        "rounds": [
            {
                "round": 0,
                "giver": 0,
                "tiebreak": False,
                "target": "F12",
                "clues": ["sky"],
                "pawns": [[1, "F12"], [2, "A1"]],
                "points": [3, 3, 0],
            }
        ],
        "record": None,
    }
    rows = rounds_table([game])
    assert [r["points"] for r in rows] == [3, 0] and rows[0]["distance"] == 0
    assert Rules.standard(3).points_by_distance[0] == 3


def test_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    state = played().state
    with pytest.raises(ImportError, match=r"huescues\[export\]"):
        to_dataframe(state)
    with pytest.raises(ImportError, match=r"huescues\[export\]"):
        save_rounds(state, tmp_path / "rounds.parquet")
    save_rounds(state, tmp_path / "rounds.csv")  # CSV needs neither


def test_agent_names_may_differ_from_game_to_game() -> None:
    games = [played(seed=1, n=3).state, played(seed=2, n=4).state]
    rows = rounds_table(games, agents=[["a", "b", "c"], ["w", "x", "y", "z"]])
    names = {(row["game"], row["pawn_seat"]): row["pawn_agent"] for row in rows}
    assert names[(0, 2)] == "c" and names[(1, 3)] == "z"
    with pytest.raises(ValueError, match="3 agent names for a 4-player game"):
        rounds_table(games, agents=[["a", "b", "c"], ["a", "b", "c"]])


def test_rotating_seats_are_labelled_per_game_in_the_dataframe() -> None:
    pytest.importorskip("pandas")
    # The same three players, seated differently in each game (as a tournament rotates them).
    seatings = [["ann", "bob", "cy"], ["cy", "ann", "bob"]]
    games = [played(seed=1, n=3).record, played(seed=2, n=3).record]
    frame = to_dataframe(games, agents=seatings)
    for game, seating in enumerate(seatings):
        rows = frame[frame["game"] == game]
        assert all(rows["pawn_agent"] == [seating[s] for s in rows["pawn_seat"]])
        assert all(rows["giver_agent"] == [seating[s] for s in rows["giver_seat"]])
    # The old form, one list for every game, still names the seats alike in each.
    same = to_dataframe(games, agents=seatings[0])
    assert set(same[same["pawn_seat"] == 0]["pawn_agent"]) == {"ann"}
    # One list per game, no more and no fewer.
    with pytest.raises(ValueError, match=r"1 lists of names \(one per game\) for more games"):
        to_dataframe(games, agents=[seatings[0]])
    with pytest.raises(ValueError, match=r"3 lists of names \(one per game\) for 2 games"):
        to_dataframe(games, agents=[*seatings, seatings[0]])
