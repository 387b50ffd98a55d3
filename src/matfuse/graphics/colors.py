"""Colours: MATLAB's default colour order, colour specifications, colormaps."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, numeric, text_of

# The default ColorOrder of MATLAB axes (R2014b and later).
COLOR_ORDER = np.array([
    [0.0000, 0.4470, 0.7410],
    [0.8500, 0.3250, 0.0980],
    [0.9290, 0.6940, 0.1250],
    [0.4940, 0.1840, 0.5560],
    [0.4660, 0.6740, 0.1880],
    [0.3010, 0.7450, 0.9330],
    [0.6350, 0.0780, 0.1840],
])

SHORT_COLORS = {"r": (1.0, 0.0, 0.0), "g": (0.0, 1.0, 0.0), "b": (0.0, 0.0, 1.0),
                "c": (0.0, 1.0, 1.0), "m": (1.0, 0.0, 1.0), "y": (1.0, 1.0, 0.0),
                "k": (0.0, 0.0, 0.0), "w": (1.0, 1.0, 1.0)}
LONG_COLORS = {"red": "r", "green": "g", "blue": "b", "cyan": "c", "magenta": "m",
               "yellow": "y", "black": "k", "white": "w"}

# Anchor colours of MATLAB's default colormap (parula), interpolated linearly.
_PARULA_ANCHORS = np.array([
    [0.2422, 0.1504, 0.6603],
    [0.2780, 0.3556, 0.9777],
    [0.1540, 0.5902, 0.9218],
    [0.0704, 0.7457, 0.7258],
    [0.4420, 0.8190, 0.3929],
    [0.8000, 0.7750, 0.1570],
    [0.9932, 0.8203, 0.1968],
    [0.9769, 0.9839, 0.0805],
])

COLORMAP_NAMES = ("parula", "jet", "gray", "hot", "cool", "spring", "summer", "autumn",
                  "winter", "bone", "copper", "pink", "hsv", "turbo")


def color_value(value: Any, allow_none: bool = True) -> Any:
    """A MATLAB colour (RGB triplet, name, short name, hex) as an RGB tuple
    (or the string ``'none'``)."""
    if is_text(value):
        name = text_of(value).strip().lower()
        if name == "none" and allow_none:
            return "none"
        name = LONG_COLORS.get(name, name)
        if name in SHORT_COLORS:
            return SHORT_COLORS[name]
        if name.startswith("#") and len(name) in (4, 7):
            digits = name[1:] if len(name) == 7 else "".join(c * 2 for c in name[1:])
            try:
                return tuple(int(digits[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
            except ValueError:
                pass
        raise MatlabError("MATLAB:hg:ColorSpec_None",
                          f"Invalid color name or hexadecimal color code '{text_of(value)}'.")
    rgb = numeric(value).reshape(-1)
    if rgb.size != 3 or np.any(rgb < 0) or np.any(rgb > 1):
        raise MatlabError("MATLAB:hg:ColorSpec_None",
                          "Color value must be a 3 element vector with values in [0 1].")
    return tuple(float(c) for c in rgb)


def rgb_row(color: Any) -> Any:
    """An RGB tuple as a MATLAB 1x3 double (``'none'`` as char)."""
    from matfuse.runtime.values import char_array

    if isinstance(color, str):
        return char_array(color)
    return np.array([list(color)[:3]], dtype=np.float64)


def colormap_matrix(name: str, n: int = 256) -> np.ndarray:
    """An n-by-3 colormap by MATLAB name."""
    name = name.lower()
    if name not in COLORMAP_NAMES:
        raise MatlabError("MATLAB:colormap:InvalidName", f"Invalid colormap name '{name}'.")
    if n <= 0:
        return np.zeros((0, 3))
    if name == "parula":
        pos = np.linspace(0.0, 1.0, len(_PARULA_ANCHORS))
        t = np.linspace(0.0, 1.0, n)
        return np.column_stack([np.interp(t, pos, _PARULA_ANCHORS[:, k]) for k in range(3)])
    if name == "gray":
        ramp = np.linspace(0.0, 1.0, n)
        return np.column_stack([ramp, ramp, ramp])
    import matplotlib

    cmap = matplotlib.colormaps[name].resampled(n)
    return np.asarray(cmap(np.arange(n)))[:, :3]


def mpl_colormap(matrix: np.ndarray) -> Any:
    from matplotlib.colors import ListedColormap

    return ListedColormap(np.clip(matrix, 0.0, 1.0))
