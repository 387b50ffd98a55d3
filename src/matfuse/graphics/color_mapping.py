"""Colour mapping of an axes or figure: its colormap (``Colormap``) and the
colour limits (``CLim``) applied to the colour-mapped artists it holds;
the objects' properties and the ``colormap``/``caxis``/``clim`` commands
set them through these functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, numeric, text_of
from matfuse.graphics.colors import colormap_matrix, mpl_colormap


def axes_cmap(axes: Any) -> Any:
    matrix = axes.colormap if axes.colormap is not None else axes.parent.colormap
    return mpl_colormap(matrix)


def mappables(axes: Any) -> list[Any]:
    return [c.mappable for c in axes.children
            if not c.deleted and getattr(c, "mappable", None) is not None]


def _refresh_colors(axes: Any) -> None:
    cmap = axes_cmap(axes)
    low_high = axes.clim
    for mappable in mappables(axes):
        mappable.set_cmap(cmap)
        if low_high is not None:
            mappable.set_clim(*low_high)


def set_colormap(target: Any, value: Any) -> None:
    """Figure or axes colormap from a name or an n-by-3 matrix."""
    if is_text(value):
        matrix = colormap_matrix(text_of(value), 256)
    else:
        matrix = numeric(value).real
        if matrix.ndim != 2 or matrix.shape[1] != 3 or np.any(matrix < 0) or np.any(matrix > 1):
            raise MatlabError("MATLAB:hg:ColormapInvalid",
                              "Colormap must be an m-by-3 array of values in [0 1].")
    if target.type_name == "figure":
        target.colormap = matrix
        for axes in target.axes_objects():
            _refresh_colors(axes)
    else:
        target.colormap = matrix
        _refresh_colors(target)
    target.changed()


def color_limits(axes: Any) -> tuple[float, float]:
    if axes.clim is not None:
        return axes.clim
    found = mappables(axes)
    if not found:
        return (0.0, 1.0)
    return tuple(float(v) for v in found[-1].get_clim())   # type: ignore[return-value]


def set_color_limits(axes: Any, value: Any) -> None:
    limits = numeric(value).real.reshape(-1)
    if limits.size != 2 or not limits[0] < limits[1]:
        raise MatlabError("MATLAB:hg:shaped_arrays:LimitsWithInfsType",
                          "Value must be a 1x2 vector of numeric type in which the second "
                          "element is larger than the first.")
    axes.clim = (float(limits[0]), float(limits[1]))
    _refresh_colors(axes)
