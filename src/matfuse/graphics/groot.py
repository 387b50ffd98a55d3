"""The graphics root object (``groot``, also handle ``0``): screen facts, the
current figure, and defaults (``set(groot, 'DefaultLineLineWidth', 2)``)
applied to every new object of that type."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.objects import GObject
from matfuse.runtime.values import char_array

SCREEN_SIZE = (1.0, 1.0, 1920.0, 1080.0)
DEFAULT_TYPES = ("figure", "axes", "line", "text")


class RootObject(GObject):
    type_name = "root"
    matlab_class = "matlab.ui.Root"
    short_class = "Root"
    props = ("ScreenSize", "MonitorPositions", "ScreenPixelsPerInch", "Units",
             "CurrentFigure")
    display_props = ("CurrentFigure", "ScreenPixelsPerInch", "ScreenSize", "Units")

    def __init__(self) -> None:
        super().__init__(None)
        self.defaults: dict[str, tuple[str, str, Any]] = {}   # key -> (type, property, value)

    def title_text(self) -> str:
        return "Graphics Root"

    @staticmethod
    def _default_key(name: str) -> tuple[str, str] | None:
        """('line', 'LineWidth') for 'DefaultLineLineWidth' (None: not a default)."""
        lower = name.lower()
        if not lower.startswith("default"):
            return None
        rest = name[len("default"):]
        for kind in DEFAULT_TYPES:
            if rest.lower().startswith(kind) and len(rest) > len(kind):
                return kind, rest[len(kind):]
        raise MatlabError("MATLAB:hg:InvalidProperty",
                          f"Unsupported default '{name}': defaults exist for "
                          + ", ".join(DEFAULT_TYPES) + " objects.")

    def get(self, name: str) -> Any:
        key = self._default_key(name)
        if key is None:
            return super().get(name)
        stored = self.defaults.get(name.lower())
        if stored is None:
            raise MatlabError("MATLAB:hg:InvalidProperty",
                              f"No default value has been set for {name}.")
        return stored[2]

    def set(self, name: str, value: Any) -> None:
        key = self._default_key(name)
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
        from matfuse.graphics.handles import GraphicsHandle
        from matfuse.graphics.root import ROOT

        fig = ROOT.current
        return fig.handle if fig is not None and not fig.deleted else GraphicsHandle([])

    def get_Children(self) -> Any:
        from matfuse.graphics.handles import GraphicsHandle
        from matfuse.graphics.root import ROOT

        return GraphicsHandle(list(reversed(ROOT.live_figures())))


GROOT = RootObject()


def apply_defaults(obj: GObject) -> None:
    """Give a new object the defaults set on groot for its type."""
    for kind, prop, value in list(GROOT.defaults.values()):
        if kind == obj.type_name:
            obj.set(prop, value)


def root_handle() -> Any:
    return GROOT.handle
