"""Tick properties of axes (XTick, XTickLabel... for x, y and z), a part of
``AxesObject``: tick values inside the limits, labels as the program set them
(rendered through MATLAB's TeX interpreter)."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, numeric, text_of, texts_of


class TickProperties:
    """Mixed into AxesObject (uses ``self.mpl``, ``self.is3d``, ``self._tick_texts``)."""

    def ticks(self, axis: str) -> Any:
        """Tick values inside the limits, as a row (MATLAB's XTick...)."""
        if axis == "z" and not self.is3d:
            return np.zeros((1, 0))
        values = np.asarray(getattr(self.mpl, f"get_{axis}ticks")(), dtype=float)
        low, high = sorted(getattr(self.mpl, f"get_{axis}lim")())
        span = (high - low) * 1e-9
        return values[(values >= low - span) & (values <= high + span)].reshape(1, -1)

    def set_ticks(self, axis: str, value: Any) -> None:
        if axis == "z" and not self.is3d:
            return
        if is_text(value) and text_of(value).lower() == "auto":
            from matplotlib.ticker import AutoLocator

            getattr(self.mpl, f"{axis}axis").set_major_locator(AutoLocator())
            return
        self._tick_texts.pop(axis, None)
        values = numeric(value).real.reshape(-1)
        if values.size and not np.all(np.diff(values) > 0):
            raise MatlabError("MATLAB:hg:shaped_arrays:TickValuesType",
                              "Tick values must be a vector of increasing numbers.")
        getattr(self.mpl, f"set_{axis}ticks")(values)

    def tick_labels(self, axis: str) -> Any:
        from matfuse.graphics.objects import cell_of_texts

        if axis == "z" and not self.is3d:
            return cell_of_texts([])
        labels = self._tick_texts.get(axis)
        if labels is None:
            self.mpl.figure.canvas.draw()       # tick labels are made when drawn
            labels = [t.get_text().replace("\u2212", "-")
                      for t in getattr(self.mpl, f"get_{axis}ticklabels")()]
        cell = cell_of_texts(labels)
        return type(cell)(cell.data.reshape(-1, 1))

    def set_tick_labels(self, axis: str, value: Any) -> None:
        if axis == "z" and not self.is3d:
            return
        labels = texts_of(value)
        ticks = self.ticks(axis).reshape(-1)
        self._tick_texts[axis] = (labels + [""] * len(ticks))[:len(ticks)]
        getattr(self.mpl, f"set_{axis}ticks")(ticks)
        from matfuse.graphics.tex import to_mathtext

        padded = [to_mathtext(t) for t in (labels + [""] * len(ticks))[:len(ticks)]]
        getattr(self.mpl, f"set_{axis}ticklabels")(padded)

    def get_XTick(self) -> Any:
        return self.ticks("x")

    def set_XTick(self, value: Any) -> None:
        self.set_ticks("x", value)

    def get_YTick(self) -> Any:
        return self.ticks("y")

    def set_YTick(self, value: Any) -> None:
        self.set_ticks("y", value)

    def get_ZTick(self) -> Any:
        return self.ticks("z")

    def set_ZTick(self, value: Any) -> None:
        self.set_ticks("z", value)

    def get_XTickLabel(self) -> Any:
        return self.tick_labels("x")

    def set_XTickLabel(self, value: Any) -> None:
        self.set_tick_labels("x", value)

    def get_YTickLabel(self) -> Any:
        return self.tick_labels("y")

    def set_YTickLabel(self, value: Any) -> None:
        self.set_tick_labels("y", value)

    def get_ZTickLabel(self) -> Any:
        return self.tick_labels("z")

    def set_ZTickLabel(self, value: Any) -> None:
        self.set_tick_labels("z", value)
