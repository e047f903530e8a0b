"""A security review of the server, its defects tried as an attacker would, each on a real server
on loopback (uvicorn in a thread, ``huescues serve``'s configuration; every loop bounded in count
and time): game-study tables that flooded the server, a start with ``fill`` that raced a join and
a second start, a huge number in the study's screen report, and the game study's seat tokens
kept in plain text; then, reviewing those defences, a ``--public-url`` or ``Host`` with the
scheme's default port that refused the server's own pages, and a waiting room opened at another
origin than the lobby's, which kept its links."""

from __future__ import annotations

import asyncio
import hashlib
import http.client
import json
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
from starlette.datastructures import Headers
from starlette.requests import Request
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import huescues.web._table_sockets as table_sockets
from huescues.web import StudyConfig, TableSettings, create_app, per_address_limits
from huescues.web._hosts import allowed_host_names, host_allowed
from huescues.web._origin import foreign_origin
from huescues.web._requests import Refused, read_json
from huescues.web._serve import _bound_name
from serve_process import environment, request, serve_process
from web_server import browser_page, live_server, until

QUICK: dict[str, Any] = {"bot_delay": 0, "reveal_pause": 0, "message_rate": 1000.0,
                         "message_burst": 1000.0}  # fmt: skip
GAME_STUDY = StudyConfig(game_bots=("random", "random"), practice=1)


@contextmanager
def _port(db: Path, settings: TableSettings, study: StudyConfig | None = None) -> Iterator[int]:
    with live_server(db, settings, study=study) as url:
        yield int(url.rsplit(":", 1)[1])


@contextmanager
def _joined(port: int, token: str, name: str | None = None) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A connection that joined with ``token`` (and ``name``, for an invite), and its welcome."""
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        message = {"type": "join", "token": token}
        if name is not None:
            message["name"] = name
        ws.send(json.dumps(message))
        yield ws, until(ws, "welcome")


def _game_participant(port: int, source: str = "127.0.0.1") -> str:
    """A game-study participant from ``source`` who reached the game (its practice answered)."""
    status, session, _ = request(
        port, "POST", "/study/api/start", {"consent": True, "kind": "game"}, source=source
    )
    assert status == 201, session
    participant: str = session["participant"]
    status, nxt, _ = request(port, "POST", "/study/api/answer",
                             {"participant": participant, "item": 0, "square": "F12"},
                             source=source)  # fmt: skip
    assert status == 200 and nxt["item"]["kind"] == "game", nxt
    return participant


# -- 1. game-study tables flooded the server -----------------------------------------------------
def test_a_study_game_counts_against_the_address_that_asked_for_it(tmp_path: Path) -> None:
    """Each game-study table counted as its participant's, never the address's: one address
    making participants filled every place, and then no one could make a table in the lobby
    (503); past a cap, the study's answer was a 500. Now the address's cap holds, the refusal
    is a 503 that says why, and a participant asking again gets their game as before."""
    settings = TableSettings(**QUICK, max_tables=3, max_tables_per_address=2)
    with _port(tmp_path / "flood.sqlite", settings, GAME_STUDY) as port:
        answers = []
        for _ in range(3):
            participant = _game_participant(port)
            answers.append((participant, request(port, "POST", "/study/api/game",
                                                 {"participant": participant})))  # fmt: skip
        statuses = [status for _, (status, _, _) in answers]
        assert statuses == [200, 200, 503], answers
        status, refused, headers = answers[2][1]
        assert "this address has 2 games in play" in refused["error"]
        assert headers["retry-after"] == "30"
        # Someone else can still make a table in the lobby.
        seats = [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}]
        status, made, _ = request(port, "POST", "/api/tables", {"seats": seats}, source="127.0.0.2")
        assert status == 200, made
        # Asking again gives the same game, at the cap too.
        first, (_, game, _) = answers[0]
        assert request(port, "POST", "/study/api/game", {"participant": first})[1] == game


# -- 2. a start with fill raced a join, and a second start ---------------------------------------
@pytest.fixture
def slow_prepare(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The start's bots prepared only once the test lets them (``release``); ``entered`` is set
    when the first one is being prepared, off the event loop."""
    entered, release = threading.Event(), threading.Event()
    real = table_sockets.prepare

    def prepare(agent: Any, board: Any, rules: Any) -> None:
        entered.set()
        release.wait(20)
        real(agent, board, rules)

    monkeypatch.setattr(table_sockets, "prepare", prepare)
    try:
        yield entered, release
    finally:
        release.set()


