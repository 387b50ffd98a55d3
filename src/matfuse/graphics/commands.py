"""Figure and axes commands: ``figure``, ``axes``, ``gcf``/``gca``,
``clf``/``cla``, ``close``, ``hold``, and the low-level ``line``."""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.graphics.args import (
    is_numeric, is_text, name_value_pairs, on_off, real_data, scalar, text_of,
)
from matfuse.graphics.handles import GraphicsHandle
from matfuse.graphics.plotting import split_axes_arg, target_axes
from matfuse.graphics.root import ROOT, figure_from_value


def figure(args: tuple[Any, ...]) -> Any:
    rest = list(args)
    if rest and isinstance(rest[0], GraphicsHandle):
        fig = ROOT.figure(figure_from_value(rest.pop(0)).number)
    elif rest and is_numeric(rest[0]):
        number = scalar(rest.pop(0), "Figure number")
        if number != int(number) or number < 1:
            raise MatlabError("MATLAB:figure:InvalidFigureNumber",
                              "Figure number must be a positive integer.")
        fig = ROOT.figure(int(number))
    else:
        fig = ROOT.new_figure()
    for name, value in name_value_pairs(rest, "figure"):
        fig.set(name, value)
    return fig.handle


def current_handle(kind: str) -> Any:
    return ROOT.gcf().handle if kind == "figure" else ROOT.gca().handle


def clear_figure(args: tuple[Any, ...]) -> Any:
    rest = [a for a in args if not (is_text(a) and text_of(a).lower() == "reset")]
    fig = figure_from_value(rest[0]) if rest else ROOT.gcf()
    fig.clear()
    return fig.handle


def clear_axes(args: tuple[Any, ...]) -> Any:
    axes, _ = split_axes_arg(args)
    axes = target_axes(axes)
    axes.reset()
    axes.changed()
    return axes.handle


def close_figures(args: tuple[Any, ...]) -> bool:
    if not args:
        if ROOT.current is not None and not ROOT.current.deleted:
            ROOT.close(ROOT.current)
        elif ROOT.live_figures():
            ROOT.close(ROOT.live_figures()[-1])
        return True
    for arg in args:
        if is_text(arg):
            word = text_of(arg).lower()
            if word in ("all", "all hidden", "all force", "hidden", "force"):
                ROOT.close_all()
                continue
            matches = [f for f in ROOT.live_figures() if f.name == text_of(arg)]
            if not matches:
                raise MatlabError("MATLAB:close:WindowNotFound",
                                  f"Specified window {text_of(arg)} does not exist.")
            for fig in matches:
                ROOT.close(fig)
            continue
        if isinstance(arg, GraphicsHandle):
            for obj in arg.objects:
                if obj.type_name == "figure" and not obj.deleted:
                    ROOT.close(obj)
            continue
        ROOT.close(figure_from_value(arg))
    return True


def set_hold(args: tuple[Any, ...]) -> None:
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    if not rest:
        axes.hold = not axes.hold
        return
    word = text_of(rest[0]).lower() if is_text(rest[0]) else None
    if word in ("all",):
        axes.hold = True
    elif word is not None and word in ("on", "off"):
        axes.hold = word == "on"
    elif word is None:
        axes.hold = on_off(rest[0], "hold")
    else:
        raise MatlabError("MATLAB:hold:UnknownOption", f"Unknown command option '{word}'.")


def is_hold(args: tuple[Any, ...]) -> bool:
    axes, _ = split_axes_arg(args)
    if axes is None:
        fig = ROOT.current
        if fig is None or fig.deleted or fig.current_axes is None:
            return False
        axes = fig.current_axes
    return axes.hold


def axes(args: tuple[Any, ...]) -> Any:
    """``axes``: new axes in the current figure (name-value pairs such as
    Position); ``axes(ax)``: make ``ax`` and its figure current."""
    from matfuse.graphics.root import new_axes

    rest = list(args)
    if rest and isinstance(rest[0], GraphicsHandle):
        target = rest.pop(0).single()
        if target.type_name != "axes":
            raise MatlabError("MATLAB:graphics:invalidAxes", "Input must be an axes handle.")
        fig = target.parent
        ROOT.current = fig
        fig.current_axes = target
    else:
        target = new_axes(ROOT.gcf())
    for name, value in name_value_pairs(rest, "axes"):
        target.set(name, value)
    return target.handle


def line(args: tuple[Any, ...]) -> Any:
    """``line(x, y)``, ``line(x, y, z)``, then name-value pairs: lines added to
    the axes whatever the hold state (MATLAB's low-level line)."""
    from matfuse.graphics.plotting import add_line, pair_columns

    axes_obj, rest = split_axes_arg(args)
    data = []
    while rest and not is_text(rest[0]) and len(data) < 3:
        data.append(real_data(rest.pop(0), "Line data"))
    if len(data) < 2:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    pairs = name_value_pairs(rest, "line")
    axes_obj = target_axes(axes_obj)
    if len(data) == 3 and not axes_obj.is3d:
        axes_obj._replace_mpl("3d")
    lines = []
    columns = pair_columns(data[0], data[1])
    z_columns = pair_columns(data[0], data[2]) if len(data) == 3 else [(None, None)] * len(columns)
    for (x, y), (_, z) in zip(columns, z_columns):
        lines.append(add_line(axes_obj, x, y, z, None, pairs))
    axes_obj.after_plot()
    return GraphicsHandle(lines)
