"""The axes object (``matlab.graphics.axis.Axes``) on a matplotlib Axes.

MATLAB's plotting rules live here: ``hold`` (NextPlot ``add``/``replace``),
the ColorOrder index that advances per line and restarts when the axes are
replaced, 2-D axes turning 3-D for ``plot3``/``surf``, the legend following
new plots, and MATLAB's look (box on, ticks inside, limits on round numbers).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import numeric, on_off, positive, text_of, whole
from matfuse.graphics.axes_style import StyleProperties
from matfuse.graphics.axes_ticks import TickProperties
from matfuse.graphics.objects import GObject, TextObject, onoff_value
from matfuse.runtime.values import char_array

AXES_FONT_SIZE = 10.0
TITLE_FONT_SIZE = 11.0


class AxesObject(TickProperties, StyleProperties, GObject):
    type_name = "axes"
    props = ("XLim", "YLim", "ZLim", "XScale", "YScale", "ZScale", "XGrid", "YGrid", "ZGrid",
             "Box", "Title", "XLabel", "YLabel", "ZLabel", "FontSize", "NextPlot",
             "ColorOrderIndex", "Position", "Units", "CLim", "XDir", "YDir", "View", "Legend",
             "Colormap", "XTick", "YTick", "ZTick", "XTickLabel", "YTickLabel", "ZTickLabel",
             "LineWidth", "TickDir", "FontName", "Color", "ColorOrder", "XMinorTick",
             "YMinorTick", "XMinorGrid", "YMinorGrid", "GridAlpha", "XAxisLocation",
             "YAxisLocation")
    display_props = ("XLim", "YLim", "XScale", "YScale", "Position", "Units")

    def __init__(self, figure: Any, mpl_axes: Any):
        super().__init__(figure)
        self.mpl = mpl_axes
        self.hold = False
        self.color_index = 0
        self.legend: Any = None
        self.colorbar: Any = None
        self.colormap: np.ndarray | None = None      # None: the figure's
        self.clim: tuple[float, float] | None = None  # None: automatic
        self._texts: dict[str, TextObject] = {}
        self._tick_texts: dict[str, list[str]] = {}    # tick labels as the program set them
        self._reset_settings()
        self.style()

    def _reset_settings(self) -> None:
        """Axes settings kept here (matplotlib has no place for them)."""
        from matfuse.graphics.colors import COLOR_ORDER

        self.color_order = COLOR_ORDER
        self._tick_dir = "in"
        self._grid_alpha = 0.15
        self._font_size = AXES_FONT_SIZE
        self._minor_state: dict[tuple[str, str], bool] = {}

    @property
    def is3d(self) -> bool:
        return getattr(self.mpl, "name", "") == "3d"

    def style(self) -> None:
        """MATLAB's axes look: box on, ticks inside on all sides."""
        ax = self.mpl
        ax.set_facecolor("white")
        if not self.is3d and not self.is_polar:
            ax.tick_params(direction="in", top=True, right=True, labelsize=AXES_FONT_SIZE)
            ax.set_xmargin(0.0)
            ax.set_ymargin(0.0)
        ax.title.set_fontsize(TITLE_FONT_SIZE)
        if self.is_polar:
            ax.title.set_y(1.08)             # above the 90-degree label
        ax.title.set_fontweight("bold")
        for label in (ax.xaxis.label, ax.yaxis.label):
            label.set_fontsize(AXES_FONT_SIZE + 1)

    # --------------------------------------------------------------- plotting
    @property
    def is_polar(self) -> bool:
        return getattr(self.mpl, "name", "") == "polar"

    @property
    def matlab_class(self) -> str:  # type: ignore[override]
        return "matlab.graphics.axis.PolarAxes" if self.is_polar else "matlab.graphics.axis.Axes"

    @property
    def short_class(self) -> str:  # type: ignore[override]
        return "PolarAxes" if self.is_polar else "Axes"

    def prepare(self, three_d: bool = False, polar: bool = False) -> Any:
        """The matplotlib axes a new plot draws into, after NextPlot's rule
        (2-D axes turn 3-D or polar for such plots; back to 2-D when replaced)."""
        if not self.hold:
            self.reset()
        want = "3d" if three_d else "polar" if polar else "rectilinear"
        have = getattr(self.mpl, "name", "rectilinear")
        if want != have and (want != "rectilinear" or not self.hold):
            self._replace_mpl(None if want == "rectilinear" else want)
        return self.mpl

    def reset(self) -> None:
        """NextPlot 'replace': delete the plots, labels and legend."""
        if self.colorbar is not None:
            self.colorbar.delete()
            self.colorbar = None
        for child in list(self.children):
            child.delete()
        if self.legend is not None:
            self.legend.delete()
            self.legend = None
        self.mpl.cla()
        self._texts = {}
        self._tick_texts = {}
        self._reset_settings()
        self.color_index = 0
        self.clim = None
        self.style()
        from matfuse.graphics.defaults import apply_defaults

        apply_defaults(self)          # 'replace' resets to the defaults, groot's included

    def _replace_mpl(self, projection: str | None) -> None:
        old = self.mpl
        fig = old.figure
        spec = old.get_subplotspec()
        if spec is not None:
            new = fig.add_subplot(spec, projection=projection)
        else:
            new = fig.add_axes(old.get_position(), projection=projection)
        old.remove()
        self.mpl = new
        self._texts = {}
        self.style()

    def next_color(self) -> tuple[float, float, float]:
        row = self.color_order[self.color_index % len(self.color_order)]
        self.color_index += 1
        return (float(row[0]), float(row[1]), float(row[2]))

    def plots(self) -> list[Any]:
        return [c for c in self.children
                if not c.deleted and c.handle_visible and getattr(c, "legend_artist", None)]

    def after_plot(self) -> None:
        if self.legend is not None:
            self.legend.refresh(auto_update=True)
        self.changed()

    def delete(self) -> None:
        # The colorbar goes first: matplotlib restores the axes it shrank,
        # which needs the colour-mapped plot still in place.
        if self.colorbar is not None:
            self.colorbar.delete()
        super().delete()

    def remove_artists(self) -> None:
        try:
            self.mpl.remove()
        except (KeyError, ValueError):     # already taken off by clf
            pass
        fig = self.parent
        if fig is not None and fig.current_axes is self:
            others = [a for a in fig.axes_objects() if a is not self]
            fig.current_axes = others[-1] if others else None

    # ------------------------------------------------------------- properties
    def _text(self, which: str) -> TextObject:
        ax = self.mpl
        cached = self._texts.get(which)
        if which == "ZLabel" and not self.is3d:
            # 2-D axes keep a z-label too (shown once the axes turn 3-D).
            from matplotlib.text import Text

            artist = cached.artist if cached is not None else Text()
        else:
            artist = {"Title": ax.title, "XLabel": ax.xaxis.label, "YLabel": ax.yaxis.label,
                      "ZLabel": getattr(ax, "zaxis", None) and ax.zaxis.label}[which]
        if cached is None or cached.artist is not artist:
            cached = TextObject(self, artist, owned=False)
            self.children.remove(cached)      # labels are not Children, as in MATLAB
            self._texts[which] = cached
        return cached

    def _limits(self, axis: str) -> Any:
        low, high = getattr(self.mpl, f"get_{axis}lim")()
        return np.array([[min(low, high), max(low, high)]])

    def _set_limits(self, axis: str, value: Any) -> None:
        from matfuse.graphics.axes_limits import set_axis_limits

        set_axis_limits(self, axis, value)

    def get_XLim(self) -> Any:
        return self._limits("x")

    def set_XLim(self, value: Any) -> None:
        self._set_limits("x", value)

    def get_YLim(self) -> Any:
        return self._limits("y")

    def set_YLim(self, value: Any) -> None:
        self._set_limits("y", value)

    def get_ZLim(self) -> Any:
        if not self.is3d:
            return np.array([[-1.0, 1.0]])
        return self._limits("z")

    def set_ZLim(self, value: Any) -> None:
        if self.is3d:
            self._set_limits("z", value)

    def _scale(self, axis: str) -> Any:
        scale = getattr(self.mpl, f"get_{axis}scale")()
        return char_array("log" if scale == "log" else "linear")

    def _set_scale(self, axis: str, value: Any) -> None:
        word = text_of(value).lower()
        if word not in ("log", "linear"):
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value: use 'linear' or 'log'.")
        getattr(self.mpl, f"set_{axis}scale")(word)

    def get_XScale(self) -> Any:
        return self._scale("x")

    def set_XScale(self, value: Any) -> None:
        self._set_scale("x", value)

    def get_YScale(self) -> Any:
        return self._scale("y")

    def set_YScale(self, value: Any) -> None:
        self._set_scale("y", value)

    def get_ZScale(self) -> Any:
        return self._scale("z") if self.is3d else char_array("linear")

    def set_ZScale(self, value: Any) -> None:
        if self.is3d:
            self._set_scale("z", value)

    def _grid(self, axis: str) -> Any:
        target = getattr(self.mpl, f"{axis}axis")
        lines = target.get_gridlines()
        return onoff_value(bool(lines) and lines[0].get_visible())

    def _set_grid(self, axis: str, value: Any) -> None:
        self.mpl.grid(on_off(value, f"{axis.upper()}Grid"), axis=axis)

    def get_XGrid(self) -> Any:
        return self._grid("x")

    def set_XGrid(self, value: Any) -> None:
        self._set_grid("x", value)

    def get_YGrid(self) -> Any:
        return self._grid("y")

    def set_YGrid(self, value: Any) -> None:
        self._set_grid("y", value)

    def get_ZGrid(self) -> Any:
        return self._grid("z") if self.is3d else onoff_value(False)

    def set_ZGrid(self, value: Any) -> None:
        if self.is3d:
            self._set_grid("z", value)

    def get_Box(self) -> Any:
        return onoff_value(self.mpl.spines["top"].get_visible() if not self.is3d else False)

    def set_Box(self, value: Any) -> None:
        flag = on_off(value, "Box")
        if not self.is3d:
            for side in ("top", "right"):
                self.mpl.spines[side].set_visible(flag)
            self.mpl.tick_params(top=flag, right=flag)

    def get_Title(self) -> Any:
        return self._text("Title").handle

    def set_Title(self, value: Any) -> None:
        self._set_label("Title", value)

    def get_XLabel(self) -> Any:
        return self._text("XLabel").handle

    def set_XLabel(self, value: Any) -> None:
        self._set_label("XLabel", value)

    def get_YLabel(self) -> Any:
        return self._text("YLabel").handle

    def set_YLabel(self, value: Any) -> None:
        self._set_label("YLabel", value)

    def get_ZLabel(self) -> Any:
        return self._text("ZLabel").handle

    def set_ZLabel(self, value: Any) -> None:
        self._set_label("ZLabel", value)

    def _set_label(self, which: str, value: Any) -> None:
        from matfuse.graphics.handles import GraphicsHandle

        if isinstance(value, GraphicsHandle):       # ax.Title.String = ... writes back the handle
            return
        self._text(which).set_string(value)

    def get_FontSize(self) -> float:
        return self._font_size

    def set_FontSize(self, value: Any) -> None:
        size = positive(value, "FontSize")
        self._font_size = size
        self.mpl.tick_params(labelsize=size)
        for label in (self.mpl.xaxis.label, self.mpl.yaxis.label, self.mpl.title):
            label.set_fontsize(size * 1.1)        # Label/TitleFontSizeMultiplier
        if self.is3d:
            self.mpl.zaxis.label.set_fontsize(size * 1.1)

    def get_NextPlot(self) -> Any:
        return char_array("add" if self.hold else "replace")

    def set_NextPlot(self, value: Any) -> None:
        word = text_of(value).lower()
        if word not in ("add", "replace", "replacechildren", "replaceall"):
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for NextPlot.")
        self.hold = word == "add"

    def get_ColorOrderIndex(self) -> float:
        return float(self.color_index % len(self.color_order) + 1)

    def set_ColorOrderIndex(self, value: Any) -> None:
        self.color_index = whole(value, "ColorOrderIndex") - 1

    def get_Position(self) -> Any:
        box = self.mpl.get_position()
        return np.array([[box.x0, box.y0, box.width, box.height]])

    def set_Position(self, value: Any) -> None:
        pos = numeric(value).real.reshape(-1)
        self.mpl.set_position([pos[0], pos[1], pos[2], pos[3]])

    def get_Units(self) -> Any:
        return char_array("normalized")

    def get_CLim(self) -> Any:
        from matfuse.graphics.color_mapping import color_limits

        low, high = color_limits(self)
        return np.array([[low, high]])

    def set_CLim(self, value: Any) -> None:
        from matfuse.graphics.color_mapping import set_color_limits

        set_color_limits(self, value)

    def _direction(self, axis: str) -> Any:
        inverted = getattr(self.mpl, f"{axis}axis_inverted")()
        return char_array("reverse" if inverted else "normal")

    def _set_direction(self, axis: str, value: Any) -> None:
        want = text_of(value).lower() == "reverse"
        if want != getattr(self.mpl, f"{axis}axis_inverted")():
            getattr(self.mpl, f"invert_{axis}axis")()

    def get_XDir(self) -> Any:
        return self._direction("x")

    def set_XDir(self, value: Any) -> None:
        self._set_direction("x", value)

    def get_YDir(self) -> Any:
        return self._direction("y")

    def set_YDir(self, value: Any) -> None:
        self._set_direction("y", value)

    def get_View(self) -> Any:
        if not self.is3d:
            return np.array([[0.0, 90.0]])
        return np.array([[self.mpl.azim + 90.0, self.mpl.elev]])

    def set_View(self, value: Any) -> None:
        from matfuse.graphics.axes_limits import set_view

        set_view(self, value)

    def get_Legend(self) -> Any:
        from matfuse.graphics.handles import GraphicsHandle

        return self.legend.handle if self.legend is not None else GraphicsHandle([])

    def get_Colormap(self) -> Any:
        return (self.colormap if self.colormap is not None else self.parent.colormap).copy()

    def set_Colormap(self, value: Any) -> None:
        from matfuse.graphics.color_mapping import set_colormap

        set_colormap(self, value)
