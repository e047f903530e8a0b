"""A matplotlib figure on its own Agg canvas, so pyplot's global state is never touched.

Matplotlib is an optional extra (``huescues[plot]``), imported only when a picture is drawn.
"""

from __future__ import annotations

from typing import Any

__all__ = ["new_figure"]


def new_figure(what: str, **figure: Any) -> Any:
    """A ``Figure(**figure)`` with an Agg canvas; without matplotlib an ``ImportError`` that says
    ``what`` needs it and how to install it."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError(f"{what} needs matplotlib: pip install 'huescues[plot]'") from e
    fig = Figure(**figure)
    FigureCanvasAgg(fig)
    return fig
