"""Every figure a docs page prints comes from somewhere a reader (and CI) can find.

A figure here is a decimal (0.53), a count written with thousands separators (3,414) or a
percentage (88 %), in a page's prose or tables. Each must be one of:

- computed: inside a ``<!-- figures:NAME -->`` region, which scripts/docs_figures.py writes and
  tests/test_docs_figures.py checks (deterministic, quick figures belong there);
- measured: in the block after ``<!-- measured: COMMAND -->`` (or between it and
  ``<!-- /measured -->``), where COMMAND names the script or command that produced it; for
  what cannot run in the suite: timings, benchmarks, slow held-out evaluations, figures on
  kept-back data or of an earlier state of the library. The command must name a file that
  exists (scripts/..., benchmarks/..., examples/..., tests/...), the ``huescues`` command or
  a ``python -m timeit`` or ``python -m pytest`` line;
- not a figure of the library: in the block after ``<!-- not-figures: WHY -->`` (or up to
  ``<!-- /not-figures -->``): inputs (defaults, parameters, thresholds the rules or a test
  set), figures of the rules, of a paper or of a data set's documentation. A version number
  and a confidence level (a "95 % interval") are recognised without a marker.

Code (fenced blocks, inline spans), links' targets and HTML comments are not prose and are not
read. The check is textual and quick; docs/testing.md describes the markers.

A measured marker's commands are held to what they can do: every option a marker writes after a
script of the repository (``python scripts/X.py --games N``, or the script's bare name, ``a
build_object_colours.py --drop-ratings build``) or after the library's command (``huescues
tournament --workers 2``) must be one the script's, or the command's, ``--help`` lists; the
command's subcommand must be one of its own. Each ``--help`` runs once, in two processes (about
2 s in all: that test is in the slow tier).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md"))

#: A figure: a count with thousands separators, a decimal, or a percentage.
FIGURE = re.compile(
    r"(?<![\w.,/-])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+(?:\.\d+)?\s?%)(?![\w.]*\d)"
)
#: Not figures of the library, wherever they are: version numbers (1.2.0, Python 3.11) and a
#: confidence level (95 % interval, 95% bootstrap).
_NOT_FIGURES = re.compile(
    r"\bv?\d+\.\d+\.\d+\b|\b(?:Python|version|CFF|Python-Markdown)\s+\d+\.\d+\b"
    r"|\b\d+\s?%\s+(?:(?:percentile|paired|bootstrap|confidence|binomial)\s+)*"
    r"(?:interval|intervals|bootstrap|confidence|CI)\b"
)
_MARKER = re.compile(r"<!--\s*(?P<kind>measured|not-figures):(?P<what>[^\n]*?)-->")
_CLOSE = re.compile(r"<!--\s*/(?P<kind>measured|not-figures)\s*-->")
_FENCE = re.compile(r"^(?P<fence>```+|~~~+)[^\n]*\n.*?^(?P=fence)[ \t]*$", re.S | re.M)
_REGION = re.compile(r"<!-- figures:[\w-]+ -->.*?<!-- /figures -->", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
_LINK = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|https?://\S+")
#: A command a marker may name: a file of the repository, or the library's command.
_PATH = re.compile(
    r"(?:scripts|benchmarks|examples|tests)/[\w/.-]+\.py|\bhuescues\s+\w"
    r"|python -m (?:timeit|pytest)\b"
)


class Figure(NamedTuple):
    line: int
    text: str


def _blanked(text: str, pattern: re.Pattern[str], fill: str = " ") -> str:
    """``text`` with each match of ``pattern`` turned to ``fill``, its newlines kept (so that
    positions, and lines, stay where they were)."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", fill, m.group(0)), text)


def _covered(text: str, problems: list[str]) -> list[tuple[int, int]]:
    """The spans the markers cover: from each marker to the end of the next block (the first
    blank line after some text), or to its closing marker. A marker's faults go to
    ``problems``."""
    spans = []
    for m in _MARKER.finditer(text):
        kind, what = m.group("kind"), m.group("what").strip()
        line = text.count("\n", 0, m.start()) + 1
        if kind == "measured":
            missing = [
                p for p in re.findall(r"(?:scripts|benchmarks|examples|tests)/[\w/.-]+\.py", what)
                if not (ROOT / p).is_file()
            ]  # fmt: skip
            if not _PATH.search(what) or missing:
                problems.append(
                    f"line {line}: <!-- measured: {what} --> names no command of the repository"
                    + (f" ({', '.join(missing)} not found)" if missing else "")
                )
        elif not what:
            problems.append(f"line {line}: <!-- not-figures: --> says not why")
        after = text[m.end() :]
        close = _CLOSE.search(after)
        opens = _MARKER.search(after)
        if close and close.group("kind") == kind and (not opens or close.start() < opens.start()):
            spans.append((m.start(), m.end() + close.end()))
            continue
        body = re.search(r"\S.*?(?:\n[ \t]*\n|\Z)", after, re.S)
        spans.append((m.start(), m.end() + (body.end() if body else 0)))
    return spans


