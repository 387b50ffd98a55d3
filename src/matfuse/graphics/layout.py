"""Axes layouts: ``subplot(m,n,p)`` and ``tiledlayout``/``nexttile``."""

from __future__ import annotations

import math

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_numeric, is_text, name_value_pairs, numeric, text_of, whole
from matfuse.graphics.objects import GObject, text_value
from matfuse.graphics.root import AXES_BOX, ROOT, grid_spec, new_axes
from matfuse.runtime.values import char_array


def subplot(args: tuple[Any, ...]) -> Any:
    """``subplot(m,n,p)``, ``subplot(mnp)``; p may list cells to span. An
    existing axes at that place becomes current; overlapping ones are deleted."""
    values = [a for a in args if not is_text(a)]
    if len(values) == 1 and is_numeric(values[0]) and numeric(values[0]).size == 1:
        digits = whole(values[0], "Subplot position", 111)
        values = [float(digits // 100), float(digits // 10 % 10), float(digits % 10)]
    if len(values) < 3:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    rows, cols = whole(values[0], "Rows"), whole(values[1], "Columns")
    cells = tuple(sorted(int(p) for p in numeric(values[2]).real.reshape(-1)))
    if rows < 1 or cols < 1 or not cells or cells[0] < 1 or cells[-1] > rows * cols:
        raise MatlabError("MATLAB:subplot:InvalidPlotIndex",
                          "Index exceeds number of subplots.")
    fig = ROOT.gcf()
    fig.layout = None
    key = (rows, cols, cells)
    existing = fig.subplots.get(key)
    if existing is not None and not existing.deleted:
        fig.current_axes = existing
        return existing.handle
    r = [(p - 1) // cols for p in cells]
    c = [(p - 1) % cols for p in cells]
    spec = grid_spec(fig, rows, cols)[min(r):max(r) + 1, min(c):max(c) + 1]
    _delete_overlapping(fig, spec)
    axes = new_axes(fig, spec)
    fig.subplots[key] = axes
    return axes.handle


def _delete_overlapping(fig: Any, spec: Any) -> None:
    box = spec.get_position(fig.fig)
    for axes in fig.axes_objects():
        other = axes.mpl.get_position()
        overlap_w = min(box.x1, other.x1) - max(box.x0, other.x0)
        overlap_h = min(box.y1, other.y1) - max(box.y0, other.y0)
        if overlap_w > 1e-3 and overlap_h > 1e-3:
            axes.delete()
    fig.subplots = {k: a for k, a in fig.subplots.items() if not a.deleted}


class TiledLayout(GObject):
    """``matlab.graphics.layout.TiledChartLayout``: a grid of tiles (fixed or
    'flow', which regrows the grid as tiles are added)."""

    type_name = "tiledlayout"
    matlab_class = "matlab.graphics.layout.TiledChartLayout"
    short_class = "TiledChartLayout"
    props = ("GridSize", "TileSpacing", "Padding", "TileArrangement")
    display_props = ("TileArrangement", "GridSize", "TileSpacing", "Padding")

    def __init__(self, fig: Any, rows: int | None, cols: int | None):
        super().__init__(fig)
        self.fig = fig
        self.flow = rows is None
        self.rows, self.cols = (rows or 1), (cols or 1)
        self.tiles: dict[int, Any] = {}      # tile number -> AxesObject
        self.spans: dict[int, tuple[int, int]] = {}
        self.next_tile = 1
        self.spacing = "loose"
        self.padding = "loose"
        self.title: Any = None

    def _grid_for(self, count: int) -> tuple[int, int]:
        cols = math.ceil(math.sqrt(count))      # Python ints of any size (uint64 tiles)
        rows = -(-count // cols)
        return rows, cols

    def _grid(self) -> Any:
        """The tiles' gridspec for the current TileSpacing and Padding."""
        gap = {"loose": 0.39, "compact": 0.2, "tight": 0.08, "none": 0.0}.get(self.spacing, 0.39)
        box = AXES_BOX if self.padding == "loose" else \
            {"left": 0.07, "right": 0.97, "bottom": 0.07, "top": 0.95}
        return self.fig.fig.add_gridspec(self.rows, self.cols, **box, hspace=gap, wspace=gap)

    def _place(self) -> None:
        grid = self._grid()
        for tile, axes in self.tiles.items():
            if axes.deleted:
                continue
            span_r, span_c = self.spans.get(tile, (1, 1))
            r, c = (tile - 1) // self.cols, (tile - 1) % self.cols
            axes.mpl.set_subplotspec(grid[r:r + span_r, c:c + span_c])

    def tile(self, number: int | None, span: tuple[int, int] = (1, 1)) -> Any:
        if number is None:
            number = self.next_tile
        if self.flow and number > self.rows * self.cols:
            self.rows, self.cols = self._grid_for(number)
            self._place()
        if number < 1 or number > self.rows * self.cols:
            raise MatlabError("MATLAB:graphics:tiledlayout:InvalidTileIndex",
                              f"Tile number must be between 1 and {self.rows * self.cols}.")
        existing = self.tiles.get(number)
        if existing is not None and not existing.deleted:
            self.fig.current_axes = existing
            self.next_tile = max(self.next_tile, number + 1)
            return existing
        grid = self._grid()
        r, c = (number - 1) // self.cols, (number - 1) % self.cols
        axes = new_axes(self.fig, grid[r:r + span[0], c:c + span[1]])
        self.tiles[number] = axes
        self.spans[number] = span
        self.next_tile = number + span[1]
        return axes

    def get_GridSize(self) -> Any:
        return np.array([[float(self.rows), float(self.cols)]])

    def get_TileArrangement(self) -> Any:
        return char_array("flow" if self.flow else "fixed")

    def get_TileSpacing(self) -> Any:
        return char_array(self.spacing)

    def set_TileSpacing(self, value: Any) -> None:
        self.spacing = self._option(value, ("loose", "compact", "tight", "none"), "TileSpacing")
        self._place()

    def get_Padding(self) -> Any:
        return char_array(self.padding)

    def set_Padding(self, value: Any) -> None:
        self.padding = self._option(value, ("loose", "compact", "tight"), "Padding")
        self._place()

    @staticmethod
    def _option(value: Any, allowed: tuple[str, ...], what: str) -> str:
        word = text_of(value).lower()
        if word not in allowed:
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for {what}: use "
                              + ", ".join(f"'{a}'" for a in allowed) + ".")
        return word

    def get_Title(self) -> Any:
        return text_value(self.title or "")


def tiledlayout(args: tuple[Any, ...]) -> Any:
    """``tiledlayout(m,n)``, ``tiledlayout('flow')``, ``tiledlayout(n)`` ('flow' with
    a fixed count), then name-value pairs (TileSpacing, Padding)."""
    rest = list(args)
    rows: int | None = None
    cols: int | None = None
    if rest and is_numeric(rest[0]):
        rows = whole(rest.pop(0), "Rows")
        if rest and is_numeric(rest[0]):
            cols = whole(rest.pop(0), "Columns")
        else:
            rows = None          # tiledlayout(n): flow
    elif rest and is_text(rest[0]) and text_of(rest[0]).lower() in ("flow", "vertical",
                                                                    "horizontal"):
        rest.pop(0)
    fig = ROOT.gcf()
    fig.clear()
    layout = TiledLayout(fig, rows, cols)
    for name, value in name_value_pairs(rest, "tiledlayout"):
        layout.set(name, value)
    fig.layout = layout
    return layout.handle


def nexttile(args: tuple[Any, ...]) -> Any:
    """``nexttile``, ``nexttile(n)``, ``nexttile([r c])`` (span), ``nexttile(n,[r c])``."""
    fig = ROOT.gcf()
    layout = fig.layout
    if layout is None or layout.deleted:
        layout = TiledLayout(fig, None, None)
        fig.layout = layout
    number: int | None = None
    span = (1, 1)
    for arg in args:
        if isinstance(arg, GObject):
            continue
        values = numeric(arg).real.reshape(-1)
        if values.size == 2:
            span = (int(values[0]), int(values[1]))
        elif values.size == 1:
            number = int(values[0])
    return layout.tile(number, span).handle
