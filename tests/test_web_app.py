"""The web application's frame: health check, static assets, the database (issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from huescues.web import Database, create_app


def test_healthz_answers_ok(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "h.sqlite")) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_static_assets_ship_in_the_package(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "h.sqlite")) as client:
        for asset in ("board.js", "game.css", "play.js", "study.js", "study.css"):
            assert client.get(f"/static/{asset}").status_code == 200, asset


def test_the_pages_files_and_texts_come_compressed_and_the_texts_revalidate(
    tmp_path: Path,
) -> None:
    """A slow phone: the pages' files and texts are gzipped for a browser that takes it (a
    third of their size), and the texts answer 304 to a page that holds them already. The
    API's answers, which hold seat tokens beside what a client sent, are never compressed."""
    gzip = {"Accept-Encoding": "gzip"}
    with TestClient(create_app(tmp_path / "h.sqlite")) as client:
        for url in ("/static/play.js", "/static/study.js", "/static/i18n/es.json"):
            answer = client.get(url, headers=gzip)
            assert answer.status_code == 200, url
            assert answer.headers.get("content-encoding") == "gzip", url
        texts = client.get("/static/i18n/es.json", headers=gzip)
        assert texts.json()["play.then"] == " y luego "  # the same texts, decompressed
        tag = texts.headers["etag"]
        again = client.get("/static/i18n/es.json", headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b""
        assert client.get("/static/i18n/en.json", headers={"If-None-Match": tag}).status_code == 200
        assert client.get("/static/i18n/xx.json").status_code == 404
        seats = [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}]
        made = client.post("/api/tables", json={"seats": seats}, headers=gzip)
        assert made.status_code == 200 and "content-encoding" not in made.headers
        assert "content-encoding" not in client.get("/api/setup", headers=gzip).headers


def test_database_is_wal_and_a_failed_transaction_writes_nothing(tmp_path: Path) -> None:
    db = Database(tmp_path / "d.sqlite", schema=["CREATE TABLE t (x INTEGER)"])
    assert db.query("PRAGMA journal_mode")[0][0] == "wal"
    try:
        with db.transaction() as cur:
            cur.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert db.query("SELECT count(*) FROM t")[0][0] == 0
    db.close()


def test_a_client_limiter_forgets_only_addresses_whose_bucket_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from huescues.web import _limits  # private: the client limit is lowered for the test

    monkeypatch.setattr(_limits, "_MAX_CLIENTS", 2)
    limiter = _limits.ClientLimiter(burst=1, rate=1e-6)
    assert limiter.take("flooder") and not limiter.take("flooder")
    # Many new addresses: the flooder's empty bucket is kept, so it stays refused.
    assert all(limiter.take(f"10.0.0.{i}") for i in range(5))
    assert not limiter.take("flooder")


def test_every_commit_is_synced_so_a_power_cut_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = Database(tmp_path / "d.sqlite")
    assert db.query("PRAGMA synchronous")[0][0] == 2  # FULL (NORMAL, 1, can lose the last)
    db.close()
