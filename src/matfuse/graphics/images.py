"""Colour-mapped graphics: images (``imagesc``/``image``/``imshow``),
surfaces (``surf``/``mesh``), contours, ``colormap``, ``colorbar`` and
colour limits (CLim)."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, name_value_pairs, numeric, text_of, whole
from matfuse.graphics.charts import ChartObject, ColorbarObject
from matfuse.graphics.color_mapping import (
    axes_cmap, color_limits, mappables, set_color_limits, set_colormap,
)
from matfuse.graphics.colors import COLORMAP_NAMES, colormap_matrix, mpl_colormap, rgb_row
from matfuse.graphics.linespec import parse_linespec
from matfuse.graphics.plotting import VIEW_3D, apply_pairs, split_axes_arg, target_axes
from matfuse.runtime.values import char_array, element_class


# ------------------------------------------------------------- colour maps
def colormap(args: tuple[Any, ...], nargout: int) -> Any:
    """``colormap name``, ``colormap(map)``, ``colormap(target, ...)``, ``cmap = colormap``."""
    from matfuse.graphics.handles import GraphicsHandle
    from matfuse.graphics.root import ROOT

    rest = list(args)
    target: Any = None
    if rest and isinstance(rest[0], GraphicsHandle):
        target = rest.pop(0).objects[0]
    if target is None:
        target = ROOT.gcf()
    if rest:
        if is_text(rest[0]) and text_of(rest[0]).lower() == "default":
            rest[0] = char_array("parula")
        set_colormap(target, rest[0])
    if nargout or not rest:
        matrix = target.colormap if target.colormap is not None else target.parent.colormap
        return matrix.copy()
    return None


def colorbar(args: tuple[Any, ...]) -> Any:
    """``colorbar``, ``colorbar(location)``, ``colorbar('off')``."""
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    location = "eastoutside"
    if rest and is_text(rest[0]):
        word = text_of(rest.pop(0)).lower()
        if word in ("off", "delete", "hide"):
            if axes.colorbar is not None:
                axes.colorbar.delete()
            axes.changed()
            return None
        location = word if word in ("eastoutside", "westoutside", "northoutside",
                                    "southoutside", "east", "west", "north", "south") \
            else "eastoutside"
    found = mappables(axes)
    if found:
        mappable = found[-1]
    else:
        import matplotlib.cm

        low, high = color_limits(axes)
        from matplotlib.colors import Normalize

        mappable = matplotlib.cm.ScalarMappable(Normalize(low, high), axes_cmap(axes))
    if axes.colorbar is not None:
        axes.colorbar.delete()
    bar = ColorbarObject(axes, mappable, location)
    axes.colorbar = bar
    apply_pairs(bar, name_value_pairs(rest, "colorbar"))
    axes.changed()
    return bar.handle


# ------------------------------------------------------------------ images
def _image_args(rest: list[Any], fn: str) -> tuple[np.ndarray | None, np.ndarray | None, Any,
                                                   list[Any]]:
    data = []
    while rest and not is_text(rest[0]) and len(data) < 4:
        data.append(rest.pop(0))
    if not data:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if len(data) >= 3:
        return numeric(data[0]).real, numeric(data[1]).real, data[2], data[3:] + rest
    return None, None, data[0], data[1:] + rest


def _extent(x: np.ndarray | None, y: np.ndarray | None, rows: int, cols: int) -> list[float]:
    x0, x1 = (1.0, float(cols)) if x is None or x.size == 0 else \
        (float(x.reshape(-1)[0]), float(x.reshape(-1)[-1]))
    y0, y1 = (1.0, float(rows)) if y is None or y.size == 0 else \
        (float(y.reshape(-1)[0]), float(y.reshape(-1)[-1]))
    dx = (x1 - x0) / max(cols - 1, 1) / 2 if cols > 1 else 0.5
    dy = (y1 - y0) / max(rows - 1, 1) / 2 if rows > 1 else 0.5
    return [x0 - dx, x1 + dx, y1 + dy, y0 - dy]


def show_image(args: tuple[Any, ...], fn: str) -> Any:
    """``imagesc`` (scaled colours), ``image`` (direct colours), ``imshow``."""
    axes, rest = split_axes_arg(args)
    x, y, c_value, rest = _image_args(rest, fn)
    clims = None
    if fn == "imagesc" and rest and not is_text(rest[0]):
        clims = numeric(rest.pop(0)).real.reshape(-1)
        if clims.size != 2 or not clims[0] < clims[1]:
            raise MatlabError("MATLAB:imagesc:InvalidCLim",
                              "Color limits must be a 2-element vector [low high] with low < high.")
    if fn == "imshow" and rest and not is_text(rest[0]):
        limits = numeric(rest.pop(0)).real.reshape(-1)
        clims = limits if limits.size == 2 else None
    pairs = name_value_pairs(rest, fn)
    cls = element_class(c_value)
    c = numeric(c_value).real
    if not (c.ndim == 2 or (c.ndim == 3 and c.shape[2] == 3)) or c.size == 0:
        raise MatlabError("MATLAB:image:InvalidCData",
                          "Image data must be a nonempty m-by-n matrix or m-by-n-by-3 array.")
    axes = target_axes(axes)
    ax = axes.prepare()
    rows, cols = c.shape[0], c.shape[1]
    kwargs: dict[str, Any] = {"extent": _extent(x, y, rows, cols), "origin": "upper",
                              "interpolation": "nearest", "aspect": "auto"}
    truecolor = c.ndim == 3 and c.shape[2] == 3
    if truecolor:
        scale = {"uint8": 255.0, "uint16": 65535.0}.get(cls, 1.0)
        artist = ax.imshow(np.clip(c / scale, 0.0, 1.0), **kwargs)
        mappable = None
    elif fn == "image":
        cmap = axes_cmap(axes)
        index = c if cls in ("double", "single") else c + 1.0
        n = cmap.N
        artist = ax.imshow(np.clip(index, 1, n), cmap=cmap, vmin=0.5, vmax=n + 0.5, **kwargs)
        mappable = artist
    else:
        if fn == "imshow" and clims is None:
            clims = np.array([0.0, {"uint8": 255.0, "uint16": 65535.0}.get(cls, 1.0)])
        cmap = axes_cmap(axes) if fn == "imagesc" else mpl_colormap(colormap_matrix("gray", 256))
        artist = ax.imshow(c, cmap=cmap, **kwargs)
        if clims is not None:
            artist.set_clim(float(clims[0]), float(clims[1]))
        mappable = artist if fn == "imagesc" else None
    if axes.clim is not None and mappable is not None:
        mappable.set_clim(*axes.clim)
    if fn == "imshow":
        ax.set_aspect("equal")
        ax.set_axis_off()
    else:
        ax.set_xlim(kwargs["extent"][0], kwargs["extent"][1])
        ax.set_ylim(kwargs["extent"][2], kwargs["extent"][3])
    chart = ChartObject(axes, ("image", "matlab.graphics.primitive.Image", "Image"), [artist],
                        {"CData": c_value,
                         "CDataMapping": char_array("scaled" if fn == "imagesc" else "direct")},
                        {})
    chart.mappable = mappable
    apply_pairs(chart, pairs)
    axes.changed()
    return chart.handle


# --------------------------------------------------------------- surfaces
def _grid_args(rest: list[Any], fn: str
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any, list[Any]]:
    data = []
    while rest and not is_text(rest[0]) and len(data) < 4:
        data.append(numeric(rest.pop(0)).real)
    if len(data) in (1, 2):
        z = data[0]
        x, y = np.meshgrid(np.arange(1.0, z.shape[1] + 1), np.arange(1.0, z.shape[0] + 1))
        extra = data[1] if len(data) == 2 else None
    elif len(data) >= 3:
        x, y, z = data[:3]
        extra = data[3] if len(data) == 4 else None
        if min(x.shape) == 1 and min(y.shape) == 1:
            x, y = np.meshgrid(x.reshape(-1), y.reshape(-1))
    else:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if z.ndim != 2 or min(z.shape) < 2:
        raise MatlabError(f"MATLAB:{fn}:NonMatrixData",
                          "Z must be at least a 2-by-2 matrix, not a scalar or vector.")
    if x.shape != z.shape or y.shape != z.shape:
        raise MatlabError("MATLAB:surface:DataSizeMismatch",
                          "Data dimensions must agree.")
    return x, y, z, extra, rest


def surface(args: tuple[Any, ...], fn: str) -> Any:
    """``surf``/``mesh``: a 3-D surface coloured by Z (or C) through the colormap."""
    axes, rest = split_axes_arg(args)
    x, y, z, c, rest = _grid_args(rest, fn)
    pairs = name_value_pairs(rest, fn)
    c = z if c is None else c
    if c.shape != z.shape:
        raise MatlabError("MATLAB:surface:DataSizeMismatch", "C must be the same size as Z.")
    if not np.isfinite(c).any() or not np.isfinite(z).any():
        raise MatlabError("MATLAB:surface:NoFiniteData", "Surface data must contain finite values.")
    axes = target_axes(axes)
    was_3d = axes.is3d and axes.hold
    ax = axes.prepare(three_d=True)
    if not was_3d:
        ax.view_init(VIEW_3D[1], VIEW_3D[0] - 90.0)
    cmap = axes_cmap(axes)
    from matplotlib.colors import Normalize

    low, high = (axes.clim if axes.clim is not None
                 else (float(np.nanmin(c)), float(np.nanmax(c)) or 1.0))
    if low == high:
        high = low + 1.0
    norm = Normalize(low, high)
    face_values = (c[:-1, :-1] + c[1:, 1:] + c[:-1, 1:] + c[1:, :-1]) / 4
    face_colors = cmap(norm(face_values))
    if fn == "surf":
        artist = ax.plot_surface(x, y, z, facecolors=face_colors, edgecolor="black",
                                 linewidth=0.3, rstride=1, cstride=1, shade=False)
        style = {"FaceColor": char_array("flat"), "EdgeColor": rgb_row((0.0, 0.0, 0.0)),
                 "LineWidth": 0.3, "FaceAlpha": 1.0}
    else:
        artist = ax.plot_surface(x, y, z, color="white", rstride=1, cstride=1, shade=False,
                                 linewidth=0.5)
        artist.set_edgecolor(face_colors.reshape(-1, 4))
        style = {"FaceColor": rgb_row((1.0, 1.0, 1.0)), "EdgeColor": char_array("flat"),
                 "LineWidth": 0.5, "FaceAlpha": 1.0}
    import matplotlib.cm

    mappable = matplotlib.cm.ScalarMappable(norm, cmap)
    mappable.set_array(c)
    chart = ChartObject(axes, ("surface", "matlab.graphics.chart.primitive.Surface", "Surface"),
                        [artist], {"XData": x, "YData": y, "ZData": z, "CData": c}, style)
    chart.mappable = mappable
    apply_pairs(chart, pairs)
    axes.changed()
    return chart.handle


def contour(args: tuple[Any, ...], fn: str, nargout: int) -> Any:
    """``contour``/``contourf``: ``[M, c] = contour(X,Y,Z,levels,LineSpec,...)``."""
    axes, rest = split_axes_arg(args)
    x, y, z, levels, rest = _grid_args(rest, fn)
    spec = None
    if rest and is_text(rest[0]):
        spec = parse_linespec(text_of(rest[0]))
        if spec is not None:
            rest.pop(0)
    show_text = False
    pairs = []
    for name, value in name_value_pairs(rest, fn):
        if name.lower() == "showtext":
            from matfuse.graphics.args import on_off

            show_text = on_off(value, "ShowText")
        else:
            pairs.append((name, value))
    axes = target_axes(axes)
    ax = axes.prepare()
    kwargs: dict[str, Any] = {"levels": contour_levels(z, levels)}
    if fn == "contourf":
        low, high = float(np.nanmin(z)), float(np.nanmax(z))
        filled = np.unique(np.concatenate([[low], kwargs["levels"], [high]]))
        if filled.size < 2:
            filled = np.array([low, low + 1.0])
        artist = ax.contourf(x, y, z, cmap=axes_cmap(axes), levels=filled)
        ax.contour(x, y, z, levels=artist.levels, colors="black", linewidths=0.5,
                   negative_linestyles="solid")
    elif spec is not None and spec.color is not None:
        style = spec.line_style if spec.line_style not in (None, "None") else "-"
        artist = ax.contour(x, y, z, colors=[spec.color], linewidths=0.5,
                            negative_linestyles="solid", linestyles=style, **kwargs)
    else:
        artist = ax.contour(x, y, z, cmap=axes_cmap(axes), linewidths=0.5,
                            negative_linestyles="solid", **kwargs)
    if show_text:
        ax.clabel(artist, fontsize=8)
    matrix = contour_matrix(artist)
    chart = ChartObject(axes, ("contour", "matlab.graphics.chart.primitive.Contour", "Contour"),
                        [artist], {"XData": x, "YData": y, "ZData": z,
                                   "LevelList": np.asarray(artist.levels, float).reshape(1, -1),
                                   "ContourMatrix": matrix},
                        {"LineWidth": 0.5})
    chart.mappable = artist if spec is None or spec.color is None else None
    apply_pairs(chart, pairs)
    axes.changed()
    if nargout >= 2:
        return matrix, chart.handle
    return matrix if nargout == 1 else None


def contour_levels(z: np.ndarray, levels: np.ndarray | None) -> np.ndarray:
    """Levels: given values (``[v v]`` is the one level v), n levels evenly
    inside the data range, or about ten round values (the default)."""
    finite = z[np.isfinite(z)]
    if finite.size == 0:
        raise MatlabError("MATLAB:contour:NoFiniteData", "Z must contain finite values.")
    low, high = float(finite.min()), float(finite.max())
    if levels is None:
        from matplotlib.ticker import MaxNLocator

        ticks = MaxNLocator(nbins=9).tick_values(low, high)
        inside = ticks[(ticks >= low) & (ticks <= high)]
        return inside if inside.size else np.array([low])
    values = levels.reshape(-1)
    if values.size == 1:
        count = whole(values, "Number of levels")
        return np.linspace(low, high, count + 2)[1:-1]
    values = values[np.isfinite(values)]
    if values.size == 0:
        raise MatlabError("MATLAB:contour:InvalidLevels", "Contour levels must be finite.")
    return np.unique(values)


def contour_matrix(artist: Any) -> np.ndarray:
    """MATLAB's contour matrix: per line a ``[level; npoints]`` column, then its points."""
    columns = []
    for level, segments in zip(artist.levels, artist.allsegs):
        for seg in segments:
            seg = np.asarray(seg)
            if seg.size == 0:
                continue
            columns.append(np.array([[level], [seg.shape[0]]]))
            columns.append(seg.T)
    if not columns:
        return np.zeros((2, 0))
    return np.hstack(columns)


