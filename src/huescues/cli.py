"""The ``huescues`` command: ``tournament`` (the main job), ``play``, ``replay``, ``game``,
``clue``, ``serve``, ``responses``, ``ratings``, ``board``.

User mistakes end in one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

# Loaded with the package itself (huescues/__init__.py), so free here.
from huescues.engine import MAX_PLAYERS, MIN_PLAYERS, available_languages

if TYPE_CHECKING:
    from rich.console import Console

    from huescues.engine import Board

__all__ = ["main"]


def _board(path: str | None) -> Board:
    # Imported here so that `huescues --help` answers at once.
    from huescues.engine import Board

    if path is None:
        return Board.standard()
    try:
        return Board.from_csv(path)
    except OSError as e:  # one line naming the file, not Python's "[Errno 2] ..."
        raise OSError(f"{path}: cannot read the board CSV ({e.strerror or e})") from None


def _game(args: argparse.Namespace) -> int:
    from huescues.agents import RandomAgent, play_game
    from huescues.engine import describe_game

    agents = [RandomAgent() for _ in range(args.players)]
    _, state = play_game(agents, seed=args.seed)
    print(describe_game(state))
    return 0


#: The default tournament: the default players against the baselines, seconds on 2 cores.
DEFAULT_ENTRANTS = ("default", "naming", "random")
DEFAULT_GAMES = 240


def _tournament(args: argparse.Namespace) -> int:
    from rich.console import Console

    from huescues.tournament import Tournament

    _check_outputs(args)  # before the first game, not after the whole run
    entrants = args.entrants or list(DEFAULT_ENTRANTS)
    rules = {} if args.language == "en" else {"language": args.language}
    tournament = Tournament(
        entrants, games=args.games, players=args.players, seed=args.seed, rules=rules
    )
    console = Console(stderr=True)
    # A bar with the time left on a terminal; elsewhere (a log file, CI) a plain line now and
    # then. Both on stderr: stdout holds only the report.
    shown: _Progress = _Bar(console) if console.is_terminal else _Lines(sys.stderr)
    with shown:
        try:
            results = tournament.run(
                workers=args.workers,
                scheduler=args.scheduler,
                out=args.out,
                resume=args.resume,
                progress=shown.update,
            )
        except KeyboardInterrupt:
            shown.close()
            print(_interrupted_run(args, tournament.games), file=sys.stderr)
            return 130
    report = results.report(seed=args.seed)
    report.print()
    if args.out:
        print(f"results: {args.out}")
    if args.report_json:
        report.to_json(args.report_json)
        print(f"report: {args.report_json}")
    if args.report_csv:
        written = report.to_csv(args.report_csv)
        print(f"report tables: {', '.join(str(p) for p in written)}")
    if args.plot:
        report.plot(args.plot)
        print(f"plot: {args.plot}")
    return 0


class _Progress:
    """Shows a tournament's progress: ``update(done, total)`` is called as games finish (often:
    thousands of times a second with fast players, so it does little each time)."""

    #: Seconds between redraws.
    every = 0.1

    def __init__(self) -> None:
        self._first: int | None = None
        self._started = 0.0
        self._shown = 0.0

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self._first is None:  # games already saved (a resumed run) do not count for the rate
            self._first, self._started = done, now
        if done < total and now - self._shown < self.every:
            return
        self._shown = now
        played = done - self._first
        elapsed = now - self._started
        rate = played / elapsed if played and elapsed > 0 else None
        left = (total - done) / rate if rate else None
        self.show(done, total, rate, left)

    def show(self, done: int, total: int, rate: float | None, left: float | None) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class _Bar(_Progress):
    """A rich progress bar on a terminal, with the games per second and the time left."""

    def __init__(self, console: Console) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        super().__init__()
        columns = (
            TextColumn("[bold]tournament"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} games/s"),
            TextColumn("{task.fields[elapsed]} elapsed, {task.fields[left]} left"),
        )
        self._bar = Progress(*columns, console=console, transient=False)
        self._task = self._bar.add_task("games", total=None, rate="-", elapsed="0:00", left="-")
        self._bar.start()

    def show(self, done: int, total: int, rate: float | None, left: float | None) -> None:
        self._bar.update(
            self._task,
            completed=done,
            total=total,
            rate="-" if rate is None else f"{rate:,.1f}",
            elapsed=_clock(time.monotonic() - self._started),
            left="-" if left is None else _clock(left),
        )

    def close(self) -> None:
        self._bar.stop()


class _Lines(_Progress):
    """Where there is no terminal: a line to stderr every ``every`` seconds and at the end."""

    every = 10.0

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream

    def show(self, done: int, total: int, rate: float | None, left: float | None) -> None:
        share = 100 * done / total if total else 100.0
        text = f"tournament: {done:,} of {total:,} games ({share:.0f}%)"
        if rate is not None:
            text += f", {rate:,.1f} games/s"
        if left is not None and done < total:
            text += f", about {_clock(left)} left"
        print(text, file=self._stream, flush=True)


def _clock(seconds: float) -> str:
    """``m:ss`` or ``h:mm:ss``."""
    s = round(seconds)
    hours, rest = divmod(s, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse report files that cannot be written, and a plot without matplotlib, at once."""
    import tempfile
    from pathlib import Path

    if args.plot:
        _check_plot("--plot")
    for option, name in (("--report-json", args.report_json), ("--plot", args.plot)):
        if not name:
            continue
        path = Path(name)
        try:
            if path.exists():
                open(path, "ab").close()  # writable? (changes nothing)
            else:
                open(path, "xb").close()
                path.unlink()
        except OSError as e:
            raise OSError(f"{option} {name}: cannot write there ({e.strerror or e})") from None
    if args.report_csv:
        try:  # the report makes the directory anyway: make it now, and try a file in it
            Path(args.report_csv).mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=args.report_csv).close()
        except OSError as e:
            raise OSError(
                f"--report-csv {args.report_csv}: cannot write there ({e.strerror or e})"
            ) from None


