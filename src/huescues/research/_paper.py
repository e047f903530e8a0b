"""Tables and figures for a paper, one call each: any measure's results as a Markdown or a LaTeX
table (a mean and its interval in each cell), and a forest plot of models by category (the
``plot`` extra, matplotlib, imported only when a figure is drawn)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from huescues.stats import Estimate

__all__ = ["forest_plot", "latex_table", "markdown_table", "table_rows"]

Rows = dict[str, dict[str, object]]


def table_rows(results: object) -> Rows:
    """The rows of a table of ``results``: row name to column name to a cell (an
    :class:`Estimate`, a number or text). ``results`` is a result with ``table_rows()`` (a
    :class:`CategoryReport`: a row per category), one with ``summary_row()`` (an
    :class:`Agreement`, a :class:`Comparison`, an :class:`Indistinguishability`), a mapping of
    names to such results (a row each: several models side by side), or such rows already."""
    own = getattr(results, "table_rows", None)
    if callable(own):
        rows: Rows = own()
        return rows
    if callable(getattr(results, "summary_row", None)):
        return {_name(results): dict(results.summary_row())}  # type: ignore[attr-defined]
    if isinstance(results, Mapping):
        out: Rows = {}
        for name, value in results.items():
            if callable(getattr(value, "summary_row", None)):
                out[str(name)] = dict(value.summary_row())
            elif isinstance(value, Mapping):
                out[str(name)] = dict(value)
            else:
                raise TypeError(
                    f"row {name!r} is a {type(value).__name__}: give a result with summary_row() "
                    "or a mapping of column to cell"
                )
        return out
    raise TypeError(
        f"cannot make a table of a {type(results).__name__}: give a result of huescues.research "
        "(an Agreement, a Comparison, a CategoryReport, ...), a mapping of names to results, or "
        "rows (a mapping of row to a mapping of column to cell)"
    )


def _name(result: object) -> str:
    for attr in ("player", "names"):
        value = getattr(result, attr, None)
        if isinstance(value, str):
            return value
        if isinstance(value, tuple):
            return " - ".join(map(str, value))
    return type(result).__name__


def _columns(rows: Rows) -> list[str]:
    columns: list[str] = []
    for row in rows.values():
        columns += [c for c in row if c not in columns]
    return columns


def _text(cell: object, spec: str) -> str:
    if cell is None:
        return ""
    if isinstance(cell, Estimate):
        return cell.format(spec)
    if isinstance(cell, int):  # bools too
        return str(cell)
    if isinstance(cell, float):
        return "" if math.isnan(cell) else f"{cell:{spec}}"
    return str(cell)


def markdown_table(results: object, *, spec: str = ".3f", corner: str = "") -> str:
    """``results`` (see :func:`table_rows`) as a Markdown table: a row per model or category,
    each estimate as ``mean [low, high]`` with the format ``spec``; ``corner`` heads the first
    column."""
    rows = table_rows(results)
    columns = _columns(rows)
    lines = [
        "| " + " | ".join([corner, *columns]) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for name, row in rows.items():
        cells = [_escape_markdown(name), *(_text(row.get(c), spec) for c in columns)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _escape_markdown(text: str) -> str:
    return text.replace("|", "\\|")


#: LaTeX's special characters, as text.
_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\u2212": "-",
}


def _escape_latex(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _latex_cell(cell: object, spec: str) -> str:
    # A minus sign, not a hyphen, before negative numbers.
    text = _escape_latex(_text(cell, spec))
    if isinstance(cell, Estimate | float | int) and not isinstance(cell, bool):
        text = text.replace("-", "$-$")
    return text


def latex_table(
    results: object,
    *,
    spec: str = ".3f",
    caption: str | None = None,
    label: str | None = None,
    corner: str = "",
) -> str:
    """``results`` (see :func:`table_rows`) as a LaTeX ``tabular`` (booktabs rules: load the
    ``booktabs`` package), in a ``table`` float when a ``caption`` or ``label`` is given; text
    is escaped, each estimate is ``mean [low, high]``."""
    rows = table_rows(results)
    columns = _columns(rows)
    body = [
        r"\begin{tabular}{l" + "r" * len(columns) + "}",
        r"\toprule",
        " & ".join(_escape_latex(c) for c in [corner, *columns]) + r" \\",
        r"\midrule",
    ]
    for name, row in rows.items():
        cells = [_escape_latex(name), *(_latex_cell(row.get(c), spec) for c in columns)]
        body.append(" & ".join(cells) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}"]
    if caption is None and label is None:
        return "\n".join(body)
    out = [r"\begin{table}", r"\centering"]
    if caption is not None:
        out.append(r"\caption{" + _escape_latex(caption) + "}")
    if label is not None:
        out.append(r"\label{" + label + "}")
    return "\n".join([*out, *body, r"\end{table}"])


def forest_plot(
    results: object,
    path: str | os.PathLike[str] | None = None,
    *,
    title: str | None = None,
    xlabel: str = "mean R15 points a pick",
) -> Any:
    """A forest plot of ``results`` (see :func:`table_rows`; a :class:`CategoryReport` gives a
    row per category and a series per player, a person and a random square): each estimate a
    point with its interval, a row per category, the series side by side. Written as a PNG to
    ``path`` when given; returns the matplotlib ``Figure``. Needs the ``plot`` extra."""
    from huescues.render import new_figure

    rows = table_rows(results)
    series = [
        c for c in _columns(rows) if any(isinstance(r.get(c), Estimate) for r in rows.values())
    ]
    if not series:
        raise ValueError("a forest plot needs estimates: the results have none")
    names = list(rows)
    height = 1.0 + 0.16 * len(names) * (len(series) + 1)
    fig = new_figure("a forest plot", figsize=(8.0, height), layout="constrained")
    ax = fig.add_subplot()
    step = 1.0 / (len(series) + 1)
    colours = [f"C{i}" for i in range(len(series))]
    for j, column in enumerate(series):
        ys, xs, lows, highs = [], [], [], []
        for i, name in enumerate(names):
            cell = rows[name].get(column)
            if not isinstance(cell, Estimate) or cell.mean is None:
                continue
            ys.append(len(names) - 1 - i + 0.5 - (j + 1) * step + step / 2)
            xs.append(cell.mean)
            lows.append(cell.mean - (cell.low if cell.low is not None else cell.mean))
            highs.append((cell.high if cell.high is not None else cell.mean) - cell.mean)
        ax.errorbar(
            xs, ys, xerr=[lows, highs], fmt="o", ms=4, capsize=2, color=colours[j], label=column
        )
    ax.set_yticks([len(names) - 1 - i for i in range(len(names))], names)
    for i in range(len(names) + 1):
        ax.axhline(i - 0.5, color="0.85", lw=0.6)
    ax.set_ylim(-0.5, len(names) - 0.5)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", color="0.92")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    if title:
        ax.set_title(title)
    if path is not None:
        fig.savefig(os.fspath(path), dpi=120)
    return fig