def _waiting_room(port: int) -> dict[str, Any]:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}, {"kind": "person"}]
    status, answer, _ = request(port, "POST", "/api/tables",
                                {"seats": seats, "waiting_room": True})  # fmt: skip
    assert status == 200, answer
    return dict(answer)


def _started(port: int, table: str) -> list[dict[str, Any]]:
    """The table's seats once its last seat went to the ``fill`` bot (the start ended)."""
    deadline = time.monotonic() + 20
    while True:
        seats: list[dict[str, Any]] = request(port, "GET", f"/api/tables/{table}")[1]["seats"]
        if seats[-1]["kind"] != "person":
            return seats
        assert time.monotonic() < deadline, "the start did not end"
        time.sleep(0.05)


def test_a_person_who_comes_during_a_start_keeps_their_seat(
    tmp_path: Path, slow_prepare: tuple[threading.Event, threading.Event]
) -> None:
    """A person who took a free seat through the invite while the start prepared its bots was
    made a bot, their connection left on the seat and sent the bot's card and target. Now the
    seats the start fills are those still free once its bots are ready."""
    entered, release = slow_prepare
    with _port(tmp_path / "race.sqlite", TableSettings(**QUICK)) as port:
        answer = _waiting_room(port)
        invite = answer["invite"].split("#i=", 1)[1]
        with _joined(port, answer["seats"][0]["token"]) as (creator, _):
            creator.send(json.dumps({"type": "start", "fill": "random"}))
            assert entered.wait(10), "the start prepared no bot"
            with _joined(port, invite, "Ivy") as (ivy, welcome):
                assert welcome["seat"] == 1
                release.set()
                seats = _started(port, answer["table"])
                assert ivy is not None
        assert [s["kind"] for s in seats] == ["person", "person", "random"]
        assert seats[1]["name"] == "Ivy"


def test_a_second_start_while_one_runs_is_refused_not_a_failure(
    tmp_path: Path, slow_prepare: tuple[threading.Event, threading.Event]
) -> None:
    """Two starts with fill at once (the creator's two tabs) gave one seat to a bot twice: a
    ValueError, logged as the server's failure. Now the second is told the game is starting."""
    entered, release = slow_prepare
    with _port(tmp_path / "twice.sqlite", TableSettings(**QUICK)) as port:
        answer = _waiting_room(port)
        token = answer["seats"][0]["token"]
        with _joined(port, token) as (first, _), _joined(port, token) as (second, _):
            first.send(json.dumps({"type": "start", "fill": "random"}))
            assert entered.wait(10), "the start prepared no bot"
            second.send(json.dumps({"type": "start", "fill": "random"}))
            refused = until(second, "error")
            assert refused["message"] == "the game is starting already"
            release.set()
            seats = _started(port, answer["table"])
            for ws in (first, second):
                # Neither socket was told of a failure; both are told the game has started.
                ws.send(json.dumps({"type": "start"}))
                assert until(ws, "error")["message"] == "the game has started already"
        assert [s["kind"] for s in seats] == ["person", "random", "random"]


# -- 3. a huge number in the study's screen report -----------------------------------------------
@pytest.mark.parametrize("key", ["width", "height", "pixel_ratio", "colour_depth"])
def test_a_huge_whole_number_in_the_screen_report_is_a_400_naming_it(
    tmp_path: Path, key: str
) -> None:
    """``math.isfinite`` of a whole number too large for a float raised OverflowError: a 500.
    Now a 400 naming the value, and no participant stored."""
    screen: dict[str, Any] = {"width": 1280, "height": 800, "pixel_ratio": 2, "colour_depth": 24}
    screen[key] = 10**400
    with _port(tmp_path / "screen.sqlite", TableSettings(**QUICK), StudyConfig()) as port:
        status, answer, _ = request(port, "POST", "/study/api/start",
                                    {"consent": True, "screen": screen})  # fmt: skip
        assert status == 400, answer
        assert answer["error"].startswith(f"screen: {key} '1000000000")
        assert "is not a number from" in answer["error"]
        status, answer, _ = request(port, "POST", "/study/api/start", {"consent": True})
        assert status == 201, answer