def _check_plot(option: str) -> None:
    """Refuse a picture without matplotlib before any work, in one line naming the extra."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise ImportError(f"{option} needs matplotlib: pip install 'huescues[plot]'")


def _interrupted_run(args: argparse.Namespace, total: int) -> str:
    """What an interrupted tournament saved, and how to finish it."""
    from pathlib import Path

    from huescues.tournament import ResultsFileError, TournamentResults

    if not args.out:
        return "huescues tournament: interrupted; nothing saved (give --out to keep the games)"
    try:
        saved = len(TournamentResults.load(args.out))
    except (ResultsFileError, OSError, ValueError, ImportError):
        saved = None
    if not Path(args.out).exists() or saved == 0:
        return f"huescues tournament: interrupted before any game was saved in {args.out}"
    again = " ".join(shlex.quote(a) for a in args.argv if a != "--resume")
    how_many = "some" if saved is None else f"{saved} of {total}"
    return (
        f"huescues tournament: interrupted; {how_many} games are saved in {args.out}. "
        f"To finish the run: huescues {again} --resume"
    )


def _play(args: argparse.Namespace) -> int:
    from huescues.terminal import GameAbandoned, play_in_terminal

    try:
        play_in_terminal(
            players=args.players,
            seat=args.seat,
            seed=args.seed,
            opponents=args.opponents,
            language=args.language,
        )
    except GameAbandoned as e:
        # Status 1 either way (docs/errors.md): a script can tell an abandoned game from a
        # finished one. Quitting is the person's choice, so it is a goodbye, not an error line.
        if e.chosen:
            print("Goodbye.")
        else:
            print(f"huescues play: {e}", file=sys.stderr)
        return 1
    return 0


def _replay(args: argparse.Namespace) -> int:
    from huescues.terminal import replay_file

    replay_file(args.file, step=args.step, game=args.game, board_csv=args.board)
    return 0


def _clue(args: argparse.Namespace) -> int:
    from huescues.agents import top_squares
    from huescues.language import default_model
    from huescues.render import render_clue

    if args.out:
        _check_plot("--out")  # before the reading is printed, not after
    board = _board(args.board)
    model = default_model()
    best = top_squares(model, args.text, board, args.top)
    prediction = model.predict(args.text)
    lightness, a, b = prediction.lab
    how = prediction.source + ("" if prediction.known else ", unknown: a flat guess")
    print(f"{args.text!r}: L*={lightness:.0f} a*={a:.0f} b*={b:.0f} ({how})")
    for rank, (cell, p) in enumerate(best, start=1):
        print(f"{rank:>3}. {cell!s:<4} {board.hex(cell)}  p={p:.3f}")
    if args.out:
        render_clue(model, args.text, board, args.out, k=args.top)
        print(f"heat map written to {args.out}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    try:
        from huescues.web import MAX_REVEAL_SECONDS, StudyConfig, TableSettings, serve
    except ImportError as e:
        raise ImportError(
            f"{e.name or e}: huescues serve needs the web extra: pip install 'huescues[web]'"
        ) from e

    clues = tuple(c.strip() for c in args.clues.split(",") if c.strip()) if args.clues else None
    practice = _listed(args.practice_clues, "--practice-clues")
    targets = _listed(args.targets, "--targets")
    game_bots = _listed(args.game_bots, "--game-bots")
    study = StudyConfig(
        clues=clues,
        board=args.board,
        clues_per_person=args.clues_per_person,
        giver=args.giver,
        consent=args.consent,
        allow_visitor_clues=args.allow_visitor_clues,
        targets_per_person=args.targets_per_person,
        practice=args.practice,
        attention_checks=args.attention_checks,
        attention_misses_allowed=args.attention_misses_allowed,
        colour_plates=args.colour_plates,
        completion_url=args.completion_url,
        completion_code=args.completion_code,
        screen_out_url=args.screen_out_url,
        language=args.language if args.study_language is None else args.study_language,
        practice_clues=practice,
        targets=targets,
        game_bots=StudyConfig().game_bots if game_bots is None else game_bots,
    )
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: give a port from 0 to 65535 (0: any free port)")
    if not args.header_timeout > 0:
        raise ValueError(f"--header-timeout {args.header_timeout:g}: give seconds above 0")
    if args.connections_per_address < 1:
        raise ValueError(
            f"--connections-per-address {args.connections_per_address}: allow 1 or more"
        )
    if not args.idle_timeout > 0:
        raise ValueError(f"--idle-timeout {args.idle_timeout:g}: give seconds above 0")
    if not 0 <= args.reveal_pause <= MAX_REVEAL_SECONDS:
        raise ValueError(
            f"--reveal-pause {args.reveal_pause:g}: give seconds from 0 to {MAX_REVEAL_SECONDS:g}"
        )
    tables = TableSettings(
        leaderboard=args.leaderboard,
        allow_seed=args.allow_seed,
        idle_timeout=args.idle_timeout,
        language=args.language,
        reveal_pause=args.reveal_pause,
    )
    serve(
        args.host,
        args.port,
        args.db,
        study=study,
        tables=tables,
        header_timeout=args.header_timeout,
        connections_per_address=args.connections_per_address,
        max_connections=args.max_connections,
        public_url=args.public_url,
        forwarded_allow_ips=args.forwarded_allow_ips,
        allowed_hosts=_listed(args.allowed_hosts, "--allowed-hosts") or (),
        people_per_address=args.people_per_address,
    )
    return 0


def _listed(text: str | None, option: str) -> tuple[str, ...] | None:
    """A comma-separated list given on the command line, or ``@FILE``: the file's lines (blank
    lines and ``#`` comments left out)."""
    if text is None:
        return None
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as e:
            raise OSError(f"{option} {text}: cannot read {path} ({e.strerror or e})") from None
        items = [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    else:
        items = [part.strip() for part in text.split(",") if part.strip()]
    if not items:
        raise ValueError(f"{option} {text!r}: the list is empty")
    return tuple(items)


def _web_part(command: str) -> Any:
    try:
        import huescues.web as web
    except ImportError as e:
        raise ImportError(
            f"{e.name or e}: huescues {command} needs the web extra: pip install 'huescues[web]'"
        ) from e
    return web


def _responses_export(args: argparse.Namespace) -> int:
    web = _web_part("responses export")
    kind = "games" if args.rounds else args.kind
    if args.all_tables and kind != "actions":
        raise ValueError("--all-tables goes with --kind actions")
    if kind == "actions":
        n = web.export_actions(args.db, args.out, all_tables=args.all_tables)
        print(f"{n} actions written to {args.out}")
    elif kind == "participants":
        n = web.export_participants(args.db, args.out)
        print(f"{n} participants written to {args.out}")
    elif kind == "games":
        n = web.export_games(
            args.db, args.out, board=None if args.board is None else _board(args.board)
        )
        print(f"{n} games' rounds written to {args.out}")
    elif kind == "given-clues":
        n = web.export_given_clues(args.db, args.out)
        print(f"{n} given clues written to {args.out}")
    else:
        n = web.export_responses(args.db, args.out)
        print(f"{n} responses written to {args.out}")
    return 0


def _responses_report(args: argparse.Namespace) -> int:
    web = _web_part("responses report")
    if not Path(args.db).is_file():
        raise ValueError(f"{args.db}: no such database (the --db file huescues serve wrote)")
    text = web.study_report(args.db, _board(args.board), n_boot=args.boot, seed=args.seed)
    print(text, end="")
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"report: {args.out}")
    return 0


