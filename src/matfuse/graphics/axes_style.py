"""Appearance properties of axes (LineWidth, TickDir, FontName, Color,
ColorOrder, minor ticks and grid, GridAlpha, axis locations), a part of
``AxesObject``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import numeric, on_off, positive, scalar, text_of, texts_of
from matfuse.graphics.objects import onoff_value
from matfuse.runtime.values import char_array


class StyleProperties:
    """Mixed into AxesObject (uses ``self.mpl`` and the settings that
    ``AxesObject._reset_settings`` initialises)."""

    def get_LineWidth(self) -> float:
        return float(self.mpl.spines["bottom"].get_linewidth())

    def set_LineWidth(self, value: Any) -> None:
        width = positive(value, "LineWidth")
        for spine in self.mpl.spines.values():
            spine.set_linewidth(width)
        self.mpl.tick_params(width=width)

    def get_TickDir(self) -> Any:
        return char_array(self._tick_dir)

    def set_TickDir(self, value: Any) -> None:
        word = text_of(value).lower()
        if word not in ("in", "out", "both", "none"):
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for TickDir.")
        self._tick_dir = word
        if word == "none":
            self.mpl.tick_params(length=0)
        else:
            self.mpl.tick_params(direction="inout" if word == "both" else word)

    def get_FontName(self) -> Any:
        labels = self.mpl.xaxis.get_ticklabels()
        return char_array(labels[0].get_fontname() if labels else "DejaVu Sans")

    def set_FontName(self, value: Any) -> None:
        name = text_of(value)
        for label in self.mpl.get_xticklabels() + self.mpl.get_yticklabels():
            label.set_fontname(name)

    def get_Color(self) -> Any:
        from matplotlib.colors import to_rgb

        face = self.mpl.get_facecolor()
        return char_array("none") if face[3] == 0 else np.array([list(to_rgb(face))])

    def set_Color(self, value: Any) -> None:
        from matfuse.graphics.colors import color_value

        color = color_value(value)
        self.mpl.set_facecolor((1, 1, 1, 0) if color == "none" else color)

    def get_ColorOrder(self) -> Any:
        return self.color_order.copy()

    def set_ColorOrder(self, value: Any) -> None:
        """An m-by-3 RGB matrix, or colour names (``["red" "blue"]``)."""
        from matfuse.graphics.args import is_numeric
        from matfuse.graphics.colors import color_value

        if is_numeric(value):
            matrix = numeric(value).real
        else:
            matrix = np.array([color_value(char_array(name), allow_none=False)
                               for name in texts_of(value)], dtype=float)
        if matrix.ndim != 2 or matrix.shape[1] != 3 or matrix.shape[0] == 0 \
                or np.any(matrix < 0) or np.any(matrix > 1):
            raise MatlabError("MATLAB:hg:ColorOrderInvalid",
                              "ColorOrder must be an m-by-3 array of RGB values in [0 1].")
        self.color_order = matrix

    def _minor(self, axis: str, what: str) -> Any:
        return onoff_value(self._minor_state.get((axis, what), False))

    def _set_minor(self, axis: str, what: str, value: Any) -> None:
        flag = on_off(value, f"{axis.upper()}Minor{what.capitalize()}")
        self._minor_state[(axis, what)] = flag
        if flag:
            self.mpl.minorticks_on()
        if what == "grid" and flag:
            self.mpl.grid(True, which="minor", axis=axis, linewidth=0.3, alpha=0.3)
        elif what == "grid":
            self.mpl.grid(False, which="minor", axis=axis)

    def get_XMinorTick(self) -> Any:
        return self._minor("x", "tick")

    def set_XMinorTick(self, value: Any) -> None:
        self._set_minor("x", "tick", value)

    def get_YMinorTick(self) -> Any:
        return self._minor("y", "tick")

    def set_YMinorTick(self, value: Any) -> None:
        self._set_minor("y", "tick", value)

    def get_XMinorGrid(self) -> Any:
        return self._minor("x", "grid")

    def set_XMinorGrid(self, value: Any) -> None:
        self._set_minor("x", "grid", value)

    def get_YMinorGrid(self) -> Any:
        return self._minor("y", "grid")

    def set_YMinorGrid(self, value: Any) -> None:
        self._set_minor("y", "grid", value)

    def get_GridAlpha(self) -> float:
        return self._grid_alpha

    def set_GridAlpha(self, value: Any) -> None:
        alpha = scalar(value, "GridAlpha")
        if not 0 <= alpha <= 1:
            raise MatlabError("MATLAB:hg:shaped_arrays:GridAlpha",
                              "GridAlpha must be between 0 and 1.")
        self._grid_alpha = alpha
        for axis in (self.mpl.xaxis, self.mpl.yaxis):
            for line in axis.get_gridlines():
                line.set_alpha(alpha)

    def get_XAxisLocation(self) -> Any:
        return char_array("top" if self.mpl.xaxis.get_label_position() == "top" else "bottom")

    def set_XAxisLocation(self, value: Any) -> None:
        word = text_of(value).lower()
        if word in ("top", "bottom"):
            self.mpl.xaxis.set_label_position(word)
            self.mpl.xaxis.set_ticks_position(word)
        elif word == "origin":
            self.mpl.spines["bottom"].set_position("zero")
        else:
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for XAxisLocation.")

    def get_YAxisLocation(self) -> Any:
        return char_array("right" if self.mpl.yaxis.get_label_position() == "right" else "left")

    def set_YAxisLocation(self, value: Any) -> None:
        word = text_of(value).lower()
        if word in ("left", "right"):
            self.mpl.yaxis.set_label_position(word)
            self.mpl.yaxis.set_ticks_position(word)
        elif word == "origin":
            self.mpl.spines["left"].set_position("zero")
        else:
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for YAxisLocation.")
