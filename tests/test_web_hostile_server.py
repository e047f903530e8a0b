"""Hostile probes of ``huescues serve`` as put on the internet (issue 20): bad database files,
a database that cannot be written, security headers, slow request heads, connection floods and
a busy port. Everything stays on loopback and every probe is bounded in time."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from huescues.cli import main
from huescues.web import (
    Database,
    _db,  # private: a read-only connection is opened for one test
    create_app,
)

SEATS = {"seats": [{"kind": "person", "name": "Ann"}, {"kind": "random"}, {"kind": "random"}]}


def _sqlite_file(path: Path) -> bytes:
    """A real SQLite file of about a megabyte, returned as bytes."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 2000)
    conn.commit()
    conn.close()
    return path.read_bytes()


def _directory(p: Path) -> None:
    p.mkdir()


def _text(p: Path) -> None:
    p.write_text("name,score\nAnn,3\n")


def _random_bytes(p: Path) -> None:
    p.write_bytes(os.urandom(8192))


def _truncated(p: Path) -> None:
    data = _sqlite_file(p.with_suffix(".whole"))
    p.write_bytes(data[: len(data) // 2])


def _damaged(p: Path) -> None:
    data = bytearray(_sqlite_file(p.with_suffix(".whole")))
    data[8192 : 8192 + 4096] = os.urandom(4096)  # a page in the middle; the header is sound
    p.write_bytes(bytes(data))


BAD_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "directory": (_directory, "is a directory"),
    "text": (_text, "not a SQLite database"),
    "random bytes": (_random_bytes, "not a SQLite database"),
    "truncated": (_truncated, "the database is damaged"),
    "damaged page": (_damaged, "the database is damaged"),
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_serve_refuses_a_db_that_is_not_a_database_in_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, words = BAD_FILES[kind]
    path = tmp_path / "bad.sqlite"
    make(path)
    # The app first: on a file it does not refuse, main would go on to serve for ever.
    with pytest.raises(ValueError, match=words):
        create_app(path)
    assert main(["serve", "--port", "0", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"huescues serve: error: {path}"), err
    assert words in err


@pytest.mark.parametrize("kind", ["text", "truncated"])
def test_responses_export_refuses_a_bad_db_in_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, words = BAD_FILES[kind]
    path = tmp_path / "bad.sqlite"
    make(path)
    assert main(["responses", "export", "--db", str(path), "--out", str(tmp_path / "o.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"huescues responses: error: {path}"), err
    assert words in err


def test_a_db_that_cannot_be_written_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ro.sqlite"
    create_app(path).state.db.close()
    # As root a chmod changes nothing, so the connection is opened read-only, as SQLite opens
    # a file it may not write.
    connect = sqlite3.connect

    def read_only(name: str, **kwargs: Any) -> sqlite3.Connection:
        return connect(f"file:{name}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(_db.sqlite3, "connect", read_only)
    with pytest.raises(ValueError, match=r"ro\.sqlite: cannot write the database \(.*readonly"):
        create_app(path)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes any file")
def test_a_read_only_file_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite"
    create_app(path).state.db.close()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(ValueError, match=r"ro\.sqlite: cannot write the database"):
            create_app(path)
    finally:
        tmp_path.chmod(0o755)


@pytest.mark.parametrize(
    ("pragma", "reason"),
    [("query_only = 1", "readonly"), ("max_page_count = {pages}", "full")],
    ids=["read-only", "full"],
)
def test_a_db_that_stops_taking_writes_turns_healthz_and_writes_into_503(
    pragma: str, reason: str, tmp_path: Path
) -> None:
    app = create_app(tmp_path / "h.sqlite")
    with TestClient(app) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        db: Database = app.state.db
        pages = db.query("PRAGMA page_count")[0][0]
        # What a read-only remount or a full disk does to the open connection (private).
        db._conn.execute(f"PRAGMA {pragma.format(pages=pages)}")
        health = client.get("/healthz")
        assert health.status_code == 503
        assert health.json()["status"] == "error" and reason in health.json()["database"]
        assert str(tmp_path) not in health.text  # the file's place stays private
        for _ in range(40):  # until a write needs a page the database cannot have
            created = client.post("/api/tables", json=SEATS)
            if created.status_code != 200:
                break
        assert created.status_code == 503
        assert created.headers["content-type"] == "application/json"
        message = created.json()["error"]
        assert "cannot be written" in message and reason in message and "\n" not in message


ROUTES = [
    ("GET", "/"),
    ("GET", "/play"),
    ("GET", "/study"),
    ("GET", "/static/play.js"),
    ("GET", "/static/game.css"),
    ("GET", "/api/setup"),
    ("GET", "/study/api/info"),
    ("POST", "/api/tables"),
    ("GET", "/healthz"),
    ("GET", "/no/such/page"),
    ("GET", "/static/no-such-file.js"),
    ("DELETE", "/api/setup"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_every_response_carries_the_security_headers(method: str, path: str, db: Path) -> None:
    with TestClient(create_app(db)) as client:
        response = client.request(method, path, json=SEATS if method == "POST" else None)
    headers = response.headers
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp
    assert "unsafe" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert len(headers.get_list("content-security-policy")) == 1  # one policy, not two


def test_the_pages_need_nothing_the_policy_refuses() -> None:
    """No inline script or style and no ``style=`` attribute: the policy allows none."""
    import re
    from importlib import resources

    static = resources.files("huescues.web") / "static"
    for page in ("index.html", "play.html", "study.html"):
        html = (static / page).read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), page
        assert "<style" not in html and " style=" not in html, page
        assert not re.search(r"\son[a-z]+=", html), page  # no inline event handlers


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "h.sqlite"
