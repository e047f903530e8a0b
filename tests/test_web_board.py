"""One board wire format: the game's welcome and the study's sessions send the same JSON
(:func:`huescues.web.board_json`), and the one drawer (``static/board.js``) draws from it the
squares' names and colours the pages have always drawn."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from huescues.engine import ROW_LETTERS, Board, Cell
from huescues.web import StudyConfig, TableSettings, board_json, create_app

BOARD_JS = Path(__file__).parents[1] / "src" / "huescues" / "web" / "static" / "board.js"


def _welcome_board(client: TestClient) -> dict[str, Any]:
    seats = [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}]
    answer = client.post("/api/tables", json={"seats": seats}).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "token": answer["seats"][0]["token"]}))
        welcome: dict[str, Any] = json.loads(ws.receive_text())
    assert welcome["type"] == "welcome"
    board: dict[str, Any] = welcome["board"]
    return board


def test_board_json_names_rows_and_colours_every_square() -> None:
    board = Board.from_rgb(np.arange(4 * 5 * 3).reshape(4, 5, 3) * 4, id="tiny")
    out = board_json(board)
    assert out == json.loads(json.dumps(out))  # plain JSON
    assert (out["id"], out["rows"], out["cols"]) == ("tiny", 4, 5)
    assert out["row_letters"] == list(ROW_LETTERS[:4])
    for r in range(4):
        for c in range(5):
            assert out["row_letters"][r] + str(c + 1) == str(Cell(r, c))
            assert out["colours"][r][c] == board.hex(Cell(r, c))


def test_the_game_and_the_study_send_the_board_in_one_format(tmp_path: Path) -> None:
    app = create_app(
        tmp_path / "db.sqlite",
        tables=TableSettings(bot_delay=0, reveal_pause=0),
        study=StudyConfig(),
    )
    with TestClient(app) as client:
        game = _welcome_board(client)
        study = client.post("/study/api/start", json={"consent": True}).json()["board"]
    assert game == study == board_json(Board.standard())


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run board.js")
def test_board_js_draws_the_names_and_colours_of_the_wire_format() -> None:
    board = Board.from_rgb(np.arange(3 * 4 * 3).reshape(3, 4, 3) * 7, id="small")
    script = """
    const made = [];
    function node(tag) {
      const n = { tag, children: [], dataset: {}, style: { setProperty() {} }, attrs: {},
        append(...c) { this.children.push(...c); }, replaceChildren() { this.children = []; },
        setAttribute(k, v) { this.attrs[k] = v; }, addEventListener() {} };
      made.push(n);
      return n;
    }
    global.window = {};
    global.document = { createElement: node };
    require(process.argv[1]);
    const grid = window.HuesBoard.draw(node("div"), JSON.parse(process.argv[2]), null);
    const cells = grid.children.filter((n) => n.className === "hc-cell");
    console.log(JSON.stringify(cells.map((n) => [n.dataset.cell, n.style.backgroundColor])));
    """
    done = subprocess.run(
        ["node", "-e", script, str(BOARD_JS), json.dumps(board_json(board))],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    drawn = json.loads(done.stdout)
    assert drawn == [[str(cell), board.hex(cell)] for cell in board.cells()]
