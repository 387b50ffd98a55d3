"""Chart objects: lines, and the other plot types (one generic class whose
data and style properties are given when it is made), legends, colorbars."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, numeric, on_off, positive, scalar, text_of, texts_of
from matfuse.graphics.colors import color_value, rgb_row
from matfuse.graphics.linespec import LINE_STYLES, MARKERS, MARKERS_BACK
from matfuse.graphics.objects import GObject, cell_of_texts, onoff_value, text_value
from matfuse.runtime.values import char_array


def _row(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float64).reshape(1, -1)


def _color_of(mpl_color: Any) -> Any:
    from matplotlib.colors import to_rgb

    if isinstance(mpl_color, str) and mpl_color.lower() == "none":
        return char_array("none")
    return rgb_row(to_rgb(mpl_color))


class LineObject(GObject):
    """``matlab.graphics.chart.primitive.Line`` on a matplotlib Line2D."""

    type_name = "line"
    matlab_class = "matlab.graphics.chart.primitive.Line"
    short_class = "Line"
    props = ("Color", "LineStyle", "LineWidth", "Marker", "MarkerSize", "MarkerFaceColor",
             "MarkerEdgeColor", "DisplayName", "XData", "YData", "ZData", "Visible")
    display_props = ("Color", "LineStyle", "LineWidth", "Marker", "MarkerSize",
                     "MarkerFaceColor", "XData", "YData", "ZData")

    def __init__(self, axes: Any, artist: Any, x: np.ndarray, y: np.ndarray,
                 z: np.ndarray | None = None):
        super().__init__(axes)
        self.artist = artist
        self.legend_artist = artist
        self.display_name = ""
        self.x, self.y, self.z = x, y, z

    def remove_artists(self) -> None:
        self.artist.remove()

    def get_Color(self) -> Any:
        return _color_of(self.artist.get_color())

    def set_Color(self, value: Any) -> None:
        self.artist.set_color(color_value(value, allow_none=False))

    def get_LineStyle(self) -> Any:
        style = self.artist.get_linestyle()
        return char_array("none" if style in ("None", "", " ") else style)

    def set_LineStyle(self, value: Any) -> None:
        style = text_of(value)
        if style not in LINE_STYLES:
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{style}' is not a valid value for LineStyle.")
        self.artist.set_linestyle(LINE_STYLES[style])

    def get_LineWidth(self) -> float:
        return float(self.artist.get_linewidth())

    def set_LineWidth(self, value: Any) -> None:
        self.artist.set_linewidth(positive(value, "LineWidth"))

    def get_Marker(self) -> Any:
        return char_array(MARKERS_BACK.get(str(self.artist.get_marker()), "none"))

    def set_Marker(self, value: Any) -> None:
        marker = text_of(value).lower()
        if marker not in MARKERS:
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for Marker.")
        self.artist.set_marker(MARKERS[marker])

    def get_MarkerSize(self) -> float:
        return float(self.artist.get_markersize())

    def set_MarkerSize(self, value: Any) -> None:
        self.artist.set_markersize(positive(value, "MarkerSize"))

    def get_MarkerFaceColor(self) -> Any:
        return _color_of(self.artist.get_markerfacecolor())

    def set_MarkerFaceColor(self, value: Any) -> None:
        if is_text(value) and text_of(value).lower() == "auto":
            self.artist.set_markerfacecolor(self.artist.get_color())
            return
        self.artist.set_markerfacecolor(color_value(value))

    def get_MarkerEdgeColor(self) -> Any:
        edge = self.artist.get_markeredgecolor()
        return char_array("auto") if edge == self.artist.get_color() else _color_of(edge)

    def set_MarkerEdgeColor(self, value: Any) -> None:
        if is_text(value) and text_of(value).lower() == "auto":
            self.artist.set_markeredgecolor(self.artist.get_color())
            return
        self.artist.set_markeredgecolor(color_value(value))

    def get_DisplayName(self) -> Any:
        return text_value(self.display_name)

    def set_DisplayName(self, value: Any) -> None:
        self.display_name = text_of(value)
        self.parent.after_plot()

    def get_XData(self) -> Any:
        return _row(self.x)

    def set_XData(self, value: Any) -> None:
        self.x = numeric(value).real.reshape(-1)
        self._update_data()

    def get_YData(self) -> Any:
        return _row(self.y)

    def set_YData(self, value: Any) -> None:
        self.y = numeric(value).real.reshape(-1)
        self._update_data()

    def get_ZData(self) -> Any:
        return _row(self.z) if self.z is not None else np.zeros((1, 0))

    def set_ZData(self, value: Any) -> None:
        self.z = numeric(value).real.reshape(-1)
        self._update_data()

    def _update_data(self) -> None:
        sizes = {self.x.size, self.y.size} | ({self.z.size} if self.z is not None else set())
        if len(sizes) > 1:
            return      # drawn again once XData and YData agree (set one, then the other)
        if self.z is not None and hasattr(self.artist, "set_data_3d"):
            self.artist.set_data_3d(self.x, self.y, self.z)
        else:
            self.artist.set_data(self.x, self.y)
        ax = self.parent.mpl
        ax.relim()
        ax.autoscale_view()

    def get_Visible(self) -> Any:
        return onoff_value(self.artist.get_visible())

    def set_Visible(self, value: Any) -> None:
        self.artist.set_visible(on_off(value, "Visible"))


class ChartObject(GObject):
    """Other charts (Scatter, Bar, Histogram, Surface, Image...): data
    properties are read-only copies; style properties are applied to every
    matplotlib artist of the chart that has the matching setter."""

    STYLE_SETTERS = {"FaceColor": "set_facecolor", "EdgeColor": "set_edgecolor",
                     "LineWidth": "set_linewidth", "FaceAlpha": "set_alpha",
                     "Color": "set_color"}

    def __init__(self, axes: Any, kind: tuple[str, str, str], artists: list[Any],
                 data: dict[str, Any], style: dict[str, Any], legend_artist: Any = None):
        super().__init__(axes)
        self.type_name, self.matlab_class, self.short_class = kind
        self.artists = artists
        self.legend_artist = legend_artist
        self.data = data
        self.style = style
        self.display_name = ""
        self.visible = True
        self.props = tuple(style) + ("DisplayName", "Visible") + tuple(data)
        self.display_props = tuple(style) + tuple(data)

    def remove_artists(self) -> None:
        for artist in self.artists:
            artist.remove()

    def get(self, name: str) -> Any:
        canonical = self._canonical(name)
        if canonical in self.data:
            return self.data[canonical]
        if canonical in self.style:
            return self.style[canonical]
        return super().get(canonical)

    def set(self, name: str, value: Any) -> None:
        canonical = self._canonical(name)
        if canonical in self.data:
            raise MatlabError("MATLAB:hg:propswch:PropertyNotSettable",
                              f"Setting the '{canonical}' property of {self.short_class} "
                              "objects is not supported.")
        if canonical in self.style:
            self._apply_style(canonical, value)
            self.changed()
            return
        super().set(canonical, value)

    def _apply_style(self, name: str, value: Any) -> None:
        if name in ("FaceColor", "EdgeColor", "Color"):
            if is_text(value) and text_of(value).lower() in ("flat", "interp", "auto"):
                self.style[name] = char_array(text_of(value).lower())
                return
            color = color_value(value)
            mpl_value: Any = color
            self.style[name] = rgb_row(color)
        else:
            mpl_value = scalar(value, name)
            self.style[name] = mpl_value
        setter = self.STYLE_SETTERS.get(name)
        for artist in self.artists:
            if setter is not None and hasattr(artist, setter):
                getattr(artist, setter)(mpl_value)

    def get_DisplayName(self) -> Any:
        return text_value(self.display_name)

    def set_DisplayName(self, value: Any) -> None:
        self.display_name = text_of(value)
        self.parent.after_plot()

    def get_Visible(self) -> Any:
        return onoff_value(self.visible)

    def set_Visible(self, value: Any) -> None:
        self.visible = on_off(value, "Visible")
        for artist in self.artists:
            artist.set_visible(self.visible)


# MATLAB legend locations -> matplotlib (loc, bbox_to_anchor)
LEGEND_LOCATIONS = {
    "northeast": ("upper right", None), "northwest": ("upper left", None),
    "southeast": ("lower right", None), "southwest": ("lower left", None),
    "north": ("upper center", None), "south": ("lower center", None),
    "east": ("center right", None), "west": ("center left", None),
    "best": ("best", None),
    "northeastoutside": ("upper left", (1.02, 1.0)),
    "eastoutside": ("center left", (1.02, 0.5)),
    "southeastoutside": ("lower left", (1.02, 0.0)),
    "northoutside": ("lower center", (0.5, 1.02)),
    "southoutside": ("upper center", (0.5, -0.12)),
    "westoutside": ("center right", (-0.12, 0.5)),
    "bestoutside": ("upper left", (1.02, 1.0)),
}


class LegendObject(GObject):
    """``matlab.graphics.illustration.Legend``: labels the axes' plots in order."""

    type_name = "legend"
    matlab_class = "matlab.graphics.illustration.Legend"
    short_class = "Legend"
    props = ("String", "Location", "Visible", "FontSize", "Orientation", "Box")
    display_props = ("String", "Location", "Orientation", "FontSize")

    def __init__(self, axes: Any, labels: list[str] | None, location: str = "northeast"):
        super().__init__(None)
        self.parent = axes            # not one of the axes' Children, as in MATLAB
        self.axes = axes
        self.location = location
        self.visible = True
        self.font_size = 9.0
        self.orientation = "vertical"
        self.box = True
        self.artist: Any = None
        plots = axes.plots()
        if labels is not None:
            if len(labels) > len(plots):
                from matfuse.graphics.messages import warn

                warn("MATLAB:legend:IgnoringExtraEntries", "Ignoring extra legend entries.")
            plots = plots[:len(labels)]
            for plot, label in zip(plots, labels):
                plot.display_name = label
        self.shown = plots
        self.refresh()

    def entries(self) -> tuple[list[Any], list[str]]:
        """The plots listed (in order) and their labels (DisplayName or dataN)."""
        every = self.axes.plots()
        shown = [p for p in self.shown if not p.deleted]
        names = [p.display_name or f"data{every.index(p) + 1}" for p in shown]
        return shown, names

    def refresh(self, auto_update: bool = False) -> None:
        """Redraw; with ``auto_update`` plots made since are added (AutoUpdate on)."""
        if auto_update:
            self.shown += [p for p in self.axes.plots() if p not in self.shown]
        if self.artist is not None:
            self.artist.remove()
            self.artist = None
        plots, names = self.entries()
        loc, anchor = LEGEND_LOCATIONS.get(self.location, ("upper right", None))
        kwargs: dict[str, Any] = {"loc": loc, "fontsize": self.font_size,
                                  "frameon": self.box, "fancybox": False,
                                  "edgecolor": (0.15, 0.15, 0.15)}
        if anchor is not None:
            kwargs["bbox_to_anchor"] = anchor
        if self.orientation == "horizontal":
            kwargs["ncols"] = max(len(plots), 1)
        from matfuse.graphics.tex import to_mathtext

        self.artist = self.axes.mpl.legend([p.legend_artist for p in plots],
                                           [to_mathtext(n) for n in names], **kwargs)
        self.artist.set_visible(self.visible)

    def remove_artists(self) -> None:
        if self.artist is not None:
            self.artist.remove()
            self.artist = None
        if self.axes.legend is self:
            self.axes.legend = None

    def get_String(self) -> Any:
        return cell_of_texts(self.entries()[1])

    def set_String(self, value: Any) -> None:
        labels = texts_of(value)
        self.shown = self.axes.plots()[:len(labels)]
        for plot, label in zip(self.shown, labels):
            plot.display_name = label
        self.refresh()

    def get_Location(self) -> Any:
        return char_array(self.location)

    def set_Location(self, value: Any) -> None:
        where = text_of(value).lower()
        if where not in LEGEND_LOCATIONS:
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid legend location.")
        self.location = where
        self.refresh()

    def get_Visible(self) -> Any:
        return onoff_value(self.visible)

    def set_Visible(self, value: Any) -> None:
        self.visible = on_off(value, "Visible")
        self.refresh()

    def get_FontSize(self) -> float:
        return self.font_size

    def set_FontSize(self, value: Any) -> None:
        self.font_size = positive(value, "FontSize")
        self.refresh()

    def get_Orientation(self) -> Any:
        return char_array(self.orientation)

    def set_Orientation(self, value: Any) -> None:
        self.orientation = "horizontal" if text_of(value).lower() == "horizontal" else "vertical"
        self.refresh()

    def get_Box(self) -> Any:
        return onoff_value(self.box)

    def set_Box(self, value: Any) -> None:
        self.box = on_off(value, "Box")
        self.refresh()


