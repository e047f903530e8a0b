"""The tournament report: statistics by hand, intervals, ratings, tables and files."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from huescues import Cell, GameState, play_game
from huescues.agents import RandomAgent
from huescues.engine import GameRecord
from huescues.stats import Estimate
from huescues.tournament import Report

_TABLE = (3, 2, 1)


def round_dict(
    index: int,
    giver: int,
    target: str,
    pawns: list[tuple[int, str]],
    n: int,
    *,
    tiebreak: bool = False,
) -> dict[str, Any]:
    """A round as in the results file, scored by R15 and R16 (no giver points in tie-breakers)."""
    t = Cell.parse(target)
    points = [0] * n
    for seat, square in pawns:
        d = t.distance(Cell.parse(square))
        points[seat] += _TABLE[d] if d < len(_TABLE) else 0
        if d <= 1 and not tiebreak:
            points[giver] += 1
    return {
        "round": index,
        "giver": giver,
        "tiebreak": tiebreak,
        "target": target,
        "clues": ["sky"],
        "pawns": [[seat, square] for seat, square in pawns],
        "points": points,
    }


def game_dict(
    index: int,
    seed: int,
    seats: list[str],
    rounds: list[dict[str, Any]] | None = None,
    *,
    scores: list[int] | None = None,
    status: str = "finished",
    faults: list[dict[str, Any]] | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    """A game as in the results file; the scores add up the rounds unless given."""
    n = len(seats)
    rounds = rounds or []
    if scores is None:
        scores = [sum(r["points"][s] for r in rounds) for s in range(n)]
    top = max(scores)
    return {
        "format": 1,
        "game": index,
        "seed": seed,
        "n_players": n,
        "board_id": "standard",
        "seats": seats,
        "status": status,
        "error": error,
        "scores": scores,
        "winners": [s for s in range(n) if scores[s] == top] if status == "finished" else [],
        "tiebreak_rounds": sum(r["tiebreak"] for r in rounds),
        "rounds": rounds,
        "faults": faults or [],
        "record": {},
    }


def fault(seat: int, entrant: str, kind: str, round_: int = 0) -> dict[str, Any]:
    return {
        "seat": seat,
        "entrant": entrant,
        "kind": kind,
        "round": round_,
        "phase": "first_guess",
        "message": f"{kind} by {entrant}",
    }


def three_games() -> list[dict[str, Any]]:
    """One block of three games (seed 10, lineup A B C rotated) and an unfinished game.

    Worked out by hand in the test below; game 2 ends in a shared win after a tie-breaker.
    """
    g0 = game_dict(
        0,
        10,
        ["A", "B", "C"],
        [
            round_dict(0, 0, "F12", [(1, "F12"), (2, "H12")], 3),  # [1, 3, 1]
            round_dict(1, 1, "C3", [(2, "C4"), (0, "J9")], 3),  # [0, 1, 2]
            round_dict(2, 2, "K20", [(0, "K21"), (1, "L21")], 3),  # [2, 2, 2]
        ],
    )
    g1 = game_dict(
        1,
        10,
        ["B", "C", "A"],
        [
            round_dict(0, 0, "F12", [(1, "F12"), (2, "F13")], 3),  # [2, 3, 2]
            round_dict(1, 1, "C3", [(2, "A1"), (0, "C3")], 3),  # [3, 1, 1]
            round_dict(2, 2, "K20", [(0, "K20"), (1, "M20")], 3),  # [3, 1, 1]
        ],
        faults=[fault(2, "A", "timeout"), fault(2, "A", "illegal", 1), fault(0, "B", "timeout")],
    )
    g2 = game_dict(
        2,
        10,
        ["C", "A", "B"],
        [
            round_dict(0, 0, "F12", [(1, "G12"), (2, "F12")], 3),  # [2, 2, 3]
            round_dict(1, 1, "C3", [(2, "C3"), (0, "D3")], 3),  # [2, 2, 3]
            round_dict(2, 2, "K20", [(0, "K20"), (1, "K22")], 3),  # [3, 1, 1]
            round_dict(3, 1, "A1", [(0, "C3"), (2, "C1")], 3, tiebreak=True),  # [1, 0, 1]
        ],
    )
    g3 = game_dict(
        3,
        11,
        ["A", "B", "C"],
        [round_dict(0, 0, "F12", [(1, "F12"), (2, "F13")], 3)],
        scores=[50, 0, 0],
        status="unfinished",
        error="TimeoutError: seat 1 took too long",
        faults=[fault(1, "B", "exception")],
    )
    return [g0, g1, g2, g3]


def test_the_hand_worked_example() -> None:
    games = three_games()
    assert games[2]["scores"] == [8, 5, 8] and games[2]["winners"] == [0, 2]
    report = Report.from_games(games, n_boot=200)
    a, b, c = (report.entrant(e) for e in "ABC")
    assert (report.n_games, report.n_finished, report.n_blocks) == (4, 3, 2)
    assert (a.games, b.games, c.games) == (3, 3, 3)
    # Final scores: A 3, 4, 5; B 6, 8, 8; C 5, 5, 8 (the unfinished game's 50 is left out).
    assert a.points_per_game.mean == pytest.approx(4.0)
    assert b.points_per_game.mean == pytest.approx(22 / 3)
    assert c.points_per_game.mean == pytest.approx(6.0)
    assert a.points_per_game.n == 3 and a.points_per_game.blocks == 1
    # Giver points in regular rounds: A 1, 1, 2; B 1, 2, 1; C 2, 1, 2 (tie-breaker excluded).
    assert a.giver_points_per_round.mean == pytest.approx(4 / 3)
    assert b.giver_points_per_round.mean == pytest.approx(4 / 3)
    assert c.giver_points_per_round.mean == pytest.approx(5 / 3)
    assert a.giver_points_per_round.n == 3
    # Guesser points per pawn, regular rounds: A 0 2 2 1 2 1; B 3 2 3 3 3 3; C 1 2 3 1 2 3.
    assert a.guesser_points_per_pawn.mean == pytest.approx(8 / 6)
    assert b.guesser_points_per_pawn.mean == pytest.approx(17 / 6)
    assert c.guesser_points_per_pawn.mean == pytest.approx(2.0)
    assert c.guesser_points_per_pawn.n == 6
    assert a.frame_share.mean == pytest.approx(3 / 6)
    assert b.frame_share.mean == pytest.approx(1.0)
    assert c.frame_share.mean == pytest.approx(4 / 6)
    # One block: every resample is the block itself, so the interval is the mean.
    assert a.points_per_game.low == pytest.approx(4.0) == a.points_per_game.high


def test_win_rate_counts_a_shared_win_as_a_fraction() -> None:
    report = Report.from_games(three_games(), n_boot=100)
    # B won game 0 and game 1 and shared game 2 with C.
    assert report.entrant("A").win_rate.mean == 0.0
    assert report.entrant("B").win_rate.mean == pytest.approx(2.5 / 3)
    assert report.entrant("C").win_rate.mean == pytest.approx(0.5 / 3)
    assert report.entrant("B").wins == pytest.approx(2.5)
    assert sum(report.entrant(e).wins for e in "ABC") == pytest.approx(report.n_finished)


def test_faults_are_counted_by_entrant_and_kind() -> None:
    report = Report.from_games(three_games(), n_boot=50)
    counts = {(f.entrant, f.kind): (f.count, f.in_unfinished) for f in report.faults}
    assert counts == {
        ("A", "illegal"): (1, 0),
        ("A", "timeout"): (1, 0),
        ("B", "exception"): (1, 1),
        ("B", "timeout"): (1, 0),
    }
    # Sorted by entrant, then by kind in a fixed order.
    assert [(f.entrant, f.kind) for f in report.faults][:2] == [("A", "illegal"), ("A", "timeout")]
    assert [report.entrant(e).faults for e in "ABC"] == [2, 2, 0]


def test_unfinished_games_are_listed_and_left_out_of_the_scores() -> None:
    report = Report.from_games(three_games(), n_boot=50)
    assert [u.game for u in report.unfinished] == [3]
    u = report.unfinished[0]
    assert u.seats == ("A", "B", "C") and u.rounds == 1 and u.seed == 11
    assert u.error is not None and "TimeoutError" in u.error
    assert [report.entrant(e).unfinished for e in "ABC"] == [1, 1, 1]
    # Its round (a pawn of C on F13, one of B on F12) counts nowhere either.
    assert report.entrant("C").guesser_points_per_pawn.n == 6
    # A tournament of nothing but unfinished games still reports, with no numbers.
    only = Report.from_games([three_games()[3]], n_boot=50)
    assert only.n_finished == 0 and only.entrant("A").points_per_game.mean is None
    assert only.entrant("A").points_per_game.format() == "-"
    assert only.entrant("A").mu == pytest.approx(25.0)


def test_crossplay_pairs_and_frame_shares() -> None:
    report = Report.from_games(three_games(), n_boot=50)
    cells = {(c.giver, c.guesser): c for c in report.crossplay}
    assert set(cells) == {(g, h) for g in "ABC" for h in "ABC" if g != h}
    ab, ac = cells["A", "B"], cells["A", "C"]
    # A's clues: B placed F12, K20, C3 (3 points each, all in the frame);
    # C placed H12 (1), M20 (1), D3 (2, in the frame).
    assert (ab.pawns, ab.points_per_pawn, ab.frame_share) == (3, 3.0, 1.0)
    assert (ac.pawns, ac.points_per_pawn) == (3, pytest.approx(4 / 3))
    assert ac.frame_share == pytest.approx(1 / 3)
    assert ab.rounds == 3
    # Every regular-round pawn of a finished game is in exactly one cell.
    assert sum(c.pawns for c in report.crossplay) == 18


def paired_games(n_blocks: int, *, seed: int = 0) -> list[dict[str, Any]]:
    """Blocks of three-seat games with lineup A B A rotated; A always outscores B."""
    rng = np.random.default_rng(seed)
    games: list[dict[str, Any]] = []
    for block in range(n_blocks):
        lineup = ["A", "B", "A"]
        for k in range(3):
            seats = lineup[k:] + lineup[:k]
            scores = [
                int(rng.integers(10, 20)) if e == "A" else int(rng.integers(0, 10)) for e in seats
            ]
            games.append(game_dict(len(games), 100 + block, seats, scores=scores))
    return games


def test_paired_comparison_sign_when_a_always_beats_b() -> None:
    games = paired_games(8)
    report = Report.from_games(games, n_boot=500)
    assert report.n_blocks == 8
    assert report.entrant("A").games == 48 and report.entrant("B").games == 24
    (pair,) = report.paired
    assert (pair.a, pair.b, pair.blocks) == ("A", "B", 8)
    assert pair.a_better == 1.0 and pair.ties == 0.0
    d = pair.difference
    assert d.mean is not None and d.low is not None and d.mean > 0 and d.low > 0
    # The mean difference is A's per-seat mean minus B's, block by block, averaged.
    by_block: dict[int, dict[str, list[int]]] = {}
    for g in games:
        for e, s in zip(g["seats"], g["scores"], strict=True):
            by_block.setdefault(g["seed"], {}).setdefault(e, []).append(s)
    diffs = [np.mean(v["A"]) - np.mean(v["B"]) for v in by_block.values()]
    assert d.mean == pytest.approx(float(np.mean(diffs)))
    # Reversing the order of the entrants flips the sign.
    flipped = Report.from_games(games, entrants=["B", "A"], n_boot=500).paired[0]
    assert flipped.a == "B" and flipped.difference.mean == pytest.approx(-d.mean)
    assert flipped.a_better == 0.0


def test_difference_reads_a_pair_either_way_round() -> None:
    report = Report.from_games(paired_games(8), n_boot=500)
    d, back = report.difference("A", "B"), report.difference("B", "A")
    assert d == report.paired[0].difference
    assert d.mean is not None and d.low is not None and d.high is not None
    # B against A: the same interval, negated and turned round; its printed form's signs too.
    assert (back.mean, back.low, back.high) == (-d.mean, -d.high, -d.low)
    assert (back.n, back.blocks) == (d.n, d.blocks)
    assert back.format("+.2f") == f"{-d.mean:+.2f} [{-d.high:+.2f}, {-d.low:+.2f}]"
    with pytest.raises(KeyError, match="'A' and 'C'"):
        report.difference("A", "C")


def test_blocks_with_an_unfinished_game_are_left_out_of_paired_comparisons() -> None:
    games = paired_games(3)
    games[4]["status"] = "unfinished"
    report = Report.from_games(games, n_boot=100)
    assert report.paired[0].blocks == 2
    assert report.entrant("A").unfinished == 2


def test_ratings_put_a_player_who_always_wins_first() -> None:
    report = Report.from_games(paired_games(6), n_boot=100)
    a, b = report.entrant("A"), report.entrant("B")
    assert a.mu > 25.0 > b.mu
    assert a.ordinal > b.ordinal
    assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
    assert a.sigma < 25 / 3 and b.sigma < 25 / 3
    assert [r.entrant for r in report.ranking()] == ["A", "B"]
    # In the worked example B wins most: it is rated first.
    assert report.ranking()[-1].entrant == "B"
    assert Report.from_games(three_games(), n_boot=50).ranking()[0].entrant == "B"


def test_intervals_contain_the_mean_and_are_deterministic() -> None:
    games = paired_games(20, seed=3)
    one = Report.from_games(games, seed=7, n_boot=1000)
    again = Report.from_games(games, seed=7, n_boot=1000)
    other = Report.from_games(games, seed=8, n_boot=1000)
    assert one == again
    assert one.to_json() == again.to_json()
    row = one.entrant("A")
    # A holds two seats of every game and one of them always wins: its rate per seat is 1/2.
    assert row.win_rate == Estimate(0.5, 0.5, 0.5, 120, 20)
    for e in (
        row.points_per_game,
        one.entrant("B").points_per_game,
        one.paired[0].difference,
    ):
        assert e.mean is not None and e.low is not None and e.high is not None
        assert e.low <= e.mean <= e.high
        assert e.low < e.high
    assert other.entrant("A").points_per_game.mean == row.points_per_game.mean
    assert other.entrant("A").points_per_game.low != row.points_per_game.low
    # An interval does not depend on which other entrants are reported.
    listed = Report.from_games(games, entrants=["B", "A", "Z"], seed=7, n_boot=1000)
    assert listed.entrant("A").points_per_game == row.points_per_game
    assert listed.entrant("Z").games == 0 and listed.entrant("Z").win_rate.mean is None


def test_bad_input_is_refused() -> None:
    games = three_games()
    with pytest.raises(ValueError, match="not in the list given"):
        Report.from_games(games, entrants=["A", "B"])
    with pytest.raises(ValueError, match="status"):
        Report.from_games([{**games[0], "status": "lost"}])
    with pytest.raises(ValueError, match="format"):
        Report.from_games([{**games[0], "format": 2}])
    with pytest.raises(ValueError, match="lacks"):
        Report.from_games([{"format": 1}])
    with pytest.raises(ValueError, match="seed"):
        Report.from_games(games, seed=-1)


@pytest.mark.parametrize("faults", ["x", ["x"], [{"seat": 0}], [{"kind": "illegal", "seat": 9}]])
def test_a_fault_that_is_not_one_is_refused_naming_the_game(tmp_path: Path, faults: Any) -> None:
    # A results file checked on load (its record replays to its scores) with such faults made
    # the report raise AttributeError, KeyError or IndexError from inside.
    from huescues.tournament import TournamentResults

    games = three_games()
    edited = {**games[0], "faults": faults}
    with pytest.raises(ValueError, match=f"game {edited['game']} has a fault the report cannot"):
        Report.from_games([edited])
    path = tmp_path / "r.jsonl"
    line = json.dumps(edited, sort_keys=True, separators=(",", ":"))
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"game {edited['game']} has a fault the report cannot"):
        TournamentResults.load(path, check=False).report(n_boot=10)


def test_json_round_trip_of_plain_data(tmp_path: Path) -> None:
    report = Report.from_games(three_games(), n_boot=100)
    text = report.to_json(tmp_path / "report.json")
    assert (tmp_path / "report.json").read_text(encoding="utf-8") == text
    data = json.loads(text)
    assert data == report.to_dict()
    assert Report.from_dict(data) == report
    assert data["entrants"][0]["entrant"] == "A"
    assert set(data["entrants"][0]["points_per_game"]) == {"mean", "low", "high", "n", "blocks"}
    assert data["unfinished"][0]["seats"] == ["A", "B", "C"]
    empty = Report.from_games([three_games()[3]], n_boot=10)
    assert Report.from_dict(json.loads(empty.to_json())) == empty


def test_csv_files_have_headers(tmp_path: Path) -> None:
    report = Report.from_games(three_games(), n_boot=100)
    paths = report.to_csv(tmp_path / "csv")
    names = {p.name for p in paths}
    assert {"entrants.csv", "crossplay.csv", "paired.csv", "faults.csv"} <= names

    def read(name: str) -> list[dict[str, str]]:
        with (tmp_path / "csv" / name).open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))

    entrants = read("entrants.csv")
    assert [r["entrant"] for r in entrants] == ["A", "B", "C"]
    assert float(entrants[0]["points_per_game"]) == pytest.approx(4.0)
    assert {"points_per_game_low", "win_rate_high", "mu", "ordinal"} <= set(entrants[0])
    assert len(read("crossplay.csv")) == 6
    assert read("paired.csv")[0]["a"] == "A"
    assert read("faults.csv")[0]["kind"] == "illegal"
    assert read("unfinished.csv")[0]["seats"] == "A B C"


@pytest.mark.slow
def test_png_is_written(tmp_path: Path) -> None:
    report = Report.from_games(three_games(), n_boot=100)
    report.plot(tmp_path / "report.png")
    assert (tmp_path / "report.png").read_bytes().startswith(b"\x89PNG")
    Report.from_games([three_games()[3]], n_boot=10).plot(tmp_path / "empty.png")
    assert (tmp_path / "empty.png").read_bytes().startswith(b"\x89PNG")


def test_without_matplotlib_the_picture_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as if it were not installed
    report = Report.from_games(three_games(), n_boot=10)
    with pytest.raises(ImportError, match=r"huescues\[plot\]"):
        report.plot(tmp_path / "report.png")
    assert not (tmp_path / "report.png").exists()


def test_print_shows_every_table() -> None:
    console = Console(record=True, width=120)
    Report.from_games(three_games(), n_boot=100).print(console)
    text = console.export_text()
    for word in ("Entrants", "Cross-play", "Paired", "Faults", "Unfinished", "TimeoutError"):
        assert word in text
    for name in ("A", "B", "C"):
        assert f"│ {name} " in text
    assert "4.0 [4.0, 4.0]" in text


def test_timeouts_are_said_to_make_results_depend_on_machine_speed() -> None:
    report = Report.from_games(three_games(), n_boot=20)
    assert report.timeouts == 2  # one by A and one by B, in game 1
    data = report.to_dict()
    assert data["timeouts"] == 2 and data["depends_on_machine_speed"] is True
    console = Console(record=True, width=300)
    report.print(console)
    text = console.export_text()
    assert "2 decisions timed out" in text
    assert "depend on the speed of the machine" in text and "rerun" in text

    calm = Report.from_games(paired_games(2), n_boot=20)
    assert calm.timeouts == 0 and calm.speed_note is None
    assert calm.to_dict()["depends_on_machine_speed"] is False
    console = Console(record=True, width=300)
    calm.print(console)
    assert "timed out" not in console.export_text()


# -- generated results -------------------------------------------------------------------------

_NAMES = ("A", "B", "C", "D")
_squares = st.builds(
    lambda row, col: f"{'ABCDEFGHIJKLMNOP'[row]}{col}", st.integers(0, 15), st.integers(1, 30)
)


@st.composite
def results(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Results-file lines: a few seeds (so that games share blocks), seats drawn from four
    entrants, finished and unfinished games, regular and tie-breaker rounds, faults of each kind."""
    games: list[dict[str, Any]] = []
    for index in range(draw(st.integers(0, 7))):
        n = draw(st.integers(2, 4))
        seats = draw(st.lists(st.sampled_from(_NAMES), min_size=n, max_size=n))
        rounds = []
        for r in range(draw(st.integers(0, 3))):
            giver = draw(st.integers(0, n - 1))
            guessers = st.sampled_from([s for s in range(n) if s != giver])
            pawns = draw(st.lists(st.tuples(guessers, _squares), max_size=4))
            rounds.append(
                round_dict(r, giver, draw(_squares), pawns, n, tiebreak=draw(st.booleans()))
            )
        faults = [
            fault(seat, seats[seat], kind)
            for seat, kind in draw(
                st.lists(
                    st.tuples(
                        st.integers(0, n - 1), st.sampled_from(("exception", "illegal", "timeout"))
                    ),
                    max_size=3,
                )
            )
        ]
        finished = draw(st.booleans())
        games.append(
            game_dict(
                index,
                draw(st.integers(0, 2)),
                seats,
                rounds,
                status="finished" if finished else "unfinished",
                faults=faults,
                error=None if finished else "RuntimeError: the loop broke",
            )
        )
    return games


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(results(), st.integers(0, 2**16))
def test_the_report_round_trips_through_its_plain_data_and_json(
    games: list[dict[str, Any]], seed: int
) -> None:
    report = Report.from_games(games, seed=seed, n_boot=20)
    assert Report.from_dict(report.to_dict()) == report
    text = report.to_json()  # refuses NaN and infinities
    assert json.loads(text) == report.to_dict()
    assert Report.from_dict(json.loads(text)) == report
    timeouts = sum(f["kind"] == "timeout" for g in games for f in g["faults"])
    assert report.timeouts == timeouts
    assert json.loads(text)["depends_on_machine_speed"] is (timeouts > 0)