# -- 4. the game study's seat tokens were kept in plain text --------------------------------------
def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_the_game_studys_seat_token_is_kept_only_as_its_hash(tmp_path: Path) -> None:
    """``study_games.token`` held the seat's token itself, while a table keeps only its SHA-256
    hash. Now it holds the hash; asking again still gives the same token, which opens the
    seat."""
    db = tmp_path / "hashed.sqlite"
    with _port(db, TableSettings(**QUICK), GAME_STUDY) as port:
        participant = _game_participant(port)
        status, game, _ = request(port, "POST", "/study/api/game", {"participant": participant})
        assert status == 200, game
        assert request(port, "POST", "/study/api/game", {"participant": participant})[1] == game
        with _joined(port, game["token"]) as (_, welcome):
            assert welcome["seat"] == game["seat"]
    digest = hashlib.sha256(game["token"].encode()).hexdigest()
    assert _rows(db, "SELECT token FROM study_games") == [(digest,)]
    (tokens,) = _rows(db, "SELECT tokens FROM games")[0]
    assert digest in json.loads(tokens)
    for file in tmp_path.glob("hashed.sqlite*"):  # its write-ahead log too
        assert game["token"].encode() not in file.read_bytes()


def test_an_older_databases_plain_game_tokens_become_their_hashes(tmp_path: Path) -> None:
    """A database of a server before the hashes: its plain tokens are replaced by their hashes
    when the server opens it (the table's own key is that hash already, so its link still
    opens the seat)."""
    db = tmp_path / "old.sqlite"
    create_app(db, study=GAME_STUDY).state.db.close()
    plain = "tJ3mH1v0aXo9qZc2Wb7_Lk-Q"
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "INSERT INTO study_games (participant, game, seat, token, created) "
            "VALUES ('p' || hex(randomblob(8)), 'g1', 1, ?, 0)",
            (plain,),
        )
    conn.close()
    create_app(db, study=GAME_STUDY).state.db.close()
    digest = hashlib.sha256(plain.encode()).hexdigest()
    assert _rows(db, "SELECT token FROM study_games") == [(digest,)]
    create_app(db, study=GAME_STUDY).state.db.close()  # a hash is left as it is
    assert _rows(db, "SELECT token FROM study_games") == [(digest,)]


def test_a_number_of_more_digits_than_python_converts_is_refused_in_one_line() -> None:
    """JSON, but past ``sys.get_int_max_str_digits``: the decoder raised a plain ValueError,
    which no reader of a request caught (a 500 wherever a body may be that long)."""
    body = b'{"seed": ' + b"9" * 5000 + b"}"

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    headers = [(b"content-type", b"application/json")]
    scope = {"type": "http", "method": "POST", "headers": headers, "path": "/"}
    with pytest.raises(Refused) as refused:
        asyncio.run(read_json(Request(scope, receive), 16_384))
    assert refused.value.status == 400
    assert refused.value.message.startswith("a number in the request is too long")


