"""Issue 21, a game night people enjoy: the reveal waits for the people (R14), "play again" with
the same seats, a dead link said to be gone, and house rules (R7, R19) kept across a restart."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from huescues.web import GONE_CLOSE_CODE, TableSettings
from test_web_tables import FAST, _app, _join, _next, _play_person, _registry

#: The reveal waits up to 30 s for the people: long enough that only a dismissal ends it here.
PATIENT = TableSettings(bot_delay=0, reveal_pause=30, bot_time_limit=5, allow_seed=True)


def _post(client: TestClient, kinds: list[str], **extra: Any) -> dict[str, Any]:
    seats = [{"kind": k} for k in kinds]
    response = client.post("/api/tables", json={"seats": seats, "seed": 3, **extra})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _give_first_round(ws: Any) -> dict[str, Any]:
    """Seat 0 gives round 1's clues (R6: seat 0 first) and passes the second; the state that
    shows its reveal."""
    ws.send_text(json.dumps({"type": "target", "index": 0}))
    _next(ws, "state", until=lambda m: m["phase"] == "first_clue")
    ws.send_text(json.dumps({"type": "clue", "text": "lagoon"}))
    _next(ws, "state", until=lambda m: m["phase"] == "second_clue")
    ws.send_text(json.dumps({"type": "pass"}))
    return _next(ws, "state", until=lambda m: len(m["history"]) == 1)


def test_r14_the_reveal_waits_until_every_person_dismisses_it(tmp_path: Path) -> None:
    app = _app(tmp_path, PATIENT)
    with TestClient(app) as client:
        answer = _post(client, ["person", "random", "random"])
        table = _registry(app).tables[answer["table"]]
        with _join(client, answer["seats"][0]["token"]) as ws:
            _next(ws, "state", until=lambda m: m["ready"])
            shown = _give_first_round(ws)
            assert shown["reveal"]["round"] == 0 and shown["reveal"]["waiting_for"] == [0]
            assert 0 < shown["reveal"]["seconds_left"] <= 30
            # The next giver is a bot (seat 1): it waits on the reveal, and so does everyone.
            time.sleep(0.3)
            assert table.state.round == 1 and table.state.phase.value == "choose_target"
            ws.send_text(json.dumps({"type": "check", "text": "x"}))
            _next(ws, "check")
            ws.send_text(json.dumps({"type": "next"}))
            after = _next(ws, "state", until=lambda m: m["reveal"] is None)
            assert after["round"] == 1
            # Then the bot plays on.
            _next(ws, "state", until=lambda m: m["phase"] != "choose_target")


@pytest.mark.slow
def test_r14_a_person_cannot_act_during_the_reveal_and_its_time_ends_it(tmp_path: Path) -> None:
    app = _app(tmp_path, PATIENT)
    with TestClient(app) as client:
        answer = _post(client, ["person", "random", "random"], house_rules={"reveal_seconds": 0.6})
        with _join(client, answer["seats"][0]["token"]) as ws:
            _next(ws, "state", until=lambda m: m["ready"])
            shown = _give_first_round(ws)
            assert shown["reveal"]["waiting_for"] == [0]
            ws.send_text(json.dumps({"type": "pawn", "cell": "A1"}))
            refused = _next(ws, "error")
            assert "reveal of round 1 is showing" in refused["message"]
            # The person never dismisses it: the table's time (0.6 s) ends the reveal.
            start = time.monotonic()
            _next(ws, "state", until=lambda m: m["reveal"] is None)
            assert 0.2 < time.monotonic() - start < 3


def test_a_dead_link_is_told_the_table_is_gone_and_closed(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client, client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "token": "no-such-table-token"}))
        gone = json.loads(ws.receive_text())
        assert gone["type"] == "error" and gone["code"] == "gone"
        assert "table is gone" in gone["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == GONE_CLOSE_CODE


@pytest.mark.slow
def test_an_expired_table_is_gone(tmp_path: Path) -> None:
    app = _app(tmp_path, TableSettings(bot_delay=0, reveal_pause=0, idle_timeout=0.05))
    with TestClient(app) as client:
        response = client.post("/api/tables", json={"seats": [{}, {"kind": "random"}] * 2})
        answer = response.json()
        time.sleep(0.1)
        _registry(app).sweep()
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "token": answer["seats"][0]["token"]}))
            assert json.loads(ws.receive_text())["code"] == "gone"


def test_r24_play_again_makes_a_table_with_the_same_seats_and_tells_each_seat(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    house = {"refuse_named_colours": True, "rounds_per_giver": 1}
    with TestClient(app) as client:
        answer = _post(client, ["person", "random", "person"], house_rules=house)
        tokens = [s["token"] for s in answer["seats"]]
        with _join(client, tokens[0]) as early:
            early.send_text(json.dumps({"type": "again"}))
            assert "once the game is over" in _next(early, "error")["message"]
        with _join(client, tokens[0]) as ann, _join(client, tokens[2]) as bob:
            # Bob plays his seat from another thread's point of view: both play to the end.
            import threading

            done: list[dict[str, Any]] = []
            thread = threading.Thread(target=lambda: done.append(_play_person(bob, 2, [])))
            thread.start()
            final = _play_person(ann, 0, [])
            thread.join(30)
            assert final["phase"] == "game_over" and done
            assert final["tiebreak"] is False  # a finished game is in no round (R24-R26)
            assert final["regular_rounds"] == 3  # one round each (R7, the house rule)
            ann.send_text(json.dumps({"type": "again"}))
            to_ann = _next(ann, "again")
            to_bob = _next(bob, "again")
        assert to_ann["table"] == to_bob["table"] != answer["table"]
        assert to_ann["by"] == to_bob["by"] == 0
        # Play again in place (issue 31): each seat's own link opens the new game.
        assert to_ann["token"] == tokens[0] and to_bob["token"] == tokens[2]
        info = client.get(f"/api/tables/{to_ann['table']}").json()
        assert [s["kind"] for s in info["seats"]] == ["person", "random", "person"]
        assert [s["name"] for s in info["seats"]] == [s["name"] for s in answer["seats"]]
        new = _registry(app).tables[to_ann["table"]]
        assert new.state.rules.refuse_named_colours and new.state.rules.rounds_per_giver == 1
        with _join(client, tokens[2]) as bob_again:
            welcome = _next(bob_again, "welcome")
            assert welcome["table"] == to_ann["table"] and welcome["seat"] == 2
            assert welcome["house_rules"]["refuse_named_colours"]
            assert _next(bob_again, "state")["series"] == [final["result"]["scores"]]


def test_r19_house_rule_named_colours_in_the_live_check_and_the_clue(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, PATIENT)) as client:
        strict = _post(client, ["person", "random", "random"], house_rules={
            "refuse_named_colours": True})  # fmt: skip
        plain = _post(client, ["person", "random", "random"])
        for answer, refused in ((strict, True), (plain, False)):
            with _join(client, answer["seats"][0]["token"]) as ws:
                welcome = _next(ws, "welcome")
                assert welcome["house_rules"]["refuse_named_colours"] is refused
                ws.send_text(json.dumps({"type": "target", "index": 0}))
                _next(ws, "state", until=lambda m: m["phase"] == "first_clue")
                ws.send_text(json.dumps({"type": "check", "text": "indigo"}))
                check = _next(ws, "check")
                assert check["ok"] is not refused
                if refused:
                    assert check["rule"] == "R19" and "house rule" in check["message"]
                    ws.send_text(json.dumps({"type": "clue", "text": "indigo"}))
                    assert _next(ws, "error")["rule"] == "R19"
                    ws.send_text(json.dumps({"type": "check", "text": "banana"}))
                    assert _next(ws, "check")["ok"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("house", "named"),
    [
        ({"refuse_named_colours": "yes"}, "'yes'"),
        ({"rounds_per_giver": 4}, "'4'"),
        ({"rounds_per_giver": 0}, "'0'"),
        ({"reveal_seconds": -1}, "'-1'"),
        ({"reveal_seconds": 1e9}, "1000000000"),
        ({"colours": True}, "colours"),
        ([], "an object"),
    ],
)
def test_bad_house_rules_are_refused_naming_the_value(
    tmp_path: Path, house: Any, named: str
) -> None:
    with TestClient(_app(tmp_path)) as client:
        seats = [{}, {"kind": "random"}, {"kind": "random"}]
        response = client.post("/api/tables", json={"seats": seats, "house_rules": house})
        assert response.status_code == 400
        assert named in response.json()["error"]


def test_r7_r19_a_restart_rebuilds_the_game_with_its_house_rules(tmp_path: Path) -> None:
    house = {"refuse_named_colours": True, "rounds_per_giver": 3, "reveal_seconds": 7}
    with TestClient(_app(tmp_path, PATIENT)) as client:
        answer = _post(client, ["person", "random", "random"], house_rules=house)
    again = _app(tmp_path, PATIENT)
    with TestClient(again):
        table = _registry(again).tables[answer["table"]]
        assert table.state.rules.refuse_named_colours
        assert table.state.rules.regular_rounds == 9
        assert table.reveal_seconds == 7


def test_an_old_database_gains_the_house_rules_column(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "t.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, finished REAL, "
            "players INTEGER NOT NULL, seats TEXT NOT NULL, record TEXT, seed INTEGER, "
            "tokens TEXT, abandoned REAL)"
        )
        conn.execute(
            "INSERT INTO games VALUES ('old', 1, NULL, 3, ?, NULL, 5, ?, NULL)",
            (json.dumps([{"name": "A", "kind": "person"}, {"name": "B", "kind": "random"},
                         {"name": "C", "kind": "random"}]), json.dumps(["x", None, None])),
        )  # fmt: skip
    app = _app(tmp_path, FAST)
    with TestClient(app):
        table = _registry(app).tables["old"]
        assert not table.state.rules.refuse_named_colours
        assert table.state.rules.rounds_per_giver == 2