def figures(text: str, problems: list[str] | None = None) -> list[Figure]:
    """The figures of a page that nothing accounts for."""
    problems = [] if problems is None else problems
    # Markers are read outside code, so that a page may show one in backticks.
    # (filled, not blanked: a line of code is not a blank line that ends a block).
    spans = _covered(_blanked(_blanked(text, _FENCE, "_"), _CODE, "_"), problems)
    prose = text
    for pattern in (_FENCE, _REGION, _COMMENT, _CODE, _LINK, _NOT_FIGURES):
        prose = _blanked(prose, pattern)
    found = []
    for m in FIGURE.finditer(prose):
        if any(start <= m.start() < end for start, end in spans):
            continue
        found.append(Figure(prose.count("\n", 0, m.start()) + 1, m.group(0)))
    return found


#: Pages whose figures are not all accounted for yet: expected to fail, strictly, so that a page
#: fixed is taken off the list (issue 35, item 10, left none).
PENDING: set[str] = set()


def _page(page: Path) -> object:
    marks = [pytest.mark.xfail(strict=True, reason="figures not yet accounted for")]
    return pytest.param(page, id=page.name, marks=marks if page.name in PENDING else [])


@pytest.mark.parametrize("page", [_page(p) for p in PAGES])
def test_every_figure_on_the_page_says_where_it_comes_from(page: Path) -> None:
    problems: list[str] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    for figure in figures(page.read_text(encoding="utf-8"), problems):
        problems.append(f"line {figure.line}: {figure.text!r} in {lines[figure.line - 1]!r}")
    assert not problems, (
        f"docs/{page.name}: figures from nowhere (put them in a docs_figures region, or mark "
        "their block <!-- measured: COMMAND --> or <!-- not-figures: WHY -->; docs/testing.md):\n"
        + "\n".join(problems)
    )


def test_the_checker_finds_figures_and_what_accounts_for_them() -> None:
    page = "\n".join(
        [
            "People score 0.53 a pick on 1,461 picks, 88 % of them; R15 and 2026 are no figures.",
            "",
            "<!-- figures:x -->",
            "0.46",
            "<!-- /figures -->",
            "`0.07` and [a](https://x.org/0.1) and ```3.5``` and <!-- 4.5 --> are not prose.",
            "A 95% bootstrap interval, Python 3.11, version 1.2.0.",
            "",
            "<!-- measured: python scripts/evaluate_people.py -->",
            "The held-out figure 0.61, and",
            "its next line 0.62.",
            "",
            "But not the next paragraph's 0.63.",
            "",
            "<!-- not-figures: the rules' -->",
            "| 0.5 | 0.25 |",
            "",
            "<!-- measured: python benchmarks/bench_engine.py -->",
            "1.5 ms",
            "",
            "12.5 ms",
            "<!-- /measured -->",
            "",
            "```text",
            "9.99",
            "```",
        ]
    )
    assert [f.text for f in figures(page)] == ["0.53", "1,461", "88 %", "0.63"]
    problems: list[str] = []
    figures("<!-- measured: by hand -->\n1.5\n\n<!-- not-figures: -->\n2.5\n", problems)
    assert len(problems) == 2
    problems = []
    figures("<!-- measured: python scripts/nope.py -->\n1.5\n", problems)
    assert problems and "scripts/nope.py not found" in problems[0]


#: A command in a measured marker: a script of the repository (its path, or its bare name), the
#: library's command with its subcommand (and the word after it, which may be the subcommand's
#: own), or ``python -m MODULE``, which is not checked. Double-quoted text is code, not read.
_COMMAND = re.compile(
    r"(?<![\w/.-])(?P<script>(?:(?:scripts|benchmarks|examples|tests)/)?[\w-]+\.py)(?![\w.-])"
    r"|(?<![\w.-])huescues\s+(?P<sub>[a-z][\w-]*)(?:\s+(?P<then>[a-z][\w-]*))?"
    r"|\bpython3?\s+-m\s+\w+"
)
_OPTION = re.compile(r"(?<![\w-])--[a-z][\w-]*")
_QUOTED = re.compile(r'"[^"]*"')
_SCRIPT_DIRS = ("scripts", "benchmarks", "examples")


