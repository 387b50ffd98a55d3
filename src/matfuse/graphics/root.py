"""The graphics root: open figures, the current figure and axes.

One root per process, as MATLAB has one ``groot``. Figures are Agg
(headless) unless ``enable_windows()`` was called, then pyplot figures
that open windows.
"""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.graphics import require_matplotlib
from matfuse.graphics.figure import SCREEN_DPI, FigureObject


class GraphicsRoot:
    def __init__(self) -> None:
        self.figures: dict[int, FigureObject] = {}
        self.current: FigureObject | None = None
        self.windows = False

    def live_figures(self) -> list[FigureObject]:
        return [f for f in self.figures.values() if not f.deleted]

    def new_figure(self, number: int | None = None) -> FigureObject:
        require_matplotlib()
        if number is None:
            number = 1
            while number in self.figures:
                number += 1
        size = (5.6, 4.2)
        windowed = self.windows and _start_pyplot()
        if windowed:
            import matplotlib.pyplot as plt

            mpl = plt.figure(num=number, figsize=size, dpi=SCREEN_DPI)
        else:
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.figure import Figure

            mpl = Figure(figsize=size, dpi=SCREEN_DPI)
            FigureCanvasAgg(mpl)
        fig = FigureObject(number, mpl, windowed, on_close=self.close)
        self.figures[number] = fig
        self.current = fig
        if windowed:
            fig._window_title()
            mpl.canvas.mpl_connect("close_event", lambda _event: self._window_closed(fig))
            import matplotlib.pyplot as plt

            plt.show(block=False)
        from matfuse.graphics.defaults import apply_defaults

        apply_defaults(fig)
        return fig

    def figure(self, number: int) -> FigureObject:
        """``figure(n)``: figure n made current, created when it does not exist."""
        fig = self.figures.get(number)
        if fig is None or fig.deleted:
            return self.new_figure(number)
        self.current = fig
        return fig

    def gcf(self) -> FigureObject:
        if self.current is None or self.current.deleted:
            live = self.live_figures()
            self.current = live[-1] if live else None
        return self.current if self.current is not None else self.new_figure()

    def gca(self) -> Any:
        fig = self.gcf()
        axes = fig.current_axes
        if axes is None or axes.deleted:
            axes = new_axes(fig)
        return axes

    def close(self, fig: FigureObject) -> None:
        fig.delete()
        self.figures.pop(fig.number, None)
        if self.current is fig:
            live = self.live_figures()
            self.current = live[-1] if live else None

    def _window_closed(self, fig: FigureObject) -> None:
        """The user closed a figure's window: the figure is deleted, as in MATLAB."""
        if not fig.deleted:
            fig.windowed = False          # its window is gone already
            self.close(fig)

    def close_all(self) -> None:
        for fig in self.live_figures():
            self.close(fig)

    def take_changed_figures(self) -> list[FigureObject]:
        """Figures changed since the last call (a notebook shows them after a cell)."""
        changed = [f for f in self.live_figures() if f.dirty]
        for fig in changed:
            fig.dirty = False
        return changed


ROOT = GraphicsRoot()


# MATLAB's axes box in a figure ([0.13 0.11 0.775 0.815]) and subplot gaps.
AXES_BOX = {"left": 0.13, "right": 0.905, "bottom": 0.11, "top": 0.925}
SUBPLOT_GAPS = {"hspace": 0.39, "wspace": 0.32}


def grid_spec(fig: FigureObject, rows: int, cols: int) -> Any:
    """A gridspec placing cells where MATLAB's subplot puts its axes."""
    return fig.fig.add_gridspec(rows, cols, **AXES_BOX, **SUBPLOT_GAPS)


def new_axes(fig: FigureObject, spec: Any = None) -> Any:
    """A new axes in ``fig`` (at a gridspec cell, or the default position)."""
    from matfuse.graphics.axes import AxesObject

    mpl = fig.fig.add_subplot(spec if spec is not None else grid_spec(fig, 1, 1)[0, 0])
    axes = AxesObject(fig, mpl)
    fig.current_axes = axes
    from matfuse.graphics.defaults import apply_defaults

    apply_defaults(axes)
    return axes


def enable_windows() -> None:
    """Open figures in windows (matplotlib's interactive backend) from the
    next figure on; pyplot is loaded only when a figure is made."""
    ROOT.windows = True


_pyplot_started: bool | None = None     # None: not tried; False: no interactive backend


def _start_pyplot() -> bool:
    """Load pyplot in interactive mode; False when only a non-interactive
    backend (Agg) is available, and figures then stay headless."""
    global _pyplot_started
    if _pyplot_started is not None:
        return _pyplot_started
    import matplotlib
    import matplotlib.pyplot as plt

    from matfuse.graphics.style import apply_globally

    backend = matplotlib.get_backend().lower()
    _pyplot_started = backend not in ("agg", "pdf", "svg", "ps", "cairo", "template")
    if _pyplot_started:
        apply_globally()
        plt.ion()
    return _pyplot_started


def process_window_events(seconds: float) -> None:
    """Let open windows redraw and react for a moment (the REPL calls this
    while it waits for input)."""
    if not _pyplot_started or not ROOT.live_figures():
        import time

        time.sleep(seconds)
        return
    import matplotlib.pyplot as plt

    plt.pause(seconds)


def figure_from_value(value: Any) -> FigureObject:
    """A figure handle or number as its figure (error when it does not exist)."""
    from matfuse.graphics.args import is_numeric, scalar
    from matfuse.graphics.handles import GraphicsHandle

    if isinstance(value, GraphicsHandle) and len(value.objects) == 1 \
            and value.objects[0].type_name == "figure" and not value.objects[0].deleted:
        return value.objects[0]
    if is_numeric(value):
        fig = ROOT.figures.get(int(scalar(value)))
        if fig is not None and not fig.deleted:
            return fig
    raise MatlabError("MATLAB:graphics:invalidFigure", "Invalid figure handle.")
