"""Labels and axes settings: ``xlabel``/``ylabel``/``zlabel``/``title``,
``legend``, ``grid``, ``box``, ``axis``, ``xlim``/``ylim``/``zlim``,
``view``, ``text`` and ``annotation``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.axes_limits import set_axis_limits, set_view
from matfuse.graphics.args import (
    is_numeric, is_text, name_value_pairs, numeric, scalar, text_of, texts_of,
)
from matfuse.graphics.charts import ChartObject, LegendObject
from matfuse.graphics.objects import TextObject
from matfuse.graphics.plotting import apply_pairs, split_axes_arg, target_axes
from matfuse.runtime.values import CellArray, StringArray


def label(args: tuple[Any, ...], which: str) -> Any:
    """``xlabel(txt)``, ``title(txt, Name, Value)``, ``title(ax, txt)``."""
    from matfuse.graphics.handles import GraphicsHandle

    if args and isinstance(args[0], GraphicsHandle) and len(args[0].objects) == 1 \
            and args[0].objects[0].type_name == "colorbar" and len(args) > 1:
        text = args[0].objects[0].label_text()          # ylabel(c, 'units') labels a colorbar
        text.set_string(args[1])
        apply_pairs(text, name_value_pairs(list(args[2:]), which.lower()))
        text.changed()
        return text.handle
    axes, rest = split_axes_arg(args)
    if not rest:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    axes = target_axes(axes)
    text = axes._text(which)
    text.set_string(rest[0])
    apply_pairs(text, name_value_pairs(rest[1:], which.lower()))
    axes.changed()
    return text.handle


def sgtitle(args: tuple[Any, ...]) -> Any:
    """A title over all the axes of the current figure."""
    from matfuse.graphics.root import ROOT

    if not args:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    fig = ROOT.gcf()
    content = "\n".join(texts_of(args[0]))
    artist = fig.fig.suptitle(content, fontsize=11, fontweight="bold")
    text = TextObject(fig, artist, owned=False, text=content)
    apply_pairs(text, name_value_pairs(list(args[1:]), "sgtitle"))
    fig.changed()
    return text.handle


def legend(args: tuple[Any, ...]) -> Any:
    """``legend``, ``legend(labels...)``, ``legend({..})``, ``'Location'``,
    ``legend off``/``show``/``hide``/``boxoff``."""
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    if rest and is_text(rest[0]) and text_of(rest[0]).lower() in ("off", "show", "hide",
                                                                  "boxoff", "boxon", "toggle"):
        word = text_of(rest[0]).lower()
        if word == "off":
            if axes.legend is not None:
                axes.legend.delete()
            axes.changed()
            return None
        if axes.legend is None:
            axes.legend = LegendObject(axes, None)
        elif word in ("show", "hide", "toggle"):
            visible = {"show": True, "hide": False}.get(word, not axes.legend.visible)
            axes.legend.visible = visible
        else:
            axes.legend.box = word == "boxon"
        axes.legend.refresh()
        axes.changed()
        return axes.legend.handle
    labels: list[str] | None = None
    if rest and (isinstance(rest[0], (CellArray, StringArray)) and not is_text(rest[0])):
        labels = texts_of(rest.pop(0))
    else:
        found = []
        while rest and is_text(rest[0]) and not (
                len(rest) >= 2 and text_of(rest[0]).lower() in LEGEND_OPTIONS):
            found.append(text_of(rest.pop(0)))
        labels = found or None
    pairs = name_value_pairs(rest, "legend")
    if axes.legend is not None:
        axes.legend.delete()
    axes.legend = LegendObject(axes, labels)
    apply_pairs(axes.legend, pairs)
    axes.changed()
    return axes.legend.handle


LEGEND_OPTIONS = ("location", "orientation", "fontsize", "box", "visible", "string")


def _axes_and_word(args: tuple[Any, ...]) -> tuple[Any, str | None]:
    axes, rest = split_axes_arg(args)
    word = text_of(rest[0]).lower() if rest and is_text(rest[0]) else None
    return target_axes(axes), word


def grid(args: tuple[Any, ...]) -> None:
    """``grid on``/``off``/``minor``, or toggle."""
    axes, word = _axes_and_word(args)
    if word is None:
        lines = axes.mpl.xaxis.get_gridlines()
        flag = not (bool(lines) and lines[0].get_visible())
    elif word in ("on", "off"):
        flag = word == "on"
    elif word == "minor":
        axes.mpl.minorticks_on()
        axes.mpl.grid(True, which="minor", linewidth=0.3, alpha=0.3)
        axes.changed()
        return
    else:
        raise MatlabError("MATLAB:grid:UnknownOption", f"Unknown command option '{word}'.")
    if flag:
        axes.mpl.grid(True, color=(0.15, 0.15, 0.15), alpha=0.15, linewidth=0.5)
    else:
        axes.mpl.grid(False)
    axes.changed()


def box(args: tuple[Any, ...]) -> None:
    """``box on``/``off``, or toggle."""
    from matfuse.runtime.values import char_array

    axes, word = _axes_and_word(args)
    if word is None:
        flag = not axes.mpl.spines["top"].get_visible()
    elif word in ("on", "off"):
        flag = word == "on"
    else:
        raise MatlabError("MATLAB:box:UnknownOption", f"Unknown command option '{word}'.")
    axes.set("Box", char_array("on" if flag else "off"))


def limits(args: tuple[Any, ...], axis: str, nargout: int) -> Any:
    """``xlim``, ``xlim([a b])``, ``xlim auto``, ``l = xlim``."""
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    if rest:
        if is_text(rest[0]) and text_of(rest[0]).lower() == "mode":
            from matfuse.runtime.values import char_array

            automatic = getattr(axes.mpl, f"get_autoscale{axis}_on")()
            return char_array("auto" if automatic else "manual")
        set_axis_limits(axes, axis, rest[0])
        axes.changed()
        if not nargout:
            return None
    return axes.get(f"{axis.upper()}Lim")


AXIS_WORDS = ("on", "off", "equal", "image", "square", "tight", "normal", "auto", "ij", "xy",
              "fill", "vis3d", "padded", "tickaligned", "manual")


def axis(args: tuple[Any, ...], nargout: int) -> Any:
    """``axis([xmin xmax ymin ymax])`` and ``axis equal/tight/square/off/ij/xy...``."""
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    ax = axes.mpl
    for item in rest:
        if is_numeric(item):
            lims = numeric(item).real.reshape(-1)
            if lims.size not in (4, 6):
                raise MatlabError("MATLAB:axis:WrongNumberOfLimits",
                                  "Limits must be a 4- or 6-element vector.")
            set_axis_limits(axes, "x", lims[0:2])
            set_axis_limits(axes, "y", lims[2:4])
            if lims.size == 6 and axes.is3d:
                set_axis_limits(axes, "z", lims[4:6])
            continue
        word = text_of(item).lower()
        if word not in AXIS_WORDS:
            raise MatlabError("MATLAB:axis:UnknownOption", f"Unknown command option '{word}'.")
        if word in ("on", "off"):
            ax.set_axis_on() if word == "on" else ax.set_axis_off()
        elif word in ("equal", "image"):
            ax.set_aspect("equal", adjustable="box" if word == "image" else "datalim")
            if word == "image":
                ax.autoscale(tight=True)
        elif word == "square":
            ax.set_box_aspect(1)
        elif word == "tight":
            ax.autoscale(enable=True, tight=True)
        elif word in ("normal", "fill"):
            ax.set_aspect("auto")
            if not axes.is3d:
                ax.set_box_aspect(None)
        elif word == "auto":
            ax.autoscale(enable=True)
        elif word == "ij":
            if not ax.yaxis_inverted():
                ax.invert_yaxis()
        elif word == "xy":
            if ax.yaxis_inverted():
                ax.invert_yaxis()
    axes.changed()
    if nargout:
        x0, x1 = ax.get_xlim()
        y0, y1 = ax.get_ylim()
        return np.array([[min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)]])
    return None


def view(args: tuple[Any, ...], nargout: int) -> Any:
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    if rest:
        set_view(axes, rest[0] if len(rest) == 1 else np.array([[scalar_of(rest[0]),
                                                                   scalar_of(rest[1])]]))
        axes.changed()
    return axes.get("View") if nargout or not rest else None


def scalar_of(value: Any) -> float:
    return scalar(value, "Coordinate")


def text(args: tuple[Any, ...]) -> Any:
    """``text(x, y, txt)``, ``text(x, y, z, txt)``, then name-value pairs."""
    axes, rest = split_axes_arg(args)
    coords = []
    while rest and is_numeric(rest[0]) and len(coords) < 3:
        coords.append(scalar_of(rest.pop(0)))
    if len(coords) < 2 or not rest:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    content = "\n".join(texts_of(rest.pop(0)))
    axes = target_axes(axes)
    if axes.is3d and len(coords) == 3:
        artist = axes.mpl.text(coords[0], coords[1], coords[2], content, fontsize=10)
    else:
        artist = axes.mpl.text(coords[0], coords[1], content, fontsize=10,
                               verticalalignment="center")
    obj = TextObject(axes, artist, text=content)
    from matfuse.graphics.defaults import apply_defaults

    apply_defaults(obj)
    apply_pairs(obj, name_value_pairs(rest, "text"))
    axes.changed()
    return obj.handle


ANNOTATION_KINDS = ("line", "arrow", "doublearrow", "textarrow", "textbox", "rectangle",
                    "ellipse")


def annotation(args: tuple[Any, ...]) -> Any:
    """``annotation(type, x, y)`` (lines/arrows) or ``annotation(type, [x y w h])``
    (textbox/rectangle/ellipse), in normalized figure units."""
    from matplotlib.patches import Ellipse, FancyArrowPatch, Rectangle

    from matfuse.graphics.root import ROOT

    rest = list(args)
    if not rest or not is_text(rest[0]) or text_of(rest[0]).lower() not in ANNOTATION_KINDS:
        raise MatlabError("MATLAB:annotation:InvalidType",
                          "Annotation type must be one of: " + ", ".join(ANNOTATION_KINDS) + ".")
    kind = text_of(rest.pop(0)).lower()
    fig = ROOT.gcf()
    mfig = fig.fig
    string = ""
    if kind in ("line", "arrow", "doublearrow", "textarrow"):
        if len(rest) < 2:
            raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
        x, y = numeric(rest.pop(0)).real.reshape(-1), numeric(rest.pop(0)).real.reshape(-1)
        pairs = name_value_pairs(rest, "annotation")
        style = {"line": "-", "arrow": "-|>", "doublearrow": "<|-|>", "textarrow": "-|>"}[kind]
        artist = FancyArrowPatch((x[0], y[0]), (x[1], y[1]), arrowstyle=style,
                                 mutation_scale=10, linewidth=0.5, color="black",
                                 transform=mfig.transFigure)
        data = {"X": x.reshape(1, -1), "Y": y.reshape(1, -1)}
    else:
        pos = numeric(rest.pop(0)).real.reshape(-1) if rest and is_numeric(rest[0]) \
            else np.array([0.3, 0.3, 0.1, 0.1])
        pairs = name_value_pairs(rest, "annotation")
        if kind == "ellipse":
            artist = Ellipse((pos[0] + pos[2] / 2, pos[1] + pos[3] / 2), pos[2], pos[3],
                             fill=False, linewidth=0.5, transform=mfig.transFigure)
        else:
            artist = Rectangle((pos[0], pos[1]), pos[2], pos[3], fill=False, linewidth=0.5,
                               transform=mfig.transFigure)
        data = {"Position": pos.reshape(1, -1)}
    for name, value in list(pairs):
        if name.lower() == "string":
            string = "\n".join(texts_of(value))
            pairs.remove((name, value))
    mfig.add_artist(artist)
    artists = [artist]
    if string:
        from matfuse.graphics.tex import to_mathtext

        if kind == "textbox":
            where = (pos[0] + 0.005, pos[1] + pos[3] - 0.005)
            label = mfig.text(*where, to_mathtext(string), fontsize=10, va="top", ha="left")
        else:
            label = mfig.text(x[0], y[0], to_mathtext(string), fontsize=10, ha="right",
                              va="center")
        artists.append(label)
    chart = ChartObject(fig, (kind, f"matlab.graphics.shape.{kind.capitalize()}",
                              kind.capitalize()), artists, data,
                        {"Color": np.array([[0.0, 0.0, 0.0]]), "LineWidth": 0.5})
    chart.legend_artist = None
    apply_pairs(chart, pairs)
    fig.changed()
    return chart.handle


def ticks(args: tuple[Any, ...], axis: str, labels: bool, nargout: int) -> Any:
    """``xticks(values)``, ``xticks auto``, ``xticklabels({...})``, ``v = xticks``."""
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    prop = f"{axis.upper()}Tick" + ("Label" if labels else "")
    if rest:
        axes.set(prop, rest[0])
        if not nargout:
            return None
    return axes.get(prop)