def colormap_function(name: str, n: Any) -> np.ndarray:
    """``parula(n)``, ``jet(n)``... (n defaults to 256)."""
    count = 256 if n is None else whole(n, "Number of colors", 0)
    if name not in COLORMAP_NAMES:
        raise MatlabError("MATLAB:colormap:InvalidName", f"Invalid colormap name '{name}'.")
    return colormap_matrix(name, count)


def shading(args: tuple[Any, ...]) -> None:
    """``shading flat``/``interp`` (no edges) or ``faceted`` (black edges) for
    the surfaces of the current axes."""
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    word = text_of(rest[0]).lower() if rest and is_text(rest[0]) else ""
    if word not in ("flat", "interp", "faceted"):
        raise MatlabError("MATLAB:shading:InvalidOption",
                          "Shading type must be 'flat', 'interp' or 'faceted'.")
    edge = char_array("none") if word != "faceted" else np.array([[0.0, 0.0, 0.0]])
    for chart in axes.children:
        if not chart.deleted and chart.type_name == "surface":
            chart.set("EdgeColor", edge)
    axes.changed()


def clim(args: tuple[Any, ...], nargout: int) -> Any:
    """``clim([low high])`` (``caxis``), ``clim auto``, ``lim = clim``."""
    axes, rest = split_axes_arg(args)
    axes = target_axes(axes)
    if rest:
        if is_text(rest[0]) and text_of(rest[0]).lower() == "auto":
            axes.clim = None
            for mappable in mappables(axes):
                mappable.autoscale()
        else:
            set_color_limits(axes, rest[0])
        axes.changed()
        if not nargout:
            return None
    return axes.get("CLim")