# -- 5. another site's page could call the API and open a seat's socket ------------------------
def _raw(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    """A POST of ``body`` with exactly ``headers`` (a form or text, as a page may send them)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


SEATS = [{"kind": "person"}, {"kind": "random"}, {"kind": "random"}]


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_body_that_is_not_declared_json_is_a_415_and_stores_nothing(
    tmp_path: Path, kind: str | None
) -> None:
    """A page of another site may POST a form or text/plain without asking first (no CORS
    check stops a "simple" request): its JSON was taken, and made a table or a participant with
    the visitor's browser. Now only ``application/json`` is read."""
    db = tmp_path / "ct.sqlite"
    headers = {} if kind is None else {"Content-Type": kind}
    with _port(db, TableSettings(**QUICK), StudyConfig()) as port:
        for path, body in (("/api/tables", {"seats": SEATS}), ("/study/api/start",
                                                                 {"consent": True})):  # fmt: skip
            status, answer = _raw(port, path, json.dumps(body).encode(), headers)
            assert status == 415, answer
            assert "application/json" in answer["error"]
        # Declared JSON (with a charset) is read.
        ok = _raw(port, "/api/tables", json.dumps({"seats": SEATS}).encode(),
                  {"Content-Type": "application/json; charset=utf-8"})  # fmt: skip
        assert ok[0] == 200, ok
    assert _rows(db, "SELECT count(*) FROM participants") == [(0,)]
    assert _rows(db, "SELECT count(*) FROM games") == [(1,)]


def test_another_sites_origin_is_refused_and_the_servers_own_is_not(tmp_path: Path) -> None:
    """A request or a WebSocket carrying another site's ``Origin`` is refused (403; the socket
    closed before it opens); this server's own (its Host), and none at all, pass."""
    db = tmp_path / "origin.sqlite"
    body = json.dumps({"seats": SEATS}).encode()
    with _port(db, TableSettings(**QUICK)) as port:
        own = f"http://127.0.0.1:{port}"
        for origin in ("https://evil.example", "null", f"http://127.0.0.1:{port + 1}"):
            headers = {"Content-Type": "application/json", "Origin": origin}
            status, answer = _raw(port, "/api/tables", body, headers)
            assert status == 403, answer
            assert answer["error"].startswith(f"Origin {origin!r} is not this server's")
        status, made = _raw(port, "/api/tables", body,
                            {"Content-Type": "application/json", "Origin": own})  # fmt: skip
        assert status == 200, made
        token = made["seats"][0]["token"]
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}/ws", origin="https://evil.example", open_timeout=10)
        assert refused.value.response.status_code == 403
        with connect(f"ws://127.0.0.1:{port}/ws", origin=own, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            assert until(ws, "welcome")["seat"] == 0
    assert _rows(db, "SELECT count(*) FROM games") == [(1,)]


def test_the_public_url_is_an_origin_of_the_servers_own() -> None:
    """Behind a proxy, pages come from ``--public-url``: that origin passes too."""
    public = "https://games.example.org"
    headers = Headers({"host": "127.0.0.1:8000", "origin": public})
    assert foreign_origin(headers, public) is None
    assert foreign_origin(headers, None) == public
    assert foreign_origin(Headers({"host": "games.example.org", "origin": public}), None) is None
    assert foreign_origin(Headers({"host": "a.org", "origin": "http://[::1"}), None) is not None


# -- 6. a second review: the Origin check and the links, tried against a real server -----------
def _headed(port: int, path: str, body: bytes, headers: dict[str, str]) -> int:
    """A POST of ``body`` with ``headers`` (a ``Host`` among them replaces the client's own)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_a_public_url_or_host_with_the_default_port_is_still_the_servers_own_origin(
    tmp_path: Path,
) -> None:
    """``--public-url https://games.example.org:443`` is taken at start, but a browser never
    writes the default port in ``Origin``: behind a proxy that does not pass ``Host``, every
    request and WebSocket of the server's own pages was refused (403), the game unplayable. So
    was a ``Host`` with the default port (``$host:$server_port``). Another port is still
    another site."""
    db = tmp_path / "ports.sqlite"
    body = json.dumps({"seats": SEATS}).encode()
    public = "https://games.example.org:443"
    with live_server(db, TableSettings(**QUICK), public_url=public) as url:
        port = int(url.rsplit(":", 1)[1])
        for origin, host, status in (
            ("https://games.example.org", f"127.0.0.1:{port}", 200),  # a proxy keeping no Host
            ("https://games.example.org", "games.example.org:443", 200),  # one adding its port
            ("http://localhost", "localhost:80", 200),
            ("https://games.example.org:8443", f"127.0.0.1:{port}", 403),
            ("http://games.example.org:443", f"127.0.0.1:{port}", 403),
        ):
            headers = {"Content-Type": "application/json", "Origin": origin, "Host": host}
            assert _headed(port, "/api/tables", body, headers) == status, (origin, host)
        with connect(f"ws://127.0.0.1:{port}/ws", origin="https://games.example.org",
                     open_timeout=10) as ws:  # fmt: skip
            ws.send(json.dumps({"type": "join", "token": "no-such-token"}))
            assert until(ws, "error")["code"] == "gone"
    assert _rows(db, "SELECT count(*) FROM games") == [(3,)]


def test_the_waiting_room_opens_where_the_lobby_keeps_its_links(tmp_path: Path) -> None:
    """The lobby keeps the table's links in its own address's storage, and its "waiting room"
    opened the creator's seat link, which starts with ``--public-url`` (or, on a server bound to
    more than the loopback, the machine's network address): another origin, whose storage holds
    none of them. A lobby opened at ``http://127.0.0.1:PORT`` (as the docs say is fine) led to a
    waiting room without its invite link, seats' links or QR codes. Now the creator's seat opens
    at the lobby's address; the links it shows still start with the public URL."""
    public = "http://localhost:{port}"
    with live_server(tmp_path / "room.sqlite", TableSettings(**QUICK), public_url=public) as url:
        port = int(url.rsplit(":", 1)[1])
        with browser_page() as page:
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            page.goto(url + "/")
            page.select_option("[data-field=seat-count]", "3")
            for i, kind in enumerate(["person", "person", "random"]):
                page.locator("select[name=kind]").nth(i).select_option(kind)
            page.click("[data-action=create]")
            page.click("[data-action=waiting-room]")
            page.wait_for_selector("[data-screen=waiting]:not([hidden])")
            try:
                page.wait_for_selector("#waiting-links:not([hidden])", timeout=10_000)
            except PlaywrightTimeout:
                raise AssertionError(f"the waiting room at {page.url} shows no links") from None
            assert page.url.startswith(f"{url}/play#t="), page.url
            invite = page.locator("[data-link=invite]").input_value()
            assert invite.startswith(f"http://localhost:{port}/join#i="), invite
            page.wait_for_selector("img.qr[data-qr=invite][src^='data:image/svg+xml']")


# -- 7. DNS rebinding: a site's name pointed at the server passes the Origin check --------------
def _named(port: int, method: str, path: str, host: str, body: Any = None) -> tuple[int, Any]:
    """A request to the loopback server naming ``host`` (the rebound site sends its own name in
    ``Host`` and, from its page, in ``Origin``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": host, "Content-Type": "application/json", "Origin": f"http://{host}"}
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw.startswith(b"{") else raw
    finally:
        conn.close()


def test_a_page_of_a_name_rebound_to_the_server_is_refused(tmp_path: Path) -> None:
    """``evil.example`` made to point at 127.0.0.1: its page's requests name it in both ``Host``
    and ``Origin``, so the Origin check took them for the server's own, and the page could make
    tables and answer the study of a server only its visitor can reach. ``huescues serve`` now
    answers only to addresses, localhost, ``--public-url``'s name and ``--allowed-hosts``."""
    db = tmp_path / "rebind.sqlite"
    with serve_process(db, "--allowed-hosts", "games.example.org,.party.example") as served:
        port = served.port
        for host in (f"evil.example:{port}", "127.0.0.1.evil.example", f"party.example.org:{port}"):
            status, answer = _named(port, "POST", "/api/tables", host, {"seats": SEATS})
            assert status == 400, (host, answer)
            assert answer["error"].startswith(f"Host {host!r} is not a name this server answers")
            assert "--allowed-hosts" in answer["error"]
            assert _named(port, "GET", "/", host)[0] == 400
        # (The socket is the loopback's; the URI gives the Host a rebound page's socket sends.)
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://evil.example:{port}/ws", open_timeout=10,
                    sock=socket.create_connection(("127.0.0.1", port), timeout=10))  # fmt: skip
        assert refused.value.response.status_code == 403
        loopback = socket.create_connection(("127.0.0.1", port), timeout=10)
        with connect(f"ws://localhost:{port}/ws", open_timeout=10, sock=loopback) as ws:
            ws.send(json.dumps({"type": "join", "token": "no-such-token"}))
            assert until(ws, "error")["code"] == "gone"
        # An address, localhost, and the names given (subdomains for a leading dot) pass.
        passing = (f"127.0.0.1:{port}", f"localhost:{port}", "app.localhost", f"[::1]:{port}",
                   "games.example.org", "party.example", f"a.b.party.example:{port}")  # fmt: skip
        for host in passing:
            assert _named(port, "GET", "/healthz", host)[0] == 200, host
        assert _named(port, "POST", "/api/tables", f"localhost:{port}", {"seats": SEATS})[0] == 200
    assert _rows(db, "SELECT count(*) FROM games") == [(1,)]


