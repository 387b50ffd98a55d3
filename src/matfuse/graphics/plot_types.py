"""``scatter``, ``bar``/``barh``, ``histogram``, ``area``, ``fill``, ``pie``
and ``quiver`` charts."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import (
    is_numeric, is_text, name_value_pairs, numeric, positive, real_data, scalar, text_of,
    texts_of,
)
from matfuse.graphics.charts import ChartObject
from matfuse.graphics.colors import color_value, rgb_row
from matfuse.graphics.handles import GraphicsHandle
from matfuse.graphics.linespec import MARKERS
from matfuse.graphics.plotting import (
    _default_x, apply_pairs, pair_columns, split_axes_arg, target_axes,
)
from matfuse.runtime.values import char_array

EDGE_DARK = (0.15, 0.15, 0.15)
DEFAULT_SCATTER_SIZE = 36.0


def scatter(args: tuple[Any, ...]) -> Any:
    """``scatter(x,y[,sz[,c]][,marker]['filled'][,Name,Value])``."""
    axes, rest = split_axes_arg(args)
    data = []
    while rest and not is_text(rest[0]) and len(data) < 4:
        data.append(rest.pop(0))
    if len(data) < 2:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    filled, marker = False, "o"
    while rest and is_text(rest[0]):
        word = text_of(rest[0])
        if word.lower() == "filled":
            filled = True
        elif word.lower() in MARKERS:
            marker = MARKERS[word.lower()]
        else:
            break
        rest.pop(0)
    pairs = name_value_pairs(rest, "scatter")
    x, y = numeric(data[0]).real.reshape(-1), numeric(data[1]).real.reshape(-1)
    if x.size != y.size:
        raise MatlabError("MATLAB:scatter:InvalidXYData", "X and Y must be the same length.")
    sizes = DEFAULT_SCATTER_SIZE
    if len(data) >= 3 and numeric(data[2]).size:
        sizes = numeric(data[2]).real.reshape(-1)
    axes = target_axes(axes)
    ax = axes.prepare()
    kwargs: dict[str, Any] = {"s": sizes, "marker": marker, "linewidths": 0.5}
    color_data: Any = None
    if len(data) == 4 and not is_text(data[3]):
        c = numeric(data[3]).real
        if c.shape == (1, 3) and x.size != 3:
            color = tuple(c.reshape(-1))
        elif c.ndim == 2 and c.shape[1] == 3 and c.shape[0] == x.size and x.size != 1:
            color = [tuple(row) for row in c]
        else:
            color_data = c.reshape(-1)
            color = None
    elif len(data) == 4:
        color = color_value(data[3])
    else:
        color = axes.next_color()
    if color_data is not None:
        from matfuse.graphics.color_mapping import axes_cmap

        kwargs.update(c=color_data, cmap=axes_cmap(axes))
        collection = ax.scatter(x, y, **kwargs)
        if not filled:
            collection.set_facecolor("none")
            collection.set_edgecolor(collection.to_rgba(color_data))
    elif filled:
        collection = ax.scatter(x, y, color=color, **kwargs)
    else:
        edges = [color] if isinstance(color, tuple) else color
        collection = ax.scatter(x, y, facecolors="none", edgecolors=edges, **kwargs)
    chart = ChartObject(axes, ("scatter", "matlab.graphics.chart.primitive.Scatter", "Scatter"),
                        [collection],
                        {"XData": x.reshape(1, -1), "YData": y.reshape(1, -1),
                         "SizeData": np.atleast_2d(np.asarray(sizes, dtype=float))},
                        {"MarkerEdgeColor": rgb_row(color) if isinstance(color, tuple)
                         else char_array("flat"),
                         "MarkerFaceColor": char_array("flat" if filled else "none"),
                         "LineWidth": 0.5},
                        legend_artist=collection)
    chart.STYLE_SETTERS = dict(ChartObject.STYLE_SETTERS, MarkerEdgeColor="set_edgecolor",
                               MarkerFaceColor="set_facecolor")
    chart.mappable = collection if color_data is not None else None
    apply_pairs(chart, pairs)
    axes.after_plot()
    return chart.handle


def bar(args: tuple[Any, ...], horizontal: bool = False) -> Any:
    """``bar(y)``, ``bar(x,y)``, ``bar(...,width)``, ``'grouped'``/``'stacked'``,
    a colour, name-value pairs; one Bar object per column of Y."""
    axes, rest = split_axes_arg(args)
    data = []
    while rest and not is_text(rest[0]) and len(data) < 3:
        data.append(real_data(rest.pop(0), "Bar data"))
    layout, color = "grouped", None
    while rest and is_text(rest[0]) and text_of(rest[0]).lower() in (
            "grouped", "stacked", "hist", "histc", "r", "g", "b", "c", "m", "y", "k", "w"):
        word = text_of(rest.pop(0)).lower()
        if word in ("grouped", "stacked"):
            layout = word
        elif len(word) == 1:
            color = color_value(char_array(word))
    pairs = name_value_pairs(rest, "bar")
    if not data:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    width = 0.8
    if len(data) == 3 or (len(data) == 2 and data[1].size == 1 and data[0].size > 1):
        width = positive(data.pop(), "Bar width")
    if len(data) == 1:
        y = data[0]
        y = y.reshape(-1, 1) if min(y.shape) == 1 else y
        x = np.arange(1.0, y.shape[0] + 1)
    else:
        x = data[0].reshape(-1)
        y = data[1]
        y = y.reshape(-1, 1) if min(y.shape) == 1 else y
        if y.shape[0] != x.size:
            y = y.T
        if y.shape[0] != x.size:
            raise MatlabError("MATLAB:bar:XYLengthMismatch", "X and Y must be the same length.")
    axes = target_axes(axes)
    ax = axes.prepare()
    ngroups = y.shape[1]
    spacing = float(np.min(np.diff(np.sort(x)))) if x.size > 1 else 1.0
    bottoms = np.zeros(x.size)
    handles = []
    for k in range(ngroups):
        face = color if color is not None else axes.next_color()
        if layout == "stacked" or ngroups == 1:
            positions, bar_width = x, width * spacing
        else:
            group = min(0.8, ngroups / (ngroups + 1.5)) * spacing
            bar_width = group / ngroups * width / 0.8
            positions = x - group / 2 + (k + 0.5) * group / ngroups
        draw = ax.barh if horizontal else ax.bar
        container = draw(positions, y[:, k], bar_width, bottoms if layout == "stacked" else None,
                         color=face, edgecolor="black", linewidth=0.5)
        if layout == "stacked":
            bottoms = bottoms + y[:, k]
        chart = ChartObject(axes, ("bar", "matlab.graphics.chart.primitive.Bar", "Bar"),
                            list(container.patches),
                            {"XData": x.reshape(1, -1), "YData": y[:, k].reshape(1, -1),
                             "BarWidth": width, "BarLayout": char_array(layout)},
                            {"FaceColor": rgb_row(face), "EdgeColor": rgb_row((0.0, 0.0, 0.0)),
                             "LineWidth": 0.5, "FaceAlpha": 1.0},
                            legend_artist=container.patches[0] if container.patches else None)
        apply_pairs(chart, pairs)
        handles.append(chart)
    if x.size <= 15 and np.allclose(x, np.round(x)):
        (ax.set_yticks if horizontal else ax.set_xticks)(x)
    (ax.set_ymargin if horizontal else ax.set_xmargin)(0.05)
    axes.after_plot()
    return GraphicsHandle(handles)


def pie(args: tuple[Any, ...]) -> Any:
    """``pie(x)``, ``pie(x, labels)``: wedges coloured from the colormap, labelled
    with percentages (or the labels); x sums below 1 give a partial pie."""
    from matfuse.graphics.color_mapping import axes_cmap

    axes, rest = split_axes_arg(args)
    if not rest:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    values = real_data(rest[0], "Pie data").reshape(-1)
    if values.size == 0 or np.any(values < 0) or not np.all(np.isfinite(values)) \
            or values.sum() <= 0:
        raise MatlabError("MATLAB:pie:NonNegativeFinite",
                          "Pie data must be finite, nonnegative and not all zero.")
    labels = None
    for item in rest[1:]:
        if not is_numeric(item):
            labels = texts_of(item)
            if len(labels) != values.size:
                raise MatlabError("MATLAB:pie:LabelsMismatch",
                                  "Labels must have one entry for each pie wedge.")
    total = values.sum()
    shares = values / total if total > 1 else values
    if labels is None:
        labels = [f"{round(100 * share)}%" if share >= 0.005 else "< 1%" for share in shares]
    axes = target_axes(axes)
    ax = axes.prepare()
    cmap = axes_cmap(axes)
    colors = [cmap(k / max(values.size - 1, 1)) for k in range(values.size)]
    wedges, texts = ax.pie(shares, labels=labels[:values.size], colors=colors, normalize=False,
                           startangle=90, counterclock=False,
                           wedgeprops={"edgecolor": "black", "linewidth": 0.5},
                           textprops={"fontsize": 10})
    ax.set_aspect("equal")
    ax.set_axis_off()
    handles = []
    for wedge, share, label in zip(wedges, shares, labels):
        chart = ChartObject(axes, ("patch", "matlab.graphics.primitive.Patch", "Patch"), [wedge],
                            {"Share": float(share)},
                            {"FaceColor": rgb_row(wedge.get_facecolor()[:3]),
                             "EdgeColor": rgb_row((0.0, 0.0, 0.0)), "LineWidth": 0.5,
                             "FaceAlpha": 1.0},
                            legend_artist=wedge)
        chart.display_name = label
        handles.append(chart)
    axes.after_plot()
    return GraphicsHandle(handles)


def quiver(args: tuple[Any, ...]) -> Any:
    """``quiver(U,V)``, ``quiver(X,Y,U,V)``, ``quiver(...,scale)``, a LineSpec:
    arrows scaled automatically to fit the grid (MATLAB's 0.9 factor)."""
    from matfuse.graphics.linespec import parse_linespec

    axes, rest = split_axes_arg(args)
    data = []
    while rest and not is_text(rest[0]) and len(data) < 5:
        data.append(real_data(rest.pop(0), "Vector data"))
    spec = parse_linespec(text_of(rest.pop(0))) if rest and is_text(rest[0]) and \
        parse_linespec(text_of(rest[0])) is not None else None
    pairs = name_value_pairs(rest, "quiver")
    scale = 0.9
    if len(data) in (3, 5):
        scale = scalar(data.pop(), "Scale")
    if len(data) == 2:
        u, v = data
        x, y = np.meshgrid(np.arange(1.0, u.shape[1] + 1), np.arange(1.0, u.shape[0] + 1))
    elif len(data) == 4:
        x, y, u, v = data
        if min(x.shape) == 1 and min(y.shape) == 1 and u.ndim == 2 and min(u.shape) > 1:
            x, y = np.meshgrid(x.reshape(-1), y.reshape(-1))
    else:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if not (x.size == y.size == u.size == v.size):
        raise MatlabError("MATLAB:quiver:DataSizeMismatch", "X, Y, U and V must be the same size.")
    x, y, u, v = (a.reshape(-1) for a in (x, y, u, v))
    axes = target_axes(axes)
    ax = axes.prepare()
    color = spec.color if spec is not None and spec.color is not None else axes.next_color()
    length = np.hypot(u, v)
    finite = length[np.isfinite(length)]
    spacing = _grid_spacing(x, y)
    factor = scale * spacing / finite.max() if scale and finite.size and finite.max() > 0 else 1.0
    artist = ax.quiver(x, y, u * factor, v * factor, angles="xy", scale_units="xy", scale=1.0,
                       color=color, width=0.004, headwidth=3.5, headlength=4.5)
    ends = np.column_stack([x + u * factor, y + v * factor])
    ax.update_datalim(ends[np.all(np.isfinite(ends), axis=1)])     # arrow tips inside
    ax.autoscale_view()
    chart = ChartObject(axes, ("quiver", "matlab.graphics.chart.primitive.Quiver", "Quiver"),
                        [artist], {"XData": x.reshape(1, -1), "YData": y.reshape(1, -1),
                                   "UData": u.reshape(1, -1), "VData": v.reshape(1, -1),
                                   "AutoScaleFactor": scale},
                        {"Color": rgb_row(color), "LineWidth": 0.5}, legend_artist=artist)
    apply_pairs(chart, pairs)
    axes.after_plot()
    return chart.handle


def _grid_spacing(x: np.ndarray, y: np.ndarray) -> float:
    """The typical distance between arrow bases (for automatic scaling)."""
    steps = [np.diff(np.unique(a[np.isfinite(a)])) for a in (x, y)]
    found = [float(s.min()) for s in steps if s.size]
    return min(found) if found else 1.0


HISTOGRAM_STYLE = ("facecolor", "edgecolor", "facealpha", "linewidth", "displayname",
                   "edgealpha", "visible")


def histogram(args: tuple[Any, ...]) -> Any:
    """``histogram(x, ...)``: bins as ``histcounts`` chooses them."""
    from matfuse.runtime.builtins.histograms import histcounts

    axes, rest = split_axes_arg(args)
    if not rest or not is_numeric(rest[0]):
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    count_args, style_pairs = [], []
    k = 0
    while k < len(rest):
        item = rest[k]
        if is_text(item) and text_of(item).lower() in HISTOGRAM_STYLE and k + 1 < len(rest):
            style_pairs.append((text_of(item), rest[k + 1]))
            k += 2
            continue
        count_args.append(item)
        k += 1
    values, edges = histcounts(*count_args, nargout=2)
    values = numeric(values).reshape(-1)
    edges = numeric(edges).reshape(-1)
    normalization = "count"
    for j in range(1, len(count_args) - 1):
        if is_text(count_args[j]) and text_of(count_args[j]).lower() == "normalization":
            normalization = text_of(count_args[j + 1]).lower()
    axes = target_axes(axes)
    ax = axes.prepare()
    face = axes.next_color()
    container = ax.bar(edges[:-1], values, width=np.diff(edges), align="edge", color=face,
                       alpha=0.6, edgecolor=EDGE_DARK, linewidth=0.5)
    data = numeric(rest[0]).real
    chart = ChartObject(axes, ("histogram", "matlab.graphics.chart.primitive.Histogram",
                               "Histogram"),
                        list(container.patches),
                        {"Data": data, "Values": values.reshape(1, -1),
                         "NumBins": float(values.size), "BinEdges": edges.reshape(1, -1),
                         "BinWidth": float(edges[1] - edges[0]) if edges.size > 1 else 0.0,
                         "Normalization": char_array(normalization)},
                        {"FaceColor": rgb_row(face), "EdgeColor": rgb_row(EDGE_DARK),
                         "FaceAlpha": 0.6, "LineWidth": 0.5},
                        legend_artist=container.patches[0] if container.patches else None)
    apply_pairs(chart, style_pairs)
    axes.after_plot()
    return chart.handle


def area(args: tuple[Any, ...]) -> Any:
    """``area(y)``, ``area(x,y)``: filled areas, stacked for matrix columns."""
    axes, rest = split_axes_arg(args)
    data = []
    while rest and not is_text(rest[0]) and len(data) < 3:
        data.append(real_data(rest.pop(0), "Area data"))
    pairs = name_value_pairs(rest, "area")
    if not data:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    base = 0.0
    if len(data) == 3 or (len(data) == 2 and data[1].size == 1 and data[0].size > 1):
        base = scalar(data.pop(), "BaseValue")
    x, y = _default_x(data[0]) if len(data) == 1 else (data[0], data[1])
    columns = pair_columns(x, y)
    axes = target_axes(axes)
    if not columns or columns[0][1].size == 0:
        axes.prepare()
        return GraphicsHandle([])
    ax = axes.prepare()
    lower = np.full(columns[0][1].size, base)
    handles = []
    for xv, yv in columns:
        face = axes.next_color()
        upper = lower + yv - (base if len(handles) else 0.0)
        collection = ax.fill_between(xv, lower, upper, facecolor=face, edgecolor="black",
                                     linewidth=0.5)
        chart = ChartObject(axes, ("area", "matlab.graphics.chart.primitive.Area", "Area"),
                            [collection],
                            {"XData": xv.reshape(1, -1), "YData": yv.reshape(1, -1),
                             "BaseValue": base},
                            {"FaceColor": rgb_row(face), "EdgeColor": rgb_row((0.0, 0.0, 0.0)),
                             "FaceAlpha": 1.0, "LineWidth": 0.5},
                            legend_artist=collection)
        apply_pairs(chart, pairs)
        handles.append(chart)
        lower = upper
    axes.after_plot()
    return GraphicsHandle(handles)


def fill(args: tuple[Any, ...]) -> Any:
    """``fill(x, y, c)``: filled polygons (one per column), colour by name,
    RGB triplet or a value mapped through the colormap."""
    axes, rest = split_axes_arg(args)
    if len(rest) < 3:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    x, y, c = real_data(rest[0], "X"), real_data(rest[1], "Y"), rest[2]
    pairs = name_value_pairs(rest[3:], "fill")
    columns = pair_columns(x, y)
    axes = target_axes(axes)
    ax = axes.prepare()
    if is_text(c) or (is_numeric(c) and numeric(c).size == 3):
        face: Any = color_value(c)
    else:
        from matfuse.graphics.color_mapping import axes_cmap

        value = float(numeric(c).real.reshape(-1)[0]) if numeric(c).size else 0.0
        face = tuple(axes_cmap(axes)(0.5 if value != value else min(max(value, 0.0), 1.0))[:3])
    handles = []
    for xv, yv in columns:
        (patch,) = ax.fill(xv, yv, facecolor=face, edgecolor="black", linewidth=0.5)
        chart = ChartObject(axes, ("patch", "matlab.graphics.primitive.Patch", "Patch"), [patch],
                            {"XData": xv.reshape(-1, 1), "YData": yv.reshape(-1, 1)},
                            {"FaceColor": rgb_row(face), "EdgeColor": rgb_row((0.0, 0.0, 0.0)),
                             "FaceAlpha": 1.0, "LineWidth": 0.5},
                            legend_artist=patch)
        apply_pairs(chart, pairs)
        handles.append(chart)
    axes.after_plot()
    return GraphicsHandle(handles)
