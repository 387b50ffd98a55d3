"""MATLAB's default look as matplotlib settings, applied while graphics
functions run and figures render (``matlab_style``), so a host program's
own matplotlib settings are left alone."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

MATLAB_RC: dict[str, Any] = {
    "axes.autolimit_mode": "round_numbers",   # limits on tick values, as MATLAB's auto limits
    "axes.xmargin": 0.0,
    "axes.ymargin": 0.0,
    "axes.linewidth": 0.5,
    "axes.edgecolor": (0.15, 0.15, 0.15),
    "font.family": "DejaVu Sans",
    "font.size": 10.0,
    "xtick.direction": "in",
    "ytick.direction": "in",
    "xtick.major.width": 0.5,
    "ytick.major.width": 0.5,
    "xtick.color": (0.15, 0.15, 0.15),
    "ytick.color": (0.15, 0.15, 0.15),
    "lines.linewidth": 0.5,
    "lines.markersize": 6.0,
    "svg.hashsalt": "matfuse",
    "svg.fonttype": "path",
    "legend.fontsize": 9.0,
    "image.interpolation": "nearest",
}


@contextlib.contextmanager
def matlab_style() -> Iterator[None]:
    import matplotlib

    with matplotlib.rc_context(MATLAB_RC):
        yield


def apply_globally() -> None:
    """For interactive windows, which draw outside any graphics call."""
    import matplotlib

    matplotlib.rcParams.update(MATLAB_RC)