class Command(NamedTuple):
    """A marker's command: a script's path (or bare name), ``("huescues", SUB, NEXT)`` or
    ``()`` for one not checked; and the options written after it, before the next command."""

    argv: tuple[str, ...]
    options: tuple[str, ...]


def marker_commands(what: str) -> list[Command]:
    """The commands a marker names, each with the options that follow it (an option belongs to
    the nearest command before it, so that ``(a build_object_colours.py --drop-ratings build)``
    inside another script's note is that script's); options before any command are ``()``'s."""
    text = _QUOTED.sub('""', what)
    found = list(_COMMAND.finditer(text))
    out: list[tuple[tuple[str, ...], list[str]]] = []
    for m in found:
        if m.group("script"):
            argv: tuple[str, ...] = (m.group("script"),)
        elif m.group("sub"):
            argv = ("huescues", m.group("sub"), m.group("then") or "")
        else:
            argv = ()
        out.append((argv, []))
    loose: list[str] = []
    for o in _OPTION.finditer(text):
        before = [i for i, m in enumerate(found) if m.end() <= o.start()]
        (out[before[-1]][1] if before else loose).append(o.group(0))
    commands = [Command(argv, tuple(options)) for argv, options in out]
    return commands + ([Command((), tuple(loose))] if loose else [])


def _script_path(name: str) -> Path | None:
    """A script named in a marker: its path, or its bare name in scripts/, benchmarks/ or
    examples/."""
    if "/" in name:
        return ROOT / name if (ROOT / name).is_file() else None
    hits = [ROOT / d / name for d in _SCRIPT_DIRS if (ROOT / d / name).is_file()]
    return hits[0] if len(hits) == 1 else None


#: Runs ``--help`` of each command given (JSON: a script's path, or ``["huescues", SUB, ...]``)
#: in this one process, the imports shared, and prints each one's text as JSON. A script runs as
#: ``python PATH --help`` would run it (its directory first on the path); the text of one that
#: does not exit 0 starts with ``(--help failed``.
_RUN_HELPS = r"""
import contextlib, io, json, runpy, sys
from pathlib import Path
out = {}
for arg in sys.argv[1:]:
    argv, text, code, path = json.loads(arg), io.StringIO(), 0, list(sys.path)
    try:
        with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
            if argv[0] == "huescues":
                from huescues.cli import main
                code = main([*argv[1:], "--help"])
            else:
                sys.argv = [argv[0], "--help"]
                sys.path.insert(0, str(Path(argv[0]).parent))
                runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        code = e.code
    except BaseException as e:
        code = repr(e)
    finally:
        sys.path[:] = path
    said = text.getvalue()
    out[arg] = said if code in (0, None) else f"(--help failed, {code}: {said[-300:]})"
print(json.dumps(out))
"""

#: Each command's ``--help`` text, once fetched.
_HELPS: dict[tuple[str, ...], str] = {}


def _fetch(wanted: set[tuple[str, ...]]) -> None:
    """Fetch the ``--help`` of each command not fetched yet: in two processes at once, each
    running its share of them in turn (a process for each would import the library every time),
    each within two minutes."""
    import json

    todo = sorted(w for w in wanted if w not in _HELPS)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    )

    def run(share: list[tuple[str, ...]]) -> None:
        args = [json.dumps(list(argv)) for argv in share]
        try:
            done = subprocess.run(
                [sys.executable, "-c", _RUN_HELPS, *args],
                capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
            )  # fmt: skip
            got = json.loads(done.stdout.strip().splitlines()[-1])
        except (subprocess.TimeoutExpired, ValueError, IndexError) as e:
            got = dict.fromkeys(args, f"(--help failed: {e!r})")
        for argv, arg in zip(share, args, strict=True):
            _HELPS[argv] = got.get(arg, "(--help failed: no answer)")

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(run, [todo[0::2], todo[1::2]]))


def _help(argv: tuple[str, ...]) -> str:
    """``--help`` of a script (its path) or of ``huescues``'s subcommand (fetched if need be)."""
    if argv not in _HELPS:
        _fetch({argv})
    return _HELPS[argv]


def _failed(text: str) -> bool:
    return text.startswith("(--help failed")


def _subcommands(text: str) -> set[str]:
    """The subcommands a ``--help`` lists: ``{a,b}`` in its usage, or indented names under its
    positional arguments (a metavar such as ``COMMAND``)."""
    choices = re.search(r"\{([\w,-]+)\}", text)
    names = set(choices.group(1).split(",")) if choices else set()
    listed = text.split("positional arguments:", 1)[-1].split("options:", 1)[0]
    return names | set(re.findall(r"^ {4}([a-z][\w-]*)", listed, re.M))