class ColorbarObject(GObject):
    """``matlab.graphics.illustration.ColorBar`` beside an axes."""

    type_name = "colorbar"
    matlab_class = "matlab.graphics.illustration.ColorBar"
    short_class = "ColorBar"
    props = ("Location", "Limits", "Label")
    display_props = ("Location", "Limits")

    def __init__(self, axes: Any, mappable: Any, location: str):
        super().__init__(None)
        self.parent = axes
        self.axes = axes
        self.location = location
        orientation = "horizontal" if location in ("northoutside", "southoutside") else "vertical"
        self.artist = axes.parent.fig.colorbar(mappable, ax=axes.mpl, orientation=orientation)
        self.artist.ax.tick_params(direction="in", labelsize=9)
        from matplotlib.ticker import MaxNLocator

        self.artist.locator = MaxNLocator(nbins=6)     # round tick values, not level edges
        self.artist.update_ticks()

    def remove_artists(self) -> None:
        self.artist.remove()
        if self.axes.colorbar is self:
            self.axes.colorbar = None

    def get_Location(self) -> Any:
        return char_array(self.location)

    def get_Limits(self) -> Any:
        low, high = self.artist.mappable.get_clim()
        return np.array([[low, high]])

    def label_text(self) -> Any:
        """The bar's label as a Text object (``c.Label.String = 'units'``)."""
        from matfuse.graphics.objects import TextObject

        vertical = self.artist.orientation == "vertical"
        artist = (self.artist.ax.yaxis if vertical else self.artist.ax.xaxis).label
        cached = getattr(self, "_label", None)
        if cached is None or cached.artist is not artist:
            cached = TextObject(self, artist, owned=False)
            self.children.remove(cached)
            self._label = cached
        return cached

    def get_Label(self) -> Any:
        return self.label_text().handle

    def set_Label(self, value: Any) -> None:
        from matfuse.graphics.handles import GraphicsHandle

        if not isinstance(value, GraphicsHandle):      # c.Label.String = ... writes back the handle
            self.label_text().set_string(value)