# -- real games --------------------------------------------------------------------------------


def played_game_dict(index: int, state: GameState, seats: list[str]) -> dict[str, Any]:
    """Convert the final state of a game played by ``play_game`` to a results-file line."""
    result = state.result
    assert result is not None
    return {
        "format": 1,
        "game": index,
        "seed": state.setup.seed,
        "n_players": state.n_players,
        "board_id": state.board.id,
        "seats": seats,
        "status": "finished",
        "error": None,
        "scores": list(result.scores),
        "winners": list(result.winners),
        "tiebreak_rounds": result.tiebreak_rounds,
        "rounds": [
            {
                "round": r.round,
                "giver": r.giver,
                "tiebreak": r.tiebreak,
                "target": str(r.target),
                "clues": list(r.clues),
                "pawns": [[seat, str(cell)] for seat, cell in r.pawns],
                "points": list(r.points),
            }
            for r in state.history
        ],
        "faults": [],
        "record": GameRecord.of(state).to_dict(),
    }


def test_report_on_games_actually_played() -> None:
    lineup = ["careful", "bold", "careful"]
    agents = {"careful": RandomAgent(pass_probability=0.0), "bold": RandomAgent()}
    games: list[dict[str, Any]] = []
    for block, seed in enumerate((5, 6)):
        for k in range(3):
            seats = lineup[k:] + lineup[:k]
            state = play_game([agents[e] for e in seats], seed=seed).state
            games.append(played_game_dict(3 * block + k, state, seats))
    report = Report.from_games(games, n_boot=200)
    assert report.n_blocks == 2 and report.n_finished == 6
    for name in ("careful", "bold"):
        row = report.entrant(name)
        scores = [
            s for g in games for e, s in zip(g["seats"], g["scores"], strict=True) if e == name
        ]
        assert row.games == len(scores)
        assert row.points_per_game.mean == pytest.approx(float(np.mean(scores)))
        assert row.points_per_game.blocks == 2
        given = [
            r["points"][r["giver"]]
            for g in games
            for r in g["rounds"]
            if not r["tiebreak"] and g["seats"][r["giver"]] == name
        ]
        assert row.giver_points_per_round.mean == pytest.approx(float(np.mean(given)))
    pawns = sum(len(r["pawns"]) for g in games for r in g["rounds"] if not r["tiebreak"])
    assert sum(c.pawns for c in report.crossplay) == pawns
    assert sum(report.entrant(e).wins for e in ("careful", "bold")) == pytest.approx(6)
    assert report.paired[0].blocks == 2


@given(
    st.integers(min_value=0, max_value=2**63),
    st.integers(min_value=3, max_value=10),
    st.text(),
    st.lists(st.text(), max_size=10),
)
def test_a_games_block_is_named_by_the_json_of_seed_players_board_and_lineup(
    seed: int, n_players: int, board: str, lineup: list[str]
) -> None:
    # The report groups games into blocks (one seed and lineup) by this text; its parts are
    # made once per board and lineup, and must be the text json.dumps makes for the whole.
    from huescues.tournament._report_games import _block_text

    block = (seed, n_players, board, tuple(lineup))
    assert _block_text(block) == json.dumps([seed, n_players, board, lineup])
