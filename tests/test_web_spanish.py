"""Issue 22 (the web half): a table's language. ``POST /api/tables`` takes ``"language"``; the
game's rules are in it (R19-R21 in its words, the live check too), a restart rebuilds the game
in it, the bots offered say which languages they speak, and ``huescues serve --language`` sets
the server's default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from huescues.web import TableSettings, create_app
from test_web_game_night import PATIENT, _post
from test_web_tables import _app, _join, _next, _registry


def test_r19_a_spanish_table_refuses_rojizo_live_and_as_a_clue(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, PATIENT)) as client:
        answer = _post(client, ["person", "random", "random"], language="es")
        with _join(client, answer["seats"][0]["token"]) as ws:
            welcome = _next(ws, "welcome")
            assert welcome["language"] == "es" and welcome["house_rules"]["language"] == "es"
            ws.send_text(json.dumps({"type": "target", "index": 0}))
            _next(ws, "state", until=lambda m: m["phase"] == "first_clue")
            ws.send_text(json.dumps({"type": "check", "text": "rojizo"}))
            check = _next(ws, "check")
            assert not check["ok"] and check["rule"] == "R19" and "rojo" in check["message"]
            # English colour words are no colour terms of the Spanish rules.
            ws.send_text(json.dumps({"type": "check", "text": "reddish"}))
            assert _next(ws, "check")["ok"]
            ws.send_text(json.dumps({"type": "clue", "text": "rojizo"}))
            assert _next(ws, "error")["rule"] == "R19"
            ws.send_text(json.dumps({"type": "clue", "text": "tomate"}))
            state = _next(ws, "state", until=lambda m: m["phase"] == "second_clue")
            assert state["clues"] == ["tomate"]


def test_an_english_table_still_refuses_reddish_and_allows_rojizo(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, PATIENT)) as client:
        answer = _post(client, ["person", "random", "random"])
        with _join(client, answer["seats"][0]["token"]) as ws:
            assert _next(ws, "welcome")["language"] == "en"
            ws.send_text(json.dumps({"type": "target", "index": 0}))
            _next(ws, "state", until=lambda m: m["phase"] == "first_clue")
            ws.send_text(json.dumps({"type": "check", "text": "reddish"}))
            assert _next(ws, "check")["rule"] == "R19"
            ws.send_text(json.dumps({"type": "check", "text": "rojizo"}))
            assert _next(ws, "check")["ok"]


@pytest.mark.parametrize("language", ["fr", "ES", 3, None])
def test_a_bad_language_is_a_400_naming_it(tmp_path: Path, language: object) -> None:
    with TestClient(_app(tmp_path)) as client:
        seats = [{}, {"kind": "random"}, {"kind": "random"}]
        response = client.post("/api/tables", json={"seats": seats, "language": language})
        assert response.status_code == 400
        error = response.json()["error"]
        assert "'language'" in error and str(language) in error and "en, es" in error


def test_a_restart_rebuilds_a_spanish_game_in_spanish(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, PATIENT)) as client:
        answer = _post(client, ["person", "random", "random"], language="es")
    again = _app(tmp_path, PATIENT)
    with TestClient(again):
        assert _registry(again).tables[answer["table"]].state.rules.language == "es"


def test_the_server_default_language_and_the_bots_it_offers(tmp_path: Path) -> None:
    settings = TableSettings(bot_delay=0, allow_seed=True, language="es")
    app = _app(tmp_path, settings)
    with TestClient(app) as client:
        setup = client.get("/api/setup").json()
        assert setup["language"] == "es" and setup["languages"] == ["en", "es"]
        speaks = {b["kind"]: b["languages"] for b in setup["bots"]}
        assert "es" in speaks["random"] and speaks["naming"] == ["en"]
        answer = _post(client, ["person", "random", "random"])  # no language: the server's
        assert _registry(app).tables[answer["table"]].state.rules.language == "es"
        english = _post(client, ["person", "random", "random"], language="en")
        assert _registry(app).tables[english["table"]].state.rules.language == "en"
    with pytest.raises(ValueError, match="fr"):
        TableSettings(language="fr")


def test_huescues_serve_language_reaches_the_table_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import huescues.web
    from huescues.cli import main

    seen: dict[str, object] = {}
    monkeypatch.setattr(huescues.web, "serve", lambda *a, **k: seen.update(k))
    assert main(["serve", "--language", "es"]) == 0
    tables = seen["tables"]
    assert isinstance(tables, TableSettings) and tables.language == "es"
    with pytest.raises(SystemExit):
        main(["serve", "--language", "fr"])


def test_the_pages_texts_come_from_each_languages_pack(tmp_path: Path) -> None:
    """Issue 22: everything that depends on a language in one place per language: the pages'
    texts are the pack's pages.json, served where the pages ask for them."""
    from importlib import resources

    with TestClient(create_app(tmp_path / "p.sqlite")) as client:
        for code in ("en", "es"):
            answer = client.get(f"/static/i18n/{code}.json")
            pack = resources.files("huescues").joinpath("data", "languages", code, "pages.json")
            assert answer.status_code == 200
            assert answer.json() == json.loads(pack.read_text("utf-8"))
        assert client.get("/static/i18n/fr.json").status_code == 404


def test_every_bot_the_tables_offer_has_a_name_in_the_english_pack() -> None:
    """The game page names a seat's bot by its ``bot.kind.KIND`` text, the English one where a
    pack lacks it (the Spanish pack names only the bots that play in Spanish): a bot added to
    the catalogue without one would show its key (``bot.kind.firstfree``) to the table."""
    from importlib import resources

    from huescues.web._bots import BOT_KINDS

    pack = resources.files("huescues").joinpath("data", "languages", "en", "pages.json")
    texts = json.loads(pack.read_text("utf-8"))
    missing = [kind for kind in BOT_KINDS if not texts.get(f"bot.kind.{kind}")]
    assert missing == [], f"en/pages.json has no bot.kind text for {missing}"