@pytest.mark.parametrize("name", ["games.example.org:8000", "https://games.example.org", "a/b",
                                  "-no.example", "."])  # fmt: skip
def test_an_allowed_host_that_is_no_name_is_refused_at_start(name: str, tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "huescues", "serve", "--port", "0", "--db",
         str(tmp_path / "h.sqlite"), "--allowed-hosts", f"ok.example,{name}"],
        capture_output=True, env=environment(), timeout=30,
    )  # fmt: skip
    err = run.stderr.decode()
    assert run.returncode == 2 and err.count("\n") == 1 and "--allowed-hosts" in err, err
    assert not (tmp_path / "h.sqlite").exists()  # refused before anything was made


def test_which_hosts_pass() -> None:
    names = allowed_host_names("https://games.example.org:443", ["Club.Example.", ".lan.example"])
    passing = ("10.0.0.5:8000", "[fe80::1]", "localhost", "LOCALHOST:80", "x.localhost",
               "games.example.org", "club.example:80", "lan.example", "a.lan.example.")  # fmt: skip
    for host in passing:
        assert host_allowed(host, names), host
    for host in ("evil.example", "example.org", "xlan.example", "club.example.evil", "[::1",
                 "localhost.evil.example", ":8000"):  # fmt: skip
        assert not host_allowed(host, names), host
    assert host_allowed(None, names)  # no Host: not a browser
    assert host_allowed("evil.example", allowed_host_names(None, ["*"]))