def _takes_help(path: Path) -> bool:
    """Whether a script reads its options with argparse (so that ``--help`` only prints them):
    another script is not run, and takes no option."""
    return "argparse" in path.read_text(encoding="utf-8")


def _all_commands() -> list[tuple[str, int, Command]]:
    """Every measured marker's commands in the docs: page, line and command."""
    out = []
    for page in PAGES:
        text = _blanked(_blanked(page.read_text(encoding="utf-8"), _FENCE, "_"), _CODE, "_")
        for m in _MARKER.finditer(text):
            if m.group("kind") != "measured":
                continue
            line = text.count("\n", 0, m.start()) + 1
            out.extend((page.name, line, c) for c in marker_commands(m.group("what")))
    return out


def command_problems(commands: list[tuple[str, int, Command]]) -> list[str]:
    """What is wrong with the commands: an option a script or the library's command does not
    take, a subcommand it does not have, a script named with options that is not found."""
    wanted: set[tuple[str, ...]] = set()
    for _, _, c in commands:
        if c.argv[:1] == ("huescues",):
            wanted.add(c.argv[:2])
        elif c.argv and c.options and (path := _script_path(c.argv[0])) and _takes_help(path):
            wanted.add((str(path.relative_to(ROOT)),))
    _fetch(wanted)
    # Then the subcommands' own subcommands (huescues responses export), if any are named.
    nested = {
        c.argv
        for _, _, c in commands
        if c.argv[:1] == ("huescues",) and c.argv[2] in _subcommands(_help(c.argv[:2]))
    }
    _fetch(nested)
    problems = []
    for page, line, c in commands:
        where = f"docs/{page}:{line}: "
        if not c.argv:
            if c.options:
                problems.append(where + f"options {list(c.options)} follow no command")
            continue
        if c.argv[0] == "huescues":
            if _failed(_help(c.argv[:2])):
                problems.append(where + f"huescues has no command {c.argv[1]!r}")
                continue
            text = _help(c.argv if c.argv in nested else c.argv[:2])
            name = " ".join(c.argv if c.argv in nested else c.argv[:2])
        else:
            if not c.options:
                continue
            path = _script_path(c.argv[0])
            if path is None:
                problems.append(where + f"{c.argv[0]} (named with options) is not found")
                continue
            if not _takes_help(path):
                problems.append(where + f"{c.argv[0]} takes no options, not {list(c.options)}")
                continue
            text, name = _help((str(path.relative_to(ROOT)),)), c.argv[0]
        missing = [o for o in c.options if not re.search(rf"(?<![\w-]){o}(?![\w-])", text)]
        if missing:
            problems.append(where + f"{name} --help has no {', '.join(missing)}")
    return problems


@pytest.mark.slow  # the --help of each command named: about 2 s, in two processes
def test_every_measured_command_takes_the_options_it_is_written_with() -> None:
    problems = command_problems(_all_commands())
    assert not problems, (
        "measured markers name options (or commands) that do not exist:\n" + "\n".join(problems)
    )


def test_a_markers_commands_are_read_with_their_options() -> None:
    got = marker_commands(
        "taskset -c 1 python benchmarks/bench_agents.py --cold; huescues tournament --games 10"
        " --workers 2 and python scripts/evaluate_givers.py (the --weight of a"
        ' build_object_colours.py --drop-ratings build); python -m timeit -s "x --y" "x"'
    )
    assert got == [
        Command(("benchmarks/bench_agents.py",), ("--cold",)),
        Command(("huescues", "tournament", ""), ("--games", "--workers")),
        Command(("scripts/evaluate_givers.py",), ("--weight",)),
        Command(("build_object_colours.py",), ("--drop-ratings",)),
        Command((), ()),
    ]
    assert _script_path("build_object_colours.py") == ROOT / "scripts/build_object_colours.py"


@pytest.mark.slow  # runs --help (a subprocess)
def test_an_option_or_command_that_does_not_exist_is_found() -> None:
    wrong = [
        ("x.md", 1, Command(("scripts/evaluate_givers.py",), ("--knowledge", "--nope"))),
        ("x.md", 2, Command(("huescues", "report", "on"), ())),
        ("x.md", 3, Command(("huescues", "tournament", ""), ("--games", "--game"))),
    ]
    assert command_problems(wrong) == [
        "docs/x.md:1: scripts/evaluate_givers.py --help has no --nope",
        "docs/x.md:2: huescues has no command 'report'",
        "docs/x.md:3: huescues tournament --help has no --game",
    ]
