"""The graphics root object (``groot``, also handle ``0``): screen facts, the
current figure, and defaults (``set(groot, 'DefaultLineLineWidth', 2)``,
kept in ``defaults``) applied to every new object of that type."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_numeric, numeric
from matfuse.graphics.defaults import DEFAULTS, default_key
from matfuse.graphics.handles import GraphicsHandle, handle_objects
from matfuse.graphics.objects import GObject
from matfuse.runtime.values import char_array

SCREEN_SIZE = (1.0, 1.0, 1920.0, 1080.0)


class RootObject(GObject):
    type_name = "root"
    matlab_class = "matlab.ui.Root"
    short_class = "Root"
    props = ("ScreenSize", "MonitorPositions", "ScreenPixelsPerInch", "Units",
             "CurrentFigure")
    display_props = ("CurrentFigure", "ScreenPixelsPerInch", "ScreenSize", "Units")

    def __init__(self) -> None:
        super().__init__(None)
        self.defaults = DEFAULTS          # lower-case key -> (type, property, value)

    def title_text(self) -> str:
        return "Graphics Root"

    def get(self, name: str) -> Any:
        key = default_key(name)
        if key is None:
            return super().get(name)
        stored = self.defaults.get(name.lower())
        if stored is None:
            raise MatlabError("MATLAB:hg:InvalidProperty",
                              f"No default value has been set for {name}.")
        return stored[2]

    def set(self, name: str, value: Any) -> None:
        key = default_key(name)
        if key is None:
            super().set(name, value)
            return
        if isinstance(value, np.ndarray) and value.dtype.kind == "U" \
                and "".join(value.reshape(-1)).lower() in ("remove", "factory"):
            self.defaults.pop(name.lower(), None)
            return
        self.defaults[name.lower()] = (key[0], key[1], value)

    def changed(self) -> None:
        """The root draws nothing."""

    def get_ScreenSize(self) -> Any:
        return np.array([list(SCREEN_SIZE)])

    def get_MonitorPositions(self) -> Any:
        return np.array([list(SCREEN_SIZE)])

    def get_ScreenPixelsPerInch(self) -> float:
        return 96.0

    def get_Units(self) -> Any:
        return char_array("pixels")

    def get_CurrentFigure(self) -> Any:
        from matfuse.graphics.root import ROOT

        fig = ROOT.current
        return fig.handle if fig is not None and not fig.deleted else GraphicsHandle([])

    def get_Children(self) -> Any:
        from matfuse.graphics.root import ROOT

        return GraphicsHandle(list(reversed(ROOT.live_figures())))


GROOT = RootObject()


def root_handle() -> Any:
    return GROOT.handle


def objects_of(value: Any, what: str = "Input") -> list[Any]:
    """The graphics objects of a handle value (``0``: the root), or an error."""
    if not isinstance(value, GraphicsHandle) and is_numeric(value) \
            and numeric(value).size == 1 and numeric(value).reshape(-1)[0] == 0:
        return [GROOT]
    return handle_objects(value, what)
