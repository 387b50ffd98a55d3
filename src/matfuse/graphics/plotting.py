"""Line plots: ``plot``/``plot3`` (LineSpec, several x/y pairs, matrix
columns as lines, name-value pairs), the log-scale variants, ``stairs``,
``stem`` and ``errorbar``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, name_value_pairs, numeric, text_of
from matfuse.graphics.charts import ChartObject, LineObject
from matfuse.graphics.colors import rgb_row
from matfuse.graphics.handles import GraphicsHandle
from matfuse.graphics.linespec import LineSpec, parse_linespec
from matfuse.graphics.objects import GObject

DEFAULT_LINE_WIDTH = 0.5
DEFAULT_MARKER_SIZE = 6.0
VIEW_3D = (-37.5, 30.0)     # MATLAB's default 3-D view (azimuth, elevation)


def split_axes_arg(args: tuple[Any, ...]) -> tuple[Any, list[Any]]:
    """A leading axes handle (``plot(ax, ...)``) and the other arguments."""
    if args and isinstance(args[0], GraphicsHandle) and len(args[0].objects) == 1 \
            and args[0].objects[0].type_name == "axes":
        return args[0].objects[0], list(args[1:])
    return None, list(args)


def target_axes(axes: Any) -> Any:
    from matfuse.graphics.root import ROOT

    return axes if axes is not None else ROOT.gca()


def parse_series(args: list[Any], max_data: int, fn: str
                 ) -> tuple[list[tuple[list[Any], LineSpec | None]], list[tuple[str, Any]]]:
    """Data groups (each up to ``max_data`` arrays and an optional LineSpec)
    and the trailing name-value pairs."""
    groups: list[tuple[list[Any], LineSpec | None]] = []
    i, n = 0, len(args)
    while i < n and not is_text(args[i]):
        data = []
        while i < n and not is_text(args[i]) and len(data) < max_data:
            data.append(args[i])
            i += 1
        spec = None
        if i < n and is_text(args[i]):
            spec = parse_linespec(text_of(args[i]))
            if spec is not None:
                i += 1
        groups.append((data, spec))
        if spec is None and i < n and is_text(args[i]):
            break
    if not groups:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    return groups, name_value_pairs(args[i:], fn)


def _vector(arr: np.ndarray) -> bool:
    return arr.ndim == 2 and min(arr.shape) <= 1


def pair_columns(x: np.ndarray, y: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """MATLAB's pairing of X and Y: vectors, a vector against matrix columns
    (or rows, when only those match), matrices column by column."""
    if x.ndim > 2 or y.ndim > 2:
        raise MatlabError("MATLAB:plot:DataMustBe2D", "Data must be 2-D.")
    if _vector(x) and _vector(y):
        if x.size != y.size:
            if x.size == 1 or y.size == 1:
                xs, ys = np.broadcast_arrays(x.reshape(-1), y.reshape(-1))
                return [(xs[k:k + 1], ys[k:k + 1]) for k in range(xs.size)]
            raise MatlabError("MATLAB:samelen", "Vectors must be the same length.")
        return [(x.reshape(-1), y.reshape(-1))]
    if _vector(x):
        v = x.reshape(-1)
        if y.shape[0] == v.size:
            return [(v, y[:, k]) for k in range(y.shape[1])]
        if y.shape[1] == v.size:
            return [(v, y[k, :]) for k in range(y.shape[0])]
        raise MatlabError("MATLAB:samelen", "Vectors must be the same length.")
    if _vector(y):
        v = y.reshape(-1)
        if x.shape[0] == v.size:
            return [(x[:, k], v) for k in range(x.shape[1])]
        if x.shape[1] == v.size:
            return [(x[k, :], v) for k in range(x.shape[0])]
        raise MatlabError("MATLAB:samelen", "Vectors must be the same length.")
    if x.shape != y.shape:
        raise MatlabError("MATLAB:xyzMismatch", "Matrix dimensions must agree.")
    return [(x[:, k], y[:, k]) for k in range(y.shape[1])]


def _default_x(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if np.iscomplexobj(y):
        return y.real, y.imag
    if _vector(y):
        return np.arange(1.0, y.size + 1).reshape(y.shape), y
    return np.arange(1.0, y.shape[0] + 1).reshape(-1, 1), y


def _explicit_color(spec: LineSpec | None, pairs: list[tuple[str, Any]]) -> bool:
    return (spec is not None and spec.color is not None) or \
        any(name.lower() == "color" for name, _ in pairs)


def add_line(axes: Any, x: np.ndarray, y: np.ndarray, z: np.ndarray | None,
             spec: LineSpec | None, pairs: list[tuple[str, Any]]) -> LineObject:
    """One Line on ``axes`` (whose matplotlib axes is already prepared)."""
    spec = spec or LineSpec()
    color = spec.color if spec.color is not None else (
        (0.0, 0.0, 0.0) if _explicit_color(None, pairs) else axes.next_color())
    style = {"linestyle": spec.line_style or "-", "marker": spec.marker or "None",
             "color": color, "linewidth": DEFAULT_LINE_WIDTH,
             "markersize": DEFAULT_MARKER_SIZE, "markerfacecolor": "none"}
    x, y = np.real(x).astype(float), np.real(y).astype(float)
    if z is not None:
        (artist,) = axes.mpl.plot(x, y, np.real(z).astype(float), **style)
    else:
        (artist,) = axes.mpl.plot(x, y, **style)
    line = LineObject(axes, artist, x, y, z)
    from matfuse.graphics.defaults import apply_defaults

    apply_defaults(line)
    for name, value in pairs:
        line.set(name, value)
    return line


def plot_lines(args: tuple[Any, ...], fn: str, three_d: bool = False) -> GraphicsHandle:
    """``plot``/``plot3``, the log variants and ``polarplot`` (theta in
    radians, rho); returns the Line handles."""
    axes, rest = split_axes_arg(args)
    groups, pairs = parse_series(rest, 3 if three_d else 2, fn)
    series: list[tuple[np.ndarray, np.ndarray, np.ndarray | None, LineSpec | None]] = []
    for data, spec in groups:
        arrays = [numeric(d) for d in data]
        if three_d:
            if len(arrays) != 3:
                raise MatlabError("MATLAB:plot3:notEnoughInputs", "Not enough input arguments.")
            for (x, y), (_, z) in zip(pair_columns(arrays[0], arrays[1]),
                                      pair_columns(arrays[0], arrays[2])):
                series.append((x, y, z, spec))
            continue
        if len(arrays) == 1:
            x, y = _default_x(arrays[0])
        else:
            x, y = arrays
            if np.iscomplexobj(x) or np.iscomplexobj(y):
                from matfuse.graphics.messages import warn

                warn("MATLAB:plot:IgnoreImaginaryXYPart",
                     "Imaginary parts of complex X and/or Y arguments ignored.")
                x, y = x.real, y.real
        for xv, yv in pair_columns(x, y):
            series.append((xv, yv, None, spec))
    axes = target_axes(axes)
    axes.prepare(three_d, polar=fn == "polarplot")
    if three_d and not axes.hold:
        axes.mpl.view_init(VIEW_3D[1], VIEW_3D[0] - 90.0)
        axes.mpl.grid(True)
    lines = [add_line(axes, x, y, z, spec, pairs) for x, y, z, spec in series]
    scales = {"semilogx": ("x",), "semilogy": ("y",), "loglog": ("x", "y")}.get(fn, ())
    for axis in scales:
        getattr(axes.mpl, f"set_{axis}scale")("log")
    axes.after_plot()
    return GraphicsHandle(lines)


def stairs(args: tuple[Any, ...]) -> GraphicsHandle:
    """Stairstep plots: each line steps after its point (MATLAB's ``stairs``)."""
    axes, rest = split_axes_arg(args)
    groups, pairs = parse_series(rest, 2, "stairs")
    (data, spec), = groups[:1]
    arrays = [numeric(d) for d in data]
    x, y = _default_x(arrays[0]) if len(arrays) == 1 else arrays
    axes = target_axes(axes)
    axes.prepare()
    lines = []
    for xv, yv in pair_columns(x, y):
        sx = np.repeat(xv, 2)[1:]
        sy = np.repeat(yv, 2)[:-1]
        line = add_line(axes, sx, sy, None, spec, pairs)
        line.x, line.y = xv, yv      # XData/YData are the points, as in MATLAB
        line.matlab_class = "matlab.graphics.chart.primitive.Stair"
        line.short_class = "Stair"
        line.type_name = "stair"
        lines.append(line)
    axes.after_plot()
    return GraphicsHandle(lines)


def errorbar(args: tuple[Any, ...]) -> GraphicsHandle:
    """``errorbar(y,err)``, ``errorbar(x,y,err)``, ``errorbar(x,y,neg,pos)``."""
    axes, rest = split_axes_arg(args)
    data = []
    while rest and not is_text(rest[0]):
        data.append(numeric(rest.pop(0)).real.reshape(-1))
    spec = None
    if rest and is_text(rest[0]):
        spec = parse_linespec(text_of(rest[0]))
        if spec is not None:
            rest.pop(0)
    pairs = name_value_pairs(rest, "errorbar")
    if len(data) == 2:
        y, err = data
        x, neg, pos = np.arange(1.0, y.size + 1), err, err
    elif len(data) == 3:
        x, y, err = data
        neg = pos = err
    elif len(data) == 4:
        x, y, neg, pos = data
    else:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if not (x.size == y.size == neg.size == pos.size):
        raise MatlabError("MATLAB:errorbar:InputSizeMismatch",
                          "X, Y and error data must all be the same size.")
    axes = target_axes(axes)
    ax = axes.prepare()
    spec = spec or LineSpec()
    color = spec.color if spec.color is not None else axes.next_color()
    container = ax.errorbar(x, y, yerr=np.vstack([neg, pos]), color=color,
                            linestyle=spec.line_style or "-", marker=spec.marker or "None",
                            markerfacecolor="none", linewidth=DEFAULT_LINE_WIDTH,
                            capsize=3.0, elinewidth=DEFAULT_LINE_WIDTH)
    artists = [container.lines[0], *container.lines[1], *container.lines[2]]
    chart = ChartObject(axes, ("errorbar", "matlab.graphics.chart.primitive.ErrorBar", "ErrorBar"),
                        [a for a in artists if a is not None],
                        {"XData": x.reshape(1, -1), "YData": y.reshape(1, -1),
                         "YNegativeDelta": neg.reshape(1, -1),
                         "YPositiveDelta": pos.reshape(1, -1)},
                        {"Color": rgb_row(color), "LineWidth": DEFAULT_LINE_WIDTH},
                        legend_artist=container)
    apply_pairs(chart, pairs)
    axes.after_plot()
    return chart.handle


def apply_pairs(obj: GObject, pairs: list[tuple[str, Any]]) -> None:
    for name, value in pairs:
        obj.set(name, value)


def stem(args: tuple[Any, ...]) -> GraphicsHandle:
    """``stem(Y)``, ``stem(X,Y)``, ``'filled'``, a LineSpec, name-value pairs:
    a stem from the baseline to each point, a marker on top."""
    axes, rest = split_axes_arg(args)
    filled = False
    kept = []
    for item in rest:
        if is_text(item) and text_of(item).lower() == "filled":
            filled = True
        else:
            kept.append(item)
    groups, pairs = parse_series(kept, 2, "stem")
    data, spec = groups[0]
    arrays = [numeric(d) for d in data]
    x, y = _default_x(arrays[0]) if len(arrays) == 1 else (arrays[0], arrays[1])
    axes = target_axes(axes)
    ax = axes.prepare()
    spec = spec or LineSpec()
    handles = []
    for xv, yv in pair_columns(np.real(x), np.real(y)):
        color = spec.color if spec.color is not None else axes.next_color()
        stems = ax.vlines(xv, 0.0, yv, colors=[color], linestyles=spec.line_style
                          if spec.line_style not in (None, "None") else "-",
                          linewidth=DEFAULT_LINE_WIDTH)
        (heads,) = ax.plot(xv, yv, linestyle="None", marker=spec.marker or "o", color=color,
                           markersize=DEFAULT_MARKER_SIZE,
                           markerfacecolor=color if filled else "none")
        chart = ChartObject(axes, ("stem", "matlab.graphics.chart.primitive.Stem", "Stem"),
                            [stems, heads],
                            {"XData": xv.reshape(1, -1), "YData": yv.reshape(1, -1),
                             "BaseValue": 0.0},
                            {"Color": rgb_row(color), "LineWidth": DEFAULT_LINE_WIDTH},
                            legend_artist=heads)
        apply_pairs(chart, pairs)
        handles.append(chart)
    if handles:
        ax.axhline(0.0, color="black", linewidth=DEFAULT_LINE_WIDTH)
    axes.after_plot()
    return GraphicsHandle(handles)
