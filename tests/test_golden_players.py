"""The built-in players decide as they did when the goldens were recorded (issue 33's starting
commit, 0283ce4, before the players' house was rebuilt): 200 default-vs-naming games in English
and 200 in Spanish, every decision of every game (the results file's bytes, whose records hold
every action), and the report made from them.

The golden files keep the results file's SHA-256, each line's (to name the first game that
differs) and a few lines in full (to show how), and the report's JSON in full. Record them again
only when a change of decisions is meant: ``python tests/test_golden_players.py``. Recorded
again in issue 34, when its changes moved the players' decisions by design (the crowd reading,
the two raters' knowledge, the givers' pooled listener models; players-es-200 and web-es last
when the Spanish table took the third glossary, the Spanish vocabulary was made again from it, and
a Spanish phrase with a name kept its order), and players-es-200 once more when points within
``POINTS_TIE`` of the most became a tie broken by reading order: recorded on one machine, it
differed in 2 games on another, whose ``exp`` and ``log`` differ in the last bits; players-es-200
and web-es again when the Spanish giver's pool went back to 0.5, 0.25, 0.25 (its held-out search's
folds, once Spanish read names the English knowledge knows as they are); both again when the
players read every clue against the board's squares (``huescues.language.in_view``: a colour
term none of the squares fits well, black or white on the standard board, still counts);
players-es-200 and web-es again when the Spanish giver's pool moved to 0.4, 0.3, 0.3 (beaten in
sample once the Spanish pack put misspelt words right, docs/agents.md).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from huescues.tournament import TournamentResults, run_tournament

GOLDEN = Path(__file__).resolve().parent / "golden"

#: Each golden run: the tournament's settings (3, 4 and 6 players in turn, so that the second
#: clues and the pawns are decided with few and many guessers).
RUNS: dict[str, dict[str, Any]] = {
    "players-en-200": {
        "entrants": ["default", "naming"],
        "games": 200,
        "players": [3, 4, 6],
        "seed": 33,
        "rules": {},
    },
    "players-es-200": {
        "entrants": ["default", "naming"],
        "games": 200,
        "players": [3, 4, 6],
        "seed": 34,
        "rules": {"language": "es"},
    },
}
#: The games kept in full in a golden file.
FULL_LINES = (0, 1, 99, 199)
#: The report's settings (its bootstrap's seed and draws).
REPORT = {"seed": 5, "n_boot": 200}


def _play(name: str, out: Path) -> TournamentResults:
    run = RUNS[name]
    return run_tournament(
        run["entrants"],
        games=run["games"],
        players=run["players"],
        seed=run["seed"],
        rules=run["rules"],
        # A loaded machine must not turn a slow decision into a fault (a random move).
        decision_time_limit=120.0,
        workers=1,
        out=out,
    )


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _record(name: str, out: Path) -> dict[str, Any]:
    """What the golden file of ``name`` holds, from a fresh run written to ``out``."""
    results = _play(name, out)
    data = out.read_bytes()
    lines = data.decode("utf-8").splitlines()
    return {
        "made_by": "python tests/test_golden_players.py",
        "run": RUNS[name],
        "results_sha256": _digest(data),
        "line_sha256": [_digest(line.encode())[:16] for line in lines],
        "lines": {str(i): lines[i] for i in FULL_LINES},
        # The report less the line naming the library's version (issue 35, after the goldens).
        "report": "".join(
            line
            for line in results.report(**REPORT).to_json().splitlines(keepends=True)
            if not line.startswith('  "huescues_version": ')
        ),
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RUNS))
def test_the_players_decide_as_the_goldens_say(name: str, tmp_path: Path) -> None:
    golden = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert golden["run"] == RUNS[name]
    now = _record(name, tmp_path / "results.jsonl")
    if now["results_sha256"] != golden["results_sha256"]:
        differ = [
            i
            for i, (a, b) in enumerate(zip(now["line_sha256"], golden["line_sha256"], strict=True))
            if a != b
        ]
        for i in differ:
            if str(i) in golden["lines"]:
                assert now["lines"][str(i)] == golden["lines"][str(i)]
        pytest.fail(f"{len(differ)} games differ from the golden ones, the first game {differ[:1]}")
    assert now["lines"] == golden["lines"]
    assert now["report"] == golden["report"]


if __name__ == "__main__":
    import tempfile

    for name in sys.argv[1:] or RUNS:
        with tempfile.TemporaryDirectory() as tmp:
            made = _record(name, Path(tmp) / "results.jsonl")
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(made, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


def _last_bits_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """``np.exp`` and ``np.log`` give results a few last bits off, as another machine's vector
    units (or another numpy) may."""
    noise = np.random.default_rng(0)
    for name in ("exp", "log"):
        exact = getattr(np, name)

        def off(x: Any, *args: Any, _exact: Any = exact, **kwargs: Any) -> Any:
            y = _exact(x, *args, **kwargs)
            steps = noise.integers(-2, 3, size=np.shape(y))
            return y * (1 + steps * np.finfo(np.asarray(y).dtype).eps)

        monkeypatch.setattr(np, name, off)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RUNS))
def test_the_players_decide_alike_on_a_machine_whose_last_bits_differ(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The goldens hold on any machine: squares a belief makes equal came out a last bit apart,
    which bit with the machine, and a plain argmax chose between them by it (the Spanish golden,
    recorded on one machine, differed in 2 games of 200 on another). Points within POINTS_TIE
    of the most are a tie, broken by reading order."""
    run = {**RUNS[name], "games": 12}

    def play(out: Path) -> bytes:
        run_tournament(run["entrants"], games=run["games"], players=run["players"],
                       seed=run["seed"], rules=run["rules"], decision_time_limit=120.0,
                       workers=1, out=out)  # fmt: skip
        return out.read_bytes()

    exact = play(tmp_path / "exact.jsonl")
    _last_bits_off(monkeypatch)
    assert play(tmp_path / "off.jsonl") == exact
