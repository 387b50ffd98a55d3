"""Figures made or changed by a cell, as PNG display data for notebooks."""

from __future__ import annotations

import base64
import importlib.util
from typing import Any

INLINE_DPI = 100.0


def changed_figure_pngs() -> list[bytes]:
    """PNG bytes of every figure changed since the last call (none when
    graphics were never used or matplotlib is missing)."""
    if importlib.util.find_spec("matplotlib") is None:
        return []
    import sys

    if "matfuse.graphics.root" not in sys.modules:     # no graphics call yet
        return []
    from matfuse.graphics.export import png_bytes
    from matfuse.graphics.root import ROOT

    return [png_bytes(fig, INLINE_DPI) for fig in ROOT.take_changed_figures()
            if fig.visible]


def display_data(png: bytes) -> dict[str, Any]:
    """A Jupyter ``display_data`` content for one PNG."""
    return {"data": {"image/png": base64.b64encode(png).decode("ascii"),
                     "text/plain": "<Figure>"},
            "metadata": {}}