def _ratings(args: argparse.Namespace) -> int:
    web = _web_part("ratings")
    ratings = web.server_ratings(args.db)
    if not ratings:
        print(f"{args.db}: no finished game with two or more named players to rate")
        return 0
    print(
        "People and bots on one scale (openskill's Plackett-Luce on final scores, in the order "
        "the games finished; mu with a 95 % interval; ordinal = mu - 3 sigma):"
    )
    width = max(len(r.entrant) for r in ratings)
    for rank, r in enumerate(ratings, start=1):
        low, high = r.interval
        print(
            f"{rank:>3}. {r.entrant:<{width}}  {r.kind:<11} {r.games:>4} games  "
            f"mu {r.mu:5.1f} [{low:5.1f}, {high:5.1f}]  ordinal {r.ordinal:5.1f}"
        )
    if args.out:
        web.write_ratings(ratings, args.out)
        print(f"ratings: {args.out}")
    return 0


def _draw_board(args: argparse.Namespace) -> int:
    from huescues.render import render_board

    board = _board(args.csv)
    out = render_board(board, args.out, title=board.id)
    print(f"board {board.id} ({board.rows} x {board.cols}) written to {out}")
    return 0


def _parser() -> argparse.ArgumentParser:
    from huescues.agents import catalogue_help, catalogue_names
    from huescues.terminal import OPPONENTS

    # The study's givers, chosen from the catalogue as huescues.web.GIVERS chooses them
    # (importing the web would need its optional dependencies).
    study_givers = catalogue_names(role="giver", sees_target=False)
    spanish = ", ".join(catalogue_names(language="es"))
    language_option: dict[str, Any] = {
        "choices": available_languages(),
        "default": "en",
        "help": "the clues' language: the clue rules R18-R21 in it; bots that speak it "
        f"({spanish} speak es) give and read clues in it, the others give English clues "
        "(default: en)",
    }
    parser = argparse.ArgumentParser(prog="huescues", description="Hues and Cues as a library.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    tour = sub.add_parser(
        "tournament",
        help="bots play many games; a report with confidence intervals (the main job)",
        description="Play many bot-versus-bot games and report who is better, with confidence. "
        "With no options: the default players against the baselines, a few seconds on 2 cores.",
    )
    tour.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help=f"games (default {DEFAULT_GAMES})"
    )
    tour.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=[4],
        help=f"player counts, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4)",
    )
    tour.add_argument(
        "--entrants",
        nargs="+",
        help="built-in players or module:factory paths (default: "
        + " ".join(DEFAULT_ENTRANTS)
        + "). The built-in players: "
        + catalogue_help(),
    )
    tour.add_argument("--language", **language_option)
    tour.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    tour.add_argument("--scheduler", help="a Dask scheduler address (needs huescues[dask])")
    tour.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    tour.add_argument(
        "--out",
        help="write the results here as they finish (crash-safe): JSON lines, or Parquet shards "
        "in a directory when the name ends in .parquet (needs huescues[export])",
    )
    tour.add_argument("--resume", action="store_true", help="finish the run in --out")
    tour.add_argument("--report-json", help="also write the report as JSON here")
    tour.add_argument("--report-csv", help="also write the report's tables as CSV files here")
    tour.add_argument("--plot", help="also draw the report as a PNG here (needs huescues[plot])")
    tour.set_defaults(run=_tournament)

    play = sub.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play one game of Hues and Cues in the terminal against bots: give clues "
        "when it is your turn, place pawns by a square's name (e.g. F12). Type 'quit' to stop.",
    )
    play.add_argument(
        "--players",
        type=int,
        default=4,
        help=f"number of players, {MIN_PLAYERS}-{MAX_PLAYERS} (R2) (default: 4)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat, 0 to players-1 (default: 0)")
    play.add_argument("--seed", type=int, default=0, help="the game's seed (R27) (default: 0)")
    play.add_argument(
        "--opponents",
        choices=OPPONENTS,
        default="default",
        help="the bots (default: default): " + catalogue_help(OPPONENTS),
    )
    play.add_argument("--language", **language_option)
    play.set_defaults(run=_play)

    replay = sub.add_parser(
        "replay",
        help="step through a game record or a results file",
        description="Replay a recorded game with the engine and print it round by round: the "
        "clues, the pawns, the target, the points and the board at each reveal.",
    )
    replay.add_argument(
        "file",
        help="a GameRecord JSON, a tournament's JSON-lines results, or huescues serve's database",
    )
    replay.add_argument("--step", action="store_true", help="wait for Enter between rounds")
    replay.add_argument(
        "--game",
        help="which game: its index in a results file (default: the first), or its table id in "
        "a huescues serve database (default: the latest finished)",
    )
    replay.add_argument("--board", help="the board CSV, for games not on the standard board")
    replay.set_defaults(run=_replay)

    game = sub.add_parser(
        "game",
        help="random players play one game; print it",
        description="Random players play one game; its moves and result are printed.",
    )
    game.add_argument(
        "--players",
        type=int,
        default=4,
        help=f"number of players, {MIN_PLAYERS}-{MAX_PLAYERS} (R2) (default: 4)",
    )
    game.add_argument("--seed", type=int, default=0, help="the game's seed (R27) (default: 0)")
    game.set_defaults(run=_game)

    clue = sub.add_parser(
        "clue",
        help="where the default model reads a clue on the board",
        description="Show where the default colour model reads a clue: its colour, and the "
        "board's most likely squares. --out also draws them as a heat map, which needs the plot "
        "extra: pip install 'huescues[plot]'.",
    )
    clue.add_argument("text", help="the clue, e.g. 'banana' or 'pale sky'")
    clue.add_argument("--top", type=int, default=5, help="how many squares to list (default 5)")
    clue.add_argument(
        "--out", help="write a heat map PNG here (needs the plot extra: huescues[plot])"
    )
    clue.add_argument("--board", help="a board CSV (row, column, red, green, blue)")
    clue.set_defaults(run=_clue)

    web = sub.add_parser(
        "serve",
        help="play in the browser, and run a study of people's clicks (needs huescues[web])",
        description=f"Serve game tables (people and bots, {MIN_PLAYERS}-{MAX_PLAYERS} seats) "
        "at / and a study at /study, keeping every finished game and response in one SQLite "
        "file.",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    web.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    web.add_argument(
        "--db", default="huescues.sqlite", help="the database (default huescues.sqlite)"
    )
    web.add_argument(
        "--clues", help="the study's clues, comma-separated (default: a built-in list)"
    )
    web.add_argument("--board", help="the study's board CSV (default: the standard board)")
    web.add_argument(
        "--clues-per-person", type=int, default=10, help="clues each person sees (default 10)"
    )
    web.add_argument(
        "--giver",
        help="the study shows this bot's clues for hidden targets: " + catalogue_help(study_givers),
    )
    web.add_argument(
        "--consent", help="a text file whose paragraphs replace the built-in consent text"
    )
    web.add_argument(
        "--allow-visitor-clues",
        action="store_true",
        help="let visitors bring their own clue list (/study?clues=a,b); their rows say "
        "clue_source visitor in the export (default: only the study's clues)",
    )
    web.add_argument(
        "--language",
        default="en",
        choices=available_languages(),
        help="the language of a table made without choosing one (its clue rules, R19-R21), and "
        "the pages' before the browser's is known (default en)",
    )
    web.add_argument(
        "--study-language",
        choices=available_languages(),
        help="the study's clue language (its built-in clue list, the rules a given clue is "
        "checked by, the exports' clue_language; default: --language)",
    )
    web.add_argument(
        "--idle-timeout",
        type=float,
        default=1800.0,
        help="seconds a table no one is connected to is kept before it expires (default 1800)",
    )
    web.add_argument(
        "--reveal-pause",
        type=float,
        default=60.0,
        help="seconds a reveal waits for the people at a table to press Next round before the "
        "round ends anyway (0-600, default 60; a table's house rules may set their own)",
    )
    web.add_argument(
        "--allow-seed",
        action="store_true",
        help="let POST /api/tables choose a game's seed (for tests and demonstrations: a chosen "
        "seed tells its chooser every card; default: the server draws it)",
    )
    web.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        help="seconds a client has to send a request's head before it is cut off (default 10)",
    )
    web.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        help="connections one client address may hold open (default 64)",
    )
    web.add_argument(
        "--max-connections",
        type=int,
        help="connections the server holds open in all, HTTP and WebSocket (default: 1000, or "
        "the open-file limit less 64 if that is lower; at or above the limit is refused)",
    )
    web.add_argument(
        "--public-url",
        help="the address people reach the server at (behind a proxy or a tunnel, on a LAN), "
        "http(s)://HOST[:PORT] without a path: seat links start with it (default: the address "
        "the page was opened at, or this machine's LAN address for a page opened at 127.0.0.1)",
    )
    web.add_argument(
        "--people-per-address",
        type=int,
        default=1,
        help="people who reach the server through one address, as a lab's computers behind one "
        "NAT: the limits on one address (a study's requests and new participants, games in "
        "play, connections) are that many times as large (default 1)",
    )
    web.add_argument(
        "--allowed-hosts",
        help="host names the server answers to besides addresses, localhost, --host's and "
        "--public-url's (comma-separated; .example.org takes in its subdomains; * any name): a "
        "request naming another is refused, which stops DNS rebinding (default: none besides "
        "those)",
    )
    web.add_argument(
        "--forwarded-allow-ips",
        help="the proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (addresses "
        "or networks, comma-separated, or *), so the per-address limits count people, not the "
        "proxy (default: none: the connection's own address counts)",
    )
    web.add_argument(
        "--targets",
        help="the clue-giving study's targets: squares, comma-separated (A3,F12,...), or @FILE "
        "of one a line (default: every square); --targets-per-person of them each person, "
        "the least-given first",
    )
    web.add_argument(
        "--targets-per-person",
        type=int,
        default=10,
        help="targets each person gives a clue for at /study/give (default 10)",
    )
    web.add_argument(
        "--practice-clues",
        help="the practice clues (comma-separated, or @FILE), never one of the study's (default: "
        "a built-in list in the study's language); --practice sets how many are shown",
    )
    web.add_argument(
        "--game-bots",
        help="the game study's bots (/study/game), one seat each beside the participant's, "
        "comma-separated (default: default,naming)",
    )
    web.add_argument(
        "--leaderboard",
        action="store_true",
        help="show the top of the ratings of the people and bots who played here (huescues "
        "ratings) on the front page",
    )
    web.add_argument(
        "--practice", type=int, default=0, help="practice items before the real ones (default 0)"
    )
    web.add_argument(
        "--attention-checks",
        type=int,
        default=0,
        help="attention checks ('click the square shown') among the items (default 0)",
    )
    web.add_argument(
        "--attention-misses-allowed",
        type=int,
        default=1,
        help="attention checks a participant may miss (a click more than 1 square away) "
        "before being screened out (default 1)",
    )
    web.add_argument(
        "--colour-plates",
        type=int,
        default=0,
        help="colour-vision plates (find the odd swatch) before the items (default 0)",
    )
    web.add_argument(
        "--completion-url",
        help="send a participant who finished here, the completion code added as ?cc=CODE",
    )
    web.add_argument(
        "--completion-code",
        help="the completion code (default: one drawn for the study and kept in the database)",
    )
    web.add_argument(
        "--screen-out-url", help="send a participant who failed the attention checks here"
    )
    web.set_defaults(run=_serve)

    responses = sub.add_parser(
        "responses",
        help="export the study's responses and the stored games (needs huescues[web])",
        description="Read the database huescues serve wrote.",
    )
    rsub = responses.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = rsub.add_parser(
        "export",
        help="write the study's clicks (or, with --games, the games' rounds) as a table",
        description="Write every study response as CSV for HumanResponses.from_csv (clue, "
        "square, participant, board, time, response_ms, item, giver, target and the optional "
        "answers), or with --games the rounds of every stored game as the tidy round table "
        "(CSV, or Parquet for .parquet).",
    )
    export.add_argument("--db", required=True, help="the database huescues serve wrote")
    export.add_argument("--out", required=True, help="the file to write")
    export.add_argument(
        "--kind",
        choices=("responses", "given-clues", "participants", "actions", "games"),
        default="responses",
        help="what to write: the guessing study's clicks (default), the clues people gave at "
        "/study/give, one row per participant, every action of the game study's games, or the "
        "games' rounds",
    )
    export.add_argument(
        "--all-tables",
        action="store_true",
        help="with --kind actions: every finished table's actions, not only the game study's",
    )
    export.add_argument(
        "--games", action="store_true", dest="rounds", help="the same as --kind games"
    )
    export.add_argument(
        "--board", help="with --games: the board CSV of games not on the standard board"
    )
    export.set_defaults(run=_responses_export)
    report = rsub.add_parser(
        "report",
        help="what a methods section needs of a study: participants, times, each clue's "
        "answers and agreement, the givers, the game study",
        description="Report a study from its database, as Markdown: participants by study and "
        "status, their devices, the median time an item took, each clue's answers and people's "
        "agreement on it with intervals, per clue giver (a study run with --giver) the mean R15 "
        "points of people's clicks against the hidden targets next to the library's guessers', "
        "and in the game study people and bots reading each other's clues.",
    )
    report.add_argument("--db", required=True, help="the database huescues serve wrote")
    report.add_argument("--board", help="the study's board CSV (default: the standard board)")
    report.add_argument("--boot", type=int, default=2000, help="bootstrap resamples (default 2000)")
    report.add_argument("--seed", type=int, default=0, help="the bootstrap's seed (default 0)")
    report.add_argument("--out", help="also write the report (Markdown) here")
    report.set_defaults(run=_responses_report)

    ratings = sub.add_parser(
        "ratings",
        help="rate the people and bots who played finished games on a server (needs huescues[web])",
        description="Rate every person (by the name they played under), study participant "
        "(under a pseudonym) and bot kind that played a finished game in huescues serve's "
        "database, with the tournament's rating method (openskill); default names such as "
        "'Player 3' are left out.",
    )
    ratings.add_argument("--db", required=True, help="the database huescues serve wrote")
    ratings.add_argument(
        "--out", help="also write the ratings as CSV (entrant, kind, games, mu, sigma, ordinal)"
    )
    ratings.set_defaults(run=_ratings)

    board = sub.add_parser(
        "board",
        help="draw a board to a PNG (needs huescues[plot])",
        description="Draw a board (the standard one, or a board CSV) to a PNG file "
        "(needs huescues[plot]).",
    )
    board.add_argument("--out", default="board.png", help="where to write (default board.png)")
    board.add_argument("--csv", help="a board CSV instead of the standard board")
    board.set_defaults(run=_draw_board)
    return parser


