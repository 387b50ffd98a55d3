"""The figure object (``matlab.ui.Figure``) on a matplotlib Figure."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.graphics.args import numeric, on_off, text_of
from matfuse.graphics.colors import colormap_matrix
from matfuse.graphics.objects import GObject, onoff_value, text_value
from matfuse.runtime.values import char_array

DEFAULT_POSITION = (680.0, 458.0, 560.0, 420.0)   # pixels: left bottom width height
SCREEN_DPI = 100.0
FIGURE_COLOR = (0.94, 0.94, 0.94)


class FigureObject(GObject):
    type_name = "figure"
    matlab_class = "matlab.ui.Figure"
    short_class = "Figure"
    props = ("Number", "Name", "Color", "Position", "Units", "Visible", "CurrentAxes",
             "NumberTitle", "Colormap")
    display_props = ("Number", "Name", "Color", "Position", "Units")

    def __init__(self, number: int, mpl_figure: Any, windowed: bool,
                 on_close: Callable[["FigureObject"], None] | None = None):
        super().__init__(None)
        self.on_close = on_close               # the root's close (it forgets the figure)
        self.number = number
        self.fig = mpl_figure
        self.windowed = windowed
        self.name = ""
        self.number_title = True
        self.visible = True
        self.position = DEFAULT_POSITION
        self.color = FIGURE_COLOR
        self.current_axes: Any = None
        self.layout: Any = None                 # a TiledLayout while one is active
        self.subplots: dict[tuple, Any] = {}    # (rows, cols, cells) -> AxesObject
        self.colormap = colormap_matrix("parula", 256)
        self.dirty = True                      # changed since a notebook last showed it
        self.fig.set_facecolor(self.color)

    def title_text(self) -> str:
        if self.name:
            return f"Figure ({self.number}: {self.name})"
        return f"Figure ({self.number})"

    def request_draw(self) -> None:
        self.dirty = True
        if self.windowed and self.fig.canvas is not None:
            self.fig.canvas.draw_idle()

    def axes_objects(self) -> list[Any]:
        return [c for c in self.children if c.type_name == "axes" and not c.deleted]

    def remove(self) -> None:
        """``delete(f)`` closes the figure."""
        if self.on_close is not None:
            self.on_close(self)
        else:
            self.delete()

    def clear(self) -> None:
        """``clf``: delete every axes, layout and annotation."""
        for child in list(self.children):
            child.delete()
        self.fig.clear()
        self.current_axes = None
        self.layout = None
        self.subplots = {}
        self.request_draw()

    def remove_artists(self) -> None:
        if self.windowed:
            import matplotlib.pyplot as plt

            plt.close(self.fig)

    def _window_title(self) -> None:
        manager = getattr(self.fig.canvas, "manager", None)
        if manager is not None:
            manager.set_window_title(self.title_text() if self.number_title else self.name)

    # ------------------------------------------------------------ properties
    def get_Number(self) -> float:
        return float(self.number)

    def get_Name(self) -> Any:
        return text_value(self.name)

    def set_Name(self, value: Any) -> None:
        self.name = text_of(value)
        self._window_title()

    def get_NumberTitle(self) -> Any:
        return onoff_value(self.number_title)

    def set_NumberTitle(self, value: Any) -> None:
        self.number_title = on_off(value, "NumberTitle")
        self._window_title()

    def get_Color(self) -> Any:
        return np.array([list(self.color)])

    def set_Color(self, value: Any) -> None:
        from matfuse.graphics.colors import color_value

        self.color = color_value(value, allow_none=False)
        self.fig.set_facecolor(self.color)

    def get_Position(self) -> Any:
        return np.array([list(self.position)])

    def set_Position(self, value: Any) -> None:
        pos = numeric(value).real.reshape(-1)
        if pos.size != 4 or pos[2] <= 0 or pos[3] <= 0:
            from matfuse.errors import MatlabError

            raise MatlabError("MATLAB:hg:set_chck:PositionInvalid",
                              "Position must be a 4-element vector [left bottom width height] "
                              "with positive width and height.")
        self.position = tuple(float(p) for p in pos)
        self.fig.set_size_inches(pos[2] / SCREEN_DPI, pos[3] / SCREEN_DPI)

    def get_Units(self) -> Any:
        return char_array("pixels")

    def get_Visible(self) -> Any:
        return onoff_value(self.visible)

    def set_Visible(self, value: Any) -> None:
        self.visible = on_off(value, "Visible")

    def get_CurrentAxes(self) -> Any:
        from matfuse.graphics.handles import GraphicsHandle

        if self.current_axes is None or self.current_axes.deleted:
            return GraphicsHandle([])
        return self.current_axes.handle

    def set_CurrentAxes(self, value: Any) -> None:
        from matfuse.graphics.handles import handle_objects

        (axes,) = handle_objects(value, "CurrentAxes")
        self.current_axes = axes

    def get_Colormap(self) -> Any:
        return self.colormap.copy()

    def set_Colormap(self, value: Any) -> None:
        from matfuse.graphics.color_mapping import set_colormap

        set_colormap(self, value)
