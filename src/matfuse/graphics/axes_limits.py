"""An axes' limits and view angle (``XLim``/``YLim``/``ZLim``, ``View``):
the axes' properties and the ``xlim``/``axis``/``view`` commands set them
through these functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, numeric, text_of


def set_axis_limits(axes: Any, axis: str, value: Any) -> None:
    if axis == "z" and not axes.is3d:
        return                      # 2-D axes have no z-axis to limit
    if is_text(value):
        word = text_of(value).lower()
        if word == "auto":
            getattr(axes.mpl, f"autoscale")(axis=axis)
            return
        raise MatlabError("MATLAB:graphics:invalidLimits", f"Invalid limits option '{word}'.")
    limits = numeric(value).real.reshape(-1)
    if limits.size != 2 or not limits[0] < limits[1]:
        raise MatlabError("MATLAB:hg:shaped_arrays:LimitsWithInfsType",
                          "Limits must be a 2-element vector of increasing numeric values.")
    low, high = limits
    current = getattr(axes.mpl, f"get_{axis}lim")()
    low = current[0] if np.isinf(low) and low < 0 else low
    high = current[1] if np.isinf(high) and high > 0 else high
    getattr(axes.mpl, f"set_{axis}lim")(float(low), float(high))


def set_view(axes: Any, value: Any) -> None:
    v = numeric(value).real.reshape(-1)
    if v.size == 1 and v[0] in (2.0, 3.0):
        az, el = (0.0, 90.0) if v[0] == 2.0 else (-37.5, 30.0)
    elif v.size == 2:
        az, el = float(v[0]), float(v[1])
    else:
        raise MatlabError("MATLAB:view:WrongInput", "View must be [az el], 2 or 3.")
    if not axes.is3d:
        axes._replace_mpl("3d")
    axes.mpl.view_init(el, az - 90.0)