# -- 8. a lab: many people behind one address --------------------------------------------------
def test_a_lab_behind_one_address_starts_as_many_participants_as_it_says(tmp_path: Path) -> None:
    """Twenty people in a lab behind one NAT are one address: the 11th to start in a minute was
    refused (429) and waited. ``--people-per-address 3`` lets 30 start in the minute, not 31."""
    for people, allowed in ((1, 10), (3, 30)):
        db = tmp_path / f"lab{people}.sqlite"
        with serve_process(db, "--people-per-address", str(people)) as served:
            codes = [
                request(served.port, "POST", "/study/api/start", {"consent": True})[0]
                for _ in range(allowed + 1)
            ]
        assert codes == [201] * allowed + [429], (people, codes)
        assert _rows(db, "SELECT count(*) FROM participants") == [(allowed,)]


def test_people_per_address_scales_every_limit_on_one_address_and_no_cap() -> None:
    study, tables, connections = per_address_limits(4, StudyConfig(), TableSettings(), 64)
    one, one_tables = StudyConfig(), TableSettings()
    assert (study.rate, study.burst, study.starts_per_minute) == (
        4 * one.rate, 4 * one.burst, 4 * one.starts_per_minute)  # fmt: skip
    for name in ("connect_burst", "connect_rate", "max_tables_per_address",
                 "max_connections_per_address"):  # fmt: skip
        assert getattr(tables, name) == 4 * getattr(one_tables, name), name
    assert connections == 256 and tables.max_tables == one_tables.max_tables
    assert per_address_limits(1, one, one_tables, 64) == (one, one_tables, 64)
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="--people-per-address"):
            per_address_limits(bad, one, one_tables, 64)  # type: ignore[arg-type]


def test_the_name_the_server_is_bound_by_is_one_it_answers_to() -> None:
    """``huescues serve --host mybox.lan`` is opened at ``http://mybox.lan:8000``: that name
    passes; an address bound to adds no name."""
    assert _bound_name("mybox.lan") == ["mybox.lan"]
    assert _bound_name("0.0.0.0") == [] and _bound_name("::1") == [] and _bound_name("[::]") == []
    names = allowed_host_names(None, _bound_name("mybox.lan"))
    assert host_allowed("mybox.lan:8000", names) and not host_allowed("evil.example", names)


def test_a_host_is_read_only_in_the_forms_a_browser_writes() -> None:
    """A second review: the Host was read as a URL's authority, so ``evil.com@localhost`` and
    ``localhost/evil.com`` passed (a script's forms only, but no Host of a browser's); a
    ``--public-url`` of another script (``bücher.example``) refused every page's request, which
    names it in its ASCII form; one string given as the list of names took its letters."""
    names = allowed_host_names("https://bücher.example", ["Straße.example", ".Müller.example"])
    assert "xn--bcher-kva.example" in names and "strasse.example" in names
    assert host_allowed("xn--bcher-kva.example:443", names)
    assert host_allowed("shop.xn--mller-kva.example", names)
    scripts = ("evil.com@localhost", "localhost/evil.com", "localhost#x.evil.com",
               "evil.com\\@localhost", "localhost:abc", "localhost:80 x", "1.2.3.4.5")  # fmt: skip
    for host in scripts:
        assert not host_allowed(host, names), host
    assert host_allowed("[fe80::1%25eth0]:80", names) and host_allowed("localhost:8000", names)
    with pytest.raises(TypeError, match="a list of names"):
        allowed_host_names(None, "games.example.org")
    assert _bound_name("") == [] and _bound_name("bücher.lan") == ["xn--bcher-kva.lan"]
    with pytest.raises(ValueError, match="from 1 to 10000"):
        per_address_limits(10**30, StudyConfig(), TableSettings(), 64)