def _check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse bad options in the command's own words (``--players``, not ``Rules.standard``),
    with the engine's bounds (R2) said before any game is set up."""
    players = getattr(args, "players", 4)
    for n in players if isinstance(players, list) else [players]:
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            parser.error(f"--players {n}: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players (R2)")
    seat = getattr(args, "seat", 0)
    if isinstance(players, int) and not 0 <= seat < players:
        parser.error(f"--seat {seat}: a {players}-player game has seats 0-{players - 1}")
    workers = getattr(args, "workers", None)
    if workers is not None and workers < 1:
        parser.error(f"--workers {workers}: give at least 1, or leave it out to use every core")
    out = getattr(args, "out", None)
    if args.command == "tournament" and out:
        _check_results_path(parser, Path(out), resume=args.resume)


def _check_results_path(parser: argparse.ArgumentParser, path: Path, *, resume: bool) -> None:
    """``--out`` can be made, and holds no earlier run unless ``--resume`` was given."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                parser.error(f"--out {path}: {parent} is a file, not a directory")
            break
    if resume:
        return
    if path.is_file() and path.stat().st_size > 0:
        parser.error(
            f"--out {path} already exists: add --resume to finish that run, or choose another file"
        )
    if path.is_dir() and any(path.glob("part-*.parquet")):
        parser.error(
            f"--out {path} already holds games: add --resume to finish that run, or choose "
            "another place"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    _check_options(parser, args)
    if getattr(args, "seed", 0) < 0:
        parser.error("--seed is a whole number >= 0")
    if getattr(args, "games", 1) < 1:
        parser.error("--games must be at least 1")
    if getattr(args, "resume", False) and not getattr(args, "out", None):
        parser.error("--resume needs --out, the results file to finish")
    if getattr(args, "top", 1) < 1:
        parser.error(f"--top {args.top}: list at least one square")
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (`huescues replay FILE | head`): stop quietly. Python would
        # complain again when it flushes stdout at exit, so stdout goes to devnull.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (ValueError, ImportError, OSError) as e:
        print(f"huescues {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C: one line, the shell's status for SIGINT, no traceback.
        print(f"\nhuescues {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    raise SystemExit(main())
